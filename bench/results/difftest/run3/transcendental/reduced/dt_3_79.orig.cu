// hone-difftest case 79 of seed 3: grid 4, block 128; inputs as `hone-difftest show --seed 3 --index 79` generates them.
// mismatch (generated kernel): out_d[168] (thread 56): emulator 2.2026465794806718e4 (0x40d5829dcf950560), GPU 2.2026465794806714e4 (0x40d5829dcf95055f); 4 element(s) differ
__global__ void dt_3_79(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if ((((i1 | (~i2)) & (~min((-363825718), (-28)))) <= ((int)((unsigned)i1 << ((unsigned)(i2) & 31u))))) {
        for (int k0 = 0; k0 < 1; k0++) {
            for (int k1 = 0; k1 < (int)((u0) & 7u); k1++) {
                f0 = expf(((((long long)(0ull - (unsigned long long)(l1))) == (~25ll)) ? (-2.1557573e3f) : f2));
            }
        }
    }
    q2 = (-q2);
    d0 = exp(d1);
    for (int k2 = 0; k2 < 1; k2++) {
        u1 = (u2 ^ min((blockIdx.x * blockIdx.x), (u0 << ((unsigned)((-u1)) & 31u))));
        if ((l1 <= (((long long)((unsigned long long)((long long)fmin(fmax(d1, (-9.223372036854776e18)), 9.223372036854775e18)) - (unsigned long long)l0)) % (((((long long)((unsigned long long)l0 << ((unsigned)(l1) & 63u)))) == 0ll || (((long long)((unsigned long long)l0 << ((unsigned)(l1) & 63u)))) == (-1ll)) ? 1ll : (((long long)((unsigned long long)l0 << ((unsigned)(l1) & 63u)))))))) {
            d0 = ((d1 * d2) + d1);
        }
    }
    l0 = __shfl_xor_sync(0xffffffffu, ((long long)((unsigned long long)(l0 ^ ((long long)((unsigned long long)l0 * (unsigned long long)l1))) + (unsigned long long)l2)), (4294967173u & 31u), 8);
    l2 = __shfl_sync(0xffffffffu, (l2 & (-1ll)), u1);
    u1 = __shfl_down_sync(0xffffffffu, u2, (((65u << ((unsigned)(u2) & 31u)) - u2) & 31u), 16);
    q2 = (~q0);
    i0 = (((-1ll) < min((l1 & 1ll), l0)) ? i2 : 0);
    l2 = ((long long)((unsigned long long)((long long)in_q[((4294967120u - (u0 << ((unsigned)(u1) & 31u)))) & 255u]) * (unsigned long long)l1));
    q1 = __shfl_down_sync(0xffffffffu, (~((q1 | q1) % ((q0) == 0ull ? 1ull : (q0)))), (((unsigned)fminf(fmaxf((f0 - f0), 0e0f), 4.294967e9f)) & 31u));
    f2 = f2;
    f0 = (ceilf((7.114037e-8f + in_f[(blockDim.x) & 255u])) - logf(fabsf(((1048576u > u2) ? f2 : f2))));
    d0 = d0;
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
