// hone-difftest case 464 of seed 3: grid 4, block 96; inputs as `hone-difftest show --seed 3 --index 464` generates them.
// mismatch (generated kernel): out_d[22] (thread 7): emulator -4.530774820332462e-7 (0xbe9e67cfd6d0501f), GPU -4.5307748203324626e-7 (0xbe9e67cfd6d05020); 22 element(s) differ
__global__ void dt_3_464(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    l2 = min(l2, (~((long long)((unsigned long long)l2 - (unsigned long long)l0))));
    for (int k0 = 0; k0 < 1; k0++) {
        q2 = q0;
        if ((((int)(short)((int)((unsigned)i2 * (unsigned)i0))) >= in_i[((min(u0, u0) * 0u)) & 255u])) {
            for (int k1 = 0; k1 < 1; k1++) {
                q2 = max((q1 - (q0 ^ (q1 >> ((unsigned)(q0) & 63u)))), (-q2));
            }
            for (int k2 = 0; k2 < 4; k2++) {
                q1 = q0;
                f1 = f0;
            }
            atomicMin(&acc_u[4], (u1 ^ (-((unsigned)i1))));
        }
        sh_d[threadIdx.x] = d2;
        __syncthreads();
        d2 = sh_d[(threadIdx.x + (((-u2) % ((2445753194u) == 0u ? 1u : (2445753194u))))) % blockDim.x];
        __syncthreads();
    }
    i0 = (-1);
    f0 = (f0 + fabsf(7.793969e-8f));
    if (threadIdx.x == 0u) {
        sacc_q[0] = 121ull;
    }
    __syncthreads();
    atomicAdd(&sacc_q[0], ((unsigned long long)max(((f2 <= 0e0f) ? 0 : i2), (i0 % (((i0) == 0 || (i0) == (-1)) ? 1 : (i0))))));
    __syncthreads();
    q1 = sacc_q[0];
    __syncthreads();
    for (int k3 = 0; k3 < 1; k3++) {
        atomicAnd(&acc_q[1], (((q2 + q0) << ((unsigned)((q2 * 9223372036854775807ull)) & 63u)) << ((unsigned)(4083162938687823091ull) & 63u)));
        i1 = max(((int)((unsigned)((k3 <= 256) ? i0 : (i2 >> ((unsigned)((-197)) & 31u))) - (unsigned)(~i0))), ((int)(unsigned char)i2));
    }
    if (((-(d2 * d2)) != d0)) {
        i2 = max(((int)(q0 >> ((unsigned)(q2) & 63u))), max(((int)((unsigned)i1 * (unsigned)((i0 == i2) ? i1 : 1))), (~i0)));
        q0 = 18446744073709551579ull;
    }
    u0 = max(u1, 4294967295u);
    i2 = (__all_sync(0xffffffffu, (f1 <= f1)) != 0);
    if (((((i2 >> ((unsigned)(i2) & 31u)) & ((int)(0u - (unsigned)(i1)))) >> ((unsigned)(((i1 >> ((unsigned)((-143)) & 31u)) % (((((int)(signed char)i1)) == 0 || (((int)(signed char)i1)) == (-1)) ? 1 : (((int)(signed char)i1))))) & 31u)) == ((int)(q0 << ((unsigned)(((unsigned long long)fminf(fmaxf(f1, 0e0f), 1.8446743e19f))) & 63u))))) {
        for (int k4 = 0; k4 < (int)((max((u0 | u1), min(u1, u1))) & 7u); k4++) {
            i1 = ((int)u0);
        }
        q0 = q0;
        d0 = (-d1);
    }
    if ((u2 > lane)) {
        d1 = (sin(d0) * (d0 * d2));
        q1 = (((q1 * 0ull) | q1) << ((unsigned)(((((unsigned long long)2147483647u) | ((q0 > q1) ? q0 : q0)) | ((q2 << ((unsigned)(q1) & 63u)) << ((unsigned)((q1 & q0)) & 63u)))) & 63u));
        f0 = f1;
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
