// Figures 3 and 4 of the profiling-support paper: the read of d_b starts one
// word past a 64-byte boundary; the suggested rewrite reads 16 words on.
__global__ void
kernel1(int *d_a, int *d_b)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    d_a[id] *= d_b[id + 1];
}

__global__ void
kernel2(int *d_a, int *d_b)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    d_a[id] *= d_b[id + 16];
}
