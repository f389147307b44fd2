// y = A x with one thread per row of a row-major m x n matrix: at every step
// of the loop the 32 lanes of a warp read 32 rows, n floats apart.
__global__ void matvec_rows(const float *A, const float *x, float *y, int m, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        float sum = 0.0f;
        for (int j = 0; j < n; j++)
            sum += A[row * n + j] * x[j];
        y[row] = sum;
    }
}
