// Shared-memory reads with a stride between lanes, the bank-conflict
// micro-benchmarks: floats `stride` words apart, and doubles and float4s
// read contiguously (processed in 2 and 4 phases).
__global__ void shared_stride(float *out, int stride)
{
    __shared__ float s[32 * 33];
    for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x)
        s[i] = i;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * stride) % (32 * 33)];
}

__global__ void shared_wide(double *out, float4 *out4)
{
    __shared__ double d[64];
    __shared__ float4 q[64];
    int t = threadIdx.x;
    d[t] = t;
    q[t] = make_float4(t, t, t, t);
    __syncthreads();
    out[t] = d[t];
    out4[t] = q[t];
}

// A 32 x 32 tile read down its columns: the classic 32-way conflict.
__global__ void column_sum(const float *in, float *out)
{
    __shared__ float tile[32][32];
    int t = threadIdx.x;
    for (int r = 0; r < 32; r++)
        tile[r][t] = in[r * 32 + t];
    __syncthreads();
    float sum = 0.0f;
    for (int c = 0; c < 32; c++)
        sum += tile[t][c];
    out[t] = sum;
}
