// hone-difftest case 343 of seed 3: grid 1, block 96; inputs as `hone-difftest show --seed 3 --index 343` generates them.
// mismatch (generated kernel): out_f[15] (thread 5): emulator 8.397446e-2 (0x3dabfacd), GPU 8.397445e-2 (0x3dabfacc); 16 element(s) differ
__global__ void dt_3_343(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    l0 = (-1ll);
    f0 = sinf(f0);
    q1 = q2;
    if ((q0 < ((~((unsigned long long)fminf(fmaxf(f1, 0e0f), 1.8446743e19f))) - q0))) {
        for (int k0 = 0; k0 < 2; k0++) {
            atomicAdd(&acc_q[0], ((unsigned long long)i1));
            i0 = (i0 % (((max(((int)(q2 >> ((unsigned)(q1) & 63u))), i0)) == 0 || (max(((int)(q2 >> ((unsigned)(q1) & 63u))), i0)) == (-1)) ? 1 : (max(((int)(q2 >> ((unsigned)(q1) & 63u))), i0))));
        }
        q0 = q2;
        if (((((-q1) != (q1 + 93ull)) && (f1 <= 8.7232665e13f)) || ((l0 < (l2 | l2)) && (175 > i2)))) {
            u0 = max(((unsigned)in_i[(max((u0 & u0), u2)) & 255u]), (u0 << ((unsigned)(180u) & 31u)));
            u2 = u1;
            if ((((long long)((unsigned long long)((~l1) | l0) * (unsigned long long)l2)) > ((l2 ^ (-1ll)) >> ((unsigned)(max((l0 & l0), min(l2, l2))) & 63u)))) {
                i1 = in_i[(u0) & 255u];
                f2 = (((i1 % ((((2147483647 / (((i1) == 0 || (i1) == (-1)) ? 1 : (i1)))) == 0 || ((2147483647 / (((i1) == 0 || (i1) == (-1)) ? 1 : (i1)))) == (-1)) ? 1 : ((2147483647 / (((i1) == 0 || (i1) == (-1)) ? 1 : (i1)))))) != i2) ? ((-(f1 / (-4.3041947e-1f))) + f2) : sqrtf(1.328456e-39f));
            }
        } else {
            l2 = l2;
            i2 = in_i[(((unsigned)(max(q1, 196159385749177243ull) - min(1ull, q0)))) & 255u];
            u0 = ((((l1 >= l0) ? (lane | threadIdx.x) : u2) / ((((3779668306u / ((u2) == 0u ? 1u : (u2))) + ((f1 != f2) ? 0u : gid))) == 0u ? 1u : (((3779668306u / ((u2) == 0u ? 1u : (u2))) + ((f1 != f2) ? 0u : gid))))) / (((u2 << ((unsigned)((~lane)) & 31u))) == 0u ? 1u : ((u2 << ((unsigned)((~lane)) & 31u)))));
        }
    } else {
        if ((((gid << ((unsigned)(((u0 == u0) ? u1 : 1u)) & 31u)) > 4294967237u) && (((int)(0u - (unsigned)((-41)))) == ((int)max(q0, q1))))) {
            u2 = (((lane >> ((unsigned)(u2) & 31u)) ^ ((unsigned)i0)) + min(((u1 % ((u1) == 0u ? 1u : (u1))) | (u2 | u1)), (max(3890319924u, u1) << ((unsigned)(((l2 < l2) ? u1 : u0)) & 31u))));
        }
        l2 = l1;
    }
    u2 = ((max(u2, u0) + ((unsigned)((int)fminf(fmaxf(f0, (-2.1474836e9f)), 2.1474835e9f)))) / (((-9970522u)) == 0u ? 1u : ((-9970522u))));
    u0 = __shfl_down_sync(0xffffffffu, u1, ((~(u1 / ((337598349u) == 0u ? 1u : (337598349u)))) & 31u), 8);
    sh_l[threadIdx.x] = ((long long)fminf(fmaxf(cosf(fmodf((-9.3391e-4f), f1)), (-9.223372e18f)), 9.2233715e18f));
    __syncthreads();
    l2 = sh_l[(threadIdx.x + (0u)) % blockDim.x];
    __syncthreads();
    l2 = l1;
    atomicXor(&acc_q[3], (~q2));
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
