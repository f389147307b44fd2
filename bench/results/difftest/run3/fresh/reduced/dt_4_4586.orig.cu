// hone-difftest case 4586 of seed 4: grid 3, block 256; inputs as `hone-difftest show --seed 4 --index 4586` generates them.
// compiler (generated kernel): out_i[1] (thread 0): emulator -8, GPU 2; 183 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_4_4586(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    sh_d[threadIdx.x] = d2;
    __syncthreads();
    d2 = sh_d[(threadIdx.x + (u2)) % blockDim.x];
    __syncthreads();
    f1 = sqrtf((-f1));
    f1 = ((((l2 > l2) ? ((blockIdx.x == u0) ? (-1.45e1f) : f0) : (f0 - f2)) / f2) + (((float)floor(d1)) + ((f2 * (-1.1074815e-38f)) / fminf(f0, f0))));
    i2 = __shfl_xor_sync(0xffffffffu, ((int)((unsigned)in_i[(min(u2, u2)) & 255u] + (unsigned)((int)((unsigned)i1 << ((unsigned)(min(i1, i1)) & 31u))))), (94u & 31u));
    i1 = __shfl_down_sync(0xffffffffu, ((((int)((unsigned)1 + (unsigned)114)) & ((int)((unsigned)i1 << ((unsigned)(i1) & 31u)))) % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2))), (blockIdx.x & 31u));
    i1 = ((f1 > ((float)(188ll % (((4906664359638286731ll) == 0ll || (4906664359638286731ll) == (-1ll)) ? 1ll : (4906664359638286731ll))))) ? (16384 >> ((unsigned)(((i0 ^ 256) >> ((unsigned)(i2) & 31u))) & 31u)) : min(((int)(short)i1), ((int)(signed char)((int)((unsigned)i1 + (unsigned)i2)))));
    if (((((int)u1) / (((((l2 <= l1) ? i2 : i0)) == 0 || (((l2 <= l1) ? i2 : i0)) == (-1)) ? 1 : (((l2 <= l1) ? i2 : i0)))) != ((int)(signed char)(i1 ^ i1)))) {
        d0 = 0e0;
        atomicMin(&acc_q[4], 0ull);
    } else {
        i1 = min(((int)(q0 | q2)), min(((int)(0u - (unsigned)(((int)(unsigned short)i0)))), i1));
    }
    u2 = __ballot_sync(0xffffffffu, (q0 < q2));
    l0 = ((long long)((unsigned long long)l2 * (unsigned long long)(-1ll)));
    q1 = __shfl_xor_sync(0xffffffffu, (q0 >> ((unsigned)((-18446744073709551615ull)) & 63u)), ((u1 % ((u0) == 0u ? 1u : (u0))) & 31u));
    u1 = __ballot_sync(0xffffffffu, (q0 < q1));
    d2 = ((double)(((f0 != f1) ? f2 : (f2 + f0)) - f1));
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
