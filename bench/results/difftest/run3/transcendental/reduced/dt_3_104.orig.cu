// hone-difftest case 104 of seed 3: grid 4, block 64; inputs as `hone-difftest show --seed 3 --index 104` generates them.
// mismatch (generated kernel): out_d[8] (thread 2): emulator -7.456241416655579e-1 (0xbfe7dc2728f1f8f9), GPU -7.456241416655578e-1 (0xbfe7dc2728f1f8f8); 11 element(s) differ
__global__ void dt_3_104(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if ((((int)((unsigned)((f1 >= f2) ? in_i[(u2) & 255u] : i0) * (unsigned)i0)) > (i2 ^ max(min(8388608, (-1)), (1 | i0))))) {
        i1 = ((int)((unsigned)(-59775807) * (unsigned)min(i2, ((int)fminf(fmaxf(f2, (-2.1474836e9f)), 2.1474835e9f)))));
    } else {
        l2 = (l2 | (-1ll));
    }
    l2 = max(l2, ((long long)((unsigned long long)l1 + (unsigned long long)((long long)((unsigned long long)((i0 == i2) ? l0 : 0ll) << ((unsigned)(31ll) & 63u))))));
    if ((((long long)(0ull - (unsigned long long)(l2))) != l1)) {
        atomicOr(&acc_u[2], (u2 % ((102u) == 0u ? 1u : (102u))));
        if ((q1 == min(q0, q0))) {
            q0 = q2;
        } else {
            for (int k0 = 0; k0 < 1; k0++) {
                q2 = (((i2 <= k0) ? q2 : ((unsigned long long)fmin(fmax((-d1), 0e0), 1.844674407370955e19))) * q2);
                q0 = max((max(q0, ((unsigned long long)fmin(fmax(d0, 0e0), 1.844674407370955e19))) - (q0 % ((max(q1, q0)) == 0ull ? 1ull : (max(q1, q0))))), 7921488094303217610ull);
                if ((d0 == ((1440714534655246484ll >= l2) ? d0 : d1))) break;
            }
        }
        for (int k1 = 0; k1 < 2; k1++) {
            if (((min((-1), i0) > max(i2, i0)) && ((-(-5.025974e-39f)) < (f2 + f0)))) continue;
            d2 = fmax(sin((-d2)), d0);
            q0 = ((((-q2) * (q2 & 1048576ull)) - max(16777216ull, in_q[(u2) & 255u])) + (q1 - (-(15454193888470254296ull % ((q0) == 0ull ? 1ull : (q0))))));
        }
    } else {
        if ((((-f0) != floorf((-1.4e1f))) || (((long long)in_q[((0u << ((unsigned)(lane) & 31u))) & 255u]) != l0))) {
            d0 = d2;
            for (int k2 = 0; k2 < (int)((min(lane, u2)) & 7u); k2++) {
                l0 = (l2 ^ ((long long)(0ull - (unsigned long long)(l0))));
                d1 = (d0 * (-(d2 - fmax(d1, d0))));
            }
            d2 = trunc(d0);
        } else {
            d0 = ((double)l0);
            q2 = (q1 * in_q[(((-u2) | u2)) & 255u]);
        }
        f1 = ((float)((2097152u * 953113719u) + u0));
    }
    u2 = u2;
    i0 = ((int)((unsigned)((int)(l2 >> ((unsigned)(max(9223372036854775807ll, l1)) & 63u))) - (unsigned)29));
    atomicAnd(&acc_u[1], (-min(threadIdx.x, max(399487182u, 4294967295u))));
    q0 = q0;
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
