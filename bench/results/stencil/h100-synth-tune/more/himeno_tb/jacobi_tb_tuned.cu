// Tuning template written by hone synth for `jacobi_tb`: HONE_VARIANT picks the kernel,
// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk).
#if HONE_VARIANT == 0
#define hone_variant_0 hone_tuned
#elif HONE_VARIANT == 1
#define hone_variant_1 hone_tuned
#endif

namespace hone_reference {
extern "C" __global__ void jacobi_tb_reference(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *mid, float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int bx = blockDim.x * blockIdx.x;
    int by = blockDim.y * blockIdx.y;
    int xy = nx * ny;
    int n = xy * nz;
    int tw = blockDim.x + 2;
    int tn = tw * (blockDim.y + 2);
    int csb = (threadIdx.y + 1) * tw + threadIdx.x + 1;
    float *sb = hone_smem;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int tm = (z + 2) % 3 * tn;
        int t0 = z % 3 * tn;
        int tp = (z + 1) % 3 * tn;
        for (int kz = z == 1 ? 0 : z + 1; kz <= z + 1; ++kz) {
            for (int m = threadIdx.x + threadIdx.y * blockDim.x; m < tn; m += blockDim.x * blockDim.y) {
                int hx = bx + m % tw;
                int hy = by + m / tw;
                int h = hx + hy * nx + kz * xy;
                float v = p[h];
                if ((hx >= 1) && hx < nx - 1 && (hy >= 1) && hy < ny - 1 && (kz >= 1) && kz < nz - 1) {
                    float s0 = a[h] * p[h + xy] + a[n + h] * p[h + nx] + a[2 * n + h] * p[h + 1] + b[h] * (p[h + xy + nx] - p[h + xy - nx] - p[h - xy + nx] + p[h - xy - nx]) + b[n + h] * (p[h + nx + 1] - p[h - nx + 1] - p[h + nx - 1] + p[h - nx - 1]) + b[2 * n + h] * (p[h + xy + 1] - p[h - xy + 1] - p[h + xy - 1] + p[h - xy - 1]) + c[h] * p[h - xy] + c[n + h] * p[h - nx] + c[2 * n + h] * p[h - 1] + wrk1[h];
                    float ss = (s0 * a[3 * n + h] - p[h]) * bnd[h];
                    v = p[h] + omega * ss;
                }
                mid[h] = v;
                sb[kz % 3 * tn + m] = mid[h];
            }
        }
        __syncthreads();
        int q = x + y * nx + z * xy;
        float s0 = a[q] * mid[q + xy] + a[n + q] * mid[q + nx] + a[2 * n + q] * mid[q + 1] + b[q] * (mid[q + xy + nx] - mid[q + xy - nx] - mid[q - xy + nx] + mid[q - xy - nx]) + b[n + q] * (mid[q + nx + 1] - mid[q - nx + 1] - mid[q + nx - 1] + mid[q - nx - 1]) + b[2 * n + q] * (mid[q + xy + 1] - mid[q - xy + 1] - mid[q + xy - 1] + mid[q - xy - 1]) + c[q] * mid[q - xy] + c[n + q] * mid[q - nx] + c[2 * n + q] * mid[q - 1] + wrk1[q];
        float ss = (s0 * a[3 * n + q] - mid[q]) * bnd[q];
        g += ss * ss;
        wrk2[q] = mid[q] + omega * ss;
    }
    gosa[x + y * nx] = g;
}
} // namespace hone_reference

