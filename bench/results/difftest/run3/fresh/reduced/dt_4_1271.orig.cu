// hone-difftest case 1271 of seed 4: grid 4, block 256; inputs as `hone-difftest show --seed 4 --index 1271` generates them.
// compiler (generated kernel): out_i[2] (thread 0): emulator -24, GPU 24; 468 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_4_1271(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    u0 = min(((~u2) % ((u0) == 0u ? 1u : (u0))), u1);
    d0 = ((double)(max((q2 * q1), (q2 / ((q1) == 0ull ? 1ull : (q1)))) / (((1073741824ull % (((q1 / ((549755813888ull) == 0ull ? 1ull : (549755813888ull)))) == 0ull ? 1ull : ((q1 / ((549755813888ull) == 0ull ? 1ull : (549755813888ull))))))) == 0ull ? 1ull : ((1073741824ull % (((q1 / ((549755813888ull) == 0ull ? 1ull : (549755813888ull)))) == 0ull ? 1ull : ((q1 / ((549755813888ull) == 0ull ? 1ull : (549755813888ull))))))))));
    l2 = ((long long)(0ull - (unsigned long long)(((long long)(i1 % (((i2) == 0 || (i2) == (-1)) ? 1 : (i2)))))));
    sh_d[threadIdx.x] = d1;
    __syncthreads();
    d2 = sh_d[(threadIdx.x + (u2)) % blockDim.x];
    __syncthreads();
    for (int k0 = 0; k0 < 0; k0++) {
        f1 = f2;
    }
    i2 = i1;
    l2 = l1;
    d2 = (d0 / d2);
    if (((((u2 >> ((unsigned)(117u) & 31u)) * (u1 | u1)) != ((unsigned)i0)) || !(d1 >= 7.963677168288528e13))) {
        i2 = min(i0, min(((int)(0u - (unsigned)((i0 & i2)))), max(((d2 >= d0) ? i1 : i0), (-24335360))));
        l1 = 21ll;
    }
    d1 = ((double)q0);
    if (((d2 * (d1 * ((d1 < d1) ? d0 : d0))) == ((double)(-q2)))) {
        l1 = (min(min(((long long)q1), (-1ll)), min(l0, l2)) / (((((long long)((unsigned long long)l2 * (unsigned long long)(-1ll)))) == 0ll || (((long long)((unsigned long long)l2 * (unsigned long long)(-1ll)))) == (-1ll)) ? 1ll : (((long long)((unsigned long long)l2 * (unsigned long long)(-1ll))))));
    } else {
        d1 = d2;
        u0 = ((-max(u1, blockDim.x)) << ((unsigned)(u0) & 31u));
        l1 = l0;
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
