// SHA (thesis section 4.1, Appendix A.2): each thread copies its own cell of
// the current plane into `sb`; the reads marked `__opt__` are served from
// `sb` where the neighbour is in the block's tile, and from `in` elsewhere.
// As in the thesis's sketch there is no barrier at the end of the k loop;
// hone's race check finds the one the shared version needs.
__global__ void diffusion_sha(float *in, float *out,
                              int nx, int ny, int nz,
                              float ce, float cw, float cn, float cs,
                              float ct, float cb, float cc) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    __shared__ float sb[blockDim.x * blockDim.y];
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    for (int k = 0; k < nz; ++k) {
        sb[csb] = in[c];
        __syncthreads();
        int w = (i == 0) ? c : c - 1;
        int e = (i == nx-1) ? c : c + 1;
        int n = (j == 0) ? c : c - nx;
        int s = (j == ny-1) ? c : c + nx;
        int b = (k == 0) ? c : c - xy;
        int t = (k == nz-1) ? c : c + xy;
        out[c] = cc * __opt__in[c] + cw * __opt__in[w] + ce * __opt__in[e] + cs * __opt__in[s]
            + cn * __opt__in[n] + cb * __opt__in[b] + ct * __opt__in[t];
        c += xy;
    }
}