namespace hone_v0 {
extern "C" __global__ void hone_variant_0(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *mid, float *wrk2, float *gosa, int nx, int ny, int nz, float omega, int hone_zchunk) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int bx = blockDim.x * blockIdx.x;
    int by = blockDim.y * blockIdx.y;
    int xy = nx * ny;
    int n = xy * nz;
    int tw = blockDim.x + 2;
    int tn = tw * (blockDim.y + 2);
    int csb = (threadIdx.y + 1) * tw + threadIdx.x + 1;
    float *sb = hone_smem;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int tm = (z + 2) % 3 * tn;
        int t0 = z % 3 * tn;
        int tp = (z + 1) % 3 * tn;
        for (int kz = z == 1 ? 0 : z + 1; kz <= z + 1; ++kz) {
            for (int m = threadIdx.x + threadIdx.y * blockDim.x; m < tn; m += blockDim.x * blockDim.y) {
                int hx = bx + m % tw;
                int hy = by + m / tw;
                int h = hx + hy * nx + kz * xy;
                float v = p[h];
                if ((hx >= 1) && hx < nx - 1 && (hy >= 1) && hy < ny - 1 && (kz >= 1) && kz < nz - 1) {
                    float s0 = a[h] * p[h + xy] + a[n + h] * p[h + nx] + a[2 * n + h] * p[h + 1] + b[h] * (p[h + xy + nx] - p[h + xy - nx] - p[h - xy + nx] + p[h - xy - nx]) + b[n + h] * (p[h + nx + 1] - p[h - nx + 1] - p[h + nx - 1] + p[h - nx - 1]) + b[2 * n + h] * (p[h + xy + 1] - p[h - xy + 1] - p[h + xy - 1] + p[h - xy - 1]) + c[h] * p[h - xy] + c[n + h] * p[h - nx] + c[2 * n + h] * p[h - 1] + wrk1[h];
                    float ss = (s0 * a[3 * n + h] - p[h]) * bnd[h];
                    v = p[h] + omega * ss;
                }
                mid[h] = v;
                sb[kz % 3 * tn + m] = mid[h];
            }
        }
        __syncthreads();
        int q = x + y * nx + z * xy;
        float s0 = a[q] * mid[q + xy] + a[n + q] * mid[q + nx] + a[2 * n + q] * mid[q + 1] + b[q] * (mid[q + xy + nx] - mid[q + xy - nx] - mid[q - xy + nx] + mid[q - xy - nx]) + b[n + q] * (mid[q + nx + 1] - mid[q - nx + 1] - mid[q + nx - 1] + mid[q - nx - 1]) + b[2 * n + q] * (mid[q + xy + 1] - mid[q - xy + 1] - mid[q + xy - 1] + mid[q - xy - 1]) + c[q] * mid[q - xy] + c[n + q] * mid[q - nx] + c[2 * n + q] * mid[q - 1] + wrk1[q];
        float ss = (s0 * a[3 * n + q] - mid[q]) * bnd[q];
        g += ss * ss;
        wrk2[q] = mid[q] + omega * ss;
    }
    gosa[x + y * nx] = g;
}
} // namespace hone_v0

namespace hone_v1 {
extern "C" __global__ void hone_variant_1(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *mid, float *wrk2, float *gosa, int nx, int ny, int nz, float omega, int hone_zchunk) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int bx = blockDim.x * blockIdx.x;
    int by = blockDim.y * blockIdx.y;
    int xy = nx * ny;
    int n = xy * nz;
    int tw = blockDim.x + 2;
    int tn = tw * (blockDim.y + 2);
    int csb = (threadIdx.y + 1) * tw + threadIdx.x + 1;
    float *sb = hone_smem;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int tm = (z + 2) % 3 * tn;
        int t0 = z % 3 * tn;
        int tp = (z + 1) % 3 * tn;
        for (int kz = z == 1 ? 0 : z + 1; kz <= z + 1; ++kz) {
            for (int m = threadIdx.x + threadIdx.y * blockDim.x; m < tn; m += blockDim.x * blockDim.y) {
                int hx = bx + m % tw;
                int hy = by + m / tw;
                int h = hx + hy * nx + kz * xy;
                float v = p[h];
                if ((hx >= 1) && hx < nx - 1 && (hy >= 1) && hy < ny - 1 && (kz >= 1) && kz < nz - 1) {
                    float s0 = a[h] * p[h + xy] + a[n + h] * p[h + nx] + a[2 * n + h] * p[h + 1] + b[h] * (p[h + xy + nx] - p[h + xy - nx] - p[h - xy + nx] + p[h - xy - nx]) + b[n + h] * (p[h + nx + 1] - p[h - nx + 1] - p[h + nx - 1] + p[h - nx - 1]) + b[2 * n + h] * (p[h + xy + 1] - p[h - xy + 1] - p[h + xy - 1] + p[h - xy - 1]) + c[h] * p[h - xy] + c[n + h] * p[h - nx] + c[2 * n + h] * p[h - 1] + wrk1[h];
                    float ss = (s0 * a[3 * n + h] - p[h]) * bnd[h];
                    v = p[h] + omega * ss;
                }
                sb[kz % 3 * tn + m] = v;
            }
        }
        __syncthreads();
        int q = x + y * nx + z * xy;
        float s0 = a[q] * sb[csb + tp] + a[n + q] * sb[csb + tw + t0] + a[2 * n + q] * sb[csb + t0 + 1] + b[q] * (sb[csb + tw + tp] - sb[csb + tp - tw] - sb[csb + tw + tm] + sb[csb + tm - tw]) + b[n + q] * (sb[csb + tw + t0 + 1] - sb[csb + t0 - blockDim.x - 1] - sb[blockDim.x + csb + t0 + 1] + sb[csb + t0 - tw - 1]) + b[2 * n + q] * (sb[csb + tp + 1] - sb[csb + tm + 1] - sb[csb + tp - 1] + sb[csb + tm - 1]) + c[q] * sb[csb + tm] + c[n + q] * sb[csb + t0 - tw] + c[2 * n + q] * sb[csb + t0 - 1] + wrk1[q];
        __syncthreads();
        float ss = (s0 * a[3 * n + q] - sb[csb + t0]) * bnd[q];
        g += ss * ss;
        wrk2[q] = sb[csb + t0] + omega * ss;
    }
    gosa[x + y * nx] = g;
}
} // namespace hone_v1

