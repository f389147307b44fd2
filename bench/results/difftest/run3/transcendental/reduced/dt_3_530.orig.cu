// hone-difftest case 530 of seed 3: grid 3, block 64; inputs as `hone-difftest show --seed 3 --index 530` generates them.
// mismatch (generated kernel): out_d[307] (thread 102): emulator 1.4285585479491697e-50 (0x35956126259e093c), GPU 1.42855854794917e-50 (0x35956126259e093d); 1 element(s) differ
__global__ void dt_3_530(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    d0 = log((-0e0));
    if (((min((~q2), ((u2 > 1u) ? q0 : q0)) & (q2 + q1)) == q2)) {
        if (((min(((d0 <= d1) ? l1 : (-1ll)), (~l1)) ^ l0) >= l0)) {
            l0 = l2;
            i2 = 42;
            f0 = f2;
        }
        q2 = (((unsigned long long)i2) >> ((unsigned)(((q1 >= (~18446744073709551506ull)) ? (8815818882118359044ull >> ((unsigned)(max(18446744073709551615ull, 9380903648198830958ull)) & 63u)) : q2)) & 63u));
        i0 = ((int)(unsigned char)2147483647);
    }
    f1 = f1;
    if ((((u2 > ((f2 < f0) ? lane : u2)) ? f0 : (f0 + (f0 - f0))) > (-f0))) {
        d1 = (exp((fmax(1.027526768795691e-308, d2) * (-d1))) / d1);
        d0 = d2;
    } else {
        f0 = 2.2e1f;
        d2 = ((double)(i1 ^ ((int)((long long)(0ull - (unsigned long long)(l0))))));
        if ((u2 <= (u2 << ((unsigned)((~u1)) & 31u)))) {
            atomicAnd(&acc_u[1], u2);
            f2 = f1;
        }
    }
    for (int k0 = 0; k0 < 1; k0++) {
        for (int k1 = 0; k1 < 0; k1++) {
            if ((((u0 / (((((-5e0f) < f0) ? u1 : u2)) == 0u ? 1u : ((((-5e0f) < f0) ? u1 : u2)))) * u2) >= (u2 - 1162102405u))) {
                d2 = in_d[(max(((~blockDim.x) + (u0 * u2)), (((unsigned)in_i[(u2) & 255u]) / ((gid) == 0u ? 1u : (gid))))) & 255u];
                u0 = 33554432u;
            } else {
                u1 = u1;
            }
            l0 = l1;
            for (int k2 = 0; k2 < 0; k2++) {
                q1 = ((unsigned long long)i2);
                q2 = (-q0);
            }
        }
        if ((i2 == (k0 | ((int)(short)i2)))) {
            u2 = ((~(-((unsigned)fmin(fmax(d0, 0e0), 4.294967295e9)))) + u1);
            for (int k3 = 0; k3 < (int)((4294967295u) & 7u); k3++) {
                l1 = (l1 >> ((unsigned)(l2) & 63u));
            }
            f0 = f2;
        }
        l0 = (((long long)((unsigned long long)max(min(l2, l2), l1) << ((unsigned)(l2) & 63u))) / (((2048ll) == 0ll || (2048ll) == (-1ll)) ? 1ll : (2048ll)));
    }
    q2 = max(q1, max(min(((q0 >= q0) ? q2 : 1ull), max(576460752303423488ull, q2)), (((q1 < q2) ? q2 : 9223372036854775808ull) * q0)));
    l2 = (-162ll);
    u2 = 1u;
    sh_d[threadIdx.x] = ((double)max(i1, i0));
    __syncthreads();
    d2 = sh_d[(threadIdx.x + (u0)) % blockDim.x];
    __syncthreads();
    q1 = (q1 / ((q0) == 0ull ? 1ull : (q0)));
    i0 = (__all_sync(0xffffffffu, ((f0 >= f2) || (lane <= u2))) != 0);
    atomicAdd(&acc_q[0], q1);
    u0 = ((unsigned)i0);
    i1 = i1;
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
