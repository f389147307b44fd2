// hone-difftest case 9012 of seed 2: grid 1, block 96; inputs as `hone-difftest show --seed 2 --index 9012` generates them.
// compiler (generated kernel): out_i[2] (thread 0): emulator -1, GPU 1; 82 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_2_9012(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    q1 = in_q[(u2) & 255u];
    q2 = ((unsigned long long)fminf(fmaxf(f1, 0e0f), 1.8446743e19f));
    f2 = f2;
    q1 = (q0 << ((unsigned)(q2) & 63u));
    if ((min(max(q0, ((unsigned long long)u2)), in_q[((947001759u % ((4294967295u) == 0u ? 1u : (4294967295u)))) & 255u]) != (18446744073709551615ull << ((unsigned)(in_q[(min(u0, threadIdx.x)) & 255u]) & 63u)))) {
        for (int k0 = 0; k0 < (int)((0u) & 7u); k0++) {
            f0 = f0;
            atomicMin(&acc_u[4], (u0 / ((u2) == 0u ? 1u : (u2))));
        }
        l0 = l0;
        u2 = 364550389u;
    }
    f0 = f1;
    if (((max(((unsigned long long)l0), ((unsigned long long)fmin(fmax(d0, 0e0), 1.844674407370955e19))) * ((unsigned long long)(i1 ^ i1))) < (q0 + q0))) {
        i1 = (((f2 <= 1.45e1f) && (187ull == 0ull)) ? (((18446744073709551615ull ^ q0) >= in_q[(u2) & 255u]) ? ((int)((unsigned)i0 - (unsigned)((int)l2))) : ((int)blockIdx.x)) : ((int)(unsigned short)((int)((unsigned)min(i0, i1) * (unsigned)i0))));
    }
    sh_d[threadIdx.x] = (-d2);
    __syncthreads();
    d1 = sh_d[(threadIdx.x + (lane)) % blockDim.x];
    __syncthreads();
    i2 = ((int)((unsigned)min(min(i1, ((int)(0u - (unsigned)(i0)))), ((int)(unsigned short)i0)) << ((unsigned)(((int)fminf(fmaxf(f0, (-2.1474836e9f)), 2.1474835e9f))) & 31u)));
    d0 = fmax(in_d[((((l0 > l1) ? 67108864u : 2147483648u) - lane)) & 255u], d1);
    f0 = f1;
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
