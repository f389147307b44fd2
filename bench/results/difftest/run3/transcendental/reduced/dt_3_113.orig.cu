// hone-difftest case 113 of seed 3: grid 3, block 128; inputs as `hone-difftest show --seed 3 --index 113` generates them.
// mismatch (generated kernel): out_f[39] (thread 13): emulator 1.0000012e0 (0x3f80000a), GPU 1.0000011e0 (0x3f800009); 43 element(s) differ
__global__ void dt_3_113(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    q2 = __shfl_sync(0xffffffffu, 18446744073709551615ull, ((70u >> ((unsigned)((4294967137u | threadIdx.x)) & 31u)) & 31u));
    u0 = 1u;
    l2 = ((long long)((unsigned long long)max(l2, l0) << ((unsigned)((l2 / (((min((l1 >> ((unsigned)(l0) & 63u)), min(l2, l2))) == 0ll || (min((l1 >> ((unsigned)(l0) & 63u)), min(l2, l2))) == (-1ll)) ? 1ll : (min((l1 >> ((unsigned)(l0) & 63u)), min(l2, l2)))))) & 63u)));
    for (int k0 = 0; k0 < 2; k0++) {
        d1 = d0;
        u2 = min(min(u0, (u0 / ((u1) == 0u ? 1u : (u1)))), ((unsigned)i0));
        for (int k1 = 0; k1 < (int)((((u1 != 52362021u) ? u0 : 2129145521u)) & 7u); k1++) {
            u2 = u1;
            i1 = i1;
        }
    }
    u0 = 32768u;
    f0 = expf((-f1));
    for (int k2 = 0; k2 < 2; k2++) {
        d2 = ((-d2) - cos((d0 + in_d[(u2) & 255u])));
        if ((l2 != l0)) {
            l1 = l0;
        } else {
            l0 = (l2 & min(0ll, max(((long long)i1), max(l2, (-8715311720122598391ll)))));
            if ((u1 >= (-max(u2, ((l0 != l1) ? u2 : 54u))))) {
                atomicAnd(&acc_u[1], u0);
                f2 = (f1 / ((-((float)34359738368ll)) / ((-(-0e0f)) - in_f[(u2) & 255u])));
                q1 = (q0 / ((q2) == 0ull ? 1ull : (q2)));
            }
        }
    }
    u0 = u2;
    atomicAdd(&acc_q[0], q2);
    sh_i[threadIdx.x] = i2;
    __syncthreads();
    i0 = sh_i[(threadIdx.x + ((threadIdx.x ^ lane))) % blockDim.x];
    __syncthreads();
    if ((((min(u0, u2) >= (u0 / ((4294967183u) == 0u ? 1u : (4294967183u)))) || ((d2 * d1) <= (-d0))) || ((~((unsigned long long)l2)) > q1))) {
        q1 = (((unsigned long long)l2) - (min(((unsigned long long)fminf(fmaxf(f1, 0e0f), 1.8446743e19f)), (q0 + q0)) | (9007199254740992ull ^ (114ull >> ((unsigned)(q0) & 63u)))));
        i0 = 0;
        for (int k3 = 0; k3 < (int)(((~(u1 | u2))) & 7u); k3++) {
            u2 = ((4294967190u ^ u1) - ((threadIdx.x & u2) ^ gid));
        }
    } else {
        q1 = min(((unsigned long long)fminf(fmaxf(((-0e0f) - (f2 / f0)), 0e0f), 1.8446743e19f)), ((-q1) + (q2 ^ (q1 | q0))));
        u0 = lane;
    }
    u2 = ((u2 != (blockDim.x * max(u1, u0))) ? u2 : min(blockIdx.x, (blockIdx.x & u1)));
    u2 = __shfl_down_sync(0xffffffffu, ((u1 + (gid & 2147483647u)) - (((unsigned)i0) & blockDim.x)), (((unsigned)in_i[(lane) & 255u]) & 31u));
    l2 = ((long long)(0ull - (unsigned long long)((l2 ^ ((long long)((unsigned long long)l0 - (unsigned long long)l0))))));
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
