// Synthesized by hone synth from examples/synth/diffusion_tb.cu (kernel `diffusion_tb`).
// Profile launches:
//   grid [3, 2, 1] block [3, 4, 1] (nx=9 ny=8 nz=3)
// Launch with (3 * (blockDim.x + 2) * (blockDim.y + 2)) * sizeof(float) bytes of dynamic shared memory (blockDim as launched).
// Verified in hone's emulator against the annotated kernel on 2 launches (random data, outputs bit-equal, no races):
//   derived launch grid [3, 2, 1] block [8, 6, 1] (nx=24 ny=12 nz=5)
//   derived launch grid [2, 3, 1] block [13, 5, 1] (nx=26 ny=15 nz=6)

__global__ void diffusion_tb(float *in, float *mid, float *out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc) {
    extern __shared__ float hone_smem[];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int bx = blockDim.x * blockIdx.x;
    int by = blockDim.y * blockIdx.y;
    int xy = nx * ny;
    int tw = blockDim.x + 2;
    int tn = tw * (blockDim.y + 2);
    int csb = (threadIdx.y + 1) * tw + threadIdx.x + 1;
    float *sb = hone_smem;
    for (int k = 0; k < nz; ++k) {
        int tm = (k + 2) % 3 * tn;
        int t0 = k % 3 * tn;
        int tp = (k + 1) % 3 * tn;
        for (int kk = k == 0 ? -1 : k + 1; kk <= k + 1; ++kk) {
            int hk = min(max(kk, 0), nz - 1);
            for (int m = threadIdx.x + threadIdx.y * blockDim.x; m < tn; m += blockDim.x * blockDim.y) {
                int hi = min(max(bx + m % tw - 1, 0), nx - 1);
                int hj = min(max(by + m / tw - 1, 0), ny - 1);
                int hc = hi + hj * nx + hk * xy;
                int w = hi == 0 ? hc : hc - 1;
                int e = hi == nx - 1 ? hc : hc + 1;
                int n = hj == 0 ? hc : hc - nx;
                int s = hj == ny - 1 ? hc : hc + nx;
                int b = hk == 0 ? hc : hc - xy;
                int t = hk == nz - 1 ? hc : hc + xy;
                // hone: the global intermediate `mid` is no longer read; its store is folded into this copy into shared memory
                sb[(kk + 3) % 3 * tn + m] = cc * in[hc] + cw * in[w] + ce * in[e] + cs * in[s] + cn * in[n] + cb * in[b] + ct * in[t];
            }
        }
        __syncthreads();
        int c = i + j * nx + k * xy;
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        out[c] = cc * /* hone: synthesized for mid[c] at examples/synth/diffusion_tb.cu:55:30 (216 of 216 profile cases in `sb`) */ (sb[csb + t0]) + cw * /* hone: synthesized for mid[w] at examples/synth/diffusion_tb.cu:55:51 (216 of 216 profile cases in `sb`) */ (sb[csb + t0 - 1]) + ce * /* hone: synthesized for mid[e] at examples/synth/diffusion_tb.cu:55:72 (216 of 216 profile cases in `sb`) */ (sb[csb + t0 + 1]) + cs * /* hone: synthesized for mid[s] at examples/synth/diffusion_tb.cu:55:93 (216 of 216 profile cases in `sb`) */ (sb[csb + tw + t0]) + cn * /* hone: synthesized for mid[n] at examples/synth/diffusion_tb.cu:56:27 (216 of 216 profile cases in `sb`) */ (sb[csb + t0 - tw]) + cb * /* hone: synthesized for mid[b] at examples/synth/diffusion_tb.cu:56:48 (216 of 216 profile cases in `sb`) */ (sb[csb + tm]) + ct * /* hone: synthesized for mid[t] at examples/synth/diffusion_tb.cu:56:69 (216 of 216 profile cases in `sb`) */ (sb[csb + tp]);
        // hone: barrier inserted: race on `sb` between the read at examples/synth/diffusion_tb.cu:55:9 and the write at examples/synth/diffusion_tb.cu:44:17 (synthesized)
        __syncthreads();
    }
}
