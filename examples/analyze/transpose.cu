// Matrix transpose, out = in^T for an n x n row-major matrix, launched with
// 32 x 8 blocks over (n / 32) x (n / 8) blocks.

// Naive: the read is coalesced, the write walks a column (one sector per lane).
__global__ void transpose_naive(float *out, const float *in, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}

// Through a shared tile: both global accesses coalesced, but the tile is read
// down a column, 32 words apart: a 32-way bank conflict. Each block moves a
// 32 x 32 tile in 4 passes of 8 rows, so launch it with (n / 32) x (n / 32)
// blocks.
__global__ void transpose_tiled(float *out, const float *in, int n)
{
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
