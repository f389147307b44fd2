// Tuning template written by hone synth for `jacobi_sha`: HONE_VARIANT picks the kernel,
// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk).
#if HONE_VARIANT == 0
#define hone_variant_0 hone_tuned
#elif HONE_VARIANT == 1
#define hone_variant_1 hone_tuned
#elif HONE_VARIANT == 2
#define hone_variant_2 hone_tuned
#endif

namespace hone_reference {
extern "C" __global__ void jacobi_sha_reference(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
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
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    float g = 0.0f;
    int hone_z0 = 1 + (int)blockIdx.z * hone_zchunk;
    for (int z = hone_z0; z < nz - 1 && z - hone_z0 < hone_zchunk; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = p[q];
        __syncthreads();
        float s0 = a[q] * p[q + xy] + a[n + q] * (threadIdx.y != blockDim.y - 1 ? sb[blockDim.x + csb] : p[q + nx]) + a[2 * n + q] * (threadIdx.x != blockDim.x - 1 ? sb[csb + 1] : p[q + 1]) + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx]) + b[n + q] * ((threadIdx.x != blockDim.x - 1 && threadIdx.y != blockDim.y - 1 ? sb[blockDim.x + csb + 1] : p[q + nx + 1]) - (threadIdx.y != 0 && threadIdx.x != blockDim.x - 1 ? sb[csb - blockDim.x + 1] : p[q - nx + 1]) - (threadIdx.x != 0 && threadIdx.y != blockDim.y - 1 ? sb[blockDim.x + csb - 1] : p[q + nx - 1]) + (threadIdx.x != 0 && threadIdx.y != 0 ? sb[csb - blockDim.x - 1] : p[q - nx - 1])) + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1]) + c[q] * p[q - xy] + c[n + q] * (threadIdx.y != 0 ? sb[csb - blockDim.x] : p[q - nx]) + c[2 * n + q] * (threadIdx.x != 0 ? sb[csb - 1] : p[q - 1]) + wrk1[q];
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

