// hone-difftest case 41 of seed 3: grid 1, block 64; inputs as `hone-difftest show --seed 3 --index 41` generates them.
// mismatch (generated kernel): out_f[87] (thread 29): emulator 8.296075e-2 (0x3da9e753), GPU 8.296074e-2 (0x3da9e752); 1 element(s) differ
__global__ void dt_3_41(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if ((((float)(i1 >> ((unsigned)((-88098122)) & 31u))) >= ceilf((-f1)))) {
        i0 = max(max(i0, i2), i1);
        f0 = expf((f0 - ((lane >= u0) ? f2 : f0)));
        u0 = u2;
    } else {
        u0 = ((unsigned)fminf(fmaxf(cosf(expf(f2)), 0e0f), 4.294967e9f));
    }
    u2 = ((((u0 % ((threadIdx.x) == 0u ? 1u : (threadIdx.x))) ^ ((q1 != 1ull) ? u1 : threadIdx.x)) % ((threadIdx.x) == 0u ? 1u : (threadIdx.x))) - ((unsigned)in_i[(((~u0) * (187u * u0))) & 255u]));
    u0 = (((unsigned)l1) >> ((unsigned)(((unsigned)(2907599928963195901ull ^ 0ull))) & 31u));
    if ((((l1 & ((long long)(0ull - (unsigned long long)(l2)))) <= l2) && (((i2 >> ((unsigned)(i2) & 31u)) < i2) && (i1 <= i1)))) {
        for (int k0 = 0; k0 < 3; k0++) {
            u0 = (u0 & max(u1, (((unsigned)in_i[(u2) & 255u]) % (((~2147483648u)) == 0u ? 1u : ((~2147483648u))))));
        }
        for (int k1 = 0; k1 < (int)((u1) & 7u); k1++) {
            d1 = (d2 / fabs(d2));
            d0 = (d2 - ((double)((i1 < i1) ? i1 : ((blockIdx.x == 1771788716u) ? k1 : k1))));
            q2 = q0;
        }
    } else {
        if ((min(18446744073709551427ull, min(min(q0, q2), q2)) >= 142ull)) {
            if ((l2 == l0)) {
                i1 = i0;
            }
            i0 = i1;
            atomicAdd(&acc_u[0], min(((1ll != l0) ? u2 : ((d0 > d2) ? u1 : 2147483647u)), u1));
        } else {
            l0 = l2;
        }
        q1 = (((unsigned long long)l0) << ((unsigned)((((~18446744073709551494ull) * q2) + ((-q0) - ((unsigned long long)l1)))) & 63u));
    }
    l2 = ((long long)((unsigned long long)(min(l1, max(l2, (-7275792991543167375ll))) | l1) + (unsigned long long)l0));
    q0 = q1;
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
