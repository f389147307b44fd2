// SHA-sleeve (thesis section 4.3.1, Appendix A.3): `sb` holds the block's
// tile with a one-cell halo; the user copies the tile and marks the halo
// reads with `__opt__(shared, global)`; hone writes the halo copies at
// `__insert()`.
__global__ void diffusion_sleeve(float *in, float *out,
                                 int nx, int ny, int nz,
                                 float ce, float cw, float cn, float cs,
                                 float ct, float cb, float cc) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    __shared__ float sb[(blockDim.x + 2) * (blockDim.y + 2)];
    int csb = 1 + threadIdx.x + (threadIdx.y + 1) * (blockDim.x + 2);
    for (int k = 0; k < nz; ++k) {
        int w = (i == 0) ? c : c - 1;
        int e = (i == nx-1) ? c : c + 1;
        int n = (j == 0) ? c : c - nx;
        int s = (j == ny-1) ? c : c + nx;
        int b = (k == 0) ? c : c - xy;
        int t = (k == nz-1) ? c : c + xy;
        sb[csb] = in[c];
        __insert();
        __syncthreads();
        out[c] = cc * sb[csb]
            + cw * __opt__(sb[csb - 1], in[w])
            + ce * __opt__(sb[csb + 1], in[e])
            + cs * __opt__(sb[csb + blockDim.x + 2], in[s])
            + cn * __opt__(sb[csb - blockDim.x - 2], in[n])
            + cb * in[b] + ct * in[t];
        c += xy;
    }
}
