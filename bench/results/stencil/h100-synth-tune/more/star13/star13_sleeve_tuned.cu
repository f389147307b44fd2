// Tuning template written by hone synth for `star13_sleeve`: HONE_VARIANT picks the kernel,
// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk).
#if HONE_VARIANT == 0
#define hone_variant_0 hone_tuned
#elif HONE_VARIANT == 1
#define hone_variant_1 hone_tuned
#elif HONE_VARIANT == 2
#define hone_variant_2 hone_tuned
#endif

namespace hone_reference {
extern "C" __global__ void star13_sleeve_reference(const float *in, float *out, int nx, int ny, int nz, float c0, float c1, float c2) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 2;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 2;
    int xy = nx * ny;
    for (int z = 2; z < nz - 2; ++z) {
        int q = x + y * nx + z * xy;
        out[q] = c0 * in[q] + c1 * (in[q - 1] + in[q + 1] + in[q - nx] + in[q + nx] + in[q - xy] + in[q + xy]) + c2 * (in[q - 2] + in[q + 2] + in[q - 2 * nx] + in[q + 2 * nx] + in[q - 2 * xy] + in[q + 2 * xy]);
    }
}
} // namespace hone_reference

namespace hone_v0 {
extern "C" __global__ void hone_variant_0(const float *in, float *out, int nx, int ny, int nz, float c0, float c1, float c2, int hone_zchunk) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 2;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 2;
    int xy = nx * ny;
    int hone_z0 = 2 + (int)blockIdx.z * hone_zchunk;
    for (int z = hone_z0; z < nz - 2 && z - hone_z0 < hone_zchunk; ++z) {
        int q = x + y * nx + z * xy;
        out[q] = c0 * in[q] + c1 * (in[q - 1] + in[q + 1] + in[q - nx] + in[q + nx] + in[q - xy] + in[q + xy]) + c2 * (in[q - 2] + in[q + 2] + in[q - 2 * nx] + in[q + 2 * nx] + in[q - 2 * xy] + in[q + 2 * xy]);
    }
}
} // namespace hone_v0

namespace hone_v1 {
extern "C" __global__ void hone_variant_1(const float *in, float *out, int nx, int ny, int nz, float c0, float c1, float c2, int hone_zchunk) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 2;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 2;
    int xy = nx * ny;
    float *sb = hone_smem;
    int w = blockDim.x + 4;
    int csb = (threadIdx.y + 2) * w + threadIdx.x + 2;
    int hone_z0 = 2 + (int)blockIdx.z * hone_zchunk;
    for (int z = hone_z0; z < nz - 2 && z - hone_z0 < hone_zchunk; ++z) {
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
        if (threadIdx.x == 0) {
            sb[csb - 2] = in[q - 2];
        }
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 2] = in[q + 2];
        }
        if (threadIdx.y == 0) {
            sb[csb - 2 * w] = in[q - 2 * nx];
        }
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + 2 * w] = in[q + 2 * nx];
        }
        __syncthreads();
        out[q] = c0 * sb[csb] + c1 * (sb[csb - 1] + sb[csb + 1] + sb[csb - w] + sb[csb + w] + in[q - xy] + in[q + xy]) + c2 * (sb[csb - 2] + sb[csb + 2] + sb[csb - 2 * w] + sb[csb + 2 * w] + in[q - 2 * xy] + in[q + 2 * xy]);
        __syncthreads();
    }
}
} // namespace hone_v1

namespace hone_v2 {
extern "C" __global__ void hone_variant_2(const float *in, float *out, int nx, int ny, int nz, float c0, float c1, float c2, int hone_zchunk) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 2;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 2;
    int xy = nx * ny;
    for (int z = 2; z < nz - 2; ++z) {
        int q = x + y * nx + z * xy;
        out[q] = c0 * in[q] + c1 * (in[q - 1] + in[q + 1] + in[q - nx] + in[q + nx] + in[q - xy] + in[q + xy]) + c2 * (in[q - 2] + in[q + 2] + in[q - 2 * nx] + in[q + 2 * nx] + in[q - 2 * xy] + in[q + 2 * xy]);
    }
}
} // namespace hone_v2

