// The 27-point box of box27.cu with SHA-sleeve over the current plane: `sb`
// holds the block's tile with a one-cell halo, corners included; the eight
// in-plane neighbours are read from it and hone writes the halo copies at
// `__insert()`; the planes above and below stay global reads.
__global__ void box27_sleeve(const float *in, float *out, int nx, int ny, int nz,
                             float w0, float w1, float w2, float w3) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    __shared__ float sb[(blockDim.x + 2) * (blockDim.y + 2)];
    int w = blockDim.x + 2;
    int csb = (threadIdx.y + 1) * w + threadIdx.x + 1;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = in[q];
        __insert();
        __syncthreads();
        float faces = __opt__(sb[csb - 1], in[q - 1]) + __opt__(sb[csb + 1], in[q + 1])
            + __opt__(sb[csb - w], in[q - nx]) + __opt__(sb[csb + w], in[q + nx])
            + in[q - xy] + in[q + xy];
        float edges = __opt__(sb[csb - w - 1], in[q - nx - 1])
            + __opt__(sb[csb - w + 1], in[q - nx + 1])
            + __opt__(sb[csb + w - 1], in[q + nx - 1])
            + __opt__(sb[csb + w + 1], in[q + nx + 1])
            + in[q - xy - 1] + in[q - xy + 1] + in[q - xy - nx] + in[q - xy + nx]
            + in[q + xy - 1] + in[q + xy + 1] + in[q + xy - nx] + in[q + xy + nx];
        float corners = in[q - xy - nx - 1] + in[q - xy - nx + 1] + in[q - xy + nx - 1]
            + in[q - xy + nx + 1] + in[q + xy - nx - 1] + in[q + xy - nx + 1]
            + in[q + xy + nx - 1] + in[q + xy + nx + 1];
        out[q] = w0 * sb[csb] + w1 * faces + w2 * edges + w3 * corners;
        __syncthreads();
    }
}
