// hone-difftest case 265 of seed 3: grid 2, block 96; inputs as `hone-difftest show --seed 3 --index 265` generates them.
// mismatch (generated kernel): out_f[51] (thread 17): emulator 8.9473313e-1 (0x3f650d3b), GPU 8.947332e-1 (0x3f650d3c); 6 element(s) differ
__global__ void dt_3_265(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    l1 = (l2 >> ((unsigned)(l2) & 63u));
    if (((l1 | l0) <= min(l1, ((~0ll) / (((min(l2, l0)) == 0ll || (min(l2, l0)) == (-1ll)) ? 1ll : (min(l2, l0))))))) {
        q2 = 13525131643970063874ull;
        if ((exp(d1) != (((4.63904424409665e-309 > (-0e0)) ? (-d0) : (d2 / d0)) * ((double)min(i1, i0))))) {
            f0 = fmaxf(f1, (-f1));
            i0 = ((int)((unsigned)max(min(i1, 2147483647), (i1 & i0)) << ((unsigned)(1) & 31u)));
            if (((i2 ^ i1) >= 1)) {
                u0 = 1u;
                f0 = cosf(f0);
                atomicAnd(&acc_u[1], (u2 % ((u0) == 0u ? 1u : (u0))));
            }
        } else {
            if ((max((in_i[(84u) & 255u] / ((((i2 | i2)) == 0 || ((i2 | i2)) == (-1)) ? 1 : ((i2 | i2)))), ((int)fminf(fmaxf((f0 * f2), (-2.1474836e9f)), 2.1474835e9f))) != i2)) {
                i2 = i0;
            }
        }
        for (int k0 = 0; k0 < 0; k0++) {
            d2 = d1;
            d0 = ((-(-3.7571618000105555e-7)) * d2);
            l0 = ((long long)(0ull - (unsigned long long)(min(max((l0 / (((2045441213010674567ll) == 0ll || (2045441213010674567ll) == (-1ll)) ? 1ll : (2045441213010674567ll))), (l0 & l2)), ((long long)((unsigned long long)(l1 & l0) << ((unsigned)(l0) & 63u)))))));
        }
    }
    u0 = ((unsigned)(85 ^ ((int)(unsigned short)(i2 % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2))))));
    f0 = (f0 - f2);
    l2 = __shfl_sync(0xffffffffu, l2, (min(u1, min(u1, u1)) & 31u));
    q2 = q0;
    u1 = lane;
    l2 = l0;
    i2 = min(((int)((unsigned)i0 * (unsigned)((int)((unsigned)((int)l0) * (unsigned)min(i2, i0))))), ((int)fminf(fmaxf(f0, (-2.1474836e9f)), 2.1474835e9f)));
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
