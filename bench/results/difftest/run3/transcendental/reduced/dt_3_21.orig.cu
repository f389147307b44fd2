// hone-difftest case 21 of seed 3: grid 2, block 256; inputs as `hone-difftest show --seed 3 --index 21` generates them.
// mismatch (generated kernel): out_d[11] (thread 3): emulator -6.294583007749468e-1 (0xbfe42485bc00c5a8), GPU -6.294583007749467e-1 (0xbfe42485bc00c5a7); 26 element(s) differ
__global__ void dt_3_21(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    q1 = max((q1 ^ (-((unsigned long long)fminf(fmaxf(f2, 0e0f), 1.8446743e19f)))), q1);
    i0 = (-1);
    d2 = (cos(((d1 * d1) * d0)) / d2);
    i1 = (~i1);
    u1 = __ballot_sync(0xffffffffu, (d0 != in_d[((u1 / ((u0) == 0u ? 1u : (u0)))) & 255u]));
    u0 = __ballot_sync(0xffffffffu, (((double)(-8.043678e-2f)) == d1));
    for (int k0 = 0; k0 < 3; k0++) {
        f0 = f1;
    }
    if ((u1 > u0)) {
        l1 = 0ll;
        d0 = (-(fmin((d0 / d2), d0) + ((double)max(98, i1))));
    } else {
        d2 = (in_d[(((unsigned)min(q2, q0))) & 255u] + ((-d2) * d1));
    }
    if ((((-q2) != (-q1)) && (min(max(i0, i1), (1 | i1)) != ((int)((unsigned)(i0 / (((i1) == 0 || (i1) == (-1)) ? 1 : (i1))) - (unsigned)((int)(unsigned char)i0)))))) {
        f1 = ((float)exp(((d0 + 1e0) - d0)));
        i1 = i1;
        q0 = q1;
    } else {
        q2 = q1;
        if ((blockDim.x <= max(((u2 | 1u) * ((q2 <= q1) ? u1 : u0)), (1u * ((unsigned)in_i[(u2) & 255u]))))) {
            i2 = i2;
            l0 = (l0 & ((long long)((unsigned long long)l2 * (unsigned long long)(min(l2, l1) ^ min(l1, l0)))));
            q0 = (~((q2 * (-18446744073709551530ull)) % ((((unsigned long long)max(l1, l0))) == 0ull ? 1ull : (((unsigned long long)max(l1, l0))))));
        }
    }
    sh_d[threadIdx.x] = d2;
    __syncthreads();
    d0 = sh_d[(threadIdx.x + (((18446744073709551495ull >= q0) ? (u1 | u2) : 837351011u))) % blockDim.x];
    __syncthreads();
    atomicMax(&acc_q[5], q1);
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
