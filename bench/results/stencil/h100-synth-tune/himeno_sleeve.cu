// Synthesized by hone synth from examples/synth/himeno_sleeve.cu (kernel `jacobi_sleeve`).
// Profile launches:
//   grid [3, 2, 1] block [5, 4, 1] (nx=17 ny=10 nz=3)
//   grid [2, 3, 1] block [5, 6, 1] (nx=12 ny=20 nz=5)
//   grid [3, 2, 1] block [7, 3, 1] (nx=23 ny=8 nz=6)
// Launch with ((blockDim.x + 2) * (blockDim.y + 2)) * sizeof(float) bytes of dynamic shared memory (blockDim as launched).
// Verified in hone's emulator against the annotated kernel on 2 launches (random data, outputs bit-equal, no races):
//   derived launch grid [3, 2, 1] block [8, 6, 1] (nx=26 ny=14 nz=5)
//   derived launch grid [2, 3, 1] block [13, 5, 1] (nx=28 ny=17 nz=6)

__global__ void jacobi_sleeve(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float *sb = hone_smem;
    int csb = (threadIdx.y + 1) * (blockDim.x + 2) + threadIdx.x + 1;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = p[q];
        // hone: synthesized copy for __opt__(sb[csb - 1], p[q - 1]) at examples/synth/himeno_sleeve.cu:21:41
        if (threadIdx.x == 0) {
            sb[csb - 1] = p[q - 1];
        }
        // hone: synthesized copy for __opt__(sb[csb + 1], p[q + 1]) at examples/synth/himeno_sleeve.cu:22:41
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 1] = p[q + 1];
        }
        // hone: synthesized copy for __opt__(sb[csb - blockDim.x - 2], p[q - nx]) at examples/synth/himeno_sleeve.cu:23:54
        if (threadIdx.y == 0) {
            sb[csb - blockDim.x - 2] = p[q - nx];
        }
        // hone: synthesized copy for __opt__(sb[csb + blockDim.x + 2], p[q + nx]) at examples/synth/himeno_sleeve.cu:24:54
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + blockDim.x + 2] = p[q + nx];
        }
        // hone: synthesized copy for __opt__(sb[csb - blockDim.x - 3], p[q - nx - 1]) at examples/synth/himeno_sleeve.cu:25:55
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            sb[csb - blockDim.x - 3] = p[q - nx - 1];
        }
        // hone: synthesized copy for __opt__(sb[csb - blockDim.x - 1], p[q - nx + 1]) at examples/synth/himeno_sleeve.cu:26:55
        if (csb == 2 * blockDim.x + 2) {
            sb[csb - blockDim.x - 1] = p[q - nx + 1];
        }
        // hone: synthesized copy for __opt__(sb[csb + blockDim.x + 1], p[q + nx - 1]) at examples/synth/himeno_sleeve.cu:27:55
        if (threadIdx.x == 0 && threadIdx.y == blockDim.y - 1) {
            sb[csb + blockDim.x + 1] = p[q + nx - 1];
        }
        // hone: synthesized copy for __opt__(sb[csb + blockDim.x + 3], p[q + nx + 1]) at examples/synth/himeno_sleeve.cu:28:55
        if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1) {
            sb[csb + blockDim.x + 3] = p[q + nx + 1];
        }
        __syncthreads();
        float pw = /* hone: __opt__(sb[csb - 1], p[q - 1]) served from shared memory */ (sb[csb - 1]);
        float pe = /* hone: __opt__(sb[csb + 1], p[q + 1]) served from shared memory */ (sb[csb + 1]);
        float pn = /* hone: __opt__(sb[csb - blockDim.x - 2], p[q - nx]) served from shared memory */ (sb[csb - blockDim.x - 2]);
        float ps = /* hone: __opt__(sb[csb + blockDim.x + 2], p[q + nx]) served from shared memory */ (sb[csb + blockDim.x + 2]);
        float pnw = /* hone: __opt__(sb[csb - blockDim.x - 3], p[q - nx - 1]) served from shared memory */ (sb[csb - blockDim.x - 3]);
        float pne = /* hone: __opt__(sb[csb - blockDim.x - 1], p[q - nx + 1]) served from shared memory */ (sb[csb - blockDim.x - 1]);
        float psw = /* hone: __opt__(sb[csb + blockDim.x + 1], p[q + nx - 1]) served from shared memory */ (sb[csb + blockDim.x + 1]);
        float pse = /* hone: __opt__(sb[csb + blockDim.x + 3], p[q + nx + 1]) served from shared memory */ (sb[csb + blockDim.x + 3]);
        float s0 = a[q] * p[q + xy] + a[n + q] * ps + a[2 * n + q] * pe + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx]) + b[n + q] * (pse - pne - psw + pnw) + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1]) + c[q] * p[q - xy] + c[n + q] * pn + c[2 * n + q] * pw + wrk1[q];
        float ss = (s0 * a[3 * n + q] - sb[csb]) * bnd[q];
        g += ss * ss;
        wrk2[q] = sb[csb] + omega * ss;
        __syncthreads();
    }
    gosa[x + y * nx] = g;
}
