// A 3-D fourth-order Laplacian (13-point star, radius 2), naive: one thread
// per interior (x, y) column, walking the interior z planes. Cells within two
// of the grid's faces are boundary and are not written.
__global__ void star13(const float *in, float *out, int nx, int ny, int nz,
                       float c0, float c1, float c2) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 2;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 2;
    int xy = nx * ny;
    for (int z = 2; z < nz - 2; ++z) {
        int q = x + y * nx + z * xy;
        out[q] = c0 * in[q]
            + c1 * (in[q - 1] + in[q + 1] + in[q - nx] + in[q + nx] + in[q - xy] + in[q + xy])
            + c2 * (in[q - 2] + in[q + 2] + in[q - 2 * nx] + in[q + 2 * nx]
                    + in[q - 2 * xy] + in[q + 2 * xy]);
    }
}
