// hone-difftest case 316 of seed 3: grid 1, block 256; inputs as `hone-difftest show --seed 3 --index 316` generates them.
// mismatch (generated kernel): out_q[473] (thread 157): emulator 485165184, GPU 485165216; 63 element(s) differ
__global__ void dt_3_316(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
{
    unsigned lane = threadIdx.x & 31u;
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ int sh_i[256];
    __shared__ unsigned sh_u[256];
    __shared__ long long sh_l[256];
    __shared__ unsigned long long sh_q[256];
    __shared__ float sh_f[256];
    __shared__ double sh_d[256];
    __shared__ unsigned sacc_u[1];
    __shared__ unsigned long long sacc_q[1];
    int i0 = in_i[(gid * 7u + 0u) & 255u];
    int i1 = in_i[(gid * 7u + 3u) & 255u];
    int i2 = in_i[(gid * 7u + 6u) & 255u];
    unsigned u0 = (unsigned)in_i[(gid * 7u + 1u) & 255u] ^ gid;
    unsigned u1 = (unsigned)in_i[(gid * 7u + 4u) & 255u] ^ gid;
    unsigned u2 = (unsigned)in_i[(gid * 7u + 7u) & 255u] ^ gid;
    long long l0 = (long long)in_q[(gid * 7u + 2u) & 255u];
    long long l1 = (long long)in_q[(gid * 7u + 5u) & 255u];
    long long l2 = (long long)in_q[(gid * 7u + 8u) & 255u];
    unsigned long long q0 = in_q[(gid * 7u + 3u) & 255u] + gid;
    unsigned long long q1 = in_q[(gid * 7u + 6u) & 255u] + gid;
    unsigned long long q2 = in_q[(gid * 7u + 9u) & 255u] + gid;
    float f0 = in_f[(gid * 7u + 4u) & 255u];
    float f1 = in_f[(gid * 7u + 7u) & 255u];
    float f2 = in_f[(gid * 7u + 10u) & 255u];
    double d0 = in_d[(gid * 7u + 5u) & 255u];
    double d1 = in_d[(gid * 7u + 8u) & 255u];
    double d2 = in_d[(gid * 7u + 11u) & 255u];
    d2 = ((-(-(-4.2719311731115495e-1))) * d1);
    if ((f1 <= (-sinf((f2 + f2))))) {
        if (((l2 >= (((long long)((unsigned long long)l1 * (unsigned long long)1ll)) ^ (~l2))) && (f1 <= (f1 * (-f2))))) {
            q2 = (((min(q1, q0) | max(q1, q0)) == (q2 << ((unsigned)(18446744073709551484ull) & 63u))) ? q0 : q1);
        } else {
            f1 = (((l2 ^ l0) >= ((long long)(0ull - (unsigned long long)((l1 % (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))))))) ? f0 : (((f2 + f2) - (-6.568602e10f)) + fmaf(f0, in_f[(8192u) & 255u], (3.4028235e38f + f2))));
            atomicMax(&acc_q[5], 256ull);
        }
        if (((~((unsigned)fminf(fmaxf(((-9.957595e-3f) + f2), 0e0f), 4.294967e9f))) == max((((unsigned)in_i[(u1) & 255u]) ^ u1), blockDim.x))) {
            q0 = max(q0, (-min(q0, q1)));
            l2 = (((long long)((unsigned long long)((long long)((int)(0u - (unsigned)(i0)))) * (unsigned long long)((l1 / (((l2) == 0ll || (l2) == (-1ll)) ? 1ll : (l2))) | l2))) / ((((((l0 / (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))) > l0) ? max(((long long)((unsigned long long)l0 * (unsigned long long)l1)), ((-31ll) >> ((unsigned)(l2) & 63u))) : ((long long)fmin(fmax((d1 * d0), (-9.223372036854776e18)), 9.223372036854775e18)))) == 0ll || ((((l0 / (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))) > l0) ? max(((long long)((unsigned long long)l0 * (unsigned long long)l1)), ((-31ll) >> ((unsigned)(l2) & 63u))) : ((long long)fmin(fmax((d1 * d0), (-9.223372036854776e18)), 9.223372036854775e18)))) == (-1ll)) ? 1ll : ((((l0 / (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))) > l0) ? max(((long long)((unsigned long long)l0 * (unsigned long long)l1)), ((-31ll) >> ((unsigned)(l2) & 63u))) : ((long long)fmin(fmax((d1 * d0), (-9.223372036854776e18)), 9.223372036854775e18))))));
            u1 = (2147483647u - (u1 / ((blockDim.x) == 0u ? 1u : (blockDim.x))));
        } else {
            atomicAdd(&acc_u[0], u2);
            d1 = (d1 / (d0 / in_d[((u1 | u1)) & 255u]));
            for (int k0 = 0; k0 < (int)((u0) & 7u); k0++) {
                f1 = f0;
            }
        }
    } else {
        f1 = (-(ceilf(f0) / floorf(f2)));
        i0 = i1;
    }
    l1 = ((((unsigned long long)4294967134u) <= q1) ? l2 : ((2377913665250444425ll ^ l2) % (((((long long)(-u0))) == 0ll || (((long long)(-u0))) == (-1ll)) ? 1ll : (((long long)(-u0))))));
    i2 = ((int)((unsigned)i1 * (unsigned)0));
    l1 = l0;
    u1 = (blockIdx.x % ((u0) == 0u ? 1u : (u0)));
    f0 = __shfl_up_sync(0xffffffffu, f2, (u2 & 31u));
    u0 = ((536870912u - u2) ^ ((unsigned)i2));
    f1 = ((f0 + f0) * ((float)((d2 / d0) / (d0 * d2))));
    u0 = ((gid << ((unsigned)(max(u0, ((threadIdx.x != u0) ? u1 : u0))) & 31u)) << ((unsigned)(gid) & 31u));
    f2 = expf(floorf(f2));
    for (int k1 = 0; k1 < 3; k1++) {
        for (int k2 = 0; k2 < 1; k2++) {
            if ((l0 >= ((long long)((unsigned long long)(min(l1, l0) & max(l2, l1)) * (unsigned long long)(((long long)(0ull - (unsigned long long)(l0))) | l2))))) {
                q0 = q0;
            }
        }
        if ((f1 != f1)) {
            for (int k3 = 0; k3 < 0; k3++) {
                f2 = f1;
            }
            d2 = exp(in_d[(u0) & 255u]);
            atomicXor(&acc_q[3], ((-q2) - q0));
        } else {
            d1 = (((double)(l0 % (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0)))) * d2);
        }
    }
    q2 = __shfl_down_sync(0xffffffffu, ((unsigned long long)fminf(fmaxf(f2, 0e0f), 1.8446743e19f)), ((~0u) & 31u));
    for (int k4 = 0; k4 < 1; k4++) {
        u0 = ((((unsigned)in_i[(u1) & 255u]) >> ((unsigned)(((f0 > f0) ? ((unsigned)in_i[(gid) & 255u]) : u2)) & 31u)) & max((blockIdx.x ^ (4294967295u % ((u2) == 0u ? 1u : (u2)))), (u0 ^ (u1 << ((unsigned)(u2) & 31u)))));
    }
    out_i[gid * 3u + 0u] = i0;
    out_i[gid * 3u + 1u] = i1;
    out_i[gid * 3u + 2u] = i2;
    out_u[gid * 3u + 0u] = u0;
    out_u[gid * 3u + 1u] = u1;
    out_u[gid * 3u + 2u] = u2;
    out_l[gid * 3u + 0u] = l0;
    out_l[gid * 3u + 1u] = l1;
    out_l[gid * 3u + 2u] = l2;
    out_q[gid * 3u + 0u] = q0;
    out_q[gid * 3u + 1u] = q1;
    out_q[gid * 3u + 2u] = q2;
    out_f[gid * 3u + 0u] = f0;
    out_f[gid * 3u + 1u] = f1;
    out_f[gid * 3u + 2u] = f2;
    out_d[gid * 3u + 0u] = d0;
    out_d[gid * 3u + 1u] = d1;
    out_d[gid * 3u + 2u] = d2;
}
