// hone-difftest case 9046 of seed 2: grid 4, block 128; inputs as `hone-difftest show --seed 2 --index 9046` generates them.
// compiler (generated kernel): out_f[3] (thread 1): emulator 9.867771e-4 (0x3a8156bf), GPU -5.0097726e2 (0xc3fa7d17); 168 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_2_9046(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if ((q2 >= ((unsigned long long)((long long)fminf(fmaxf(f1, (-9.223372e18f)), 9.2233715e18f))))) {
        i0 = i1;
        l0 = (-1ll);
    } else {
        i1 = i0;
        i0 = (min(((d1 < d0) ? i2 : (i2 >> ((unsigned)(45) & 31u))), max(i1, max(381205202, i2))) & in_i[(min(u1, (u0 & u2))) & 255u]);
    }
    u0 = u2;
    sh_i[threadIdx.x] = ((int)fmin(fmax(d0, (-2.147483648e9)), 2.147483647e9));
    __syncthreads();
    i0 = sh_i[(threadIdx.x + (((u2 | u1) | ((l1 <= l0) ? 2467983780u : lane)))) % blockDim.x];
    __syncthreads();
    if ((max(i1, max(((int)(0u - (unsigned)(i2))), i2)) != ((((long long)fmin(fmax(d2, (-9.223372036854776e18)), 9.223372036854775e18)) != l0) ? ((int)(short)max(i1, i2)) : i2))) {
        f1 = in_f[((lane & ((-u1) / (((-threadIdx.x)) == 0u ? 1u : ((-threadIdx.x)))))) & 255u];
    } else {
        f0 = f2;
        atomicMax(&acc_u[5], (u1 | lane));
    }
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
