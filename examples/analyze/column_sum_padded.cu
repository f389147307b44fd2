// column_sum of shared_stride.cu with a padded tile: lane t reads row t, 33
// words from its neighbour, so every read of the loop is conflict-free.
__global__ void column_sum_padded(const float *in, float *out)
{
    __shared__ float tile[32][33];
    int t = threadIdx.x;
    for (int r = 0; r < 32; r++)
        tile[r][t] = in[r * 32 + t];
    __syncthreads();
    float sum = 0.0f;
    for (int c = 0; c < 32; c++)
        sum += tile[t][c];
    out[t] = sum;
}
