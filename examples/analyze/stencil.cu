// Neighbour reads of naive stencils: a warp's reads of in[c - 1] and
// in[c + 1] each straddle a sector more than their data fills, and the rows
// above and below are read again by the warps of those rows.

// A 5-point Jacobi sweep of an nx x ny grid; the borders keep their centre.
__global__ void jacobi5(const float *in, float *out, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int c = i + j * nx;
    int w = i == 0 ? c : c - 1;
    int e = i == nx - 1 ? c : c + 1;
    int n = j == 0 ? c : c - nx;
    int s = j == ny - 1 ? c : c + nx;
    out[c] = 0.2f * (in[c] + in[w] + in[e] + in[n] + in[s]);
}

// The same sweep behind a bounds check: threads outside the grid skip the
// statement, so no barrier may go before it.
__global__ void jacobi5_guarded(const float *in, float *out, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny) {
        int c = i + j * nx;
        int w = i == 0 ? c : c - 1;
        int e = i == nx - 1 ? c : c + 1;
        out[c] = 0.5f * in[c] + 0.25f * (in[w] + in[e]);
    }
}

// Smoothing in place along x: the kernel writes the array it reads.
__global__ void smooth_in_place(float *a, float *b, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int c = i + j * nx;
    int w = i == 0 ? c : c - 1;
    a[c] = 0.5f * (a[c] + a[w]) + b[c];
}

// Each row of the block's threads walks its own planes: the warps of a
// block may make different numbers of trips, so no barrier may go in the
// loop.
__global__ void planes_by_row(const float *in, float *out, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.y; k < ny; k += blockDim.y) {
        int c = i + k * nx;
        int w = i == 0 ? c : c - 1;
        out[c] = 0.5f * (in[c] + in[w]);
    }
}
