// hone-difftest case 515 of seed 3: grid 2, block 128; inputs as `hone-difftest show --seed 3 --index 515` generates them.
// mismatch (generated kernel): out_d[158] (thread 52): emulator -9.086521572390149e-1 (0xbfed13adb0590162), GPU -9.08652157239015e-1 (0xbfed13adb0590163); 129 element(s) differ
__global__ void dt_3_515(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    i2 = (__all_sync(0xffffffffu, (((double)(-f0)) <= (d1 / (7.837891543518705e1 * (-0e0))))) != 0);
    q1 = __shfl_up_sync(0xffffffffu, min(q2, 14393261478657849155ull), (u1 & 31u));
    f1 = f2;
    sh_d[threadIdx.x] = (((d0 / d0) / d2) - (d0 - sin(d2)));
    __syncthreads();
    d0 = sh_d[(threadIdx.x + ((-threadIdx.x))) % blockDim.x];
    __syncthreads();
    i1 = (((0u != 1u) || (2.4102861e-2f != (f2 - f2))) ? 0 : (((int)fminf(fmaxf(f2, (-2.1474836e9f)), 2.1474835e9f)) % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2))));
    for (int k0 = 0; k0 < 1; k0++) {
        d0 = d0;
        i0 = ((int)((unsigned)((int)((unsigned)max(k0, (~i2)) << ((unsigned)(i1) & 31u))) - (unsigned)(i1 | ((~64) & (i2 % (((i1) == 0 || (i1) == (-1)) ? 1 : (i1)))))));
        atomicAdd(&acc_q[0], q0);
    }
    l1 = __shfl_down_sync(0xffffffffu, max((l1 ^ (l2 & l0)), (-1ll)), (((138u + u0) * min(4294967117u, u1)) & 31u));
    u2 = threadIdx.x;
    i2 = i2;
    sh_l[threadIdx.x] = ((long long)q0);
    __syncthreads();
    l2 = sh_l[(threadIdx.x + (((unsigned)fmin(fmax(in_d[(u1) & 255u], 0e0), 4.294967295e9)))) % blockDim.x];
    __syncthreads();
    if ((min(((int)fminf(fmaxf(f1, (-2.1474836e9f)), 2.1474835e9f)), i1) == (-9))) {
        f2 = f1;
    } else {
        if ((2147483647 != (((int)((unsigned)i2 - (unsigned)i2)) >> ((unsigned)(i2) & 31u)))) {
            if ((u2 == max(((unsigned)in_i[((u1 - u0)) & 255u]), u0))) {
                l0 = (~((l0 | ((f0 <= f2) ? l0 : (-189ll))) ^ ((long long)((unsigned long long)l2 * (unsigned long long)((long long)in_q[(u0) & 255u])))));
                q1 = q0;
                u2 = (u0 % (((u1 << ((unsigned)((-3816708357u)) & 31u))) == 0u ? 1u : ((u1 << ((unsigned)((-3816708357u)) & 31u)))));
            } else {
                d2 = ((-exp((-d1))) / (d2 / trunc(fma((-6.775324346083336e-2), d2, d2))));
                u1 = max((max((lane - u1), (u0 % ((u1) == 0u ? 1u : (u1)))) >> ((unsigned)(((threadIdx.x & u1) % ((((q0 <= 17727088962452640899ull) ? lane : 3085380411u)) == 0u ? 1u : (((q0 <= 17727088962452640899ull) ? lane : 3085380411u))))) & 31u)), u1);
            }
            atomicAnd(&acc_q[1], (q2 << ((unsigned)(min(q2, ((q2 <= 576460752303423488ull) ? 1ull : q1))) & 63u)));
        } else {
            f1 = f2;
            d2 = d2;
        }
    }
    if ((i2 > (i2 & ((int)((unsigned)((int)fmin(fmax(d1, (-2.147483648e9)), 2.147483647e9)) + (unsigned)((int)((unsigned)152 * (unsigned)i2))))))) {
        l0 = (l2 | ((long long)in_q[((((unsigned)in_i[(134217728u) & 255u]) ^ max(u2, blockIdx.x))) & 255u]));
        q1 = 16083258308492748785ull;
    } else {
        for (int k1 = 0; k1 < (int)(((~(-u2))) & 7u); k1++) {
            for (int k2 = 0; k2 < 0; k2++) {
                l1 = (l2 | l0);
                q1 = q2;
                i0 = k1;
            }
            if (((fabsf(f1) == ((q2 >= q2) ? f1 : f2)) && (d1 < d1))) continue;
        }
    }
    i0 = (__any_sync(0xffffffffu, ((q1 << ((unsigned)((q1 % ((18446744073709551615ull) == 0ull ? 1ull : (18446744073709551615ull)))) & 63u)) < q2)) != 0);
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
