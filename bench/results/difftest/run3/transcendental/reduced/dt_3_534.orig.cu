// hone-difftest case 534 of seed 3: grid 1, block 256; inputs as `hone-difftest show --seed 3 --index 534` generates them.
// mismatch (generated kernel): out_f[5] (thread 1): emulator -8.871419e1 (0xc2b16daa), GPU -8.8714195e1 (0xc2b16dab); 47 element(s) differ
__global__ void dt_3_534(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    u2 = __shfl_down_sync(0xffffffffu, u2, (((-58u) * ((unsigned)in_i[(0u) & 255u])) & 31u), 2);
    if ((((int)((unsigned)max(((int)(unsigned short)i2), i2) - (unsigned)((int)((unsigned)i1 << ((unsigned)((i1 & i2)) & 31u))))) == ((int)(unsigned char)(((d1 >= d2) ? i2 : i0) >> ((unsigned)((i1 & i0)) & 31u))))) {
        if (((((int)((unsigned)((q1 >= q2) ? i2 : 132) - (unsigned)min(i0, 4096))) == ((int)((unsigned)min(i0, i1) * (unsigned)i0))) && (288230376151711744ll >= (((long long)i2) % (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0)))))) {
            atomicMin(&acc_u[4], u1);
            if ((d2 <= (d2 * 1.3e1))) {
                l0 = (-1ll);
                d2 = d0;
            } else {
                i0 = i1;
                q2 = 57ull;
            }
        } else {
            if ((f2 != f1)) {
                d0 = (((d1 / d1) / ((q0 < q0) ? d2 : d0)) + (d0 * round(d2)));
            }
        }
        u1 = (!(((int)((unsigned)(-67) << ((unsigned)(i0) & 31u))) == (75 % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2)))) ? ((d2 == d2) ? (~(2147483648u + 2147483647u)) : u2) : u0);
    } else {
        u0 = ((unsigned)in_i[(((unsigned)in_i[(max((u1 ^ u1), (u0 * u0))) & 255u])) & 255u]);
        for (int k0 = 0; k0 < 4; k0++) {
            for (int k1 = 0; k1 < (int)(((((-1ll) == l2) ? u2 : u0)) & 7u); k1++) {
                i1 = (~k0);
            }
            atomicOr(&acc_q[2], (-18446744073709551615ull));
            f0 = ((((l0 >= l0) ? f2 : (-f1)) * fmaxf(((l1 <= l1) ? f2 : f1), ((i1 > i0) ? 1.1318451e-5f : f2))) + ceilf(fabsf((f2 - f1))));
        }
        if ((min(l0, min((-9223372036854775807ll - 1ll), 1880285152383577078ll)) == (((f1 + f1) == ((float)0)) ? l1 : ((l1 >> ((unsigned)(l2) & 63u)) & ((long long)((unsigned long long)4194304ll << ((unsigned)(l2) & 63u))))))) {
            f2 = (-(((d0 >= d0) ? f0 : (f0 + f2)) / (-(-0e0f))));
            u0 = 1998904877u;
            f2 = (-((f2 - (-f1)) * ((float)l2)));
        }
    }
    f2 = (-(((float)u1) * cosf(f1)));
    u2 = ((((4294967180u ^ u0) & u1) * u1) / ((((4294967240u * max(u1, threadIdx.x)) * u0)) == 0u ? 1u : (((4294967240u * max(u1, threadIdx.x)) * u0))));
    l1 = __shfl_down_sync(0xffffffffu, (~l1), ((((unsigned)l0) * (-u2)) & 31u));
    i2 = (~i2);
    d2 = d2;
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
