// hone-difftest case 185 of seed 3: grid 4, block 96; inputs as `hone-difftest show --seed 3 --index 185` generates them.
// mismatch (generated kernel): out_d[45] (thread 15): emulator 4.961954789184062e-3 (0x3f7452fc98b34e97), GPU 4.961954789184061e-3 (0x3f7452fc98b34e96); 48 element(s) differ
__global__ void dt_3_185(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    sh_q[threadIdx.x] = q2;
    __syncthreads();
    q1 = sh_q[(threadIdx.x + (u0)) % blockDim.x];
    __syncthreads();
    if ((f1 < ((f1 - f0) - f1))) {
        u1 = min(u0, (-u1));
        for (int k0 = 0; k0 < 0; k0++) {
            if (((max(l2, l0) == (l0 & l1)) || ((k0 / (((i2) == 0 || (i2) == (-1)) ? 1 : (i2))) < in_i[(u2) & 255u]))) break;
        }
        for (int k1 = 0; k1 < 1; k1++) {
            u0 = ((unsigned)(min(((int)((unsigned)(-1) + (unsigned)i2)), (i0 / (((i1) == 0 || (i1) == (-1)) ? 1 : (i1)))) ^ ((-2001586044) ^ i0)));
            for (int k2 = 0; k2 < (int)((blockIdx.x) & 7u); k2++) {
                d1 = (d2 * d0);
                l0 = ((d2 >= d2) ? l0 : ((long long)(0ull - (unsigned long long)((l0 ^ (((-1.95e1) == d2) ? l1 : (-8938485924650358356ll)))))));
            }
        }
    }
    f1 = (f0 / (f1 - (-3e0f)));
    atomicMin(&acc_q[4], (max(q2, q0) << ((unsigned)((q2 | 18446744073709551615ull)) & 63u)));
    atomicAnd(&acc_q[1], ((-q2) + q2));
    d0 = sin(fmax(d1, ((-d1) - d2)));
    d2 = __shfl_down_sync(0xffffffffu, in_d[((((d0 <= d2) ? u0 : 4294967220u) & u0)) & 255u], (((unsigned)fmin(fmax((d2 / (-2.284408347650735e-14)), 0e0), 4.294967295e9)) & 31u));
    i1 = (((int)((unsigned)i0 << ((unsigned)(max((-2147483647 - 1), i2)) & 31u))) % (((i0) == 0 || (i0) == (-1)) ? 1 : (i0)));
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
