// hone-difftest case 5350 of seed 4: grid 1, block 128; inputs as `hone-difftest show --seed 4 --index 5350` generates them.
// compiler (generated kernel): out_i[2] (thread 0): emulator -168, GPU 108; 152 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_4_5350(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    sh_u[threadIdx.x] = u2;
    __syncthreads();
    u0 = sh_u[(threadIdx.x + (((unsigned)(q1 * q2)))) % blockDim.x];
    __syncthreads();
    l1 = l1;
    f2 = f1;
    i2 = i2;
    l0 = ((long long)((unsigned long long)7173952339496848193ll + (unsigned long long)(1ll & (~l0))));
    q0 = (min(q2, q1) % ((41ull) == 0ull ? 1ull : (41ull)));
    sh_q[threadIdx.x] = q0;
    __syncthreads();
    q0 = sh_q[(threadIdx.x + (u2)) % blockDim.x];
    __syncthreads();
    if ((d0 != d1)) {
        i2 = (min(min(((int)(0u - (unsigned)(i1))), i0), i2) ^ i0);
        d0 = ((double)((int)((unsigned)((int)((unsigned)i0 - (unsigned)i2)) - (unsigned)i0)));
    } else {
        f0 = 1e0f;
    }
    if (threadIdx.x == 0u) {
        sacc_q[0] = 7731926682193772837ull;
    }
    __syncthreads();
    atomicMin(&sacc_q[0], (14861863883958977084ull >> ((unsigned)(max(0ull, (q1 * q1))) & 63u)));
    __syncthreads();
    q0 = sacc_q[0];
    __syncthreads();
    if ((l0 == (-83ll))) {
        q1 = q2;
        atomicAnd(&acc_u[1], (threadIdx.x ^ ((u0 + u2) ^ u1)));
        for (int k0 = 0; k0 < 0; k0++) {
            for (int k1 = 0; k1 < 3; k1++) {
                q1 = (72ull | min(q0, (q2 | in_q[(u1) & 255u])));
                q0 = (q2 | 1ull);
            }
            q2 = min(((28ull - 32ull) / ((min(in_q[(u0) & 255u], min(q1, q1))) == 0ull ? 1ull : (min(in_q[(u0) & 255u], min(q1, q1))))), 18446744073709551423ull);
        }
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
