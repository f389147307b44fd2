// hone-difftest case 8523 of seed 4: grid 1, block 64; inputs as `hone-difftest show --seed 4 --index 8523` generates them.
// compiler (generated kernel): out_i[7] (thread 2): emulator -101, GPU -1056404307; 9 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_4_8523(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    sh_q[threadIdx.x] = q2;
    __syncthreads();
    q2 = sh_q[(threadIdx.x + (((u1 << ((unsigned)(u0) & 31u)) + (u0 / ((2147483647u) == 0u ? 1u : (2147483647u)))))) % blockDim.x];
    __syncthreads();
    atomicAnd(&acc_q[1], (q2 >> ((unsigned)(11927461342625345494ull) & 63u)));
    l0 = (((d0 >= ((double)4194304u)) ? ((long long)((unsigned long long)l1 * (unsigned long long)l0)) : (l1 % (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0)))) / (((l2) == 0ll || (l2) == (-1ll)) ? 1ll : (l2)));
    for (int k0 = 0; k0 < 2; k0++) {
        d1 = trunc((((double)q2) + d2));
        if ((((int)((unsigned)((-1953566034) | (i2 >> ((unsigned)(i1) & 31u))) - (unsigned)((int)(signed char)i0))) > ((int)((unsigned)k0 << ((unsigned)(i2) & 31u))))) {
            f0 = ((((float)u0) + fabsf(ceilf(f2))) / f0);
        } else {
            q0 = (q1 << ((unsigned)((q0 | ((-q1) - ((unsigned long long)8976115841598565015ll)))) & 63u));
            if (!(l1 > 274877906944ll)) {
                l1 = ((long long)(0ull - (unsigned long long)(((long long)in_q[(((unsigned)i2)) & 255u]))));
                f1 = in_f[((~max(blockDim.x, (u2 / ((u1) == 0u ? 1u : (u1)))))) & 255u];
                l2 = ((long long)(0ull - (unsigned long long)((((long long)((unsigned long long)148ll - (unsigned long long)((long long)in_q[(4294967120u) & 255u]))) / (((max(((long long)((unsigned long long)9223372036854775807ll - (unsigned long long)l2)), ((long long)((unsigned long long)l0 * (unsigned long long)79ll)))) == 0ll || (max(((long long)((unsigned long long)9223372036854775807ll - (unsigned long long)l2)), ((long long)((unsigned long long)l0 * (unsigned long long)79ll)))) == (-1ll)) ? 1ll : (max(((long long)((unsigned long long)9223372036854775807ll - (unsigned long long)l2)), ((long long)((unsigned long long)l0 * (unsigned long long)79ll)))))))));
            } else {
                d1 = fmax(d1, in_d[(blockDim.x) & 255u]);
                i0 = i0;
                i1 = min(((int)(0u - (unsigned)(1))), min(min((i0 ^ i1), ((int)(0u - (unsigned)(i1)))), ((int)((unsigned)((int)((unsigned)i0 * (unsigned)k0)) + (unsigned)(-14)))));
            }
        }
        if (threadIdx.x == 0u) {
            sacc_q[0] = 2199023255552ull;
        }
        __syncthreads();
        atomicMax(&sacc_q[0], q2);
        __syncthreads();
        q1 = sacc_q[0];
        __syncthreads();
    }
    u0 = (-(~((unsigned)fminf(fmaxf(f2, 0e0f), 4.294967e9f))));
    l0 = l2;
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
