// hone-difftest case 419 of seed 3: grid 2, block 96; inputs as `hone-difftest show --seed 3 --index 419` generates them.
// mismatch (generated kernel): out_f[2] (thread 0): emulator -2.0368965e12 (0xd3ed203f), GPU -2.0368964e12 (0xd3ed203e); 11 element(s) differ
__global__ void dt_3_419(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f2 = f1;
    for (int k0 = 0; k0 < (int)((((u2 >> ((unsigned)(u2) & 31u)) * (u0 | u1))) & 7u); k0++) {
        f0 = f2;
        if (((16ull & 18446744073709551574ull) == in_q[(lane) & 255u])) {
            u1 = u2;
            l1 = ((long long)in_q[(((u2 ^ (blockIdx.x / ((u1) == 0u ? 1u : (u1)))) / ((((unsigned)in_i[((32768u << ((unsigned)(gid) & 31u))) & 255u])) == 0u ? 1u : (((unsigned)in_i[((32768u << ((unsigned)(gid) & 31u))) & 255u]))))) & 255u]);
            q2 = ((~(~q1)) & q1);
        }
        u1 = (((q1 >= q0) ? min((-u2), 0u) : min(min(u2, 0u), u0)) + 2026535578u);
    }
    d1 = ((-(-1.429642871048766e-308)) * (-in_d[(min(u0, u2)) & 255u]));
    f1 = __shfl_down_sync(0xffffffffu, f2, (((i0 < i1) ? ((unsigned)in_i[(u1) & 255u]) : u1) & 31u), 2);
    d0 = sin(d1);
    d2 = __shfl_xor_sync(0xffffffffu, ((double)(l0 % (((l1) == 0ll || (l1) == (-1ll)) ? 1ll : (l1)))), (((unsigned)in_i[((((-6904309804960146606ll) >= l2) ? u1 : 134217728u)) & 255u]) & 31u));
    for (int k1 = 0; k1 < 1; k1++) {
        f2 = (f2 / cosf(((-f0) * (f2 + (-2.2965043e-31f)))));
        f0 = 8.2408335e27f;
    }
    u0 = __ballot_sync(0xffffffffu, ((198 == in_i[(104u) & 255u]) || (sinf(2.8970766e-31f) < (f0 - f1))));
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
