// hone-difftest case 568 of seed 3: grid 1, block 256; inputs as `hone-difftest show --seed 3 --index 568` generates them.
// mismatch (generated kernel): out_f[71] (thread 23): emulator -4.2016703e-1 (0xbed72022), GPU -4.2016706e-1 (0xbed72023); 10 element(s) differ
__global__ void dt_3_568(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f2 = (sinf(f2) - f1);
    q0 = min((((unsigned long long)fmin(fmax(d2, 0e0), 1.844674407370955e19)) | 9223372036854775807ull), (q1 * max(q2, q2)));
    f0 = __shfl_xor_sync(0xffffffffu, (-8.2104335e-24f), (max(u1, (-u0)) & 31u));
    i0 = ((((i1 & i0) | ((i0 == i0) ? (-195) : i1)) | ((int)((unsigned)i2 * (unsigned)2045967736))) % (((((q2 != q1) ? ((q1 < q2) ? ((int)((unsigned)i2 << ((unsigned)(2) & 31u))) : ((int)fmin(fmax(d2, (-2.147483648e9)), 2.147483647e9))) : ((int)min(l0, l2)))) == 0 || (((q2 != q1) ? ((q1 < q2) ? ((int)((unsigned)i2 << ((unsigned)(2) & 31u))) : ((int)fmin(fmax(d2, (-2.147483648e9)), 2.147483647e9))) : ((int)min(l0, l2)))) == (-1)) ? 1 : (((q2 != q1) ? ((q1 < q2) ? ((int)((unsigned)i2 << ((unsigned)(2) & 31u))) : ((int)fmin(fmax(d2, (-2.147483648e9)), 2.147483647e9))) : ((int)min(l0, l2))))));
    l0 = l1;
    u1 = __ballot_sync(0xffffffffu, (((blockDim.x * u2) < min(u1, u2)) && ((l1 >> ((unsigned)(l2) & 63u)) != ((q1 == q0) ? l2 : l1))));
    q0 = ((q1 / ((q2) == 0ull ? 1ull : (q2))) + q1);
    for (int k0 = 0; k0 < 3; k0++) {
        for (int k1 = 0; k1 < 4; k1++) {
            d1 = d0;
        }
        if ((d0 <= fmin((((-1.5521261773448058e15) + d0) * d0), ((double)f0)))) {
            if ((q2 >= max(((9386482654978136860ull % ((q1) == 0ull ? 1ull : (q1))) - (q0 << ((unsigned)(q0) & 63u))), q1))) {
                atomicAnd(&acc_u[1], ((u2 - 2147483648u) / ((min((blockDim.x | u2), (u1 * u0))) == 0u ? 1u : (min((blockDim.x | u2), (u1 * u0))))));
            }
            if (((((d2 == (-1.4e1)) ? (-8.84236e12f) : f2) <= fmaf(f1, cosf(f0), f1)) || (l1 <= ((f0 > f1) ? l2 : max(l1, l2))))) {
                f0 = f0;
                q2 = min((((q1 < q1) ? (q1 * q1) : q0) >> ((unsigned)(((q1 % ((q0) == 0ull ? 1ull : (q0))) / ((q2) == 0ull ? 1ull : (q2)))) & 63u)), (q2 | max(12718792740969303435ull, q0)));
                atomicXor(&acc_u[3], (u1 | ((unsigned)fminf(fmaxf((f1 - f0), 0e0f), 4.294967e9f))));
            } else {
                l2 = l2;
                u2 = min(u0, ((unsigned)(max(q2, q0) + 163ull)));
            }
            l2 = (l0 & l1);
        } else {
            if ((max(((int)((unsigned)(~k0) - (unsigned)i2)), i2) > 166)) {
                q0 = min(q1, ((in_d[(u1) & 255u] != d0) ? min(1ull, q1) : ((unsigned long long)u2)));
                d1 = d1;
            } else {
                u1 = (-(((blockDim.x + u1) / (((u2 % ((u2) == 0u ? 1u : (u2)))) == 0u ? 1u : ((u2 % ((u2) == 0u ? 1u : (u2)))))) >> ((unsigned)(u0) & 31u)));
            }
            for (int k2 = 0; k2 < (int)((max(u0, lane)) & 7u); k2++) {
                atomicMax(&acc_q[5], (q2 ^ min(((unsigned long long)k2), 18446744073709551615ull)));
            }
        }
    }
    if ((!(((u0 == u2) ? q2 : q0) < 9223372036854775808ull) || ((-2.0682657256564108e-5) <= in_d[(0u) & 255u]))) {
        i2 = ((f0 == (f0 * (3.4028235e38f * f0))) ? i0 : ((int)(0u - (unsigned)(((int)(short)in_i[(u2) & 255u])))));
        q0 = q1;
    }
    d1 = d0;
    for (int k3 = 0; k3 < 1; k3++) {
        d2 = __shfl_up_sync(0xffffffffu, (-d2), (((q2 >= q1) ? lane : (u1 + u0)) & 31u));
        i1 = ((int)((unsigned)((int)(unsigned char)k3) << ((unsigned)(max(((int)fmin(fmax((2e0 / d1), (-2.147483648e9)), 2.147483647e9)), i0)) & 31u)));
        u1 = min(min(4096u, u0), blockIdx.x);
    }
    d0 = ((f0 == (in_f[(u0) & 255u] / f1)) ? (d0 - d2) : 9.339251416425652e-6);
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
