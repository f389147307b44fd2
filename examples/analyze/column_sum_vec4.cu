// column_sum of shared_stride.cu with each lane's four consecutive reads made
// one 16-byte read, as nvcc compiles that loop (LDS.128). The lanes are 128
// bytes apart: in each of the 4 phases of 8 lanes all eight read banks 0-3,
// an 8-way conflict, so every read takes 32 wavefronts where 4 would do.
__global__ void column_sum_vec4(const float *in, float *out)
{
    __shared__ float4 tile[32][8];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32)
        tile[i / 8][i % 8] = make_float4(in[4 * i], in[4 * i + 1], in[4 * i + 2], in[4 * i + 3]);
    __syncthreads();
    float sum = 0.0f;
    for (int c = 0; c < 8; c++) {
        float4 v = tile[t][c];
        sum += v.x + v.y + v.z + v.w;
    }
    out[t] = sum;
}
