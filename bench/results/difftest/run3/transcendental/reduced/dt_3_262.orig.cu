// hone-difftest case 262 of seed 3: grid 4, block 96; inputs as `hone-difftest show --seed 3 --index 262` generates them.
// mismatch (generated kernel): out_d[418] (thread 139): emulator 3.465889589866291e0 (0x400bba2452402e3b), GPU 3.4658895898662907e0 (0x400bba2452402e3a); 1 element(s) differ
__global__ void dt_3_262(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if ((((unsigned)in_i[((min(u0, u0) / ((((unsigned)in_i[(u2) & 255u])) == 0u ? 1u : (((unsigned)in_i[(u2) & 255u]))))) & 255u]) >= max((u0 - (-u2)), (-u0)))) {
        atomicMax(&acc_q[5], q1);
        for (int k0 = 0; k0 < 0; k0++) {
            d0 = (-(d2 + d2));
            i0 = (i0 / (((max(((int)blockIdx.x), i1)) == 0 || (max(((int)blockIdx.x), i1)) == (-1)) ? 1 : (max(((int)blockIdx.x), i1))));
        }
    }
    if ((((-(d1 * d1)) * (d0 - 0e0)) >= d2)) {
        if ((l2 >= l0)) {
            d1 = (exp((d0 / fmin(d1, 0e0))) + (log(((double)l2)) - (-0e0)));
        }
    }
    for (int k1 = 0; k1 < 4; k1++) {
        u0 = __shfl_xor_sync(0xffffffffu, (-u0), (u0 & 31u));
    }
    i0 = i0;
    d2 = (-1.1e1);
    q2 = q2;
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
