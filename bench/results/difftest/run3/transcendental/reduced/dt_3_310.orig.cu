// hone-difftest case 310 of seed 3: grid 2, block 96; inputs as `hone-difftest show --seed 3 --index 310` generates them.
// mismatch (generated kernel): out_d[423] (thread 141): emulator -6.679067652981563e306 (0xffa305ca2b51569f), GPU -6.679067652981523e306 (0xffa305ca2b51567f); 1 element(s) differ
__global__ void dt_3_310(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    if (((q1 & (in_q[(3755140366u) & 255u] + ((q1 != q0) ? q0 : q0))) != q0)) {
        d1 = d2;
    } else {
        i1 = (0 ^ i2);
    }
    f0 = f1;
    if (((f1 / ceilf(in_f[(u1) & 255u])) != (f2 - fabsf(((float)u0))))) {
        d0 = d2;
        d2 = (fmod(in_d[(u2) & 255u], fmax(d0, d2)) - ((d2 - fmin(d0, d2)) / (((d1 == d2) ? d1 : d2) / (-0e0))));
    }
    d0 = fma((1.7976931348623157e308 - 3.7692544035428e-310), (-fmod(exp(d0), d0)), (-(-(d2 - d2))));
    if ((min(((unsigned)fminf(fmaxf((-1.1e1f), 0e0f), 4.294967e9f)), max(lane, u1)) != blockIdx.x)) {
        i1 = (~i0);
        for (int k0 = 0; k0 < 3; k0++) {
            u2 = 4294967192u;
            u2 = ((((f1 - f0) - (-f2)) >= (f2 - (4.2621853e1f * f1))) ? u1 : (-u1));
        }
    } else {
        f2 = f2;
        for (int k1 = 0; k1 < 0; k1++) {
            l0 = ((long long)((unsigned long long)l2 + (unsigned long long)(-1797940764222761007ll)));
            q1 = (min(q1, 94ull) - (~((u0 != u0) ? q0 : ((unsigned long long)fmin(fmax((-1.6e1), 0e0), 1.844674407370955e19)))));
        }
        atomicOr(&acc_q[2], q0);
    }
    u0 = ((((unsigned)l2) / ((max(u2, (-lane))) == 0u ? 1u : (max(u2, (-lane))))) << ((unsigned)(u2) & 31u));
    if ((fmax(d1, (d2 * d0)) != ((-4.049152127180529e-5) / (d0 * d0)))) {
        q1 = (-(((~q0) & (18446744073709551589ull ^ q0)) | q2));
        d2 = d1;
    } else {
        i1 = ((int)((unsigned)((int)((unsigned)i0 + (unsigned)in_i[((4294967192u * u0)) & 255u])) + (unsigned)(i0 >> ((unsigned)(i0) & 31u))));
        atomicMin(&acc_u[4], 4294967113u);
        f2 = (f0 / f1);
    }
    l0 = min(min(((d0 != (-1.6e1)) ? ((long long)1) : l0), ((long long)((unsigned long long)l2 * (unsigned long long)1ll))), ((long long)(0ull - (unsigned long long)(l2))));
    i2 = ((int)((unsigned)((int)(0u - (unsigned)(i2))) - (unsigned)i1));
    for (int k2 = 0; k2 < (int)((max(max(2147483647u, lane), (blockIdx.x - u0))) & 7u); k2++) {
        if ((l0 < ((q0 == min(q1, q0)) ? ((l1 / (((l0) == 0ll || (l0) == (-1ll)) ? 1ll : (l0))) ^ (l1 ^ l0)) : 134ll))) {
            l1 = l0;
            atomicXor(&acc_q[3], (((q1 + q1) << ((unsigned)(q1) & 63u)) - q0));
        }
        d2 = (-8e0);
    }
    u2 = __ballot_sync(0xffffffffu, ((-d0) < (d0 * (-9.431372031524727e-1))));
    l1 = __shfl_up_sync(0xffffffffu, l1, (u1 & 31u));
    u0 = (~((((-5e0f) == f0) ? u1 : max(u1, u0)) << ((unsigned)(blockIdx.x) & 31u)));
    i0 = 1;
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
