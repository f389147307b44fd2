// Tuning template written by hone synth for `diffusion_sha`: HONE_VARIANT picks the kernel,
// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk).
#if HONE_VARIANT == 0
#define hone_variant_0 hone_tuned
#elif HONE_VARIANT == 1
#define hone_variant_1 hone_tuned
#elif HONE_VARIANT == 2
#define hone_variant_2 hone_tuned
#endif

namespace hone_reference {
extern "C" __global__ void diffusion_sha_reference(float *in, float *out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc) {
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
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    int hone_z0 = 0 + (int)blockIdx.z * hone_zchunk;
    c = c + (hone_z0 - 0) * xy;
    for (int k = hone_z0; k < nz && k - hone_z0 < hone_zchunk; ++k) {
        sb[csb] = in[c];
        __syncthreads();
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        out[c] = cc * sb[csb] + cw * (threadIdx.x != 0 || i == 0 ? sb[csb + w - c] : in[w]) + ce * (e == c || threadIdx.x != blockDim.x - 1 ? sb[csb + e - c] : in[e]) + cs * (s == c || threadIdx.y != blockDim.y - 1 ? sb[s != c ? blockDim.x + csb : csb] : in[s]) + cn * (threadIdx.y != 0 || j == 0 ? sb[threadIdx.y != 0 ? csb - blockDim.x : threadIdx.x] : in[n]) + cb * (k == 0 ? sb[csb] : in[b]) + ct * (t == c ? sb[csb] : in[t]);
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

