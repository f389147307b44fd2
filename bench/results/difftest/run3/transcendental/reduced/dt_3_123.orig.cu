// hone-difftest case 123 of seed 3: grid 4, block 128; inputs as `hone-difftest show --seed 3 --index 123` generates them.
// mismatch (generated kernel): out_f[3] (thread 1): emulator 8.53021e-1 (0x3f5a5f96), GPU 8.530211e-1 (0x3f5a5f97); 277 element(s) differ
__global__ void dt_3_123(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f1 = cosf(f0);
    l1 = (((max(i0, i0) > ((int)(short)i1)) ? ((long long)fmin(fmax(d1, (-9.223372036854776e18)), 9.223372036854775e18)) : 83ll) ^ ((l1 >> ((unsigned)((-7461207256122353023ll)) & 63u)) / (((min(l2, l2)) == 0ll || (min(l2, l2)) == (-1ll)) ? 1ll : (min(l2, l2)))));
    for (int k0 = 0; k0 < 3; k0++) {
        atomicAnd(&acc_q[1], min(((18446744073709551524ull / ((q0) == 0ull ? 1ull : (q0))) ^ q0), (min(q0, q2) ^ (q0 + 9007199254740992ull))));
        if (((((int)(unsigned short)((int)l1)) >= (k0 | ((int)(0u - (unsigned)(i0))))) || (f0 < f0))) {
            l0 = ((long long)((unsigned long long)l1 * (unsigned long long)max(((0ll & l1) & ((long long)q1)), l1)));
            for (int k1 = 0; k1 < (int)(((~(u2 >> ((unsigned)(u2) & 31u)))) & 7u); k1++) {
                atomicMin(&acc_q[4], q0);
            }
        }
    }
    i2 = ((((int)((unsigned)((int)((unsigned)i0 - (unsigned)i2)) + (unsigned)min(i2, 187))) / (((((int)l0)) == 0 || (((int)l0)) == (-1)) ? 1 : (((int)l0)))) & (((int)(0u - (unsigned)(2147483647))) / (((((i2 | i1) & ((q2 != q0) ? i1 : i2))) == 0 || (((i2 | i1) & ((q2 != q0) ? i1 : i2))) == (-1)) ? 1 : (((i2 | i1) & ((q2 != q0) ? i1 : i2))))));
    u2 = (min((lane | (u0 / ((gid) == 0u ? 1u : (gid)))), ((unsigned)in_i[(((unsigned)fminf(fmaxf(f0, 0e0f), 4.294967e9f))) & 255u])) << ((unsigned)(((unsigned)((int)((unsigned)min(i0, (-1)) - (unsigned)(i0 / (((6) == 0 || (6) == (-1)) ? 1 : (6))))))) & 31u));
    sh_f[threadIdx.x] = ((((int)l1) <= 1) ? ((f0 * f1) * (-1.6689877e5f)) : (f2 / fmaxf(f2, f2)));
    __syncthreads();
    f2 = sh_f[(threadIdx.x + ((~u0))) % blockDim.x];
    __syncthreads();
    f2 = f1;
    atomicXor(&acc_u[3], max(u0, (~(-u1))));
    f0 = ((f2 / f2) * (((d0 < d0) ? (-f2) : f2) - in_f[((u1 % ((u0) == 0u ? 1u : (u0)))) & 255u]));
    u2 = __shfl_xor_sync(0xffffffffu, u0, (((unsigned)l0) & 31u), 8);
    d0 = 1.7976931348623157e308;
    d1 = ((-d2) - d1);
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
