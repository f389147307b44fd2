// hone-difftest case 337 of seed 3: grid 2, block 96; inputs as `hone-difftest show --seed 3 --index 337` generates them.
// mismatch (generated kernel): out_f[237] (thread 79): emulator -2.60776e5 (0xc87eaa00), GPU -2.6077597e5 (0xc87ea9fe); 8 element(s) differ
__global__ void dt_3_337(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    q1 = __shfl_sync(0xffffffffu, min((q0 * ((unsigned long long)fminf(fmaxf(7.767406e4f, 0e0f), 1.8446743e19f))), q1), u0, 2);
    d1 = (1.7976931348623157e308 * d2);
    u1 = ((unsigned)min((~(~274877906944ll)), l2));
    u1 = min(min(u0, u2), max(u2, ((blockIdx.x / ((u2) == 0u ? 1u : (u2))) - 53u)));
    q2 = (q1 ^ q2);
    i0 = i1;
    sh_f[threadIdx.x] = ((((float)i1) / (f2 * f1)) * (((float)(-1)) * sinf(f1)));
    __syncthreads();
    f0 = sh_f[(threadIdx.x + ((min(u2, u0) | (u2 + u0)))) % blockDim.x];
    __syncthreads();
    l2 = l0;
    for (int k0 = 0; k0 < 3; k0++) {
        sh_l[threadIdx.x] = l2;
        __syncthreads();
        l0 = sh_l[(threadIdx.x + (u1)) % blockDim.x];
        __syncthreads();
        i0 = (i1 | k0);
    }
    u2 = __ballot_sync(0xffffffffu, (l0 > l2));
    u2 = __shfl_up_sync(0xffffffffu, blockIdx.x, ((u1 | 1u) & 31u), 16);
    atomicAnd(&acc_u[1], blockDim.x);
    u2 = blockDim.x;
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
