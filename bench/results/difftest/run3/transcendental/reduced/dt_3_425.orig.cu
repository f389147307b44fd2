// hone-difftest case 425 of seed 3: grid 3, block 64; inputs as `hone-difftest show --seed 3 --index 425` generates them.
// mismatch (generated kernel): out_f[38] (thread 12): emulator 1.1004254e0 (0x3f8cdabd), GPU 1.1004255e0 (0x3f8cdabe); 11 element(s) differ
__global__ void dt_3_425(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    l2 = l2;
    u2 = (max(u2, max(((unsigned)in_i[(163u) & 255u]), 2147483648u)) | (1u | ((f2 <= f1) ? (u2 % ((1u) == 0u ? 1u : (1u))) : (-u0))));
    for (int k0 = 0; k0 < 0; k0++) {
        i0 = (__all_sync(0xffffffffu, ((d1 < (d0 / d2)) && (u2 > (-u1)))) != 0);
    }
    f2 = __shfl_up_sync(0xffffffffu, in_f[(((~4294967174u) + u0)) & 255u], ((u0 - 4294967295u) & 31u));
    f2 = logf(((((float)0u) + fabsf(f0)) - f1));
    d1 = fabs(fmin((d1 * 9.977670192499865e5), fmax(d2, (d1 * d2))));
    u0 = 3877785964u;
    for (int k1 = 0; k1 < 0; k1++) {
        if ((((max(u1, blockDim.x) + blockIdx.x) <= ((4125751098u + u0) >> ((unsigned)(((unsigned)fmin(fmax(d1, 0e0), 4.294967295e9))) & 31u))) || ((-fmaxf(f1, (-3.8050915e-4f))) >= fmodf(f2, fmodf(f1, (-6.411105e-3f)))))) {
            i0 = i1;
            u0 = u2;
        }
    }
    if ((truncf((-fmaf(f0, f0, f2))) == (f2 * f2))) {
        i1 = ((int)((unsigned)((int)(0u - (unsigned)(((~i2) / (((min(i2, i2)) == 0 || (min(i2, i2)) == (-1)) ? 1 : (min(i2, i2))))))) << ((unsigned)((i1 >> ((unsigned)(((int)(0u - (unsigned)(((int)((unsigned)(-2) << ((unsigned)(i1) & 31u))))))) & 31u))) & 31u)));
    } else {
        u0 = u2;
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
