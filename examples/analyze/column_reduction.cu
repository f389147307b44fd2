// A tree reduction down the columns of a 16 x 16 tile (as backprop's layer
// kernel does): each thread's partial sum lives in its element s[ty][tx]
// of a two-dimensional shared array and is read back on every step,
// although only this thread writes it.
__global__ void column_sums(const float *in, float *out)
{
    __shared__ float s[16][16];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    s[ty][tx] = in[(blockIdx.x * 16 + ty) * 16 + tx];
    __syncthreads();
    for (int step = 2; step <= 16; step *= 2) {
        if (ty % step == 0)
            s[ty][tx] = s[ty][tx] + s[ty + step / 2][tx];
        __syncthreads();
    }
    if (ty == 0)
        out[blockIdx.x * 16 + tx] = s[0][tx];
}
