// hone-difftest case 570 of seed 3: grid 3, block 256; inputs as `hone-difftest show --seed 3 --index 570` generates them.
// mismatch (generated kernel): out_f[70] (thread 23): emulator 7.331903e-1 (0x3f3bb25c), GPU 7.3319036e-1 (0x3f3bb25d); 30 element(s) differ
__global__ void dt_3_570(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    i0 = i0;
    q0 = ((max(((unsigned long long)l1), q0) ^ ((unsigned long long)l2)) >> ((unsigned)((q2 / (((max(q0, q0) >> ((unsigned)((-9223372036854775808ull)) & 63u))) == 0ull ? 1ull : ((max(q0, q0) >> ((unsigned)((-9223372036854775808ull)) & 63u)))))) & 63u));
    if (threadIdx.x == 0u) {
        sacc_q[0] = 18446744073709551535ull;
    }
    __syncthreads();
    atomicAnd(&sacc_q[0], (q0 * q1));
    __syncthreads();
    q1 = sacc_q[0];
    __syncthreads();
    d2 = d1;
    i2 = i2;
    l1 = max(((long long)((unsigned long long)l0 - (unsigned long long)((long long)(0ull - (unsigned long long)((l0 >> ((unsigned)(l0) & 63u))))))), min((-2379812949669218838ll), ((l1 & l1) & l1)));
    sh_f[threadIdx.x] = (-sinf((f1 * f2)));
    __syncthreads();
    f1 = sh_f[(threadIdx.x + (((unsigned)((long long)((unsigned long long)l2 << ((unsigned)((-1ll)) & 63u)))))) % blockDim.x];
    __syncthreads();
    sh_u[threadIdx.x] = (~u1);
    __syncthreads();
    u0 = sh_u[(threadIdx.x + (((q0 > 18446744073709551615ull) ? max(2097152u, u0) : (u2 << ((unsigned)(2147483648u) & 31u))))) % blockDim.x];
    __syncthreads();
    d2 = d2;
    for (int k0 = 0; k0 < 4; k0++) {
        q2 = 9223372036854775807ull;
        f2 = f0;
        i2 = min(min(i0, ((int)(0u - (unsigned)((i1 / (((i0) == 0 || (i0) == (-1)) ? 1 : (i0))))))), ((k0 % ((((~1)) == 0 || ((~1)) == (-1)) ? 1 : ((~1)))) % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2))));
    }
    d1 = fmod((fabs(d0) - (d0 / ((-0e0) - 9.040337960319644e-7))), (d0 + d0));
    atomicAnd(&acc_q[1], 18446744073709551534ull);
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
