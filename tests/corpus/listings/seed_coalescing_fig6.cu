// Figure 6 of the coalescing-analysis paper: the kernel with the index
// recording added for profiling.
__global__ void
kernel_func(int *d_A, int *d_B,
           int *dst1, int *src1, int *src2)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    if(id % 2 == 0){
        d_B[id] = d_A[id] + d_A[id + 1];
        //各アクセス先の添字を記憶する
        dst1[id] = id;
        src1[id] = id;
        src2[id] = id + 1;
    }
}
