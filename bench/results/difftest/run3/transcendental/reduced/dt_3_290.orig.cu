// hone-difftest case 290 of seed 3: grid 1, block 96; inputs as `hone-difftest show --seed 3 --index 290` generates them.
// mismatch (generated kernel): out_d[164] (thread 54): emulator 9.60170286650366e-1 (0x3feeb9b7097822f5), GPU 9.601702866503661e-1 (0x3feeb9b7097822f6); 3 element(s) differ
__global__ void dt_3_290(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if ((((((float)l1) == ((f1 <= f1) ? f2 : f1)) ? in_i[(((unsigned)i2)) & 255u] : ((int)(signed char)i1)) < min((i0 | i0), i2))) {
        if ((i2 == min(1, ((int)((unsigned)(i0 | i0) * (unsigned)((int)fmin(fmax(d2, (-2.147483648e9)), 2.147483647e9))))))) {
            atomicXor(&acc_u[3], u1);
            u1 = ((0ull >= ((q0 + q1) ^ (q1 - q0))) ? (u1 << ((unsigned)((max(u1, 1u) - (~53u))) & 31u)) : blockDim.x);
        }
    }
    q2 = (q1 | in_q[(((unsigned)in_i[((blockDim.x << ((unsigned)(blockIdx.x) & 31u))) & 255u])) & 255u]);
    q1 = q1;
    if (threadIdx.x == 0u) {
        sacc_q[0] = 5528422277030941674ull;
    }
    __syncthreads();
    atomicMax(&sacc_q[0], (-(q0 + q0)));
    __syncthreads();
    q0 = sacc_q[0];
    __syncthreads();
    d2 = cos(d0);
    atomicAnd(&acc_q[1], (in_q[((-blockIdx.x)) & 255u] - ((q2 >> ((unsigned)(q1) & 63u)) & q1)));
    f2 = 4.803745e3f;
    sh_f[threadIdx.x] = f2;
    __syncthreads();
    f2 = sh_f[(threadIdx.x + (u0)) % blockDim.x];
    __syncthreads();
    if ((!(l1 != l1) && ((((unsigned)q1) >= threadIdx.x) && (1.7976931348623157e308 < d1)))) {
        for (int k0 = 0; k0 < 0; k0++) {
            atomicMax(&acc_q[5], 18446744073709551615ull);
            for (int k1 = 0; k1 < (int)((max(((unsigned)i0), (u2 & blockDim.x))) & 7u); k1++) {
                u0 = (u0 - (-max((2147483647u / ((u1) == 0u ? 1u : (u1))), (threadIdx.x | lane))));
                l2 = ((long long)((unsigned long long)55ll * (unsigned long long)l1));
            }
        }
        q2 = (max(max((q1 % ((q0) == 0ull ? 1ull : (q0))), ((unsigned long long)fmin(fmax(d2, 0e0), 1.844674407370955e19))), (-q0)) | q0);
        for (int k2 = 0; k2 < (int)(((((unsigned)fminf(fmaxf(f0, 0e0f), 4.294967e9f)) / (((u0 - u0)) == 0u ? 1u : ((u0 - u0))))) & 7u); k2++) {
            d0 = d1;
            if ((((((i0 > i1) ? k2 : k2) ^ ((int)((unsigned)(-101) << ((unsigned)(i2) & 31u)))) <= 162) || ((((int)(signed char)i0) / (((((int)((unsigned)i0 * (unsigned)i0))) == 0 || (((int)((unsigned)i0 * (unsigned)i0))) == (-1)) ? 1 : (((int)((unsigned)i0 * (unsigned)i0))))) <= 1))) {
                q1 = 16ull;
                f0 = (fabsf(f0) * (-((f0 - (-2.247828e3f)) * (-6.4502333e25f))));
            } else {
                d1 = d1;
            }
            q2 = q2;
        }
    } else {
        for (int k3 = 0; k3 < 2; k3++) {
            u1 = ((-lane) | 2199924317u);
            if (!((u2 >> ((unsigned)(max(u1, u1)) & 31u)) >= (-((unsigned)in_i[(u1) & 255u])))) {
                atomicAdd(&acc_q[0], (q0 * q1));
                if (((((long long)in_q[(u2) & 255u]) != l1) || (i2 != i2))) break;
                u0 = (549381163u % ((u0) == 0u ? 1u : (u0)));
            }
        }
        d1 = 8.15026589587971e-309;
        if ((q0 < 17592186044416ull)) {
            l2 = l1;
            d2 = ((d0 - ((-(-1.5e1)) - (d2 * d0))) * d0);
        }
    }
    q1 = (q0 & ((unsigned long long)fminf(fmaxf(((float)((long long)u2)), 0e0f), 1.8446743e19f)));
    f1 = ((f2 - fmodf(((float)d2), expf(f1))) / f2);
    atomicAdd(&acc_u[0], (u0 ^ ((unsigned)q1)));
    i2 = (i0 % (((i0) == 0 || (i0) == (-1)) ? 1 : (i0)));
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
