// transpose_tiled of transpose.cu with one word of padding per tile row: the
// column read tile[threadIdx.x][...] then steps 33 words, one bank further
// per lane, and is free of conflicts.
__global__ void transpose_padded(float *out, const float *in, int n)
{
    __shared__ float tile[32][33];
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
