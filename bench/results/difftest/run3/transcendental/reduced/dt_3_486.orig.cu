// hone-difftest case 486 of seed 3: grid 4, block 32; inputs as `hone-difftest show --seed 3 --index 486` generates them.
// mismatch (generated kernel): out_f[14] (thread 4): emulator -8.4404606e-1 (0xbf581367), GPU -8.440462e-1 (0xbf581369); 7 element(s) differ
__global__ void dt_3_486(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    l1 = ((long long)in_q[((((unsigned)q2) - gid)) & 255u]);
    q0 = (((u0 > ((u0 == u0) ? u2 : blockDim.x)) ? q0 : q0) ^ q1);
    d1 = fmin((d2 * (-fma(d1, d0, d1))), ((double)16085334909733279670ull));
    d0 = (!(i0 <= min(i1, i1)) ? d2 : d1);
    if ((u0 == ((-lane) << ((unsigned)(u2) & 31u)))) {
        i0 = i1;
    }
    u0 = __ballot_sync(0xffffffffu, (round((d1 - d2)) < ((d0 < (-1.2134148819551882e1)) ? d1 : (d0 / d2))));
    if ((9e0f != ((float)(l1 >> ((unsigned)(l1) & 63u))))) {
        q2 = q1;
        atomicOr(&acc_q[2], (-q0));
        atomicAnd(&acc_u[1], ((u2 << ((unsigned)(u2) & 31u)) << ((unsigned)(16u) & 31u)));
    } else {
        q0 = ((9223372036854775807ull - ((q1 ^ q1) % ((max(q0, 90ull)) == 0ull ? 1ull : (max(q0, 90ull))))) | (~q1));
        l0 = l0;
        d1 = (-5.382731262259961e0);
    }
    d1 = (d0 - (((~i0) == i2) ? d0 : ((d0 + d1) * (d2 * d2))));
    if (threadIdx.x == 0u) {
        sacc_u[0] = 0u;
    }
    __syncthreads();
    atomicAnd(&sacc_u[0], min((~(~u0)), u0));
    __syncthreads();
    u1 = sacc_u[0];
    __syncthreads();
    f0 = sinf((((-8.7166316e-4f) / (f2 / f0)) * f1));
    if (!(floorf(f1) > ((86ll > (-1ll)) ? f0 : (f0 * f1)))) {
        q0 = max((18446744073709551615ull * (-in_q[(threadIdx.x) & 255u])), (-4294967296ull));
        u2 = (gid << ((unsigned)((~2798012540u)) & 31u));
    }
    for (int k0 = 0; k0 < 1; k0++) {
        for (int k1 = 0; k1 < 1; k1++) {
            q2 = in_q[((lane >> ((unsigned)((160u >> ((unsigned)(min(u1, u2)) & 31u))) & 31u))) & 255u];
            f2 = (logf(f0) / logf(1.9e1f));
        }
    }
    u1 = ((((unsigned)fmin(fmax(cos(d1), 0e0), 4.294967295e9)) >> ((unsigned)(u1) & 31u)) * lane);
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
