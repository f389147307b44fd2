// hone-difftest case 407 of seed 3: grid 3, block 256; inputs as `hone-difftest show --seed 3 --index 407` generates them.
// mismatch (generated kernel): out_d[27] (thread 9): emulator -4.16146844625473e-1 (0xbfdaa22660000000), GPU -4.1614681482315063e-1 (0xbfdaa22640000000); 48 element(s) differ
__global__ void dt_3_407(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    i1 = min(((in_i[(u1) & 255u] >> ((unsigned)((i2 ^ i1)) & 31u)) >> ((unsigned)(i0) & 31u)), max(2052481609, (((int)u1) & 0)));
    l0 = (((long long)fmin(fmax(fabs(d1), (-9.223372036854776e18)), 9.223372036854775e18)) | l2);
    if ((l2 == max(l2, l0))) {
        l2 = (~137438953472ll);
    }
    if ((i2 <= ((-2147483647 - 1) >> ((unsigned)(max((i0 ^ i2), ((int)((unsigned)(-2147483647 - 1) - (unsigned)i1)))) & 31u)))) {
        atomicMax(&acc_u[5], ((unsigned)fminf(fmaxf(f2, 0e0f), 4.294967e9f)));
        d0 = ((double)cosf((-(-f1))));
    }
    i2 = __shfl_down_sync(0xffffffffu, ((int)((unsigned)((int)(signed char)i2) - (unsigned)(((int)((unsigned)37 * (unsigned)i2)) / ((((i1 >> ((unsigned)(i0) & 31u))) == 0 || ((i1 >> ((unsigned)(i0) & 31u))) == (-1)) ? 1 : ((i1 >> ((unsigned)(i0) & 31u))))))), (((u2 == 1632716286u) ? (blockDim.x + lane) : u2) & 31u), 2);
    d2 = ((-in_d[((~u0)) & 255u]) * (d1 + d2));
    atomicMax(&acc_q[5], min((q1 + max(q1, q1)), q2));
    q0 = __shfl_xor_sync(0xffffffffu, (q1 / ((q0) == 0ull ? 1ull : (q0))), (u1 & 31u), 2);
    u0 = min(max(u1, u2), (max(((unsigned)fmin(fmax(d0, 0e0), 4.294967295e9)), (gid ^ gid)) - u0));
    q1 = ((unsigned long long)blockIdx.x);
    if ((blockDim.x != ((q1 == (q1 & q0)) ? (-((unsigned)l1)) : (-(-0u))))) {
        d0 = d0;
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
