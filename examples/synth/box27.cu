// A 3-D 27-point box stencil (every cell of the 3 x 3 x 3 cube around a
// point, weighted by its distance class: centre, 6 faces, 12 edges, 8
// corners), naive: one thread per interior (x, y) column, walking the
// interior z planes. The grid's outer layer is boundary and is not written.
__global__ void box27(const float *in, float *out, int nx, int ny, int nz,
                      float w0, float w1, float w2, float w3) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        float faces = in[q - 1] + in[q + 1] + in[q - nx] + in[q + nx] + in[q - xy] + in[q + xy];
        float edges = in[q - nx - 1] + in[q - nx + 1] + in[q + nx - 1] + in[q + nx + 1]
            + in[q - xy - 1] + in[q - xy + 1] + in[q - xy - nx] + in[q - xy + nx]
            + in[q + xy - 1] + in[q + xy + 1] + in[q + xy - nx] + in[q + xy + nx];
        float corners = in[q - xy - nx - 1] + in[q - xy - nx + 1] + in[q - xy + nx - 1]
            + in[q - xy + nx + 1] + in[q + xy - nx - 1] + in[q + xy - nx + 1]
            + in[q + xy + nx - 1] + in[q + xy + nx + 1];
        out[q] = w0 * in[q] + w1 * faces + w2 * edges + w3 * corners;
    }
}
