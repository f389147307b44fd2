// Block sums in shared memory, the first two steps of the classic reduction
// tutorial. Interleaved addressing: at step d the active lanes touch words
// 2d apart, a 2-way, 4-way, ... bank conflict. Sequential addressing: the
// active lanes touch consecutive words, free of conflicts.
__global__ void reduce_interleaved(const float *in, float *out)
{
    __shared__ float s[256];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned int d = 1; d < blockDim.x; d *= 2) {
        unsigned int index = 2 * d * t;
        if (index < blockDim.x)
            s[index] += s[index + d];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(const float *in, float *out)
{
    __shared__ float s[256];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned int d = blockDim.x / 2; d > 0; d >>= 1) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
