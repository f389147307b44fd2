// hone-difftest case 5537 of seed 4: grid 2, block 32; inputs as `hone-difftest show --seed 4 --index 5537` generates them.
// compiler (generated kernel): out_d[1] (thread 0): emulator -0e0 (0x8000000000000000), GPU 0e0 (0x0000000000000000); 34 element(s) differ; built with `-G` (no optimisation), the GPU gives the emulator's values
__global__ void dt_4_5537(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    i0 = (__all_sync(0xffffffffu, (((f0 == f1) ? l0 : l0) >= (~l0))) != 0);
    q1 = __shfl_down_sync(0xffffffffu, ((7e0 <= (d2 + d1)) ? q1 : q1), ((-(4294967106u << ((unsigned)(256u) & 31u))) & 31u));
    d1 = (((d2 + d0) + in_d[(u2) & 255u]) / (d1 - ((l2 != l1) ? d2 : 7e0)));
    l2 = ((long long)fmin(fmax((-(d2 / (7.169966402509366e4 + d2))), (-9.223372036854776e18)), 9.223372036854775e18));
    u0 = (u1 & (~((unsigned)q1)));
    d0 = ((sqrt(d2) < ((double)f2)) ? (((d1 >= d2) ? d1 : d2) + (-sqrt(d1))) : (-4.0863638137459548e3));
    atomicMax(&acc_q[5], max(max(q1, ((unsigned long long)0ll)), q2));
    for (int k0 = 0; k0 < 2; k0++) {
        if (threadIdx.x == 0u) {
            sacc_q[0] = 131ull;
        }
        __syncthreads();
        atomicAdd(&sacc_q[0], (q1 + ((114ull | q1) >> ((unsigned)((~q1)) & 63u))));
        __syncthreads();
        q0 = sacc_q[0];
        __syncthreads();
        l1 = (((long long)(u1 & (blockIdx.x * u1))) % (((((long long)in_q[((u1 ^ 4294967295u)) & 255u])) == 0ll || (((long long)in_q[((u1 ^ 4294967295u)) & 255u])) == (-1ll)) ? 1ll : (((long long)in_q[((u1 ^ 4294967295u)) & 255u]))));
    }
    q1 = q2;
    if ((((int)((unsigned)in_i[((2147483648u | 4064722421u)) & 255u] << ((unsigned)(((int)(0u - (unsigned)(i1)))) & 31u))) > max(i2, i1))) {
        q1 = q2;
        i0 = min(min((((int)lane) | in_i[(u2) & 255u]), ((int)l1)), (i0 % (((119) == 0 || (119) == (-1)) ? 1 : (119))));
        q1 = (in_q[((~max(u0, gid))) & 255u] / ((min(max((9223372036854775807ull >> ((unsigned)(10436012551923575570ull) & 63u)), (q0 - q0)), min(q1, ((unsigned long long)l2)))) == 0ull ? 1ull : (min(max((9223372036854775807ull >> ((unsigned)(10436012551923575570ull) & 63u)), (q0 - q0)), min(q1, ((unsigned long long)l2))))));
    }
    d0 = (d2 / (floor(fabs(d0)) - (((u2 != u0) ? d2 : d0) / d1)));
    d1 = __shfl_xor_sync(0xffffffffu, ((min(i2, i2) != i2) ? d1 : ((d0 >= d2) ? fmin(0e0, (-0e0)) : in_d[(blockDim.x) & 255u])), ((-(~u0)) & 31u));
    if ((((59ll > l2) || ((-f2) == (f2 * f2))) && (((int)l1) != (-1)))) {
        d2 = floor(d0);
        for (int k1 = 0; k1 < (int)(((min(u2, lane) ^ (threadIdx.x ^ threadIdx.x))) & 7u); k1++) {
            f2 = f0;
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
