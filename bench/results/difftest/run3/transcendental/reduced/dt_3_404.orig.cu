// hone-difftest case 404 of seed 3: grid 1, block 96; inputs as `hone-difftest show --seed 3 --index 404` generates them.
// mismatch (generated kernel): out_d[238] (thread 79): emulator -1.3709590863840845e-6 (0xbeb7003974e945df), GPU -1.3709590863840842e-6 (0xbeb7003974e945de); 1 element(s) differ
__global__ void dt_3_404(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    u1 = ((4294967295u + ((unsigned)in_i[(u1) & 255u])) >> ((unsigned)(min(u1, u1)) & 31u));
    if ((max((1 >> ((unsigned)((~85)) & 31u)), ((int)((unsigned)(~i2) << ((unsigned)(i2) & 31u)))) != i1)) {
        u2 = max(((~u0) - lane), u1);
        d1 = d0;
    }
    d0 = d0;
    u2 = __shfl_sync(0xffffffffu, (((-9e0f) <= ((float)l2)) ? (u2 % ((max(u2, u2)) == 0u ? 1u : (max(u2, u2)))) : (-((unsigned)0ll))), (u1 & 31u), 16);
    if (!(((u0 + u2) == (2147483648u + u1)) && (((long long)((unsigned long long)l0 * (unsigned long long)l0)) < l2))) {
        q0 = (q0 | q1);
        f0 = ((f1 / f1) * (-f1));
        d1 = (d0 - exp(((double)f1)));
    }
    if ((((long long)((unsigned long long)(~l2) - (unsigned long long)l2)) > (min(l1, (148ll >> ((unsigned)(l1) & 63u))) >> ((unsigned)(l1) & 63u)))) {
        q0 = min(q1, q2);
    } else {
        for (int k0 = 0; k0 < 3; k0++) {
            for (int k1 = 0; k1 < (int)(((u0 - (u1 - threadIdx.x))) & 7u); k1++) {
                q0 = (((q1 % ((q2) == 0ull ? 1ull : (q2))) >> ((unsigned)(max((1ull % ((18446744073709551425ull) == 0ull ? 1ull : (18446744073709551425ull))), (-q0))) & 63u)) % ((q1) == 0ull ? 1ull : (q1)));
            }
        }
        if ((((float)((~gid) & 16777216u)) <= 6.9012177e2f)) {
            for (int k2 = 0; k2 < (int)((u1) & 7u); k2++) {
                q1 = q1;
                l2 = 4398046511104ll;
                d0 = ((q2 != 0ull) ? (((d0 * 2.35e1) * d2) * d2) : d0);
            }
        }
        l2 = l2;
    }
    q1 = __shfl_down_sync(0xffffffffu, q2, (u1 & 31u));
    f1 = (f0 * 1.3e1f);
    if (threadIdx.x == 0u) {
        sacc_q[0] = 4058798991697065084ull;
    }
    __syncthreads();
    atomicAdd(&sacc_q[0], (min(q1, ((unsigned long long)fminf(fmaxf(f1, 0e0f), 1.8446743e19f))) % ((q1) == 0ull ? 1ull : (q1))));
    __syncthreads();
    q2 = sacc_q[0];
    __syncthreads();
    d2 = (-9e0);
    l1 = ((long long)in_q[(((unsigned)(q1 ^ q0))) & 255u]);
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
