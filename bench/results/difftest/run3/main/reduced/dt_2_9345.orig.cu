// hone-difftest case 9345 of seed 2: grid 1, block 128; inputs as `hone-difftest show --seed 2 --index 9345` generates them.
// compiler (generated kernel): out_i[4] (thread 1): emulator -1583038370, GPU -1599422556; 57 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_2_9345(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    u2 = (u1 / ((u2) == 0u ? 1u : (u2)));
    if (threadIdx.x == 0u) {
        sacc_q[0] = 2147483648ull;
    }
    __syncthreads();
    atomicXor(&sacc_q[0], (~((f2 == 0e0f) ? q0 : min(q0, 120ull))));
    __syncthreads();
    q1 = sacc_q[0];
    __syncthreads();
    i1 = (((int)((unsigned)i1 * (unsigned)(~(i2 % (((i1) == 0 || (i1) == (-1)) ? 1 : (i1)))))) >> ((unsigned)(min(in_i[(u2) & 255u], min(i0, ((int)(0u - (unsigned)(i1)))))) & 31u));
    u1 = (-u2);
    for (int k0 = 0; k0 < (int)((u1) & 7u); k0++) {
        d1 = d1;
        for (int k1 = 0; k1 < (int)(((u1 >> ((unsigned)(u2) & 31u))) & 7u); k1++) {
            l0 = ((long long)i2);
            l2 = 7196270294290919378ll;
            i0 = ((int)((unsigned)i1 + (unsigned)in_i[(u0) & 255u]));
        }
    }
    d2 = (-(-d1));
    q0 = min(0ull, q0);
    l2 = 77ll;
    u1 = (u1 ^ blockDim.x);
    i1 = ((int)((unsigned)((int)((unsigned)min(((int)((unsigned)i0 * (unsigned)i2)), max(i2, i0)) * (unsigned)min(min(i1, i0), (i1 ^ 1290600022)))) + (unsigned)i1));
    l0 = l1;
    d0 = __shfl_down_sync(0xffffffffu, 2.85e1, (((unsigned)min(1ull, 99ull)) & 31u));
    u0 = ((unsigned)min(l2, l0));
    q1 = (4503599627370496ull << ((unsigned)((q1 % ((((i1 > i1) ? (q1 ^ 18446744073709551584ull) : 102ull)) == 0ull ? 1ull : (((i1 > i1) ? (q1 ^ 18446744073709551584ull) : 102ull))))) & 63u));
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
