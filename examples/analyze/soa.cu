// The structure-of-arrays form of aos.cu: x, y and z in three arrays, so each
// of the three reads of a warp covers 128 contiguous bytes.
__global__ void norms_soa(const float *x, const float *y, const float *z, float *r2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        r2[i] = x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
}

// norms_soa with each element read once into a local: what nvcc makes of
// norms_soa anyway, since it loads x[i], y[i] and z[i] once for both factors.
__global__ void norms_soa_once(const float *x, const float *y, const float *z, float *r2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = x[i];
        float b = y[i];
        float c = z[i];
        r2[i] = a * a + b * b + c * c;
    }
}
