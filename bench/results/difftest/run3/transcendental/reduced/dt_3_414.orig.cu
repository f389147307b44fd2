// hone-difftest case 414 of seed 3: grid 1, block 256; inputs as `hone-difftest show --seed 3 --index 414` generates them.
// mismatch (generated kernel): out_f[2] (thread 0): emulator 4.259021e1 (0x422a5c60), GPU 4.2590214e1 (0x422a5c61); 42 element(s) differ
__global__ void dt_3_414(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    q0 = (min((q0 ^ q0), q2) >> ((unsigned)(in_q[(min(u0, ((unsigned)fminf(fmaxf(f2, 0e0f), 4.294967e9f)))) & 255u]) & 63u));
    u2 = 2147483647u;
    u2 = 4294967295u;
    l0 = l1;
    if ((f0 != (((1.2683279e-7f / f0) * ((float)i1)) / (f2 * (f0 * f1))))) {
        if (((-4294967295u) >= (u1 / ((((3591187251u ^ 2048u) - max(u0, gid))) == 0u ? 1u : (((3591187251u ^ 2048u) - max(u0, gid))))))) {
            atomicMax(&acc_u[5], (~((u0 >> ((unsigned)(u2) & 31u)) * (u0 / ((u2) == 0u ? 1u : (u2))))));
        } else {
            d2 = (d0 + ((-d0) + (-d2)));
            q2 = ((-(q1 % ((q1) == 0ull ? 1ull : (q1)))) << ((unsigned)((((u1 | blockIdx.x) < (blockDim.x & u2)) ? min((q2 & q2), q2) : q2)) & 63u));
        }
    } else {
        if (((min(((d1 != 0e0) ? threadIdx.x : 4294967295u), u1) < u2) && ((-(1ull + q1)) != (((-5.8001637e1f) >= f1) ? min(q1, 16543305228622452327ull) : ((i2 != i2) ? q1 : q1))))) {
            q0 = min((q2 >> ((unsigned)((q1 - (112ull - q2))) & 63u)), q0);
            if (((max((17073707049124535777ull << ((unsigned)(q2) & 63u)), (1ull | 0ull)) == q1) || ((f1 >= roundf(f1)) && (((double)l1) >= d2)))) {
                atomicMax(&acc_q[5], 0ull);
                u0 = ((unsigned)fminf(fmaxf((-1e1f), 0e0f), 4.294967e9f));
                f0 = 2.5e1f;
            } else {
                f0 = (f1 - f0);
                l1 = ((i0 != i1) ? ((long long)((unsigned long long)((long long)((unsigned long long)l0 << ((unsigned)(l1) & 63u))) << ((unsigned)(((long long)((unsigned long long)max(l0, l2) - (unsigned long long)(l1 / (((l2) == 0ll || (l2) == (-1ll)) ? 1ll : (l2)))))) & 63u))) : l0);
                i0 = i2;
            }
        }
        f0 = sqrtf((-1.65e1f));
    }
    if ((3682163020820971074ll < l0)) {
        f1 = (-(f0 * ((-0e0f) - fmaf(f2, (-1.1706939e-38f), 6.9545706e-7f))));
        q0 = max((q2 ^ in_q[(u1) & 255u]), (-((unsigned long long)((unsigned)l0))));
        f1 = ((f2 - f1) + f0);
    }
    f2 = (expf(f1) / 7.675513e4f);
    q0 = (q1 << ((unsigned)(((unsigned long long)i1)) & 63u));
    if ((2147483647 < ((int)(unsigned short)i0))) {
        atomicMax(&acc_q[5], (max(q1, q0) * q2));
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
