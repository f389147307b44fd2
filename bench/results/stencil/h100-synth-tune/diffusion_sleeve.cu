// Synthesized by hone synth from examples/synth/diffusion_sleeve.cu (kernel `diffusion_sleeve`).
// Profile launches:
//   grid [3, 2, 1] block [3, 4, 1] (nx=9 ny=8 nz=3)
//   grid [2, 3, 1] block [5, 6, 1] (nx=10 ny=18 nz=5)
// Launch with ((blockDim.x + 2) * (blockDim.y + 2)) * sizeof(float) bytes of dynamic shared memory (blockDim as launched).
// Verified in hone's emulator against the annotated kernel on 2 launches (random data, outputs bit-equal, no races):
//   derived launch grid [3, 2, 1] block [8, 6, 1] (nx=24 ny=12 nz=5)
//   derived launch grid [2, 3, 1] block [13, 5, 1] (nx=26 ny=15 nz=6)

__global__ void diffusion_sleeve(float *in, float *out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc) {
    extern __shared__ float hone_smem[];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    float *sb = hone_smem;
    int csb = 1 + threadIdx.x + (threadIdx.y + 1) * (blockDim.x + 2);
    for (int k = 0; k < nz; ++k) {
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        sb[csb] = in[c];
        // hone: synthesized copy for __opt__(sb[csb - 1], in[w]) at examples/synth/diffusion_sleeve.cu:26:41
        if (threadIdx.x == 0) {
            sb[csb - 1] = in[w];
        }
        // hone: synthesized copy for __opt__(sb[csb + 1], in[e]) at examples/synth/diffusion_sleeve.cu:27:41
        if (threadIdx.x == blockDim.x - 1) {
            sb[csb + 1] = in[e];
        }
        // hone: synthesized copy for __opt__(sb[csb + blockDim.x + 2], in[s]) at examples/synth/diffusion_sleeve.cu:28:54
        if (threadIdx.y == blockDim.y - 1) {
            sb[csb + blockDim.x + 2] = in[s];
        }
        // hone: synthesized copy for __opt__(sb[csb - blockDim.x - 2], in[n]) at examples/synth/diffusion_sleeve.cu:29:54
        if (threadIdx.y == 0) {
            sb[csb - blockDim.x - 2] = in[n];
        }
        __syncthreads();
        out[c] = cc * sb[csb] + cw * /* hone: __opt__(sb[csb - 1], in[w]) served from shared memory */ (sb[csb - 1]) + ce * /* hone: __opt__(sb[csb + 1], in[e]) served from shared memory */ (sb[csb + 1]) + cs * /* hone: __opt__(sb[csb + blockDim.x + 2], in[s]) served from shared memory */ (sb[csb + blockDim.x + 2]) + cn * /* hone: __opt__(sb[csb - blockDim.x - 2], in[n]) served from shared memory */ (sb[csb - blockDim.x - 2]) + cb * in[b] + ct * in[t];
        // hone: barrier inserted: race on `sb` between the read at examples/synth/diffusion_sleeve.cu:25:9 and the write at examples/synth/diffusion_sleeve.cu:22:9
        __syncthreads();
        c += xy;
    }
}
