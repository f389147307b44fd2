// Synthesized by hone synth from examples/synth/diffusion_sha.cu (kernel `diffusion_sha`).
// Profile launches:
//   grid [3, 2, 1] block [3, 4, 1] (nx=9 ny=8 nz=3)
//   grid [2, 3, 1] block [5, 6, 1] (nx=10 ny=18 nz=5)
// Launch with (blockDim.x * blockDim.y) * sizeof(float) bytes of dynamic shared memory (blockDim as launched).
// Verified in hone's emulator against the annotated kernel on 2 launches (random data, outputs bit-equal, no races):
//   derived launch grid [3, 2, 1] block [8, 6, 1] (nx=24 ny=12 nz=5)
//   derived launch grid [2, 3, 1] block [13, 5, 1] (nx=26 ny=15 nz=6)

__global__ void diffusion_sha(float *in, float *out, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct, float cb, float cc) {
    extern __shared__ float hone_smem[];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    float *sb = hone_smem;
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    for (int k = 0; k < nz; ++k) {
        sb[csb] = in[c];
        __syncthreads();
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        int n = j == 0 ? c : c - nx;
        int s = j == ny - 1 ? c : c + nx;
        int b = k == 0 ? c : c - xy;
        int t = k == nz - 1 ? c : c + xy;
        out[c] = cc * /* hone: synthesized for in[c] at examples/synth/diffusion_sha.cu:25:30 (1116 of 1116 profile cases in `sb`) */ (sb[csb]) + cw * /* hone: synthesized for in[w] at examples/synth/diffusion_sha.cu:25:50 (978 of 1116 profile cases in `sb`) */ (threadIdx.x != 0 || i == 0 ? sb[csb + w - c] : in[w]) + ce * /* hone: synthesized for in[e] at examples/synth/diffusion_sha.cu:25:70 (978 of 1116 profile cases in `sb`) */ (e == c || threadIdx.x != blockDim.x - 1 ? sb[csb + e - c] : in[e]) + cs * /* hone: synthesized for in[s] at examples/synth/diffusion_sha.cu:25:90 (989 of 1116 profile cases in `sb`) */ (s == c || threadIdx.y != blockDim.y - 1 ? sb[s != c ? blockDim.x + csb : csb] : in[s]) + cn * /* hone: synthesized for in[n] at examples/synth/diffusion_sha.cu:26:27 (989 of 1116 profile cases in `sb`) */ (threadIdx.y != 0 || j == 0 ? sb[threadIdx.y != 0 ? csb - blockDim.x : threadIdx.x] : in[n]) + cb * /* hone: synthesized for in[b] at examples/synth/diffusion_sha.cu:26:47 (252 of 1116 profile cases in `sb`) */ (k == 0 ? sb[csb] : in[b]) + ct * /* hone: synthesized for in[t] at examples/synth/diffusion_sha.cu:26:67 (252 of 1116 profile cases in `sb`) */ (t == c ? sb[csb] : in[t]);
        // hone: barrier inserted: race on `sb` between the read at examples/synth/diffusion_sha.cu:25:9 and the write at examples/synth/diffusion_sha.cu:17:9
        __syncthreads();
        c += xy;
    }
}
