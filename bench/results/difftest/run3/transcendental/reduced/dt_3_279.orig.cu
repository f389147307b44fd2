// hone-difftest case 279 of seed 3: grid 4, block 128; inputs as `hone-difftest show --seed 3 --index 279` generates them.
// mismatch (generated kernel): out_d[22] (thread 7): emulator 8.408199117884164e-1 (0x3feae7ff28de9e8b), GPU 8.408199117884163e-1 (0x3feae7ff28de9e8a); 24 element(s) differ
__global__ void dt_3_279(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    for (int k0 = 0; k0 < 3; k0++) {
        l0 = (((((long long)((unsigned long long)l0 << ((unsigned)(l2) & 63u))) | min(l0, l2)) & l2) % (((l1) == 0ll || (l1) == (-1ll)) ? 1ll : (l1)));
        sh_i[threadIdx.x] = ((int)(signed char)(((int)((unsigned)i0 - (unsigned)i1)) / ((((k0 >> ((unsigned)(i2) & 31u))) == 0 || ((k0 >> ((unsigned)(i2) & 31u))) == (-1)) ? 1 : ((k0 >> ((unsigned)(i2) & 31u))))));
        __syncthreads();
        i0 = sh_i[(threadIdx.x + (max(u2, gid))) % blockDim.x];
        __syncthreads();
        f0 = __shfl_down_sync(0xffffffffu, f0, (min(u1, blockDim.x) & 31u));
    }
    f2 = __shfl_sync(0xffffffffu, f2, (4292165554u & 31u));
    l0 = ((long long)((unsigned long long)((~(l1 & l0)) ^ l0) << ((unsigned)(168ll) & 63u)));
    atomicAnd(&acc_q[1], (18446744073709551615ull << ((unsigned)(q0) & 63u)));
    i1 = 174;
    u0 = ((unsigned)fmin(fmax(d0, 0e0), 4.294967295e9));
    f2 = (f2 / f2);
    u2 = u1;
    d1 = fmin(d1, d1);
    d2 = (9.980004947321955e-29 / ((-1.2e1) / d0));
    for (int k1 = 0; k1 < 0; k1++) {
        if (((~(q2 & 4503599627370496ull)) == ((q1 >= q0) ? (4432235400608037496ull / ((q0) == 0ull ? 1ull : (q0))) : max(q1, q2)))) break;
    }
    if (((q1 >= q2) || (((l0 % (((l1) == 0ll || (l1) == (-1ll)) ? 1ll : (l1))) >> ((unsigned)(max((-18ll), l0)) & 63u)) != ((long long)((unsigned long long)l1 - (unsigned long long)36ll))))) {
        if ((((floorf((-7.475739e-6f)) + f1) < ((float)(-137))) || (1.3e1f != (-f0)))) {
            if ((min((min(u2, blockIdx.x) << ((unsigned)(((unsigned)l1)) & 31u)), u2) >= ((max(u1, 1u) * (u2 / ((gid) == 0u ? 1u : (gid)))) >> ((unsigned)(((unsigned)in_i[((u2 ^ blockIdx.x)) & 255u])) & 31u)))) {
                f2 = f2;
            }
            u0 = (((unsigned)in_i[(0u) & 255u]) - min(threadIdx.x, ((unsigned)fminf(fmaxf(truncf(f1), 0e0f), 4.294967e9f))));
            d1 = (sin(((d0 + d0) + exp(d2))) - d1);
        } else {
            u2 = (((u2 | ((unsigned)in_i[(98u) & 255u])) | ((unsigned)in_i[((u2 / ((4077459788u) == 0u ? 1u : (4077459788u)))) & 255u])) >> ((unsigned)(268435456u) & 31u));
            atomicAnd(&acc_q[1], q2);
        }
    } else {
        atomicAnd(&acc_q[1], q2);
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
