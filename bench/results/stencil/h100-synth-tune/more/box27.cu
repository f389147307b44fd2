// Synthesized by hone synth from examples/synth/box27_sleeve.cu (kernel `box27_sleeve`).
// Profile launches:
//   grid [3, 2, 1] block [4, 5, 1] (nx=14 ny=12 nz=20)
//   grid [2, 3, 1] block [5, 6, 1] (nx=12 ny=20 nz=22)
//   grid [3, 2, 1] block [7, 3, 1] (nx=23 ny=8 nz=23)
// Launch with ((blockDim.x + 2) * (blockDim.y + 2)) * sizeof(float) bytes of dynamic shared memory (blockDim as launched).
// Verified in hone's emulator against the annotated kernel on 2 launches (random data, outputs bit-equal, no races):
//   derived launch grid [3, 2, 1] block [8, 6, 1] (nx=26 ny=14 nz=22)
//   derived launch grid [2, 3, 1] block [13, 5, 1] (nx=28 ny=17 nz=23)

__global__ void box27_sleeve(const float *in, float *out, int nx, int ny, int nz, float w0, float w1, float w2, float w3) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    float *sb = hone_smem;
    int w = blockDim.x + 2;
    int csb = (threadIdx.y + 1) * w + threadIdx.x + 1;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = in[q];
        // hone: synthesized copy for __opt__(sb[csb - 1], in[q - 1]) at examples/synth/box27_sleeve.cu:18:44
        if (threadIdx.x == 0) {
            sb[csb - 1] = in[q - 1];
        }
        // hone: synthesized copy for __opt__(sb[csb + 1], in[q + 1]) at examples/synth/box27_sleeve.cu:18:78
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 1] = in[q + 1];
        }
        // hone: synthesized copy for __opt__(sb[csb - w], in[q - nx]) at examples/synth/box27_sleeve.cu:19:36
        if (threadIdx.y == 0) {
            sb[csb - w] = in[q - nx];
        }
        // hone: synthesized copy for __opt__(sb[csb + w], in[q + nx]) at examples/synth/box27_sleeve.cu:19:71
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + w] = in[q + nx];
        }
        // hone: synthesized copy for __opt__(sb[csb - w - 1], in[q - nx - 1]) at examples/synth/box27_sleeve.cu:21:48
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            sb[csb - w - 1] = in[q - nx - 1];
        }
        // hone: synthesized copy for __opt__(sb[csb - w + 1], in[q - nx + 1]) at examples/synth/box27_sleeve.cu:22:40
        if (blockDim.x + w == csb) {
            sb[csb - w + 1] = in[q - nx + 1];
        }
        // hone: synthesized copy for __opt__(sb[csb + w - 1], in[q + nx - 1]) at examples/synth/box27_sleeve.cu:23:40
        if (threadIdx.x == 0 && threadIdx.y == blockDim.y - 1) {
            sb[csb + w - 1] = in[q + nx - 1];
        }
        // hone: synthesized copy for __opt__(sb[csb + w + 1], in[q + nx + 1]) at examples/synth/box27_sleeve.cu:24:40
        if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1) {
            sb[csb + w + 1] = in[q + nx + 1];
        }
        __syncthreads();
        float faces = /* hone: __opt__(sb[csb - 1], in[q - 1]) served from shared memory */ (sb[csb - 1]) + /* hone: __opt__(sb[csb + 1], in[q + 1]) served from shared memory */ (sb[csb + 1]) + /* hone: __opt__(sb[csb - w], in[q - nx]) served from shared memory */ (sb[csb - w]) + /* hone: __opt__(sb[csb + w], in[q + nx]) served from shared memory */ (sb[csb + w]) + in[q - xy] + in[q + xy];
        float edges = /* hone: __opt__(sb[csb - w - 1], in[q - nx - 1]) served from shared memory */ (sb[csb - w - 1]) + /* hone: __opt__(sb[csb - w + 1], in[q - nx + 1]) served from shared memory */ (sb[csb - w + 1]) + /* hone: __opt__(sb[csb + w - 1], in[q + nx - 1]) served from shared memory */ (sb[csb + w - 1]) + /* hone: __opt__(sb[csb + w + 1], in[q + nx + 1]) served from shared memory */ (sb[csb + w + 1]) + in[q - xy - 1] + in[q - xy + 1] + in[q - xy - nx] + in[q - xy + nx] + in[q + xy - 1] + in[q + xy + 1] + in[q + xy - nx] + in[q + xy + nx];
        float corners = in[q - xy - nx - 1] + in[q - xy - nx + 1] + in[q - xy + nx - 1] + in[q - xy + nx + 1] + in[q + xy - nx - 1] + in[q + xy - nx + 1] + in[q + xy + nx - 1] + in[q + xy + nx + 1];
        out[q] = w0 * sb[csb] + w1 * faces + w2 * edges + w3 * corners;
        __syncthreads();
    }
}
