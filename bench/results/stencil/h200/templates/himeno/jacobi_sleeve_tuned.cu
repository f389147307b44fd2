// Tuning template written by hone synth for `jacobi_sleeve`: HONE_VARIANT picks the kernel,
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
extern "C" __global__ void hone_variant_0(float *HONE_RESTRICT p, float *HONE_RESTRICT a, float *HONE_RESTRICT b, float *HONE_RESTRICT c, float *HONE_RESTRICT wrk1, float *HONE_RESTRICT bnd, float *HONE_RESTRICT wrk2, float *HONE_RESTRICT gosa, int nx, int ny, int nz, float omega, int hone_zchunk) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float g = 0.0f;
    int hone_z0 = 1 + (int)blockIdx.z * hone_zchunk;
    #pragma unroll UNROLL
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
extern "C" __global__ void hone_variant_1(float *HONE_RESTRICT p, float *HONE_RESTRICT a, float *HONE_RESTRICT b, float *HONE_RESTRICT c, float *HONE_RESTRICT wrk1, float *HONE_RESTRICT bnd, float *HONE_RESTRICT wrk2, float *HONE_RESTRICT gosa, int nx, int ny, int nz, float omega, int hone_zchunk) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float *sb = hone_smem;
    int csb = (threadIdx.y + 1) * (blockDim.x + 2) + threadIdx.x + 1;
    float g = 0.0f;
    int hone_z0 = 1 + (int)blockIdx.z * hone_zchunk;
    #pragma unroll UNROLL
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

namespace hone_v3 {
extern "C" __global__ void hone_variant_3(float *HONE_RESTRICT p, float *HONE_RESTRICT a, float *HONE_RESTRICT b, float *HONE_RESTRICT c, float *HONE_RESTRICT wrk1, float *HONE_RESTRICT bnd, float *HONE_RESTRICT wrk2, float *HONE_RESTRICT gosa, int nx, int ny, int nz, float omega, int hone_zchunk) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float g = 0.0f;
    int hone_z0 = 1 + (int)blockIdx.z * hone_zchunk;
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
    int hone_q2i = 0;
    float hone_q2v = 0;
    bool hone_q2k = false;
    int hone_n2i = 0;
    float hone_n2v = 0;
    bool hone_n2k = false;
    int hone_q3i = 0;
    float hone_q3v = 0;
    bool hone_q3k = false;
    int hone_n3i = 0;
    float hone_n3v = 0;
    bool hone_n3k = false;
    int hone_q4i = 0;
    float hone_q4v = 0;
    bool hone_q4k = false;
    int hone_n4i = 0;
    float hone_n4v = 0;
    bool hone_n4k = false;
    int hone_q5i = 0;
    float hone_q5v = 0;
    bool hone_q5k = false;
    int hone_n5i = 0;
    float hone_n5v = 0;
    bool hone_n5k = false;
    int hone_q6i = 0;
    float hone_q6v = 0;
    bool hone_q6k = false;
    int hone_n6i = 0;
    float hone_n6v = 0;
    bool hone_n6k = false;
    int hone_q7i = 0;
    float hone_q7v = 0;
    bool hone_q7k = false;
    int hone_n7i = 0;
    float hone_n7v = 0;
    bool hone_n7k = false;
    int hone_q8i = 0;
    float hone_q8v = 0;
    bool hone_q8k = false;
    int hone_n8i = 0;
    float hone_n8v = 0;
    bool hone_n8k = false;
    int hone_q9i = 0;
    float hone_q9v = 0;
    bool hone_q9k = false;
    int hone_n9i = 0;
    float hone_n9v = 0;
    bool hone_n9k = false;
    #pragma unroll UNROLL
    for (int z = hone_z0; z < nz - 1 && z - hone_z0 < hone_zchunk; ++z) {
        int q = x + y * nx + z * xy;
        float s0 = a[q] * ((hone_n9i = q + xy), ((hone_n9k = true), hone_n9v = p[q + xy])) + a[n + q] * ((hone_n2i = q + nx), ((hone_n2k = true), hone_n2v = hone_q0k && q + nx == hone_q0i ? hone_q0v : p[q + nx])) + a[2 * n + q] * ((hone_n4i = q + 1), ((hone_n4k = true), hone_n4v = hone_q1k && q + 1 == hone_q1i ? hone_q1v : p[q + 1])) + b[q] * (((hone_n0i = q + xy + nx), ((hone_n0k = true), hone_n0v = p[q + xy + nx])) - ((hone_n7i = q + xy - nx), ((hone_n7k = true), hone_n7v = p[q + xy - nx])) - (hone_q2k && q - xy + nx == hone_q2i ? hone_q2v : p[q - xy + nx]) + (hone_q3k && q - xy - nx == hone_q3i ? hone_q3v : p[q - xy - nx])) + b[n + q] * (p[q + nx + 1] - p[q - nx + 1] - p[q + nx - 1] + p[q - nx - 1]) + b[2 * n + q] * (((hone_n1i = q + xy + 1), ((hone_n1k = true), hone_n1v = p[q + xy + 1])) - (hone_q4k && q - xy + 1 == hone_q4i ? hone_q4v : p[q - xy + 1]) - ((hone_n8i = q + xy - 1), ((hone_n8k = true), hone_n8v = p[q + xy - 1])) + (hone_q5k && q - xy - 1 == hone_q5i ? hone_q5v : p[q - xy - 1])) + c[q] * (hone_q6k && q - xy == hone_q6i ? hone_q6v : p[q - xy]) + c[n + q] * ((hone_n3i = q - nx), ((hone_n3k = true), hone_n3v = hone_q7k && q - nx == hone_q7i ? hone_q7v : p[q - nx])) + c[2 * n + q] * ((hone_n5i = q - 1), ((hone_n5k = true), hone_n5v = hone_q8k && q - 1 == hone_q8i ? hone_q8v : p[q - 1])) + wrk1[q];
        float ss = (s0 * a[3 * n + q] - ((hone_n6i = q), ((hone_n6k = true), hone_n6v = hone_q9k && q == hone_q9i ? hone_q9v : p[q]))) * bnd[q];
        g += ss * ss;
        wrk2[q] = (hone_q9k && q == hone_q9i ? hone_q9v : p[q]) + omega * ss;
        hone_q0i = hone_n0i;
        hone_q0v = hone_n0v;
        hone_q0k = hone_n0k;
        hone_q1i = hone_n1i;
        hone_q1v = hone_n1v;
        hone_q1k = hone_n1k;
        hone_q2i = hone_n2i;
        hone_q2v = hone_n2v;
        hone_q2k = hone_n2k;
        hone_q3i = hone_n3i;
        hone_q3v = hone_n3v;
        hone_q3k = hone_n3k;
        hone_q4i = hone_n4i;
        hone_q4v = hone_n4v;
        hone_q4k = hone_n4k;
        hone_q5i = hone_n5i;
        hone_q5v = hone_n5v;
        hone_q5k = hone_n5k;
        hone_q6i = hone_n6i;
        hone_q6v = hone_n6v;
        hone_q6k = hone_n6k;
        hone_q7i = hone_n7i;
        hone_q7v = hone_n7v;
        hone_q7k = hone_n7k;
        hone_q8i = hone_n8i;
        hone_q8v = hone_n8v;
        hone_q8k = hone_n8k;
        hone_q9i = hone_n9i;
        hone_q9v = hone_n9v;
        hone_q9k = hone_n9k;
    }
    atomicAdd(&gosa[x + y * nx], g);
}
} // namespace hone_v3

