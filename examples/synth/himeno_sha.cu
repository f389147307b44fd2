// SHA on the Himeno Jacobi sweep: each thread copies its cell of the
// current z plane into `sb`; the in-plane reads of `p` (the centre and its
// eight neighbours in the plane) are marked for synthesis.
__global__ void jacobi_sha(float *p, float *a, float *b, float *c, float *wrk1, float *bnd,
                           float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    __shared__ float sb[blockDim.x * blockDim.y];
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = p[q];
        __syncthreads();
        float s0 = a[q] * p[q + xy] + a[n + q] * __opt__p[q + nx] + a[2 * n + q] * __opt__p[q + 1]
            + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx])
            + b[n + q] * (__opt__p[q + nx + 1] - __opt__p[q - nx + 1] - __opt__p[q + nx - 1] + __opt__p[q - nx - 1])
            + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1])
            + c[q] * p[q - xy] + c[n + q] * __opt__p[q - nx] + c[2 * n + q] * __opt__p[q - 1]
            + wrk1[q];
        float ss = (s0 * a[3 * n + q] - __opt__p[q]) * bnd[q];
        g += ss * ss;
        wrk2[q] = __opt__p[q] + omega * ss;
        __syncthreads();
    }
    gosa[x + y * nx] = g;
}
