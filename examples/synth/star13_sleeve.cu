// The 13-point star of star13.cu with SHA-sleeve: `sb` holds the block's
// tile of the current plane with a two-cell halo; the x and y neighbours are
// read from it, hone writes the halo copies at `__insert()`; the z
// neighbours stay global reads.
__global__ void star13_sleeve(const float *in, float *out, int nx, int ny, int nz,
                              float c0, float c1, float c2) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 2;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 2;
    int xy = nx * ny;
    __shared__ float sb[(blockDim.x + 4) * (blockDim.y + 4)];
    int w = blockDim.x + 4;
    int csb = (threadIdx.y + 2) * w + threadIdx.x + 2;
    for (int z = 2; z < nz - 2; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = in[q];
        __insert();
        __syncthreads();
        out[q] = c0 * sb[csb]
            + c1 * (__opt__(sb[csb - 1], in[q - 1]) + __opt__(sb[csb + 1], in[q + 1])
                    + __opt__(sb[csb - w], in[q - nx]) + __opt__(sb[csb + w], in[q + nx])
                    + in[q - xy] + in[q + xy])
            + c2 * (__opt__(sb[csb - 2], in[q - 2]) + __opt__(sb[csb + 2], in[q + 2])
                    + __opt__(sb[csb - 2 * w], in[q - 2 * nx])
                    + __opt__(sb[csb + 2 * w], in[q + 2 * nx])
                    + in[q - 2 * xy] + in[q + 2 * xy]);
        __syncthreads();
    }
}
