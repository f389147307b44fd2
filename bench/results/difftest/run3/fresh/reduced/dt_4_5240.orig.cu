// hone-difftest case 5240 of seed 4: grid 2, block 256; inputs as `hone-difftest show --seed 4 --index 5240` generates them.
// compiler (generated kernel): out_q[7] (thread 2): emulator 2147483646, GPU 18446744071562067966; 16 element(s) differ; built with `-G` (no optimisation), the GPU gives the emulator's values
__global__ void dt_4_5240(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if (((-185ll) < ((l2 | ((long long)(0ull - (unsigned long long)(l1)))) | l1))) {
        if ((((l2 >= l2) ? ((long long)(~u1)) : ((long long)((unsigned long long)((long long)((unsigned long long)l1 * (unsigned long long)l1)) - (unsigned long long)((long long)(0ull - (unsigned long long)(l1)))))) < (l1 / (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))))) {
            u1 = gid;
            l2 = ((long long)((unsigned long long)fmin(fmax((d2 - fma(d2, (-3.9735173943621944e26), d2)), 0e0), 1.844674407370955e19)));
        }
        l2 = (!(d0 < d2) ? l1 : (144115188075855872ll % (((min(l1, (-194ll))) == 0ll || (min(l1, (-194ll))) == (-1ll)) ? 1ll : (min(l1, (-194ll))))));
        q1 = q2;
    }
    q2 = in_q[(u1) & 255u];
    u1 = blockDim.x;
    d0 = (d0 * d2);
    u2 = __shfl_down_sync(0xffffffffu, 171u, (((u2 >> ((unsigned)(u0) & 31u)) << ((unsigned)(threadIdx.x) & 31u)) & 31u));
    for (int k0 = 0; k0 < 3; k0++) {
        l2 = 42ll;
        if (((((q0 / ((q2) == 0ull ? 1ull : (q2))) * ((f2 > f0) ? q0 : q2)) != (((f0 == f2) ? q2 : q2) - (q2 + q2))) && (((d0 * d1) < d2) || (max(i2, 14) <= k0)))) {
            q1 = q0;
            if (((-2233656830621702917ll) != l0)) {
                d1 = d2;
                f2 = ((-9.006351e-39f) + (f2 + (-floorf(f1))));
            }
        }
    }
    if (((((unsigned)in_i[((u2 ^ u0)) & 255u]) < ((unsigned)in_i[((gid ^ 2147483647u)) & 255u])) || (in_d[((u0 << ((unsigned)(gid) & 31u))) & 255u] < (-d1)))) {
        i0 = (max(((int)(0u - (unsigned)(((int)(unsigned char)(-169))))), min(i2, max(i1, i1))) >> ((unsigned)(i2) & 31u));
        l1 = ((long long)in_q[((blockIdx.x % (((u2 | u2)) == 0u ? 1u : ((u2 | u2))))) & 255u]);
    } else {
        i2 = max((166 & ((int)q2)), (((i2 >> ((unsigned)(i2) & 31u)) >> ((unsigned)(max(i2, 1)) & 31u)) & ((int)((unsigned)((-1) / (((i0) == 0 || (i0) == (-1)) ? 1 : (i0))) - (unsigned)max(i0, (-138))))));
        l1 = l2;
    }
    atomicOr(&acc_u[2], (~(((unsigned)28) >> ((unsigned)((u2 << ((unsigned)(u1) & 31u))) & 31u))));
    i2 = (__all_sync(0xffffffffu, (i1 >= (~(-857703649)))) != 0);
    for (int k1 = 0; k1 < (int)(((gid ^ 1u)) & 7u); k1++) {
        f0 = f0;
        atomicAdd(&acc_u[0], 4294967295u);
        q1 = max(((unsigned long long)(~((int)((unsigned)i1 + (unsigned)k1)))), (min(q1, q0) % ((q1) == 0ull ? 1ull : (q1))));
    }
    u0 = __ballot_sync(0xffffffffu, (i1 >= ((int)((unsigned)512ll))));
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
