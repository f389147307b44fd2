// A tree reduction in shared memory as it is often first written: each
// thread's partial sum lives in its element of `s` and is read back from
// shared memory on every step, although only this thread writes it.
__global__ void block_sums(const float *in, float *out)
{
    __shared__ float s[256];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (tid < stride)
            s[tid] += s[tid + stride];
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
