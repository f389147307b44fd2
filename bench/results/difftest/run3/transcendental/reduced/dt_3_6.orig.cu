// hone-difftest case 6 of seed 3: grid 1, block 256; inputs as `hone-difftest show --seed 3 --index 6` generates them.
// mismatch (generated kernel): out_d[160] (thread 53): emulator 1.4121178376525727e0 (0x3ff69808dfad0e7d), GPU 1.412117837652573e0 (0x3ff69808dfad0e7e); 7 element(s) differ
__global__ void dt_3_6(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    i1 = (__all_sync(0xffffffffu, ((d0 <= d1) && (((double)threadIdx.x) >= d2))) != 0);
    l0 = (-1ll);
    atomicMin(&acc_q[4], (in_q[(threadIdx.x) & 255u] % ((q2) == 0ull ? 1ull : (q2))));
    if ((q2 == q1)) {
        if (((u1 % (((~u0)) == 0u ? 1u : ((~u0)))) <= (-((u1 ^ 2610593088u) << ((unsigned)((u2 & 3940480823u)) & 31u))))) {
            u1 = min(((((-1e0f) == f1) ? ((unsigned)in_i[(28u) & 255u]) : ((unsigned)in_i[(u1) & 255u])) + max(1u, u0)), (u1 << ((unsigned)(((u2 % ((u0) == 0u ? 1u : (u0))) - u2)) & 31u)));
        }
        i2 = ((int)((unsigned)((int)((unsigned)i0 - (unsigned)(-175))) << ((unsigned)(min(((int)((d1 <= d0) ? gid : threadIdx.x)), (i2 & i2))) & 31u)));
    }
    d1 = ((double)((long long)(0ull - (unsigned long long)(((long long)((unsigned long long)l0 - (unsigned long long)l0))))));
    f2 = ((float)17930164794061435877ull);
    u0 = __ballot_sync(0xffffffffu, (u2 != min(min(u0, u2), ((q1 > q2) ? u2 : blockIdx.x))));
    if ((q2 < q2)) {
        u0 = blockIdx.x;
        u0 = u0;
        d2 = (in_d[(u2) & 255u] * (d0 - ceil((d0 + 1.7976931348623157e308))));
    }
    d1 = (trunc(((double)truncf(f1))) + ((d0 / d0) + sin((d2 + 9e0))));
    i0 = (__any_sync(0xffffffffu, ((((unsigned long long)u1) % (((~q1)) == 0ull ? 1ull : ((~q1)))) >= (min(q0, 0ull) - ((unsigned long long)l0)))) != 0);
    l0 = ((long long)((unsigned long long)((long long)((unsigned long long)((long long)(0ull - (unsigned long long)(l0))) - (unsigned long long)min(min(191ll, l2), max(l0, l1)))) + (unsigned long long)((long long)((unsigned long long)(0ll & l1) * (unsigned long long)((long long)in_q[(max(u2, gid)) & 255u])))));
    i0 = i0;
    l0 = l0;
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
