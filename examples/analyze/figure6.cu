__global__ void
kernel_func(int *d_A, int *d_B,
            int *dst1, int *src1, int *src2)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    if(id % 2 == 0){
        d_B[id] = d_A[id] + d_A[id + 1];
        //each access's index, recorded as in the paper
        dst1[id] = id;
        src1[id] = id;
        src2[id] = id + 1;
    }
}

// Lines 1-13 are figure 6 of the profiling-support paper. hone records the
// addresses itself, so the kernel needs none of the recording lines:
__global__ void
kernel_plain(int *d_A, int *d_B)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    if(id % 2 == 0){
        d_B[id] = d_A[id] + d_A[id + 1];
    }
}

// Figure 11: the paper's fix, runs of 32 threads (renamed from kernel_func).
__global__ void
kernel_fixed(int *d_A, int *d_B)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    if(id % 64 < 32)
        d_B[id] = d_A[id] + d_A[id + 32];
}
