// hone-difftest case 4251 of seed 4: grid 3, block 32; inputs as `hone-difftest show --seed 4 --index 4251` generates them.
// compiler (generated kernel): out_i[155] (thread 51): emulator 8, GPU 4194304; 2 element(s) differ; built with `--ptxas-options=-O0`, the GPU gives the emulator's values
__global__ void dt_4_4251(const int *in_i, const unsigned long long *in_q, const float *in_f, const double *in_d, int *out_i, unsigned *out_u, long long *out_l, unsigned long long *out_q, float *out_f, double *out_d, unsigned *acc_u, unsigned long long *acc_q)
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
    i2 = (__any_sync(0xffffffffu, (u2 >= 2555447395u)) != 0);
    if (((((long long)((unsigned long long)((long long)fminf(fmaxf(f0, (-9.223372e18f)), 9.2233715e18f)) + (unsigned long long)((i1 == i2) ? l1 : (-2172776616374535837ll)))) & ((-41ll) ^ l0)) >= l1)) {
        d0 = ((double)in_f[(((unsigned)in_i[((u2 + u1)) & 255u])) & 255u]);
        d1 = d0;
        u2 = blockIdx.x;
    }
    u1 = (u1 + (-u2));
    f1 = ((float)(in_q[((u0 / ((4294967295u) == 0u ? 1u : (4294967295u)))) & 255u] | q2));
    if ((((long long)(0ull - (unsigned long long)(l0))) == (~((long long)((unsigned long long)(281474976710656ll | l0) - (unsigned long long)9223372036854775807ll))))) {
        f0 = ((f1 / f1) + (ceilf(in_f[(u0) & 255u]) * ((f0 - f1) - f1)));
    } else {
        q1 = (q0 + q1);
        for (int k0 = 0; k0 < 3; k0++) {
            if ((((long long)((unsigned long long)1ll + (unsigned long long)l1)) != l1)) {
                atomicMax(&acc_u[5], (u0 >> ((unsigned)(u2) & 31u)));
                f2 = (((float)((i1 >> ((unsigned)(i0) & 31u)) | max(i1, k0))) + in_f[(((threadIdx.x ^ 2601391991u) << ((unsigned)(u1) & 31u))) & 255u]);
                f2 = (-f0);
            }
        }
        if ((((~l0) < 0ll) || ((1u << ((unsigned)(u1) & 31u)) > (((unsigned)in_i[(u2) & 255u]) & 174u)))) {
            i2 = (((int)(unsigned char)((int)(~u1))) / (((i0) == 0 || (i0) == (-1)) ? 1 : (i0)));
            i2 = (min(min(((int)(0u - (unsigned)(i1))), max(i2, i1)), ((int)(0u - (unsigned)((i0 % ((((-1562897854)) == 0 || ((-1562897854)) == (-1)) ? 1 : ((-1562897854)))))))) | (-2147483647 - 1));
            for (int k1 = 0; k1 < 2; k1++) {
                i2 = (4194304 >> ((unsigned)((max(i1, ((i2 > i0) ? i0 : k1)) >> ((unsigned)(((i0 % (((i1) == 0 || (i1) == (-1)) ? 1 : (i1))) >> ((unsigned)(i2) & 31u))) & 31u))) & 31u));
            }
        } else {
            d0 = in_d[((u0 >> ((unsigned)(max(((unsigned)fmin(fmax(6.473062309690949e3, 0e0), 4.294967295e9)), blockDim.x)) & 31u))) & 255u];
            f2 = 1.2e1f;
            u1 = ((l2 < l0) ? max(u1, ((u1 * 1u) >> ((unsigned)((u2 ^ u1)) & 31u))) : max(u0, blockDim.x));
        }
    }
    f1 = f1;
    u0 = ((d1 <= d2) ? u2 : u1);
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
