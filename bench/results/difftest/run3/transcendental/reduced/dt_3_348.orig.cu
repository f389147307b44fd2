// hone-difftest case 348 of seed 3: grid 3, block 256; inputs as `hone-difftest show --seed 3 --index 348` generates them.
// mismatch (generated kernel): out_f[45] (thread 15): emulator -9.818679e-1 (0xbf7b5bb2), GPU -9.8186797e-1 (0xbf7b5bb3); 22 element(s) differ
__global__ void dt_3_348(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    i1 = __shfl_up_sync(0xffffffffu, ((int)fminf(fmaxf(f1, (-2.1474836e9f)), 2.1474835e9f)), (u1 & 31u));
    f1 = f0;
    if ((min(((unsigned)in_i[((2147483648u - lane)) & 255u]), lane) > u2)) {
        i0 = ((int)((unsigned)((int)fminf(fmaxf(((float)q2), (-2.1474836e9f)), 2.1474835e9f)) + (unsigned)(in_i[(min(162u, u0)) & 255u] & (((int)q1) ^ (i0 >> ((unsigned)(i2) & 31u))))));
        if ((d2 != d0)) {
            q0 = ((unsigned long long)((unsigned)((long long)((unsigned long long)((long long)(0ull - (unsigned long long)(24ll))) - (unsigned long long)((long long)in_q[(u2) & 255u])))));
            f2 = ((expf((-(-5.1991414e-5f))) / fmaxf((-f0), ((q2 == 9223372036854775808ull) ? f1 : f0))) * f0);
            for (int k0 = 0; k0 < (int)((u1) & 7u); k0++) {
                i0 = (i0 / (((in_i[(((u0 * u2) & min(u1, blockDim.x))) & 255u]) == 0 || (in_i[(((u0 * u2) & min(u1, blockDim.x))) & 255u]) == (-1)) ? 1 : (in_i[(((u0 * u2) & min(u1, blockDim.x))) & 255u])));
            }
        } else {
            i1 = i1;
        }
        i0 = (in_i[((min(u1, 4294967295u) << ((unsigned)((4294967295u % ((u1) == 0u ? 1u : (u1)))) & 31u))) & 255u] ^ i1);
    }
    atomicAnd(&acc_q[1], 18446744073709551615ull);
    f2 = (-(-0e0f));
    if ((q2 <= (1ull | min(q0, (66ull ^ q2))))) {
        q0 = q2;
        for (int k1 = 0; k1 < 4; k1++) {
            f0 = ((((-f2) / 3.4028235e38f) * ((l2 < l0) ? (f1 - f0) : f1)) - sinf(((float)((-2.3676376128766518e2) / d0))));
            d1 = d1;
            if ((u0 <= blockIdx.x)) {
                atomicAnd(&acc_q[1], max(((q2 << ((unsigned)(q2) & 63u)) << ((unsigned)(in_q[(lane) & 255u]) & 63u)), in_q[(min(u1, 3785661756u)) & 255u]));
            } else {
                f2 = f1;
                i2 = (~i0);
                u2 = (~max(((unsigned)fminf(fmaxf(in_f[(gid) & 255u], 0e0f), 4.294967e9f)), ((unsigned)in_i[(u1) & 255u])));
            }
        }
    } else {
        d0 = (-0e0);
        for (int k2 = 0; k2 < 1; k2++) {
            atomicMax(&acc_q[5], 1ull);
            d0 = (d2 * d1);
        }
    }
    d1 = ((double)i2);
    l1 = max(((long long)((unsigned long long)((~l2) % (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))) * (unsigned long long)max(max(l0, l0), ((long long)q2)))), ((long long)((unsigned long long)((long long)fmin(fmax(fmax(d1, d1), (-9.223372036854776e18)), 9.223372036854775e18)) - (unsigned long long)l0)));
    d0 = d1;
    if (threadIdx.x == 0u) {
        sacc_u[0] = 520843131u;
    }
    __syncthreads();
    atomicMin(&sacc_u[0], u1);
    __syncthreads();
    u1 = sacc_u[0];
    __syncthreads();
    i2 = (__any_sync(0xffffffffu, ((((-1.8532572e-29f) - f1) > f0) || (max(blockIdx.x, lane) != (lane + u0)))) != 0);
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
