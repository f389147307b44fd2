// Tuning template written by hone synth for `diffusion_sleeve`: HONE_VARIANT picks the kernel,
// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk),
// UNROLL the unroll factor of the chunked walks, RESTRICT whether their pointers are __restrict__.
#if RESTRICT
#define HONE_RESTRICT __restrict__
#else
#define HONE_RESTRICT
#endif
#if HONE_VARIANT == 0
#define hone_variant_0 hone_tuned
#elif HONE_VARIANT == 1
#define hone_variant_1 hone_tuned
#elif HONE_VARIANT == 2
#define hone_variant_2 hone_tuned
#elif HONE_VARIANT == 3
#define hone_variant_3 hone_tuned
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
extern "C" __global__ void hone_variant_0(float *HONE_RESTRICT in, float *HONE_RESTRICT out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc, int hone_zchunk) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    int hone_z0 = 0 + (int)blockIdx.z * hone_zchunk;
    c = c + (hone_z0 - 0) * xy;
    #pragma unroll UNROLL
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
extern "C" __global__ void hone_variant_1(float *HONE_RESTRICT in, float *HONE_RESTRICT out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc, int hone_zchunk) {
    extern __shared__ float hone_smem[];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    float *sb = hone_smem;
    int csb = 1 + threadIdx.x + (threadIdx.y + 1) * (blockDim.x + 2);
    int hone_z0 = 0 + (int)blockIdx.z * hone_zchunk;
    c = c + (hone_z0 - 0) * xy;
    #pragma unroll UNROLL
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

namespace hone_v3 {
extern "C" __global__ void hone_variant_3(float *HONE_RESTRICT in, float *HONE_RESTRICT out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc, int hone_zchunk) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    int hone_z0 = 0 + (int)blockIdx.z * hone_zchunk;
    c = c + (hone_z0 - 0) * xy;
    int hone_q0i = 0;
    float hone_q0v = 0;
    bool hone_q0k = false;
    int hone_n0i = 0;
    float hone_n0v = 0;
    bool hone_n0k = false;
    int hone_q1i = 0;
    float hone_q1v = 0;
    bool hone_q1k = false;
    int hone_n1i = 0;
    float hone_n1v = 0;
    bool hone_n1k = false;
    #pragma unroll UNROLL
    for (int k = hone_z0; k < nz && k - hone_z0 < hone_zchunk; ++k) {
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        out[c] = cc * ((hone_n1i = c), ((hone_n1k = true), hone_n1v = hone_q0k && c == hone_q0i ? hone_q0v : in[c])) + cw * in[w] + ce * in[e] + cs * in[s] + cn * in[n] + cb * (hone_q1k && b == hone_q1i ? hone_q1v : in[b]) + ct * ((hone_n0i = t), ((hone_n0k = true), hone_n0v = in[t]));
        c += xy;
        hone_q0i = hone_n0i;
        hone_q0v = hone_n0v;
        hone_q0k = hone_n0k;
        hone_q1i = hone_n1i;
        hone_q1v = hone_n1v;
        hone_q1k = hone_n1k;
    }
}
} // namespace hone_v3

