// hone-difftest case 429 of seed 3: grid 2, block 64; inputs as `hone-difftest show --seed 3 --index 429` generates them.
// mismatch (generated kernel): out_f[166] (thread 55): emulator -1.2790997e2 (0xc2ffd1e8), GPU -1.2790999e2 (0xc2ffd1ea); 12 element(s) differ
__global__ void dt_3_429(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f2 = (-((f0 * f1) * ((float)0ll)));
    i1 = (__any_sync(0xffffffffu, ((q0 / ((((unsigned long long)fmin(fmax(d2, 0e0), 1.844674407370955e19))) == 0ull ? 1ull : (((unsigned long long)fmin(fmax(d2, 0e0), 1.844674407370955e19))))) >= ((q1 & 1ull) >> ((unsigned)(2622119536128738352ull) & 63u)))) != 0);
    i2 = (__any_sync(0xffffffffu, !(l1 <= (l1 & l2))) != 0);
    f2 = (-4.6004512e-5f);
    for (int k0 = 0; k0 < 4; k0++) {
        if (threadIdx.x == 0u) {
            sacc_u[0] = 38u;
        }
        __syncthreads();
        atomicMin(&sacc_u[0], u0);
        __syncthreads();
        u2 = sacc_u[0];
        __syncthreads();
        q1 = (((~in_q[(u0) & 255u]) / ((((unsigned long long)1u)) == 0ull ? 1ull : (((unsigned long long)1u)))) | (((~q2) * (q1 >> ((unsigned)(q1) & 63u))) * 123ull));
        d0 = d2;
    }
    sh_q[threadIdx.x] = ((-q2) + (q0 / ((q0) == 0ull ? 1ull : (q0))));
    __syncthreads();
    q2 = sh_q[(threadIdx.x + (gid)) % blockDim.x];
    __syncthreads();
    f1 = (sinf(f0) / sqrtf((f1 + f1)));
    i2 = __shfl_up_sync(0xffffffffu, 2147483647, (((u1 - threadIdx.x) | (~u0)) & 31u), 16);
    d1 = (-(in_d[(min(u2, u1)) & 255u] + sin(d1)));
    q1 = ((((q2 | q1) << ((unsigned)((~q0)) & 63u)) + ((u1 < u0) ? 14789414590914051559ull : q2)) / ((min(((q1 >> ((unsigned)(0ull) & 63u)) & (~9223372036854775807ull)), q1)) == 0ull ? 1ull : (min(((q1 >> ((unsigned)(0ull) & 63u)) & (~9223372036854775807ull)), q1))));
    i2 = i1;
    sh_i[threadIdx.x] = ((int)u1);
    __syncthreads();
    i2 = sh_i[(threadIdx.x + ((gid ^ (u1 >> ((unsigned)(u0) & 31u))))) % blockDim.x];
    __syncthreads();
    i2 = i2;
    if ((((int)(signed char)((int)((unsigned)(i2 >> ((unsigned)(i0) & 31u)) + (unsigned)i2))) < ((int)((unsigned)i1 * (unsigned)i2)))) {
        d1 = ((trunc(d0) + in_d[(1492076464u) & 255u]) + d0);
        q2 = q0;
        if (((d2 > d2) || (l0 >= ((l0 == l1) ? (l0 & l2) : max(l2, l0))))) {
            u0 = 0u;
            d2 = 4.90630113122883e13;
        } else {
            if ((((long long)(-q1)) >= l0)) {
                i0 = (((int)(0u - (unsigned)(((int)((unsigned)i0 - (unsigned)2147483647))))) ^ min(max(((int)fmin(fmax(d1, (-2.147483648e9)), 2.147483647e9)), max(i1, (-70))), (-878373022)));
                atomicXor(&acc_q[3], ((~q0) + (109ull * (q1 | 0ull))));
                d1 = (-(sqrt(d2) * (d0 * d2)));
            } else {
                atomicAnd(&acc_u[1], u0);
                f2 = f1;
            }
            l2 = ((long long)((unsigned long long)max(l2, 32768ll) * (unsigned long long)(~l2)));
        }
    } else {
        if ((((-4e0f) - 2.95e1f) > (-f2))) {
            q1 = q1;
        } else {
            u1 = (((((unsigned)l1) & min(u1, blockIdx.x)) % ((u0) == 0u ? 1u : (u0))) + min(((9223372036854775807ull != q2) ? gid : (u0 + u1)), min(u2, ((d1 <= d1) ? u1 : u0))));
            u2 = (-2516105193u);
            f2 = f0;
        }
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
