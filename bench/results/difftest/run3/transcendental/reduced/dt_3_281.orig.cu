// hone-difftest case 281 of seed 3: grid 1, block 64; inputs as `hone-difftest show --seed 3 --index 281` generates them.
// mismatch (generated kernel): out_f[1] (thread 0): emulator 3.6787945e-1 (0x3ebc5ab2), GPU 3.6787948e-1 (0x3ebc5ab3); 17 element(s) differ
__global__ void dt_3_281(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    i2 = max((((f0 * 2.042059e-39f) > in_f[(u1) & 255u]) ? i0 : ((int)l0)), min(((int)(0u - (unsigned)(i1))), ((int)fminf(fmaxf(f1, (-2.1474836e9f)), 2.1474835e9f))));
    u0 = __ballot_sync(0xffffffffu, (2147483647u == (u0 ^ min(u1, u2))));
    for (int k0 = 0; k0 < 3; k0++) {
        d2 = (((d1 + (d1 - d2)) / d1) / (floor(in_d[(4294967146u) & 255u]) + d0));
        if (((max(((long long)((unsigned long long)l2 * (unsigned long long)l1)), max((-9223372036854775807ll - 1ll), (-148ll))) >= min(((long long)(0ull - (unsigned long long)(l2))), l1)) || (((1.5e1f * f1) >= 7.11461e4f) && (q2 >= q0)))) {
            u2 = u1;
            atomicMax(&acc_q[5], q0);
            f1 = ((-(-0e0f)) + expf((-f1)));
        }
    }
    d2 = (4.931657878931617e0 * (-6.177268246671823e5));
    for (int k1 = 0; k1 < (int)(((2147483647u - u2)) & 7u); k1++) {
        l1 = ((long long)q0);
        l2 = min(max(l1, l0), ((long long)fminf(fmaxf(((q0 >= q0) ? f1 : f0), (-9.223372e18f)), 9.2233715e18f)));
        f2 = (((float)min((u2 + 2749392209u), gid)) - (-(f0 - (f0 * f1))));
    }
    l0 = ((~((l1 ^ l0) / (((l2) == 0ll || (l2) == (-1ll)) ? 1ll : (l2)))) | min(((long long)(0ull - (unsigned long long)(l0))), l1));
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
