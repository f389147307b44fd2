// Temporal blocking on the Himeno Jacobi sweep: two sweeps per launch,
// written without shared memory first (as the thesis's source 4.8). Each
// block makes the first sweep on its tile of a z plane plus a one-cell halo
// (boundary cells keep p, as between two sweeps of the benchmark) into the
// global `mid`, then the second sweep on its tile from `mid`; the residual
// is the second sweep's. The first sweep of plane z+1 is made while plane z
// waits for it, and the copies keep the planes z-1, z, z+1 of `mid` in
// three tiles of `sb`, by plane modulo 3. `csb` and `tm`, `t0`, `tp` (this
// thread's cell, and the tiles of planes z-1, z, z+1) are helpers for the
// shared-memory indices hone writes.
__global__ void jacobi_tb(float *p, float *a, float *b, float *c, float *wrk1, float *bnd,
                          float *mid, float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int bx = blockDim.x * blockIdx.x;
    int by = blockDim.y * blockIdx.y;
    int xy = nx * ny;
    int n = xy * nz;
    int tw = blockDim.x + 2;
    int tn = tw * (blockDim.y + 2);
    int csb = (threadIdx.y + 1) * tw + threadIdx.x + 1;
    __shared__ float sb[3 * (blockDim.x + 2) * (blockDim.y + 2)];
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int tm = ((z + 2) % 3) * tn;
        int t0 = (z % 3) * tn;
        int tp = ((z + 1) % 3) * tn;
        for (int kz = (z == 1) ? 0 : z + 1; kz <= z + 1; ++kz) {
            for (int m = threadIdx.x + threadIdx.y * blockDim.x; m < tn; m += blockDim.x * blockDim.y) {
                int hx = bx + m % tw;
                int hy = by + m / tw;
                int h = hx + hy * nx + kz * xy;
                float v = p[h];
                if (hx >= 1 && hx < nx - 1 && hy >= 1 && hy < ny - 1 && kz >= 1 && kz < nz - 1) {
                    float s0 = a[h] * p[h + xy] + a[n + h] * p[h + nx] + a[2 * n + h] * p[h + 1]
                        + b[h] * (p[h + xy + nx] - p[h + xy - nx] - p[h - xy + nx] + p[h - xy - nx])
                        + b[n + h] * (p[h + nx + 1] - p[h - nx + 1] - p[h + nx - 1] + p[h - nx - 1])
                        + b[2 * n + h] * (p[h + xy + 1] - p[h - xy + 1] - p[h + xy - 1] + p[h - xy - 1])
                        + c[h] * p[h - xy] + c[n + h] * p[h - nx] + c[2 * n + h] * p[h - 1]
                        + wrk1[h];
                    float ss = (s0 * a[3 * n + h] - p[h]) * bnd[h];
                    v = p[h] + omega * ss;
                }
                mid[h] = v;
                sb[(kz % 3) * tn + m] = mid[h];
            }
        }
        __syncthreads();
        int q = x + y * nx + z * xy;
        float s0 = a[q] * __opt__mid[q + xy] + a[n + q] * __opt__mid[q + nx] + a[2 * n + q] * __opt__mid[q + 1]
            + b[q] * (__opt__mid[q + xy + nx] - __opt__mid[q + xy - nx] - __opt__mid[q - xy + nx] + __opt__mid[q - xy - nx])
            + b[n + q] * (__opt__mid[q + nx + 1] - __opt__mid[q - nx + 1] - __opt__mid[q + nx - 1] + __opt__mid[q - nx - 1])
            + b[2 * n + q] * (__opt__mid[q + xy + 1] - __opt__mid[q - xy + 1] - __opt__mid[q + xy - 1] + __opt__mid[q - xy - 1])
            + c[q] * __opt__mid[q - xy] + c[n + q] * __opt__mid[q - nx] + c[2 * n + q] * __opt__mid[q - 1]
            + wrk1[q];
        float ss = (s0 * a[3 * n + q] - __opt__mid[q]) * bnd[q];
        g += ss * ss;
        wrk2[q] = __opt__mid[q] + omega * ss;
    }
    gosa[x + y * nx] = g;
}
