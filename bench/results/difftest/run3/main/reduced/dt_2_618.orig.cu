// hone-difftest case 618 of seed 2: grid 4, block 128; inputs as `hone-difftest show --seed 2 --index 618` generates them.
// compiler (generated kernel): out_i[423] (thread 141): emulator -640961859, GPU 1506521736; 18 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_2_618(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f0 = in_f[((-u2)) & 255u];
    i2 = (__any_sync(0xffffffffu, (u1 > min((1048576u / ((3704145556u) == 0u ? 1u : (3704145556u))), (u0 - 2550233815u)))) != 0);
    i2 = ((int)u1);
    u1 = ((-u2) % ((blockDim.x) == 0u ? 1u : (blockDim.x)));
    i2 = (((u0 >> ((unsigned)(4294967234u) & 31u)) >= ((165u != u2) ? u1 : (u1 << ((unsigned)(u1) & 31u)))) ? (((int)((unsigned)16384 << ((unsigned)(((int)fmin(fmax(d1, (-2.147483648e9)), 2.147483647e9))) & 31u))) >> ((unsigned)(((int)((unsigned)(i1 | i2) * (unsigned)(i0 ^ i2)))) & 31u)) : ((((int)(0u - (unsigned)(i0))) / (((46) == 0 || (46) == (-1)) ? 1 : (46))) >> ((unsigned)(i0) & 31u)));
    if ((1ll <= (((l0 & l1) ^ l1) >> ((unsigned)(((long long)(0ull - (unsigned long long)(l0)))) & 63u)))) {
        u2 = ((unsigned)fmin(fmax(d1, 0e0), 4.294967295e9));
    }
    if (((min((u2 % ((3682774614u) == 0u ? 1u : (3682774614u))), 34u) >> ((unsigned)(((unsigned)in_i[(max(8192u, 299534656u)) & 255u])) & 31u)) == ((unsigned)in_i[(threadIdx.x) & 255u]))) {
        l2 = l1;
        for (int k0 = 0; k0 < 0; k0++) {
            l0 = (l1 >> ((unsigned)(l0) & 63u));
            d2 = fma(d1, (((-1907483817) < 0) ? ((-(-8.195950918741506e15)) * d1) : (d1 / (6.561661497950442e0 + d0))), (d1 / ((double)((int)q2))));
            l1 = l0;
        }
        if ((((q2 < 74ull) ? ((int)(-q2)) : i2) < 0)) {
            l2 = (((long long)fminf(fmaxf(f1, (-9.223372e18f)), 9.2233715e18f)) ^ l1);
        } else {
            if ((i2 > max(in_i[(u0) & 255u], max((i0 / (((i0) == 0 || (i0) == (-1)) ? 1 : (i0))), ((int)(0u - (unsigned)(i2))))))) {
                q2 = (-q1);
                i0 = (-2147483647 - 1);
            } else {
                d0 = ((double)(in_i[(((unsigned)(-1))) & 255u] ^ ((l1 != l0) ? ((int)((unsigned)(-2147483647 - 1) * (unsigned)(-2147483647 - 1))) : (-2147483647 - 1))));
                u2 = min((max(u1, (u2 + lane)) | u1), ((~blockIdx.x) * u0));
                u0 = 0u;
            }
        }
    }
    for (int k1 = 0; k1 < (int)((u1) & 7u); k1++) {
        i2 = ((int)((unsigned)((int)((unsigned)((u1 <= 1u) ? 0 : (504455724 >> ((unsigned)(i1) & 31u))) * (unsigned)(((int)(short)i2) ^ i0))) + (unsigned)in_i[(((u0 & u2) & (~u1))) & 255u]));
    }
    i0 = (i0 ^ max(in_i[((u0 ^ u0)) & 255u], i2));
    u1 = max(u1, ((-blockDim.x) | u0));
    q0 = __shfl_up_sync(0xffffffffu, q0, (4294967279u & 31u));
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
