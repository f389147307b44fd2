// Temporal blocking (thesis section 4.3.2): two time steps of the diffusion
// stencil per launch, written without shared memory first, as the thesis's
// source 4.8: each block computes the first step on its tile plus a one-cell
// halo (clamped at the grid's edges, as the stencil clamps its neighbours)
// into the global `mid`, then the second step on its tile from `mid`.
// Blocks overlap in their halos and write the same values there.
//
// The first step of plane k+1 is made while plane k's second step waits for
// it; the planes k-1, k, k+1 of `mid` are the ones the second step reads,
// and the copies put them in three tiles of `sb`, by plane modulo 3. `csb`
// and `tm`, `t0`, `tp` (this thread's cell and the tiles of planes k-1, k,
// k+1) are helpers for the shared-memory indices hone writes.
__global__ void diffusion_tb(float *in, float *mid, float *out,
                             int nx, int ny, int nz,
                             float ce, float cw, float cn, float cs,
                             float ct, float cb, float cc) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int bx = blockDim.x * blockIdx.x;
    int by = blockDim.y * blockIdx.y;
    int xy = nx * ny;
    int tw = blockDim.x + 2;
    int tn = tw * (blockDim.y + 2);
    int csb = (threadIdx.y + 1) * tw + threadIdx.x + 1;
    __shared__ float sb[3 * (blockDim.x + 2) * (blockDim.y + 2)];
    for (int k = 0; k < nz; ++k) {
        int tm = ((k + 2) % 3) * tn;
        int t0 = (k % 3) * tn;
        int tp = ((k + 1) % 3) * tn;
        for (int kk = (k == 0) ? -1 : k + 1; kk <= k + 1; ++kk) {
            int hk = min(max(kk, 0), nz - 1);
            for (int m = threadIdx.x + threadIdx.y * blockDim.x; m < tn; m += blockDim.x * blockDim.y) {
                int hi = min(max(bx + m % tw - 1, 0), nx - 1);
                int hj = min(max(by + m / tw - 1, 0), ny - 1);
                int hc = hi + hj * nx + hk * xy;
                int w = (hi == 0) ? hc : hc - 1;
                int e = (hi == nx-1) ? hc : hc + 1;
                int n = (hj == 0) ? hc : hc - nx;
                int s = (hj == ny-1) ? hc : hc + nx;
                int b = (hk == 0) ? hc : hc - xy;
                int t = (hk == nz-1) ? hc : hc + xy;
                mid[hc] = cc * in[hc] + cw * in[w] + ce * in[e] + cs * in[s]
                    + cn * in[n] + cb * in[b] + ct * in[t];
                sb[((kk + 3) % 3) * tn + m] = mid[hc];
            }
        }
        __syncthreads();
        int c = i + j * nx + k * xy;
        int w = (i == 0) ? c : c - 1;
        int e = (i == nx-1) ? c : c + 1;
        int n = (j == 0) ? c : c - nx;
        int s = (j == ny-1) ? c : c + nx;
        int b = (k == 0) ? c : c - xy;
        int t = (k == nz-1) ? c : c + xy;
        out[c] = cc * __opt__mid[c] + cw * __opt__mid[w] + ce * __opt__mid[e] + cs * __opt__mid[s]
            + cn * __opt__mid[n] + cb * __opt__mid[b] + ct * __opt__mid[t];
    }
}
