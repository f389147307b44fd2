// hone-difftest case 561 of seed 3: grid 1, block 96; inputs as `hone-difftest show --seed 3 --index 561` generates them.
// mismatch (generated kernel): out_d[45] (thread 15): emulator 3.1969497754788256e-1 (0x3fd475e1ec50defc), GPU 3.196949775478825e-1 (0x3fd475e1ec50defb); 10 element(s) differ
__global__ void dt_3_561(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    atomicXor(&acc_u[3], u2);
    d0 = cos(d0);
    for (int k0 = 0; k0 < 2; k0++) {
        l0 = l2;
    }
    u0 = (((l1 | min(l2, (-160ll))) >= l2) ? ((unsigned)in_i[(u0) & 255u]) : u0);
    if ((0ll >= (~9223372036854775807ll))) {
        i1 = min(((int)((unsigned)((int)(0u - (unsigned)(i2))) + (unsigned)i0)), in_i[(((u0 | u1) % ((u2) == 0u ? 1u : (u2)))) & 255u]);
        for (int k1 = 0; k1 < (int)((blockDim.x) & 7u); k1++) {
            u2 = (u0 % (((threadIdx.x * (threadIdx.x | min(0u, u2)))) == 0u ? 1u : ((threadIdx.x * (threadIdx.x | min(0u, u2))))));
            l2 = l0;
        }
        u0 = (-((196 < ((int)((unsigned)i0 - (unsigned)i2))) ? ((u1 + 136u) << ((unsigned)(((unsigned)fminf(fmaxf(7e0f, 0e0f), 4.294967e9f))) & 31u)) : max(2147483648u, ((unsigned)q0))));
    }
    for (int k2 = 0; k2 < (int)((max(blockDim.x, min(u1, u2))) & 7u); k2++) {
        q0 = q2;
        i1 = i1;
        if (((~(~((unsigned)fminf(fmaxf((-1.493214e-10f), 0e0f), 4.294967e9f)))) <= u0)) {
            if (((u2 <= (389382557u | 160u)) && ((threadIdx.x * u0) > u1))) break;
            if (((((int)((unsigned)((int)((unsigned)k2 + (unsigned)i1)) << ((unsigned)(i1) & 31u))) >> ((unsigned)(i2) & 31u)) <= i2)) {
                u1 = (~u0);
                q2 = 80ull;
                if (((f2 * f0) == (-f0))) break;
            } else {
                d0 = round(d2);
            }
            f2 = ((f0 * in_f[(151u) & 255u]) * f1);
        } else {
            for (int k3 = 0; k3 < 0; k3++) {
                f1 = ((i1 == (-148140906)) ? (f1 - (-((float)4294967295u))) : ((u0 <= u0) ? f1 : f1));
            }
        }
    }
    f0 = f2;
    l1 = (((long long)((unsigned long long)l0 << ((unsigned)(l2) & 63u))) >> ((unsigned)(((long long)(0ull - (unsigned long long)(((long long)fmin(fmax(d1, (-9.223372036854776e18)), 9.223372036854775e18)))))) & 63u));
    l2 = __shfl_up_sync(0xffffffffu, l1, ((u0 << ((unsigned)((~lane)) & 31u)) & 31u), 8);
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
