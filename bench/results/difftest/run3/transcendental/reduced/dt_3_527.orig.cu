// hone-difftest case 527 of seed 3: grid 2, block 96; inputs as `hone-difftest show --seed 3 --index 527` generates them.
// mismatch (generated kernel): out_f[18] (thread 6): emulator 1.3673721e-1 (0x3e0c04d7), GPU 1.3673723e-1 (0x3e0c04d8); 17 element(s) differ
__global__ void dt_3_527(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    d1 = ((double)((long long)in_q[(((u1 + u0) % (((24u & u0)) == 0u ? 1u : ((24u & u0))))) & 255u]));
    atomicOr(&acc_u[2], u1);
    l1 = max(((long long)fminf(fmaxf((-f1), (-9.223372e18f)), 9.2233715e18f)), ((long long)((unsigned long long)max(min(33554432ll, l2), ((long long)((unsigned long long)l1 - (unsigned long long)l2))) << ((unsigned)((((long long)i1) & ((long long)u0))) & 63u))));
    u1 = __ballot_sync(0xffffffffu, (max(((int)((unsigned)i0 - (unsigned)i2)), (i0 | i2)) > i2));
    l0 = l1;
    u0 = min(4294967295u, u0);
    for (int k0 = 0; k0 < 4; k0++) {
        i1 = (((int)((unsigned)((i2 ^ k0) >> ((unsigned)(((int)(short)i2)) & 31u)) * (unsigned)(-2147483647 - 1))) ^ i2);
        if ((i1 < in_i[((gid * max(u1, u2))) & 255u])) {
            atomicMin(&acc_u[4], max((112u * (u2 & u2)), (~((unsigned)in_i[(threadIdx.x) & 255u]))));
            for (int k1 = 0; k1 < (int)((u0) & 7u); k1++) {
                u0 = u1;
                d2 = ((double)f0);
                d2 = (d2 - (ceil((d1 + d2)) + ((double)u1)));
            }
            if ((q1 < ((d2 >= ((double)l2)) ? 0ull : ((d1 > d2) ? q1 : (~q2))))) {
                q1 = (77ull >> ((unsigned)((q1 - 141ull)) & 63u));
                q2 = q2;
            }
        } else {
            d1 = ((8388608u > ((unsigned)fminf(fmaxf((-f0), 0e0f), 4.294967e9f))) ? (((-d0) * (d2 * d2)) * d0) : d2);
            u1 = 4294967120u;
            for (int k2 = 0; k2 < 2; k2++) {
                d1 = ((floor((d2 + 1.7976931348623157e308)) >= d1) ? (-3.080386171677394e4) : (floor(d0) + (-(d0 + 1.7976931348623157e308))));
            }
        }
    }
    d1 = in_d[(((unsigned)l0)) & 255u];
    if ((1645292108u >= u2)) {
        f0 = cosf((((u2 - u1) == (u2 << ((unsigned)(u1) & 31u))) ? (-(-6.5264867e4f)) : (-f0)));
    } else {
        f0 = 1.1e1f;
    }
    d2 = (d2 / (d0 + floor(d0)));
    q2 = q2;
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
