// Copies that differ only in how the lanes of a warp spread over memory:
// contiguous words, every `stride`-th word, and 8- and 16-byte elements
// (one request of a warp then covers 256 or 512 contiguous bytes).
__global__ void copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copy_strided(const float *in, float *out, int stride, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

__global__ void copy_double(const double *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copy_float4(const float4 *in, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
