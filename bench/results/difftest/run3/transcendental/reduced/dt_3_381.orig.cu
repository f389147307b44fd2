// hone-difftest case 381 of seed 3: grid 4, block 96; inputs as `hone-difftest show --seed 3 --index 381` generates them.
// mismatch (generated kernel): out_d[55] (thread 18): emulator 1.8867962348061506e7 (0x4171fe6fa591a8f1), GPU 1.8867962348061502e7 (0x4171fe6fa591a8f0); 3 element(s) differ
__global__ void dt_3_381(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    for (int k0 = 0; k0 < 3; k0++) {
        f0 = __shfl_up_sync(0xffffffffu, (((float)d1) * ((float)(-1259196498))), (((unsigned)q2) & 31u));
        if ((((l2 > ((long long)blockIdx.x)) || (18446744073709551615ull == q1)) || (((~l0) != ((long long)u2)) && (d2 != d0)))) {
            f0 = in_f[(min(u2, (max(565510807u, u0) ^ u0))) & 255u];
        } else {
            q2 = q2;
        }
        i0 = (__all_sync(0xffffffffu, (((int)(0u - (unsigned)((-187)))) >= i2)) != 0);
    }
    if (threadIdx.x == 0u) {
        sacc_q[0] = 132ull;
    }
    __syncthreads();
    atomicAdd(&sacc_q[0], q1);
    __syncthreads();
    q0 = sacc_q[0];
    __syncthreads();
    d1 = ((d2 + 4.965629274805962e-7) - ((3.9544074064359206e-16 - exp(d0)) / ((double)(q2 + 35ull))));
    f2 = (f0 / 3.4028235e38f);
    u2 = lane;
    f1 = ((fminf(truncf(f1), expf(f1)) - f0) / (f0 + ((-5.3571074e-13f) + (f2 + f2))));
    for (int k1 = 0; k1 < 3; k1++) {
        d2 = (-d2);
        u2 = blockIdx.x;
    }
    u2 = (u2 % ((max(u0, ((-0u) >> ((unsigned)(min(u1, 4294967276u)) & 31u)))) == 0u ? 1u : (max(u0, ((-0u) >> ((unsigned)(min(u1, 4294967276u)) & 31u))))));
    u2 = (u2 << ((unsigned)((((q0 <= q2) ? u0 : min(blockIdx.x, u2)) ^ u1)) & 31u));
    i1 = __shfl_down_sync(0xffffffffu, ((int)(0u - (unsigned)(i1))), (((unsigned)min(i2, i0)) & 31u));
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
