// hone-difftest case 360 of seed 3: grid 3, block 32; inputs as `hone-difftest show --seed 3 --index 360` generates them.
// mismatch (generated kernel): out_f[6] (thread 2): emulator -8.53021e-1 (0xbf5a5f96), GPU -8.530211e-1 (0xbf5a5f97); 23 element(s) differ
__global__ void dt_3_360(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f0 = (-cosf(f1));
    d2 = (d1 / d2);
    f1 = ((float)((long long)in_q[(min(lane, (~lane))) & 255u]));
    sh_d[threadIdx.x] = d0;
    __syncthreads();
    d0 = sh_d[(threadIdx.x + (((l0 == l1) ? blockDim.x : 4052531942u))) % blockDim.x];
    __syncthreads();
    l1 = ((long long)in_q[(u2) & 255u]);
    i1 = (__any_sync(0xffffffffu, (fmaf((f1 / f0), f1, f0) <= ceilf((3.4028235e38f * f1)))) != 0);
    for (int k0 = 0; k0 < 3; k0++) {
        for (int k1 = 0; k1 < 4; k1++) {
            if ((f1 > ((l0 != (l0 / (((l1) == 0ll || (l1) == (-1ll)) ? 1ll : (l1)))) ? 3.4028235e38f : floorf(((float)d0))))) {
                f2 = ((d0 != (d1 * cos((-1.818950247724708e-308)))) ? f0 : (((-f0) + ((-2e0f) * f0)) * (f0 + (f1 - 2.385961e19f))));
                f1 = ((fminf(f1, f1) + (fminf(4e0f, f2) - f1)) * sinf(f0));
            }
            i2 = k0;
            d2 = fmax((-1e1), 1.70199577775334e5);
        }
    }
    d0 = (-d2);
    u2 = __ballot_sync(0xffffffffu, (max((18446744073709551451ull - q2), q2) >= ((f2 >= f0) ? q2 : 1348644090192523193ull)));
    u0 = u2;
    f1 = fminf(fmodf(f0, truncf(((float)7.489318747456731e-26))), ((float)((double)64ull)));
    l0 = ((long long)((unsigned long long)((long long)in_i[((90u >> ((unsigned)(1u) & 31u))) & 255u]) * (unsigned long long)(((l2 & l2) == max(l2, l1)) ? ((long long)in_q[(blockIdx.x) & 255u]) : ((long long)in_q[(blockDim.x) & 255u]))));
    u1 = __ballot_sync(0xffffffffu, (l2 > ((u2 > 2147483647u) ? (l2 ^ 17592186044416ll) : ((long long)((unsigned long long)l0 << ((unsigned)(l2) & 63u))))));
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
