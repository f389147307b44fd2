// hone-difftest case 1209 of seed 2: grid 4, block 256; inputs as `hone-difftest show --seed 2 --index 1209` generates them.
// compiler (generated kernel): out_i[17] (thread 5): emulator -156, GPU 0; 572 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_2_1209(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f2 = f0;
    d1 = (in_d[(((32 >= i0) ? blockDim.x : max(u2, u1))) & 255u] / d2);
    q1 = min((((-q0) * (q1 | q1)) | ((q1 >> ((unsigned)(q1) & 63u)) >> ((unsigned)((q2 & q0)) & 63u))), q2);
    l2 = ((long long)((unsigned long long)l0 + (unsigned long long)((long long)((unsigned long long)(l0 ^ l1) - (unsigned long long)(-109ll)))));
    q1 = max(((i1 < (i2 / (((i2) == 0 || (i2) == (-1)) ? 1 : (i2)))) ? (~((l2 >= 1ll) ? 16777216ull : q1)) : q1), q0);
    i2 = i1;
    i0 = (i0 ^ ((int)(0u - (unsigned)(((i0 | i0) % (((max(i1, 16777216)) == 0 || (max(i1, 16777216)) == (-1)) ? 1 : (max(i1, 16777216))))))));
    d0 = (in_d[(u0) & 255u] + 0e0);
    i2 = ((((q0 ^ 1ull) < q0) || ((l1 / (((l1) == 0ll || (l1) == (-1ll)) ? 1ll : (l1))) < min(l2, l2))) ? min((((int)((unsigned)i1 << ((unsigned)(86) & 31u))) >> ((unsigned)(i0) & 31u)), min(((int)(0u - (unsigned)(i1))), i2)) : (in_i[(2097152u) & 255u] % (((1) == 0 || (1) == (-1)) ? 1 : (1))));
    l2 = l0;
    u2 = __ballot_sync(0xffffffffu, (max(((long long)((unsigned long long)l0 << ((unsigned)(l1) & 63u))), 9223372036854775807ll) > l1));
    d1 = __shfl_up_sync(0xffffffffu, 3.857994722586451e-7, (((u1 >> ((unsigned)(0u) & 31u)) << ((unsigned)(4294967295u) & 31u)) & 31u), 8);
    for (int k0 = 0; k0 < (int)((((144115188075855872ll > l0) ? u1 : (-u2))) & 7u); k0++) {
        d0 = d0;
        if ((((fmod(d2, d2) * trunc((-1.2e1))) != ((double)min(i2, i0))) || ((((long long)((unsigned long long)l0 - (unsigned long long)l2)) != 9ll) && (l2 == max(l2, l1))))) {
            i0 = k0;
            atomicAnd(&acc_q[1], q2);
        }
    }
    q1 = q1;
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
