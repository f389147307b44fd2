// hone-difftest case 158 of seed 3: grid 4, block 256; inputs as `hone-difftest show --seed 3 --index 158` generates them.
// mismatch (generated kernel): out_d[180] (thread 60): emulator 7.847051888827993e-1 (0x3fe91c4e0e68199b), GPU 7.847051888827994e-1 (0x3fe91c4e0e68199c); 19 element(s) differ
__global__ void dt_3_158(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    sh_i[threadIdx.x] = i2;
    __syncthreads();
    i1 = sh_i[(threadIdx.x + ((u1 - ((l0 >= l0) ? u1 : u0)))) % blockDim.x];
    __syncthreads();
    f2 = f0;
    d0 = (d2 + d1);
    f1 = (f0 * f0);
    d1 = __shfl_sync(0xffffffffu, (fmin((-6e0), (-6.293223551112375e-1)) * d0), u0);
    sh_l[threadIdx.x] = l1;
    __syncthreads();
    l2 = sh_l[(threadIdx.x + (u2)) % blockDim.x];
    __syncthreads();
    for (int k0 = 0; k0 < 3; k0++) {
        sh_i[threadIdx.x] = (150 & (in_i[(u0) & 255u] & min(i1, i1)));
        __syncthreads();
        i2 = sh_i[(threadIdx.x + (((u2 - u0) % ((u0) == 0u ? 1u : (u0))))) % blockDim.x];
        __syncthreads();
        if ((((fma(d2, d1, d2) * d0) / exp(in_d[(u2) & 255u])) > ((fmax(d0, d2) - ((l0 == l1) ? d0 : d2)) / d1))) {
            q0 = (q1 & (in_q[((u0 * blockIdx.x)) & 255u] - (q2 * (q2 & q1))));
            l0 = ((long long)in_q[(((max(q2, 9223372036854775807ull) < q0) ? blockIdx.x : max(gid, (1u * u0)))) & 255u]);
        } else {
            l2 = ((long long)((unsigned long long)l1 * (unsigned long long)((long long)in_q[(((lane ^ u1) * 4294967139u)) & 255u])));
        }
        for (int k1 = 0; k1 < (int)((gid) & 7u); k1++) {
            for (int k2 = 0; k2 < 2; k2++) {
                u0 = (((u0 | ((unsigned)i0)) * u2) >> ((unsigned)((min(max(0u, u1), (u0 | 4294967295u)) | u0)) & 31u));
            }
        }
    }
    d0 = (fma((d2 / (d0 / d2)), fabs(d0), fmod((d0 - d0), (d2 / d2))) * (((i2 ^ i0) <= (i0 % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2)))) ? d2 : (sqrt(d1) + (d0 / d0))));
    d0 = __shfl_down_sync(0xffffffffu, sin(floor((d2 / d0))), (u0 & 31u));
    d2 = ((in_d[((-u1)) & 255u] - ((d0 - d2) + d1)) - d1);
    if ((l2 < l2)) {
        l1 = l0;
        l1 = l0;
    }
    l2 = l2;
    i1 = __shfl_xor_sync(0xffffffffu, (0 % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2))), (u2 & 31u));
    for (int k3 = 0; k3 < (int)((u0) & 7u); k3++) {
        atomicXor(&acc_u[3], ((f0 <= f1) ? min(((unsigned)in_i[(threadIdx.x) & 255u]), (2631000000u + 2147483647u)) : blockDim.x));
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
