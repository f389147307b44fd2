// hone-difftest case 559 of seed 3: grid 1, block 32; inputs as `hone-difftest show --seed 3 --index 559` generates them.
// mismatch (generated kernel): out_f[14] (thread 4): emulator 4.88313e0 (0x409c429a), GPU 4.8831306e0 (0x409c429b); 4 element(s) differ
__global__ void dt_3_559(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    for (int k0 = 0; k0 < (int)(((((unsigned)9223372036854775807ll) * (blockDim.x % ((u0) == 0u ? 1u : (u0))))) & 7u); k0++) {
        if (((l1 ^ l0) < l1)) break;
    }
    q0 = __shfl_sync(0xffffffffu, min(max((q2 * q2), (9223372036854775807ull | q0)), 268435456ull), u1);
    d1 = ((d1 / (8.98999676457657e-6 / d1)) - d2);
    i1 = (__all_sync(0xffffffffu, ((q2 << ((unsigned)(q2) & 63u)) <= q0)) != 0);
    if (threadIdx.x == 0u) {
        sacc_u[0] = 1u;
    }
    __syncthreads();
    atomicOr(&sacc_u[0], ((((unsigned)l1) & (1915598554u / ((lane) == 0u ? 1u : (lane)))) + max(blockDim.x, u2)));
    __syncthreads();
    u1 = sacc_u[0];
    __syncthreads();
    for (int k1 = 0; k1 < 3; k1++) {
        d0 = (d0 * (trunc(d0) / ((d1 * d0) / d1)));
        sh_d[threadIdx.x] = d1;
        __syncthreads();
        d1 = sh_d[(threadIdx.x + (u1)) % blockDim.x];
        __syncthreads();
        u0 = __shfl_sync(0xffffffffu, 2004577184u, (u1 & gid));
    }
    if (((((~q0) % ((max(q2, q0)) == 0ull ? 1ull : (max(q2, q0)))) >> ((unsigned)(((-q1) % (((q1 - q2)) == 0ull ? 1ull : ((q1 - q2))))) & 63u)) == in_q[(min(u1, u1)) & 255u])) {
        for (int k2 = 0; k2 < 3; k2++) {
            f0 = (f1 / f0);
            i0 = (max(min(i0, ((d2 < d1) ? i2 : k2)), 0) / (((((int)((unsigned)((int)((long long)(0ull - (unsigned long long)(l1)))) << ((unsigned)(i1) & 31u)))) == 0 || (((int)((unsigned)((int)((long long)(0ull - (unsigned long long)(l1)))) << ((unsigned)(i1) & 31u)))) == (-1)) ? 1 : (((int)((unsigned)((int)((long long)(0ull - (unsigned long long)(l1)))) << ((unsigned)(i1) & 31u))))));
            q2 = (max(q0, max((q2 ^ 66ull), q2)) << ((unsigned)((q0 & q0)) & 63u));
        }
        i0 = ((int)((unsigned)((int)min((-q1), 3661457781533084723ull)) + (unsigned)i0));
    } else {
        if ((sqrt(cos(d0)) != sin(((i2 != (-1513455120)) ? d2 : d1)))) {
            u2 = (-13u);
            f0 = ((float)(q2 << ((unsigned)(((unsigned long long)fmin(fmax((8.749848737237853e1 * d2), 0e0), 1.844674407370955e19))) & 63u)));
        }
        f2 = expf((f0 - sqrtf((((-8e0f) >= f1) ? f1 : 2e0f))));
    }
    for (int k3 = 0; k3 < 0; k3++) {
        l0 = ((long long)in_q[(min((u1 ^ u2), max(gid, u1))) & 255u]);
        if (((((f2 - 1.7891517e5f) == (f1 + f2)) || ((threadIdx.x - 4294967202u) <= (threadIdx.x | u2))) && (1919025386573047672ull <= q2))) {
            l0 = (-31ll);
            for (int k4 = 0; k4 < 4; k4++) {
                if (((q0 < q2) || ((i0 & k3) > (i0 ^ 131072)))) break;
                d1 = d0;
                if (((in_d[(u2) & 255u] - (d2 - d0)) == d1)) continue;
            }
            d1 = (-5.7639944144188604e-2);
        }
        i1 = i1;
    }
    u1 = ((unsigned)in_i[(u0) & 255u]);
    d0 = __shfl_sync(0xffffffffu, d2, ((unsigned)fminf(fmaxf(logf(f0), 0e0f), 4.294967e9f)));
    f1 = ((-1.5e1f) * f1);
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
