// Synthesized by hone synth from examples/synth/himeno_tb.cu (kernel `jacobi_tb`).
// Profile launches:
//   grid [3, 2, 1] block [5, 4, 1] (nx=17 ny=10 nz=3)
//   grid [2, 3, 1] block [5, 6, 1] (nx=12 ny=20 nz=5)
// Launch with (3 * (blockDim.x + 2) * (blockDim.y + 2)) * sizeof(float) bytes of dynamic shared memory (blockDim as launched).
// Verified in hone's emulator against the annotated kernel on 2 launches (random data, outputs bit-equal, no races):
//   derived launch grid [3, 2, 1] block [8, 6, 1] (nx=26 ny=14 nz=5)
//   derived launch grid [2, 3, 1] block [13, 5, 1] (nx=28 ny=17 nz=6)

__global__ void jacobi_tb(float *p, float *a, float *b, float *c, float *wrk1, float *bnd, float *mid, float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    extern __shared__ float hone_smem[];
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int bx = blockDim.x * blockIdx.x;
    int by = blockDim.y * blockIdx.y;
    int xy = nx * ny;
    int n = xy * nz;
    int tw = blockDim.x + 2;
    int tn = tw * (blockDim.y + 2);
    int csb = (threadIdx.y + 1) * tw + threadIdx.x + 1;
    float *sb = hone_smem;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int tm = (z + 2) % 3 * tn;
        int t0 = z % 3 * tn;
        int tp = (z + 1) % 3 * tn;
        for (int kz = z == 1 ? 0 : z + 1; kz <= z + 1; ++kz) {
            for (int m = threadIdx.x + threadIdx.y * blockDim.x; m < tn; m += blockDim.x * blockDim.y) {
                int hx = bx + m % tw;
                int hy = by + m / tw;
                int h = hx + hy * nx + kz * xy;
                float v = p[h];
                if ((hx >= 1) && hx < nx - 1 && (hy >= 1) && hy < ny - 1 && (kz >= 1) && kz < nz - 1) {
                    float s0 = a[h] * p[h + xy] + a[n + h] * p[h + nx] + a[2 * n + h] * p[h + 1] + b[h] * (p[h + xy + nx] - p[h + xy - nx] - p[h - xy + nx] + p[h - xy - nx]) + b[n + h] * (p[h + nx + 1] - p[h - nx + 1] - p[h + nx - 1] + p[h - nx - 1]) + b[2 * n + h] * (p[h + xy + 1] - p[h - xy + 1] - p[h + xy - 1] + p[h - xy - 1]) + c[h] * p[h - xy] + c[n + h] * p[h - nx] + c[2 * n + h] * p[h - 1] + wrk1[h];
                    float ss = (s0 * a[3 * n + h] - p[h]) * bnd[h];
                    v = p[h] + omega * ss;
                }
                // hone: the global intermediate `mid` is no longer read; its store is folded into this copy into shared memory
                sb[kz % 3 * tn + m] = v;
            }
        }
        __syncthreads();
        int q = x + y * nx + z * xy;
        float s0 = a[q] * /* hone: synthesized for mid[q + xy] at examples/synth/himeno_tb.cu:50:34 (660 of 660 profile cases in `sb`) */ (sb[csb + tp]) + a[n + q] * /* hone: synthesized for mid[q + nx] at examples/synth/himeno_tb.cu:50:66 (660 of 660 profile cases in `sb`) */ (sb[csb + tw + t0]) + a[2 * n + q] * /* hone: synthesized for mid[q + 1] at examples/synth/himeno_tb.cu:50:102 (660 of 660 profile cases in `sb`) */ (sb[csb + t0 + 1]) + b[q] * (/* hone: synthesized for mid[q + xy + nx] at examples/synth/himeno_tb.cu:51:30 (660 of 660 profile cases in `sb`) */ (sb[csb + tw + tp]) - /* hone: synthesized for mid[q + xy - nx] at examples/synth/himeno_tb.cu:51:56 (660 of 660 profile cases in `sb`) */ (sb[csb + tp - tw]) - /* hone: synthesized for mid[q - xy + nx] at examples/synth/himeno_tb.cu:51:82 (660 of 660 profile cases in `sb`) */ (sb[csb + tw + tm]) + /* hone: synthesized for mid[q - xy - nx] at examples/synth/himeno_tb.cu:51:108 (660 of 660 profile cases in `sb`) */ (sb[csb + tm - tw])) + b[n + q] * (/* hone: synthesized for mid[q + nx + 1] at examples/synth/himeno_tb.cu:52:34 (660 of 660 profile cases in `sb`) */ (sb[csb + tw + t0 + 1]) - /* hone: synthesized for mid[q - nx + 1] at examples/synth/himeno_tb.cu:52:59 (660 of 660 profile cases in `sb`) */ (sb[csb + t0 - blockDim.x - 1]) - /* hone: synthesized for mid[q + nx - 1] at examples/synth/himeno_tb.cu:52:84 (660 of 660 profile cases in `sb`) */ (sb[blockDim.x + csb + t0 + 1]) + /* hone: synthesized for mid[q - nx - 1] at examples/synth/himeno_tb.cu:52:109 (660 of 660 profile cases in `sb`) */ (sb[csb + t0 - tw - 1])) + b[2 * n + q] * (/* hone: synthesized for mid[q + xy + 1] at examples/synth/himeno_tb.cu:53:38 (660 of 660 profile cases in `sb`) */ (sb[csb + tp + 1]) - /* hone: synthesized for mid[q - xy + 1] at examples/synth/himeno_tb.cu:53:63 (660 of 660 profile cases in `sb`) */ (sb[csb + tm + 1]) - /* hone: synthesized for mid[q + xy - 1] at examples/synth/himeno_tb.cu:53:88 (660 of 660 profile cases in `sb`) */ (sb[csb + tp - 1]) + /* hone: synthesized for mid[q - xy - 1] at examples/synth/himeno_tb.cu:53:113 (660 of 660 profile cases in `sb`) */ (sb[csb + tm - 1])) + c[q] * /* hone: synthesized for mid[q - xy] at examples/synth/himeno_tb.cu:54:29 (660 of 660 profile cases in `sb`) */ (sb[csb + tm]) + c[n + q] * /* hone: synthesized for mid[q - nx] at examples/synth/himeno_tb.cu:54:61 (660 of 660 profile cases in `sb`) */ (sb[csb + t0 - tw]) + c[2 * n + q] * /* hone: synthesized for mid[q - 1] at examples/synth/himeno_tb.cu:54:97 (660 of 660 profile cases in `sb`) */ (sb[csb + t0 - 1]) + wrk1[q];
        // hone: barrier inserted: race on `sb` between the read at examples/synth/himeno_tb.cu:50:9 and the write at examples/synth/himeno_tb.cu:45:17 (synthesized)
        __syncthreads();
        float ss = (s0 * a[3 * n + q] - /* hone: synthesized for mid[q] at examples/synth/himeno_tb.cu:56:48 (660 of 660 profile cases in `sb`) */ (sb[csb + t0])) * bnd[q];
        g += ss * ss;
        wrk2[q] = /* hone: synthesized for mid[q] at examples/synth/himeno_tb.cu:58:26 (660 of 660 profile cases in `sb`) */ (sb[csb + t0]) + omega * ss;
    }
    gosa[x + y * nx] = g;
}
