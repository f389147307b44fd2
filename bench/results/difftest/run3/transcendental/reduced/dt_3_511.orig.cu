// hone-difftest case 511 of seed 3: grid 2, block 128; inputs as `hone-difftest show --seed 3 --index 511` generates them.
// mismatch (generated kernel): out_f[1] (thread 0): emulator 7.6362884e-1 (0x3f437d2e), GPU 7.636289e-1 (0x3f437d2f); 173 element(s) differ
__global__ void dt_3_511(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    d2 = __shfl_sync(0xffffffffu, (d2 + d2), (u1 * (u0 & u0)));
    l0 = (~((long long)((unsigned long long)((long long)((unsigned long long)((long long)in_q[(u2) & 255u]) - (unsigned long long)(l2 ^ l1))) * (unsigned long long)(~((long long)(0ull - (unsigned long long)(l1)))))));
    i1 = (i0 | 1);
    if (((~(-(~u0))) > min(((u1 ^ blockIdx.x) + (u0 * 108u)), ((threadIdx.x - u2) - u1)))) {
        d0 = d0;
        q1 = max(q1, q1);
        u2 = ((((int)((unsigned)max(i1, i2) << ((unsigned)((i2 % (((i1) == 0 || (i1) == (-1)) ? 1 : (i1)))) & 31u))) > ((int)(short)min(i0, i1))) ? ((unsigned)fminf(fmaxf((sinf(f0) * in_f[(u0) & 255u]), 0e0f), 4.294967e9f)) : u1);
    }
    f0 = (-4.3092256e3f);
    d0 = exp(((d1 * d2) + ((1.4625421598838172e-32 - d0) / (d2 + d1))));
    d0 = fma(d2, (-(trunc(d0) + (d0 - d2))), d0);
    i1 = (__any_sync(0xffffffffu, (l1 < min(min((-9223372036854775807ll - 1ll), l0), (l0 >> ((unsigned)(l1) & 63u))))) != 0);
    f2 = __shfl_xor_sync(0xffffffffu, (f1 + (-(f2 - (-1.1309446e-38f)))), (lane & 31u));
    if (((-6.714219e-39f) == fmaf(in_f[((threadIdx.x ^ blockIdx.x)) & 255u], (f1 * (-(-3e0f))), ((float)lane)))) {
        if (((-47ll) < l2)) {
            i2 = (i1 / (((max(((int)((unsigned)i2 + (unsigned)((int)(0u - (unsigned)((-1022742897)))))), ((int)(short)((-94241610) & i1)))) == 0 || (max(((int)((unsigned)i2 + (unsigned)((int)(0u - (unsigned)((-1022742897)))))), ((int)(short)((-94241610) & i1)))) == (-1)) ? 1 : (max(((int)((unsigned)i2 + (unsigned)((int)(0u - (unsigned)((-1022742897)))))), ((int)(short)((-94241610) & i1))))));
        } else {
            if ((min(((q0 * 51ull) % ((q2) == 0ull ? 1ull : (q2))), (max(q0, q0) & q2)) == (~max(q2, (q1 * 1ull))))) {
                l1 = min(l1, l2);
                l1 = l2;
                f2 = 3.4028235e38f;
            } else {
                l1 = l1;
            }
            i2 = i2;
            if ((l0 < l2)) {
                q1 = q0;
            } else {
                atomicOr(&acc_u[2], u0);
                q2 = ((q1 >> ((unsigned)(((unsigned long long)fminf(fmaxf((f0 * f1), 0e0f), 1.8446743e19f))) & 63u)) & q2);
                f1 = (cosf(fmaf((f2 - f2), 7.949934e16f, f0)) + (((-2.355052e-39f) + (3.4028235e38f / f0)) * (-f0)));
            }
        }
    } else {
        i1 = ((int)(0u - (unsigned)(((int)((unsigned)(((int)(0u - (unsigned)(i0))) % (((((int)(short)i0)) == 0 || (((int)(short)i0)) == (-1)) ? 1 : (((int)(short)i0)))) << ((unsigned)(i1) & 31u))))));
        d0 = d0;
    }
    f0 = f0;
    l0 = l1;
    for (int k0 = 0; k0 < (int)((((unsigned)(-1ll))) & 7u); k0++) {
        for (int k1 = 0; k1 < (int)((max(((unsigned)q1), (101u | 166u))) & 7u); k1++) {
            d2 = (in_d[(((unsigned)q0)) & 255u] / 9.556889717980844e-58);
        }
        f1 = cosf(f1);
        l2 = l1;
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
