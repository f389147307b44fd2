// A stencil whose border cells take their neighbours from halo arrays,
// chosen by an if/else chain: compilers load each neighbour once, from the
// address each cell's arm names, rather than once per arm.
__global__ void border_stencil(const float *in, float *out, int n)
{
    __shared__ float tile[16][16];
    __shared__ float north[16];
    __shared__ float south[16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    tile[ty][tx] = in[y * n + x];
    if (ty == 0)
        north[tx] = in[max(y - 1, 0) * n + x];
    if (ty == 15)
        south[tx] = in[min(y + 1, n - 1) * n + x];
    __syncthreads();
    float c = tile[ty][tx];
    float up, down;
    if (ty == 0) {
        up = north[tx];
        down = tile[ty + 1][tx];
    } else if (ty == 15) {
        up = tile[ty - 1][tx];
        down = south[tx];
    } else {
        up = tile[ty - 1][tx];
        down = tile[ty + 1][tx];
    }
    out[y * n + x] = up + down - 2.0f * c;
}
