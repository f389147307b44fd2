// Synthesized by hone synth from examples/synth/star13_sleeve.cu (kernel `star13_sleeve`).
// Profile launches:
//   grid [3, 2, 1] block [4, 5, 1] (nx=16 ny=14 nz=20)
//   grid [2, 3, 1] block [5, 6, 1] (nx=14 ny=22 nz=22)
// Launch with ((blockDim.x + 4) * (blockDim.y + 4)) * sizeof(float) bytes of dynamic shared memory (blockDim as launched).
// Verified in hone's emulator against the annotated kernel on 2 launches (random data, outputs bit-equal, no races):
//   derived launch grid [3, 2, 1] block [8, 6, 1] (nx=28 ny=16 nz=22)
//   derived launch grid [2, 3, 1] block [13, 5, 1] (nx=30 ny=19 nz=23)

__global__ void star13_sleeve(const float *in, float *out, int nx, int ny, int nz, float c0, float c1, float c2) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 2;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 2;
    int xy = nx * ny;
    float *sb = hone_smem;
    int w = blockDim.x + 4;
    int csb = (threadIdx.y + 2) * w + threadIdx.x + 2;
    for (int z = 2; z < nz - 2; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = in[q];
        // hone: synthesized copy for __opt__(sb[csb - 1], in[q - 1]) at examples/synth/star13_sleeve.cu:19:42
        if (threadIdx.x == 0) {
            sb[csb - 1] = in[q - 1];
        }
        // hone: synthesized copy for __opt__(sb[csb + 1], in[q + 1]) at examples/synth/star13_sleeve.cu:19:76
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 1] = in[q + 1];
        }
        // hone: synthesized copy for __opt__(sb[csb - w], in[q - nx]) at examples/synth/star13_sleeve.cu:20:44
        if (threadIdx.y == 0) {
            sb[csb - w] = in[q - nx];
        }
        // hone: synthesized copy for __opt__(sb[csb + w], in[q + nx]) at examples/synth/star13_sleeve.cu:20:79
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + w] = in[q + nx];
        }
        // hone: synthesized copy for __opt__(sb[csb - 2], in[q - 2]) at examples/synth/star13_sleeve.cu:22:42
        if (threadIdx.x == 0) {
            sb[csb - 2] = in[q - 2];
        }
        // hone: synthesized copy for __opt__(sb[csb + 2], in[q + 2]) at examples/synth/star13_sleeve.cu:22:76
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 2] = in[q + 2];
        }
        // hone: synthesized copy for __opt__(sb[csb - 2 * w], in[q - 2 * nx]) at examples/synth/star13_sleeve.cu:23:48
        if (threadIdx.y == 0) {
            sb[csb - 2 * w] = in[q - 2 * nx];
        }
        // hone: synthesized copy for __opt__(sb[csb + 2 * w], in[q + 2 * nx]) at examples/synth/star13_sleeve.cu:24:48
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + 2 * w] = in[q + 2 * nx];
        }
        __syncthreads();
        out[q] = c0 * sb[csb] + c1 * (/* hone: __opt__(sb[csb - 1], in[q - 1]) served from shared memory */ (sb[csb - 1]) + /* hone: __opt__(sb[csb + 1], in[q + 1]) served from shared memory */ (sb[csb + 1]) + /* hone: __opt__(sb[csb - w], in[q - nx]) served from shared memory */ (sb[csb - w]) + /* hone: __opt__(sb[csb + w], in[q + nx]) served from shared memory */ (sb[csb + w]) + in[q - xy] + in[q + xy]) + c2 * (/* hone: __opt__(sb[csb - 2], in[q - 2]) served from shared memory */ (sb[csb - 2]) + /* hone: __opt__(sb[csb + 2], in[q + 2]) served from shared memory */ (sb[csb + 2]) + /* hone: __opt__(sb[csb - 2 * w], in[q - 2 * nx]) served from shared memory */ (sb[csb - 2 * w]) + /* hone: __opt__(sb[csb + 2 * w], in[q + 2 * nx]) served from shared memory */ (sb[csb + 2 * w]) + in[q - 2 * xy] + in[q + 2 * xy]);
        __syncthreads();
    }
}
