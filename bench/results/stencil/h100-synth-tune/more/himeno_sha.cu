// Synthesized by hone synth from examples/synth/himeno_sha.cu (kernel `jacobi_sha`).
// Profile launches:
//   grid [3, 2, 1] block [5, 4, 1] (nx=17 ny=10 nz=3)
//   grid [2, 3, 1] block [5, 6, 1] (nx=12 ny=20 nz=5)
// Launch with (blockDim.x * blockDim.y) * sizeof(float) bytes of dynamic shared memory (blockDim as launched).
// Verified in hone's emulator against the annotated kernel on 2 launches (random data, outputs bit-equal, no races):
//   derived launch grid [3, 2, 1] block [8, 6, 1] (nx=26 ny=14 nz=5)
//   derived launch grid [2, 3, 1] block [13, 5, 1] (nx=28 ny=17 nz=6)

__global__ void jacobi_sha(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float *sb = hone_smem;
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = p[q];
        __syncthreads();
        float s0 = a[q] * p[q + xy] + a[n + q] * /* hone: synthesized for p[q + nx] at examples/synth/himeno_sha.cu:17:57 (540 of 660 profile cases in `sb`) */ (threadIdx.y != blockDim.y - 1 ? sb[blockDim.x + csb] : p[q + nx]) + a[2 * n + q] * /* hone: synthesized for p[q + 1] at examples/synth/himeno_sha.cu:17:91 (528 of 660 profile cases in `sb`) */ (threadIdx.x != blockDim.x - 1 ? sb[csb + 1] : p[q + 1]) + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx]) + b[n + q] * (/* hone: synthesized for p[q + nx + 1] at examples/synth/himeno_sha.cu:19:34 (432 of 660 profile cases in `sb`) */ (threadIdx.x != blockDim.x - 1 && threadIdx.y != blockDim.y - 1 ? sb[blockDim.x + csb + 1] : p[q + nx + 1]) - /* hone: synthesized for p[q - nx + 1] at examples/synth/himeno_sha.cu:19:57 (432 of 660 profile cases in `sb`) */ (threadIdx.y != 0 && threadIdx.x != blockDim.x - 1 ? sb[csb - blockDim.x + 1] : p[q - nx + 1]) - /* hone: synthesized for p[q + nx - 1] at examples/synth/himeno_sha.cu:19:80 (432 of 660 profile cases in `sb`) */ (threadIdx.x != 0 && threadIdx.y != blockDim.y - 1 ? sb[blockDim.x + csb - 1] : p[q + nx - 1]) + /* hone: synthesized for p[q - nx - 1] at examples/synth/himeno_sha.cu:19:103 (432 of 660 profile cases in `sb`) */ (threadIdx.x != 0 && threadIdx.y != 0 ? sb[csb - blockDim.x - 1] : p[q - nx - 1])) + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1]) + c[q] * p[q - xy] + c[n + q] * /* hone: synthesized for p[q - nx] at examples/synth/himeno_sha.cu:21:52 (540 of 660 profile cases in `sb`) */ (threadIdx.y != 0 ? sb[csb - blockDim.x] : p[q - nx]) + c[2 * n + q] * /* hone: synthesized for p[q - 1] at examples/synth/himeno_sha.cu:21:86 (528 of 660 profile cases in `sb`) */ (threadIdx.x != 0 ? sb[csb - 1] : p[q - 1]) + wrk1[q];
        float ss = (s0 * a[3 * n + q] - /* hone: synthesized for p[q] at examples/synth/himeno_sha.cu:23:48 (660 of 660 profile cases in `sb`) */ (sb[csb])) * bnd[q];
        g += ss * ss;
        wrk2[q] = /* hone: synthesized for p[q] at examples/synth/himeno_sha.cu:25:26 (660 of 660 profile cases in `sb`) */ (sb[csb]) + omega * ss;
        __syncthreads();
    }
    gosa[x + y * nx] = g;
}
