// The 3-D diffusion kernel of Appendix A.1 of the PSySha thesis. Fixes: the
// update wrote `in[c]` (a race with the neighbours' reads, and not the
// benchmark's intent), and the k-loop never advanced c; as in the original
// benchmark, the result goes to `out` and `c += xy` each plane.
__global__ void diffusion_kernel(float *in,
                                 float *out,
                                 int nx, int ny, int nz,
                                 float ce, float cw, float cn, float cs,
                                 float ct, float cb, float cc) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    for (int k = 0; k < nz; ++k) {
        int w = (i == 0) ? c : c - 1;
        int e = (i == nx-1) ? c : c + 1;
        int n = (j == 0) ? c : c - nx;
        int s = (j == ny-1) ? c : c + nx;
        int b = (k == 0) ? c : c - xy;
        int t = (k == nz-1) ? c : c + xy;
        out[c] = cc * in[c] + cw * in[w] + ce * in[e] + cs * in[s]
            + cn * in[n] + cb * in[b] + ct * in[t];
        c += xy;
    }
}
