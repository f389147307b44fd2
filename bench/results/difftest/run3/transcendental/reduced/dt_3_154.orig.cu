// hone-difftest case 154 of seed 3: grid 1, block 256; inputs as `hone-difftest show --seed 3 --index 154` generates them.
// mismatch (generated kernel): out_f[136] (thread 45): emulator 3.5237594e0 (0x40618546), GPU 3.5237591e0 (0x40618545); 4 element(s) differ
__global__ void dt_3_154(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    f0 = (((q1 > (q2 + q2)) ? f2 : ((f0 / f1) / ((-0e0f) + f1))) - floorf(((-2.0631484e-26f) * (f2 / f1))));
    f1 = __shfl_xor_sync(0xffffffffu, logf(((f1 * f2) / logf(f0))), ((threadIdx.x * blockIdx.x) & 31u));
    q1 = q1;
    for (int k0 = 0; k0 < 1; k0++) {
        if ((l1 < ((i1 == (i1 | 267787866)) ? l0 : 9223372036854775807ll))) {
            q1 = (~q1);
            for (int k1 = 0; k1 < 3; k1++) {
                if (((d1 + log(d1)) != sin(d2))) continue;
                if ((min(l2, (l0 % (((52ll) == 0ll || (52ll) == (-1ll)) ? 1ll : (52ll)))) <= max(l2, (l0 ^ 9223372036854775807ll)))) break;
                l0 = (-60ll);
            }
        }
    }
    if ((((int)fminf(fmaxf((-(f2 - (-0e0f))), (-2.1474836e9f)), 2.1474835e9f)) == (i2 | 0))) {
        u2 = (((((l0 < (-4728778749492810230ll)) ? 4294967295u : u1) * u2) / ((u0) == 0u ? 1u : (u0))) ^ lane);
        if (((~min(((unsigned long long)i1), q0)) != q0)) {
            l2 = 45ll;
            atomicAnd(&acc_u[1], ((round((-0e0)) >= ((-4.5e0) * d1)) ? ((~blockIdx.x) * (u2 / ((u2) == 0u ? 1u : (u2)))) : (u1 << ((unsigned)(max(u2, u2)) & 31u))));
        }
        d0 = ((in_d[((gid << ((unsigned)(4294967249u) & 31u))) & 255u] * d2) / fmin((sin(d2) / d2), d2));
    }
    atomicAdd(&acc_u[0], (((~197u) >> ((unsigned)(((f1 == 7.472967e1f) ? u1 : u0)) & 31u)) / ((u1) == 0u ? 1u : (u1))));
    d1 = __shfl_down_sync(0xffffffffu, exp((-d1)), (u0 & 31u));
    d0 = (ceil(d0) * (d1 * d2));
    atomicXor(&acc_u[3], max(u2, 4294967295u));
    d1 = __shfl_sync(0xffffffffu, d2, u2, 4);
    if (threadIdx.x == 0u) {
        sacc_u[0] = 4294967295u;
    }
    __syncthreads();
    atomicMax(&sacc_u[0], u2);
    __syncthreads();
    u0 = sacc_u[0];
    __syncthreads();
    f2 = fmodf(f0, (f2 - f0));
    f2 = __shfl_sync(0xffffffffu, ((-(f1 + f1)) * ((f0 * f2) * ((float)i0))), (max((u2 | u2), min(u0, threadIdx.x)) & 31u));
    l0 = __shfl_up_sync(0xffffffffu, ((long long)fminf(fmaxf(8.956247e-15f, (-9.223372e18f)), 9.2233715e18f)), (4027908125u & 31u));
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
