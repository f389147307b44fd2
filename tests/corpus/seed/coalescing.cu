// Kernels of figures 3, 4, 6 and 11 of the profiling-support paper
// (001_ab83e15503350173.txt), as printed there.

// Figure 3: the read of d_b starts one word past a 64-byte boundary.
__global__ void
kernel1(int *d_a, int *d_b)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    d_a[id] *= d_b[id + 1];
}

// Figure 4: the suggested rewrite reads d_b at an aligned offset.
__global__ void
kernel2(int *d_a, int *d_b)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    d_a[id] *= d_b[id + 16];
}

// Figure 6: even threads only; dst1/src1/src2 record each access's index.
__global__ void
kernel_func(int *d_A, int *d_B,
            int *dst1, int *src1, int *src2)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    if(id % 2 == 0){
        d_B[id] = d_A[id] + d_A[id + 1];
        dst1[id] = id;
        src1[id] = id;
        src2[id] = id + 1;
    }
}

// Figure 11: runs of 32 threads access contiguously. Renamed from kernel_func
// so both versions live in one file.
__global__ void
kernel_func_fixed(int *d_A, int *d_B)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    if(id % 64 < 32)
        d_B[id] = d_A[id] + d_A[id + 32];
}
