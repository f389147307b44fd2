// hone-difftest case 156 of seed 3: grid 3, block 256; inputs as `hone-difftest show --seed 3 --index 156` generates them.
// mismatch (generated kernel): out_f[294] (thread 98): emulator -1.0618047e0 (0xbf87e937), GPU -1.0618048e0 (0xbf87e938); 12 element(s) differ
__global__ void dt_3_156(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if (((l0 ^ l1) != min((((long long)((unsigned long long)l0 << ((unsigned)(l0) & 63u))) % (((((long long)((unsigned long long)l0 + (unsigned long long)9055983798866990254ll))) == 0ll || (((long long)((unsigned long long)l0 + (unsigned long long)9055983798866990254ll))) == (-1ll)) ? 1ll : (((long long)((unsigned long long)l0 + (unsigned long long)9055983798866990254ll))))), max((~l0), l1)))) {
        u1 = ((u1 & 2147483647u) + 1073741824u);
        l2 = l2;
        if (!!(max(l0, 42ll) <= ((long long)in_q[(u1) & 255u]))) {
            for (int k0 = 0; k0 < 0; k0++) {
                u1 = u1;
                l2 = l1;
            }
            i2 = i0;
            for (int k1 = 0; k1 < 3; k1++) {
                i0 = i2;
                f1 = (f0 / ((7.906019e29f / (((-233332060) != i1) ? f1 : f0)) * f0));
                u1 = u2;
            }
        }
    }
    for (int k2 = 0; k2 < 3; k2++) {
        if (threadIdx.x == 0u) {
            sacc_u[0] = 1u;
        }
        __syncthreads();
        atomicAnd(&sacc_u[0], (min((-u0), u0) | ((u0 >> ((unsigned)(lane) & 31u)) << ((unsigned)(((unsigned)fminf(fmaxf(f0, 0e0f), 4.294967e9f))) & 31u))));
        __syncthreads();
        u0 = sacc_u[0];
        __syncthreads();
        u2 = __ballot_sync(0xffffffffu, ((18446744073709551615ull == min(0ull, q2)) && (((int)(unsigned char)i1) == i2)));
        l1 = (((long long)in_q[(u2) & 255u]) / (((((long long)in_q[(max((u0 >> ((unsigned)(threadIdx.x) & 31u)), ((1 == (-1)) ? 3862261620u : gid))) & 255u])) == 0ll || (((long long)in_q[(max((u0 >> ((unsigned)(threadIdx.x) & 31u)), ((1 == (-1)) ? 3862261620u : gid))) & 255u])) == (-1ll)) ? 1ll : (((long long)in_q[(max((u0 >> ((unsigned)(threadIdx.x) & 31u)), ((1 == (-1)) ? 3862261620u : gid))) & 255u]))));
    }
    i2 = ((int)(signed char)((int)(unsigned short)(min(20, i2) % (((i0) == 0 || (i0) == (-1)) ? 1 : (i0)))));
    if (!((d2 / in_d[(u0) & 255u]) < d1)) {
        f1 = sinf((fminf((-f1), ((float)42)) / logf((-f2))));
        u0 = (u0 - 4294967295u);
    }
    f0 = (-(f1 + fminf(((q2 > q2) ? f1 : 3.4028235e38f), ((u0 != u1) ? f1 : f2))));
    for (int k3 = 0; k3 < (int)((((u2 * u0) & 4294967102u)) & 7u); k3++) {
        l0 = max(min(((l2 % (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))) % (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))), ((long long)in_q[(((k3 > i2) ? gid : u2)) & 255u])), ((long long)in_q[(93u) & 255u]));
        atomicXor(&acc_q[3], (max(q2, ((unsigned long long)l1)) ^ q0));
    }
    for (int k4 = 0; k4 < 0; k4++) {
        atomicMin(&acc_u[4], ((((f2 != f0) ? 0u : u2) + u0) ^ ((unsigned)in_i[(u1) & 255u])));
    }
    for (int k5 = 0; k5 < 1; k5++) {
        sh_i[threadIdx.x] = (i0 / (((((int)((unsigned)((int)fmin(fmax(0e0, (-2.147483648e9)), 2.147483647e9)) - (unsigned)(i2 % (((k5) == 0 || (k5) == (-1)) ? 1 : (k5)))))) == 0 || (((int)((unsigned)((int)fmin(fmax(0e0, (-2.147483648e9)), 2.147483647e9)) - (unsigned)(i2 % (((k5) == 0 || (k5) == (-1)) ? 1 : (k5)))))) == (-1)) ? 1 : (((int)((unsigned)((int)fmin(fmax(0e0, (-2.147483648e9)), 2.147483647e9)) - (unsigned)(i2 % (((k5) == 0 || (k5) == (-1)) ? 1 : (k5))))))));
        __syncthreads();
        i0 = sh_i[(threadIdx.x + (u1)) % blockDim.x];
        __syncthreads();
        i0 = i1;
    }
    u1 = ((f0 >= f2) ? 4294967295u : u1);
    i2 = (__all_sync(0xffffffffu, (((-59ll) ^ (l2 ^ 4842833149447201572ll)) > max((l2 / (((l2) == 0ll || (l2) == (-1ll)) ? 1ll : (l2))), l2))) != 0);
    d0 = (d1 - fmod(fabs(in_d[(4294967295u) & 255u]), d0));
    u0 = ((unsigned)9223372036854775808ull);
    i0 = (~i0);
    d2 = (((-0e0) / cos((d2 - 6.838168595396246e195))) + (d1 + d1));
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
