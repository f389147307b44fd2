// hone-difftest case 2974 of seed 2: grid 3, block 128; inputs as `hone-difftest show --seed 2 --index 2974` generates them.
// compiler (generated kernel): out_i[2] (thread 0): emulator 193, GPU 2147483647; 116 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_2_2974(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if ((in_i[((-u0)) & 255u] > ((int)((unsigned)(((int)((unsigned)i0 * (unsigned)i1)) ^ min(i0, i0)) << ((unsigned)(((int)((unsigned)i0 - (unsigned)(i0 | i1)))) & 31u))))) {
        for (int k0 = 0; k0 < (int)((max(min(threadIdx.x, u0), lane)) & 7u); k0++) {
            l1 = ((long long)in_q[(max(((4294967295u & threadIdx.x) >> ((unsigned)((threadIdx.x >> ((unsigned)(blockIdx.x) & 31u))) & 31u)), (~u0))) & 255u]);
            q2 = (~q1);
        }
    } else {
        i1 = ((int)(unsigned short)i1);
    }
    i2 = (__any_sync(0xffffffffu, (f2 >= ((float)d0))) != 0);
    u1 = __shfl_up_sync(0xffffffffu, blockIdx.x, ((u1 << ((unsigned)((blockDim.x ^ 0u)) & 31u)) & 31u));
    if ((d1 == d1)) {
        for (int k1 = 0; k1 < 2; k1++) {
            i0 = min(((int)((unsigned)i1 << ((unsigned)((max((-152), i0) & ((int)(unsigned char)i0))) & 31u))), i0);
        }
        i2 = max((((int)(unsigned char)(i0 | i2)) & ((int)((unsigned)(~i0) * (unsigned)((int)((unsigned)97 + (unsigned)i1))))), max(in_i[(max(u1, u2)) & 255u], ((int)(0u - (unsigned)(((int)fmin(fmax(d0, (-2.147483648e9)), 2.147483647e9)))))));
    } else {
        for (int k2 = 0; k2 < 2; k2++) {
            u2 = min((~(lane >> ((unsigned)(u0) & 31u))), (-(max(blockDim.x, u2) * 262144u)));
            i0 = k2;
        }
        d1 = d2;
        q2 = (min(q2, q2) >> ((unsigned)((q2 * q2)) & 63u));
    }
    u0 = 1u;
    f1 = (f1 + (((~q2) == q2) ? ((float)(-q1)) : fminf(7.844698e0f, f2)));
    u2 = u2;
    atomicMax(&acc_q[5], ((((2147483647 < i2) ? q1 : q1) << ((unsigned)((q2 % ((q1) == 0ull ? 1ull : (q1)))) & 63u)) * ((q0 * q1) - (q2 / ((q1) == 0ull ? 1ull : (q1))))));
    q1 = (q0 * (18446744073709551584ull * (-(-q2))));
    u1 = __shfl_sync(0xffffffffu, (((u2 / ((u2) == 0u ? 1u : (u2))) % ((u1) == 0u ? 1u : (u1))) ^ ((u1 | u1) * u2)), u0);
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
