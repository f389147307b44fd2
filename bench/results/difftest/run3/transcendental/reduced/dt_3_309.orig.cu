// hone-difftest case 309 of seed 3: grid 4, block 32; inputs as `hone-difftest show --seed 3 --index 309` generates them.
// mismatch (generated kernel): out_d[35] (thread 11): emulator -4.961954789184062e-3 (0xbf7452fc98b34e97), GPU -4.961954789184061e-3 (0xbf7452fc98b34e96); 26 element(s) differ
__global__ void dt_3_309(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    for (int k0 = 0; k0 < 1; k0++) {
        d2 = d0;
        d1 = (d0 / (-((double)i2)));
        f0 = (3.4028235e38f / fabsf((-7.723148e6f)));
    }
    if ((l0 <= l2)) {
        for (int k1 = 0; k1 < (int)((blockIdx.x) & 7u); k1++) {
            q1 = ((unsigned long long)((min(l0, l2) & (l1 ^ l1)) ^ (l2 & l2)));
            i0 = ((int)fmin(fmax(((double)((unsigned)in_i[(u1) & 255u])), (-2.147483648e9)), 2.147483647e9));
        }
        d1 = trunc(((max(3797671607092947491ull, q1) == ((unsigned long long)l0)) ? 1.5e1 : sqrt((-d1))));
        f1 = f1;
    }
    d2 = sin((-d0));
    for (int k2 = 0; k2 < (int)(((524288u - max(gid, gid))) & 7u); k2++) {
        l2 = l0;
        if ((((l1 % (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))) != l2) && (d1 <= d2))) {
            if ((i1 > (((int)((unsigned)k2 - (unsigned)k2)) % (((i0) == 0 || (i0) == (-1)) ? 1 : (i0))))) break;
            if ((q1 > max(q2, 9223372036854775807ull))) {
                q0 = q0;
            }
            if ((f0 < f2)) {
                l1 = l1;
                f1 = f2;
            }
        }
    }
    atomicOr(&acc_u[2], (u0 + (blockIdx.x * (u0 & 2147483647u))));
    sh_f[threadIdx.x] = 8.7133155e-4f;
    __syncthreads();
    f1 = sh_f[(threadIdx.x + (u1)) % blockDim.x];
    __syncthreads();
    l1 = l1;
    f1 = __shfl_xor_sync(0xffffffffu, (-7.278913e-39f), (u0 & 31u));
    if ((ceil((fabs(d2) * ((double)l1))) > ((6858114097826043174ll != l2) ? (-5e0) : 1.7976931348623157e308))) {
        d0 = (-in_d[(u2) & 255u]);
        l1 = (l2 & ((long long)(0ull - (unsigned long long)((l2 | l1)))));
    }
    u0 = 0u;
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
