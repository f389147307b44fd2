// hone-difftest case 377 of seed 3: grid 2, block 128; inputs as `hone-difftest show --seed 3 --index 377` generates them.
// mismatch (generated kernel): out_f[57] (thread 19): emulator 2.0032237e8 (0x4d3f0ad4), GPU 2.0032235e8 (0x4d3f0ad3); 4 element(s) differ
__global__ void dt_3_377(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if ((((int)(0u - (unsigned)(i0))) >= (((f2 + f0) < (f2 - f1)) ? (i1 / ((((2147483647 | i0)) == 0 || ((2147483647 | i0)) == (-1)) ? 1 : ((2147483647 | i0)))) : ((int)(0u - (unsigned)((~i0))))))) {
        for (int k0 = 0; k0 < 0; k0++) {
            d1 = ((double)f1);
            if ((d2 == (((l1 != l2) ? d1 : d0) * d1))) break;
            l0 = (-9223372036854775807ll - 1ll);
        }
        f2 = (f0 * in_f[((u0 | (u1 * 1u))) & 255u]);
    }
    if (threadIdx.x == 0u) {
        sacc_q[0] = 14946807006209267328ull;
    }
    __syncthreads();
    atomicOr(&sacc_q[0], (max(q2, q1) & (q1 >> ((unsigned)(0ull) & 63u))));
    __syncthreads();
    q0 = sacc_q[0];
    __syncthreads();
    for (int k1 = 0; k1 < 3; k1++) {
        atomicXor(&acc_q[3], q2);
        if ((((unsigned)in_i[((((i2 > 1) ? 1301469391u : 2048u) >> ((unsigned)(u0) & 31u))) & 255u]) != u1)) {
            f0 = expf((((f0 * f2) - (-f1)) * (-(-f2))));
            if ((((-(q2 & q1)) + max((q2 & q2), q1)) == ((q2 & max(q1, q0)) * max((~18446744073709551615ull), max(10068256442564620197ull, q1))))) {
                f1 = f1;
            } else {
                l1 = ((long long)in_q[(u0) & 255u]);
                d2 = (-(-(((d2 == d0) ? (-0e0) : d1) / (-d2))));
            }
        } else {
            for (int k2 = 0; k2 < (int)((blockDim.x) & 7u); k2++) {
                if ((72ll == ((d2 > 1.7976931348623157e308) ? l1 : (-1ll)))) continue;
                f1 = logf((-f0));
                atomicOr(&acc_u[2], u2);
            }
        }
    }
    if (((min((((-1.8353036144150847e-7) != d2) ? q1 : q0), q0) < q2) || (((int)(0u - (unsigned)(((l2 == l0) ? 2147483647 : i0)))) >= ((-19) ^ ((int)fmin(fmax(d1, (-2.147483648e9)), 2.147483647e9)))))) {
        u2 = u2;
        for (int k3 = 0; k3 < (int)((u2) & 7u); k3++) {
            f0 = (f2 + fabsf(expf((f1 / f2))));
            l1 = (~((long long)in_q[(u1) & 255u]));
        }
    } else {
        f0 = (-f0);
    }
    q1 = q2;
    for (int k4 = 0; k4 < 2; k4++) {
        d0 = (-((double)(-f0)));
        if (threadIdx.x == 0u) {
            sacc_q[0] = 2251799813685248ull;
        }
        __syncthreads();
        atomicMin(&sacc_q[0], q1);
        __syncthreads();
        q1 = sacc_q[0];
        __syncthreads();
        u2 = u2;
    }
    l0 = 274877906944ll;
    atomicAnd(&acc_q[1], q0);
    u2 = __ballot_sync(0xffffffffu, (f1 == sinf((f0 + f1))));
    f2 = in_f[(u2) & 255u];
    sh_q[threadIdx.x] = max(((unsigned long long)fminf(fmaxf(f1, 0e0f), 1.8446743e19f)), 5196092137064975941ull);
    __syncthreads();
    q2 = sh_q[(threadIdx.x + (4294967295u)) % blockDim.x];
    __syncthreads();
    f1 = f2;
    u1 = min(u0, (threadIdx.x & (min(u0, u0) + ((unsigned)(-1)))));
    atomicXor(&acc_q[3], max(q2, (0ull % ((q0) == 0ull ? 1ull : (q0)))));
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
