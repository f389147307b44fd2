// hone-difftest case 305 of seed 3: grid 3, block 96; inputs as `hone-difftest show --seed 3 --index 305` generates them.
// mismatch (generated kernel): out_f[9] (thread 3): emulator -4.71639e-1 (0xbef17aab), GPU -4.7163898e-1 (0xbef17aaa); 42 element(s) differ
__global__ void dt_3_305(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    d1 = __shfl_xor_sync(0xffffffffu, d2, (1134984534u & 31u));
    i2 = ((~((int)(0u - (unsigned)(((9.5e0 == d1) ? i2 : i0))))) & i0);
    i0 = (__any_sync(0xffffffffu, (((double)((long long)u1)) == d0)) != 0);
    i0 = (__all_sync(0xffffffffu, !((i1 >> ((unsigned)((-1)) & 31u)) > min(i1, i0))) != 0);
    q0 = q0;
    i0 = (__any_sync(0xffffffffu, (((d2 * d0) == d1) || (i0 == i2))) != 0);
    d0 = d1;
    if ((1305266747 == ((int)(0u - (unsigned)(i1))))) {
        q2 = max((1ull & max((q1 * q1), (q0 >> ((unsigned)(9223372036854775808ull) & 63u)))), (in_q[(u2) & 255u] | (q2 & 5800920820637041778ull)));
        if (((~(lane ^ ((unsigned)in_i[(blockIdx.x) & 255u]))) != (lane / ((u2) == 0u ? 1u : (u2))))) {
            if ((fmod(((double)max(l2, l0)), (d2 + d2)) == d2)) {
                atomicAdd(&acc_q[0], ((q1 > q1) ? ((unsigned long long)fminf(fmaxf(fmodf(f0, f0), 0e0f), 1.8446743e19f)) : ((q2 >> ((unsigned)(18301876597709213660ull) & 63u)) * (q0 ^ q0))));
                l0 = ((long long)in_q[(((u2 | u0) << ((unsigned)((max(166u, u2) / ((u2) == 0u ? 1u : (u2)))) & 31u))) & 255u]);
                l1 = ((long long)(0ull - (unsigned long long)((l1 | l1))));
            } else {
                i1 = i2;
                q0 = (q2 * (q0 * q1));
                q1 = ((((i2 <= i1) ? (d0 - d0) : exp(d2)) < d1) ? (((l0 ^ l0) >= ((long long)in_q[(threadIdx.x) & 255u])) ? q0 : q2) : q2);
            }
            l2 = l1;
        }
    } else {
        for (int k0 = 0; k0 < 4; k0++) {
            f0 = sinf(f2);
            for (int k1 = 0; k1 < 0; k1++) {
                d0 = (d2 * d0);
            }
        }
        u0 = (~93u);
        if ((0ull > 0ull)) {
            d1 = (d0 / d1);
            d1 = d1;
            i1 = in_i[(min(u1, u0)) & 255u];
        }
    }
    i1 = i0;
    u0 = (~((unsigned)((long long)((unsigned long long)max(l0, l2) * (unsigned long long)l0))));
    d0 = __shfl_down_sync(0xffffffffu, (d1 / (-d2)), (u0 & 31u));
    i2 = __shfl_xor_sync(0xffffffffu, i2, (gid & 31u));
    if ((d2 >= ((((i0 <= i2) ? (-3.0033691126070615e18) : d1) / (-d1)) / floor(cos(2.47849289776726e-309))))) {
        atomicAdd(&acc_q[0], ((~q1) ^ q1));
    } else {
        i2 = (((in_i[(u0) & 255u] / ((((i0 & i1)) == 0 || ((i0 & i1)) == (-1)) ? 1 : ((i0 & i1)))) >> ((unsigned)(max(i2, (2147483647 | 0))) & 31u)) % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2)));
    }
    q2 = q0;
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
