// Tuning template written by hone synth for `jacobi_sleeve`: HONE_VARIANT picks the kernel,
// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk).
#if HONE_VARIANT == 0
#define hone_variant_0 hone_tuned
#elif HONE_VARIANT == 1
#define hone_variant_1 hone_tuned
#elif HONE_VARIANT == 2
#define hone_variant_2 hone_tuned
#endif

namespace hone_reference {
extern "C" __global__ void jacobi_sleeve_reference(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        float s0 = a[q] * p[q + xy] + a[n + q] * p[q + nx] + a[2 * n + q] * p[q + 1] + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx]) + b[n + q] * (p[q + nx + 1] - p[q - nx + 1] - p[q + nx - 1] + p[q - nx - 1]) + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1]) + c[q] * p[q - xy] + c[n + q] * p[q - nx] + c[2 * n + q] * p[q - 1] + wrk1[q];
        float ss = (s0 * a[3 * n + q] - p[q]) * bnd[q];
        g += ss * ss;
        wrk2[q] = p[q] + omega * ss;
    }
    gosa[x + y * nx] = g;
}
} // namespace hone_reference

namespace hone_v0 {
extern "C" __global__ void hone_variant_0(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *wrk2, float *gosa, int nx, int ny, int nz, float omega, int hone_zchunk) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float g = 0.0f;
    int hone_z0 = 1 + (int)blockIdx.z * hone_zchunk;
    for (int z = hone_z0; z < nz - 1 && z - hone_z0 < hone_zchunk; ++z) {
        int q = x + y * nx + z * xy;
        float s0 = a[q] * p[q + xy] + a[n + q] * p[q + nx] + a[2 * n + q] * p[q + 1] + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx]) + b[n + q] * (p[q + nx + 1] - p[q - nx + 1] - p[q + nx - 1] + p[q - nx - 1]) + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1]) + c[q] * p[q - xy] + c[n + q] * p[q - nx] + c[2 * n + q] * p[q - 1] + wrk1[q];
        float ss = (s0 * a[3 * n + q] - p[q]) * bnd[q];
        g += ss * ss;
        wrk2[q] = p[q] + omega * ss;
    }
    atomicAdd(&gosa[x + y * nx], g);
}
} // namespace hone_v0

namespace hone_v1 {
extern "C" __global__ void hone_variant_1(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *wrk2, float *gosa, int nx, int ny, int nz, float omega, int hone_zchunk) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float *sb = hone_smem;
    int csb = (threadIdx.y + 1) * (blockDim.x + 2) + threadIdx.x + 1;
    float g = 0.0f;
    int hone_z0 = 1 + (int)blockIdx.z * hone_zchunk;
    for (int z = hone_z0; z < nz - 1 && z - hone_z0 < hone_zchunk; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = p[q];
        if (threadIdx.x == 0) {
            sb[csb - 1] = p[q - 1];
        }
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 1] = p[q + 1];
        }
        if (threadIdx.y == 0) {
            sb[csb - blockDim.x - 2] = p[q - nx];
        }
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + blockDim.x + 2] = p[q + nx];
        }
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            sb[csb - blockDim.x - 3] = p[q - nx - 1];
        }
        if (csb == 2 * blockDim.x + 2) {
            sb[csb - blockDim.x - 1] = p[q - nx + 1];
        }
        if (threadIdx.x == 0 && threadIdx.y == blockDim.y - 1) {
            sb[csb + blockDim.x + 1] = p[q + nx - 1];
        }
        if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1) {
            sb[csb + blockDim.x + 3] = p[q + nx + 1];
        }
        __syncthreads();
        float pw = sb[csb - 1];
        float pe = sb[csb + 1];
        float pn = sb[csb - blockDim.x - 2];
        float ps = sb[csb + blockDim.x + 2];
        float pnw = sb[csb - blockDim.x - 3];
        float pne = sb[csb - blockDim.x - 1];
        float psw = sb[csb + blockDim.x + 1];
        float pse = sb[csb + blockDim.x + 3];
        float s0 = a[q] * p[q + xy] + a[n + q] * ps + a[2 * n + q] * pe + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx]) + b[n + q] * (pse - pne - psw + pnw) + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1]) + c[q] * p[q - xy] + c[n + q] * pn + c[2 * n + q] * pw + wrk1[q];
        float ss = (s0 * a[3 * n + q] - sb[csb]) * bnd[q];
        g += ss * ss;
        wrk2[q] = sb[csb] + omega * ss;
        __syncthreads();
    }
    atomicAdd(&gosa[x + y * nx], g);
}
} // namespace hone_v1

namespace hone_v2 {
extern "C" __global__ void hone_variant_2(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *wrk2, float *gosa, int nx, int ny, int nz, float omega, int hone_zchunk) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        float s0 = a[q] * p[q + xy] + a[n + q] * p[q + nx] + a[2 * n + q] * p[q + 1] + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx]) + b[n + q] * (p[q + nx + 1] - p[q - nx + 1] - p[q + nx - 1] + p[q - nx - 1]) + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1]) + c[q] * p[q - xy] + c[n + q] * p[q - nx] + c[2 * n + q] * p[q - 1] + wrk1[q];
        float ss = (s0 * a[3 * n + q] - p[q]) * bnd[q];
        g += ss * ss;
        wrk2[q] = p[q] + omega * ss;
    }
    gosa[x + y * nx] = g;
}
} // namespace hone_v2

