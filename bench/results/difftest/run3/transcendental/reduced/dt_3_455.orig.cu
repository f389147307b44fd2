// hone-difftest case 455 of seed 3: grid 2, block 128; inputs as `hone-difftest show --seed 3 --index 455` generates them.
// mismatch (generated kernel): out_f[38] (thread 12): emulator 8.53021e-1 (0x3f5a5f96), GPU 8.530211e-1 (0x3f5a5f97); 14 element(s) differ
__global__ void dt_3_455(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f1 = roundf(((float)((d1 * 5.349412435424364e-4) - d0)));
    q2 = q1;
    i1 = ((int)(unsigned short)((int)(0u - (unsigned)(i1))));
    u0 = (((unsigned)in_i[(((2410044933u & blockIdx.x) << ((unsigned)(u0) & 31u))) & 255u]) / ((((lane + u0) ^ min(u1, max(u2, gid)))) == 0u ? 1u : (((lane + u0) ^ min(u1, max(u2, gid))))));
    i1 = (__any_sync(0xffffffffu, ((168ll < l0) || (((-0e0f) * f1) == fminf(5.245676e16f, f2)))) != 0);
    i1 = i2;
    u1 = u0;
    sh_l[threadIdx.x] = l2;
    __syncthreads();
    l2 = sh_l[(threadIdx.x + (u1)) % blockDim.x];
    __syncthreads();
    u1 = __shfl_up_sync(0xffffffffu, ((u2 + u0) & u2), (u1 & 31u), 2);
    if ((q0 > ((logf(f1) == (f2 / f2)) ? 18446744073709551615ull : q2))) {
        if (((((q0 >= q2) ? 3.4028235e38f : truncf(f0)) > ((float)q2)) || ((l1 & ((long long)((unsigned long long)(-152ll) << ((unsigned)((-1ll)) & 63u)))) < ((long long)fmin(fmax(d0, (-9.223372036854776e18)), 9.223372036854775e18))))) {
            if (((-1ll) > (l2 | max((1ll % (((l2) == 0ll || (l2) == (-1ll)) ? 1ll : (l2))), (l0 | l1))))) {
                d2 = (((((int)(short)i0) >= i0) ? d1 : d2) * ((-4.6955010895823435e0) / cos(((d1 > d0) ? 9.291748401773998e-2 : d0))));
            }
            atomicAnd(&acc_q[1], (q1 % (((q1 & ((unsigned long long)173ll))) == 0ull ? 1ull : ((q1 & ((unsigned long long)173ll))))));
        } else {
            q0 = (q2 >> ((unsigned)(q0) & 63u));
            for (int k0 = 0; k0 < (int)((128u) & 7u); k0++) {
                q2 = q1;
            }
            q2 = q1;
        }
    } else {
        f2 = cosf(f0);
    }
    d1 = d2;
    atomicAdd(&acc_u[0], (max((u1 * u2), ((d2 >= d1) ? u1 : u1)) | blockDim.x));
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
