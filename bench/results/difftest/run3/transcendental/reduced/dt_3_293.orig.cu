// hone-difftest case 293 of seed 3: grid 3, block 32; inputs as `hone-difftest show --seed 3 --index 293` generates them.
// mismatch (generated kernel): out_f[47] (thread 15): emulator 1.9459101e0 (0x3ff91395), GPU 1.9459102e0 (0x3ff91396); 3 element(s) differ
__global__ void dt_3_293(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    for (int k0 = 0; k0 < 0; k0++) {
        i0 = (i0 >> ((unsigned)(((i1 ^ k0) ^ ((i2 == k0) ? ((int)(short)i2) : ((int)blockIdx.x)))) & 31u));
        l0 = l0;
        l1 = (~(l1 % (((l2) == 0ll || (l2) == (-1ll)) ? 1ll : (l2))));
    }
    d1 = ((((q0 >> ((unsigned)(q1) & 63u)) & in_q[(lane) & 255u]) == max((q0 & q1), q1)) ? cos(d2) : ((f0 >= f2) ? ((d1 - d0) - (d0 - d1)) : (((d0 > d2) ? d0 : (-9.735855059863825e-2)) * (-2.7054335761333758e4))));
    if ((((-((double)f1)) - d2) >= 0e0)) {
        q1 = q2;
        d1 = ((((f1 <= 3.4028235e38f) ? ceil(d2) : (d0 + d1)) / d1) - d2);
    } else {
        atomicAnd(&acc_q[1], q1);
        i0 = (in_i[(u0) & 255u] % (((((int)(0u - (unsigned)(i0)))) == 0 || (((int)(0u - (unsigned)(i0)))) == (-1)) ? 1 : (((int)(0u - (unsigned)(i0))))));
        if ((((int)((unsigned)(i2 / ((((-1)) == 0 || ((-1)) == (-1)) ? 1 : ((-1)))) - (unsigned)(min(i2, i1) >> ((unsigned)(((int)(0u - (unsigned)(i1)))) & 31u)))) == ((int)((unsigned)(~i1) * (unsigned)i2)))) {
            if ((((int)u1) != ((int)fmin(fmax((-(d0 + d0)), (-2.147483648e9)), 2.147483647e9)))) {
                d0 = d0;
                d2 = in_d[(u2) & 255u];
                i0 = min((i0 | min(((int)((unsigned)i2 * (unsigned)i1)), (i1 >> ((unsigned)(0) & 31u)))), (-1));
            } else {
                l2 = l0;
                f2 = f1;
                d1 = floor(d1);
            }
            q1 = in_q[(((u1 << ((unsigned)(((unsigned)fmin(fmax(d2, 0e0), 4.294967295e9))) & 31u)) & (lane + (~u0)))) & 255u];
            l1 = (((long long)((unsigned long long)(((long long)((unsigned long long)l2 - (unsigned long long)l2)) | ((long long)((unsigned long long)(-1ll) + (unsigned long long)0ll))) << ((unsigned)(l0) & 63u))) / (((l1) == 0ll || (l1) == (-1ll)) ? 1ll : (l1)));
        }
    }
    u2 = ((-u2) ^ u2);
    f2 = fabsf(logf(f0));
    if ((!(((int)l0) == 24) || !(((long long)((unsigned long long)l0 - (unsigned long long)1ll)) == 9223372036854775807ll))) {
        if ((q1 > (-((blockIdx.x != lane) ? (q0 - q0) : q0)))) {
            u1 = ((unsigned)((int)(0u - (unsigned)(i1))));
        }
        for (int k1 = 0; k1 < 4; k1++) {
            for (int k2 = 0; k2 < (int)(((32u >> ((unsigned)(u1) & 31u))) & 7u); k2++) {
                u1 = (((q0 / (((q2 | 0ull)) == 0ull ? 1ull : ((q2 | 0ull)))) != (q0 % ((max(q1, q2)) == 0ull ? 1ull : (max(q1, q2))))) ? ((((i1 != 0) ? q0 : q0) > 549755813888ull) ? (51u - u1) : u0) : (~u2));
            }
            l0 = 256ll;
            f0 = (f0 - cosf(f0));
        }
        q0 = 1ull;
    }
    u0 = __ballot_sync(0xffffffffu, (floorf(f1) < (-(f1 * f0))));
    i1 = (((int)((unsigned)((int)l1) + (unsigned)((int)((unsigned)((int)((unsigned)i1 * (unsigned)i0)) + (unsigned)((u2 >= u1) ? i2 : i2))))) >> ((unsigned)(i0) & 31u));
    q0 = q2;
    l2 = ((((long long)((unsigned long long)l2 * (unsigned long long)((140737488355328ull <= q0) ? l1 : l2))) | ((long long)((unsigned long long)((long long)((unsigned long long)l1 * (unsigned long long)l1)) - (unsigned long long)l2))) & max(l1, ((~l0) & ((long long)fmin(fmax(d1, (-9.223372036854776e18)), 9.223372036854775e18)))));
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
