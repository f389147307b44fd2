// Loops as naive kernels write them, where the compiled code makes fewer
// accesses than the source: a sum kept in y[row] (the compiler forwards each
// load of y[row] from the store before it), and a weight read in every
// iteration that no store in the loop can change (loaded once, before it).
__global__ void matvec_accumulate(const float *A, const float *x, float *y, int m, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        y[row] = 0.0f;
        for (int j = 0; j < n; j++)
            y[row] += A[row * n + j] * x[j];
    }
}

__global__ void weighted_row_sums(const float *A, const float *w, float *y, int m, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        float sum = 0.0f;
        for (int j = 0; j < n; j++)
            sum += A[row * n + j] * w[0];
        y[row] = sum;
    }
}

// Each step reads back what the step before wrote: the compiler keeps it.
__global__ void running_sum(const float *in, float *out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    out[col] = in[col];
    for (int i = 1; i < n; i++)
        out[i * 64 + col] = out[(i - 1) * 64 + col] + in[i * 64 + col];
}
