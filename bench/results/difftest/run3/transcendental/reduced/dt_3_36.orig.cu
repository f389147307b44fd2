// hone-difftest case 36 of seed 3: grid 4, block 96; inputs as `hone-difftest show --seed 3 --index 36` generates them.
// mismatch (generated kernel): out_d[281] (thread 93): emulator -3.5624945122189513e-22 (0xbb7aeaddd6ac233d), GPU -3.5624945122189522e-22 (0xbb7aeaddd6ac233f); 9 element(s) differ
__global__ void dt_3_36(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    for (int k0 = 0; k0 < (int)((u2) & 7u); k0++) {
        l1 = l1;
        if ((max(threadIdx.x, 540448323u) < gid)) break;
    }
    q0 = q0;
    l0 = (l0 ^ l1);
    l2 = l2;
    u0 = u1;
    l1 = (min(((long long)(0ull - (unsigned long long)(min(l1, l0)))), l1) ^ ((l2 >> ((unsigned)(((long long)((unsigned long long)l2 + (unsigned long long)l1))) & 63u)) ^ l0));
    q1 = ((max(q0, q1) ^ q0) / (((q2 & max(q2, q2))) == 0ull ? 1ull : ((q2 & max(q2, q2)))));
    for (int k1 = 0; k1 < 2; k1++) {
        f1 = (-((float)i1));
        for (int k2 = 0; k2 < 2; k2++) {
            l1 = ((long long)q2);
            d2 = 0e0;
            u1 = (u0 << ((unsigned)(max(u0, (~(1057605883u + blockDim.x)))) & 31u));
        }
        l0 = 106ll;
    }
    if (((q1 * (~q1)) >= (-(min(q0, q2) + (q2 & q2))))) {
        for (int k3 = 0; k3 < 0; k3++) {
            atomicXor(&acc_q[3], q2);
            for (int k4 = 0; k4 < (int)(((((unsigned)q0) + (u1 | u0))) & 7u); k4++) {
                u2 = blockDim.x;
                if (((sinf(f1) / (f2 - f0)) < 0e0f)) continue;
                u0 = ((unsigned)fmin(fmax((((d1 / d1) / (-d2)) - d1), 0e0), 4.294967295e9));
            }
            q0 = (-q1);
        }
        u2 = max(blockIdx.x, (-u2));
    }
    l2 = l0;
    d2 = d2;
    if ((((long long)(~(i1 >> ((unsigned)(i0) & 31u)))) >= ((((-1930043458) != i2) ? ((long long)(0ull - (unsigned long long)(l0))) : l0) % (((((long long)(0ull - (unsigned long long)(min(34359738368ll, l2))))) == 0ll || (((long long)(0ull - (unsigned long long)(min(34359738368ll, l2))))) == (-1ll)) ? 1ll : (((long long)(0ull - (unsigned long long)(min(34359738368ll, l2))))))))) {
        atomicXor(&acc_q[3], ((unsigned long long)fmin(fmax((-1.0184522143316377e3), 0e0), 1.844674407370955e19)));
        f2 = f2;
    } else {
        for (int k5 = 0; k5 < 4; k5++) {
            f0 = f2;
            l1 = l2;
        }
        for (int k6 = 0; k6 < (int)((((unsigned)in_i[(u1) & 255u])) & 7u); k6++) {
            for (int k7 = 0; k7 < 1; k7++) {
                d2 = (sin((-d0)) * 5.919746236533493e-22);
            }
        }
        i2 = i0;
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
