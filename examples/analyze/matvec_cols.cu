// The coalesced form of matvec.cu: A stored column-major (leading dimension
// m), so at every step of the loop the lanes of a warp read 32 consecutive
// floats of one column, and x[j] is one word broadcast to the warp.
__global__ void matvec_cols(const float *A, const float *x, float *y, int m, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        float sum = 0.0f;
        for (int j = 0; j < n; j++)
            sum += A[j * m + row] * x[j];
        y[row] = sum;
    }
}
