// Tuning template written by hone synth for `box27_sleeve`: HONE_VARIANT picks the kernel,
// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk).
#if HONE_VARIANT == 0
#define hone_variant_0 hone_tuned
#elif HONE_VARIANT == 1
#define hone_variant_1 hone_tuned
#elif HONE_VARIANT == 2
#define hone_variant_2 hone_tuned
#endif

namespace hone_reference {
extern "C" __global__ void box27_sleeve_reference(const float *in, float *out, int nx, int ny, int nz, float w0, float w1, float w2, float w3) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        float faces = in[q - 1] + in[q + 1] + in[q - nx] + in[q + nx] + in[q - xy] + in[q + xy];
        float edges = in[q - nx - 1] + in[q - nx + 1] + in[q + nx - 1] + in[q + nx + 1] + in[q - xy - 1] + in[q - xy + 1] + in[q - xy - nx] + in[q - xy + nx] + in[q + xy - 1] + in[q + xy + 1] + in[q + xy - nx] + in[q + xy + nx];
        float corners = in[q - xy - nx - 1] + in[q - xy - nx + 1] + in[q - xy + nx - 1] + in[q - xy + nx + 1] + in[q + xy - nx - 1] + in[q + xy - nx + 1] + in[q + xy + nx - 1] + in[q + xy + nx + 1];
        out[q] = w0 * in[q] + w1 * faces + w2 * edges + w3 * corners;
    }
}
} // namespace hone_reference

namespace hone_v0 {
extern "C" __global__ void hone_variant_0(const float *in, float *out, int nx, int ny, int nz, float w0, float w1, float w2, float w3, int hone_zchunk) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int hone_z0 = 1 + (int)blockIdx.z * hone_zchunk;
    for (int z = hone_z0; z < nz - 1 && z - hone_z0 < hone_zchunk; ++z) {
        int q = x + y * nx + z * xy;
        float faces = in[q - 1] + in[q + 1] + in[q - nx] + in[q + nx] + in[q - xy] + in[q + xy];
        float edges = in[q - nx - 1] + in[q - nx + 1] + in[q + nx - 1] + in[q + nx + 1] + in[q - xy - 1] + in[q - xy + 1] + in[q - xy - nx] + in[q - xy + nx] + in[q + xy - 1] + in[q + xy + 1] + in[q + xy - nx] + in[q + xy + nx];
        float corners = in[q - xy - nx - 1] + in[q - xy - nx + 1] + in[q - xy + nx - 1] + in[q - xy + nx + 1] + in[q + xy - nx - 1] + in[q + xy - nx + 1] + in[q + xy + nx - 1] + in[q + xy + nx + 1];
        out[q] = w0 * in[q] + w1 * faces + w2 * edges + w3 * corners;
    }
}
} // namespace hone_v0

namespace hone_v1 {
extern "C" __global__ void hone_variant_1(const float *in, float *out, int nx, int ny, int nz, float w0, float w1, float w2, float w3, int hone_zchunk) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    float *sb = hone_smem;
    int w = blockDim.x + 2;
    int csb = (threadIdx.y + 1) * w + threadIdx.x + 1;
    int hone_z0 = 1 + (int)blockIdx.z * hone_zchunk;
    for (int z = hone_z0; z < nz - 1 && z - hone_z0 < hone_zchunk; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = in[q];
        if (threadIdx.x == 0) {
            sb[csb - 1] = in[q - 1];
        }
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 1] = in[q + 1];
        }
        if (threadIdx.y == 0) {
            sb[csb - w] = in[q - nx];
        }
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + w] = in[q + nx];
        }
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            sb[csb - w - 1] = in[q - nx - 1];
        }
        if (blockDim.x + w == csb) {
            sb[csb - w + 1] = in[q - nx + 1];
        }
        if (threadIdx.x == 0 && threadIdx.y == blockDim.y - 1) {
            sb[csb + w - 1] = in[q + nx - 1];
        }
        if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1) {
            sb[csb + w + 1] = in[q + nx + 1];
        }
        __syncthreads();
        float faces = sb[csb - 1] + sb[csb + 1] + sb[csb - w] + sb[csb + w] + in[q - xy] + in[q + xy];
        float edges = sb[csb - w - 1] + sb[csb - w + 1] + sb[csb + w - 1] + sb[csb + w + 1] + in[q - xy - 1] + in[q - xy + 1] + in[q - xy - nx] + in[q - xy + nx] + in[q + xy - 1] + in[q + xy + 1] + in[q + xy - nx] + in[q + xy + nx];
        float corners = in[q - xy - nx - 1] + in[q - xy - nx + 1] + in[q - xy + nx - 1] + in[q - xy + nx + 1] + in[q + xy - nx - 1] + in[q + xy - nx + 1] + in[q + xy + nx - 1] + in[q + xy + nx + 1];
        out[q] = w0 * sb[csb] + w1 * faces + w2 * edges + w3 * corners;
        __syncthreads();
    }
}
} // namespace hone_v1

namespace hone_v2 {
extern "C" __global__ void hone_variant_2(const float *in, float *out, int nx, int ny, int nz, float w0, float w1, float w2, float w3, int hone_zchunk) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        float faces = in[q - 1] + in[q + 1] + in[q - nx] + in[q + nx] + in[q - xy] + in[q + xy];
        float edges = in[q - nx - 1] + in[q - nx + 1] + in[q + nx - 1] + in[q + nx + 1] + in[q - xy - 1] + in[q - xy + 1] + in[q - xy - nx] + in[q - xy + nx] + in[q + xy - 1] + in[q + xy + 1] + in[q + xy - nx] + in[q + xy + nx];
        float corners = in[q - xy - nx - 1] + in[q - xy - nx + 1] + in[q - xy + nx - 1] + in[q - xy + nx + 1] + in[q + xy - nx - 1] + in[q + xy - nx + 1] + in[q + xy + nx - 1] + in[q + xy + nx + 1];
        out[q] = w0 * in[q] + w1 * faces + w2 * edges + w3 * corners;
    }
}
} // namespace hone_v2

