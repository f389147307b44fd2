// hone-difftest case 7570 of seed 2: grid 3, block 96; inputs as `hone-difftest show --seed 2 --index 7570` generates them.
// compiler (generated kernel): out_i[29] (thread 9): emulator 642231166, GPU -1; 125 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_2_7570(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    sh_i[threadIdx.x] = max((~(2147483647 | i2)), max(((f0 >= f0) ? i1 : i0), ((int)(0u - (unsigned)(i1)))));
    __syncthreads();
    i1 = sh_i[(threadIdx.x + (((u0 % ((2260330965u) == 0u ? 1u : (2260330965u))) % (((u1 - u0)) == 0u ? 1u : ((u1 - u0)))))) % blockDim.x];
    __syncthreads();
    q2 = 18446744073709551575ull;
    q1 = __shfl_up_sync(0xffffffffu, ((unsigned long long)(i0 & ((int)((unsigned)i0 - (unsigned)i1)))), (u2 & 31u));
    i2 = ((min(max(q2, q0), q0) <= (q0 + max(q2, 16023198800970423999ull))) ? 2097152 : ((int)((unsigned)max((i1 & i2), ((d0 <= d1) ? i0 : i2)) - (unsigned)(((q1 > q0) ? (-37) : 846905373) / (((in_i[(u0) & 255u]) == 0 || (in_i[(u0) & 255u]) == (-1)) ? 1 : (in_i[(u0) & 255u]))))));
    i1 = ((int)((unsigned)(i2 & ((int)fmin(fmax((-d1), (-2.147483648e9)), 2.147483647e9))) << ((unsigned)(i0) & 31u)));
    d2 = __shfl_down_sync(0xffffffffu, d1, (u1 & 31u), 16);
    f1 = __shfl_sync(0xffffffffu, floorf((fminf(f0, f1) / (-3.05985e-39f))), u0);
    if (threadIdx.x == 0u) {
        sacc_q[0] = 1ull;
    }
    __syncthreads();
    atomicMax(&sacc_q[0], (q1 & in_q[(lane) & 255u]));
    __syncthreads();
    q0 = sacc_q[0];
    __syncthreads();
    i2 = (min(((int)((unsigned)1 - (unsigned)i0)), min(((int)((unsigned)i2 * (unsigned)i2)), ((int)(signed char)i0))) ^ (~min((i0 | i0), in_i[(2147483648u) & 255u])));
    q1 = 18446744073709551615ull;
    sh_q[threadIdx.x] = ((u2 != u0) ? q2 : (q1 | q2));
    __syncthreads();
    q1 = sh_q[(threadIdx.x + ((((unsigned)18446744073709551537ull) | u1))) % blockDim.x];
    __syncthreads();
    d2 = fmin((((double)f1) * d0), d0);
    f2 = (roundf((in_f[(lane) & 255u] * f2)) * f1);
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
