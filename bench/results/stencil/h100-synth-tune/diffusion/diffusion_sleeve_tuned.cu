// Tuning template written by hone synth for `diffusion_sleeve`: HONE_VARIANT picks the kernel,
// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk).
#if HONE_VARIANT == 0
#define hone_variant_0 hone_tuned
#elif HONE_VARIANT == 1
#define hone_variant_1 hone_tuned
#elif HONE_VARIANT == 2
#define hone_variant_2 hone_tuned
#endif

namespace hone_reference {
extern "C" __global__ void diffusion_sleeve_reference(float *in, float *out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    for (int k = 0; k < nz; ++k) {
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        out[c] = cc * in[c] + cw * in[w] + ce * in[e] + cs * in[s] + cn * in[n] + cb * in[b] + ct * in[t];
        c += xy;
    }
}
} // namespace hone_reference

namespace hone_v0 {
extern "C" __global__ void hone_variant_0(float *in, float *out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc, int hone_zchunk) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    int hone_z0 = 0 + (int)blockIdx.z * hone_zchunk;
    c = c + (hone_z0 - 0) * xy;
    for (int k = hone_z0; k < nz && k - hone_z0 < hone_zchunk; ++k) {
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        out[c] = cc * in[c] + cw * in[w] + ce * in[e] + cs * in[s] + cn * in[n] + cb * in[b] + ct * in[t];
        c += xy;
    }
}
} // namespace hone_v0

namespace hone_v1 {
extern "C" __global__ void hone_variant_1(float *in, float *out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc, int hone_zchunk) {
    extern __shared__ float hone_smem[];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    float *sb = hone_smem;
    int csb = 1 + threadIdx.x + (threadIdx.y + 1) * (blockDim.x + 2);
    int hone_z0 = 0 + (int)blockIdx.z * hone_zchunk;
    c = c + (hone_z0 - 0) * xy;
    for (int k = hone_z0; k < nz && k - hone_z0 < hone_zchunk; ++k) {
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        sb[csb] = in[c];
        if (threadIdx.x == 0) {
            sb[csb - 1] = in[w];
        }
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 1] = in[e];
        }
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + blockDim.x + 2] = in[s];
        }
        if (threadIdx.y == 0) {
            sb[csb - blockDim.x - 2] = in[n];
        }
        __syncthreads();
        out[c] = cc * sb[csb] + cw * sb[csb - 1] + ce * sb[csb + 1] + cs * sb[csb + blockDim.x + 2] + cn * sb[csb - blockDim.x - 2] + cb * in[b] + ct * in[t];
        __syncthreads();
        c += xy;
    }
}
} // namespace hone_v1

namespace hone_v2 {
extern "C" __global__ void hone_variant_2(float *in, float *out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc, int hone_zchunk) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    for (int k = 0; k < nz; ++k) {
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        out[c] = cc * in[c] + cw * in[w] + ce * in[e] + cs * in[s] + cn * in[n] + cb * in[b] + ct * in[t];
        c += xy;
    }
}
} // namespace hone_v2

