// The Himeno benchmark's Jacobi sweep (Poisson equation, 19-point stencil),
// naive CUDA: one thread per interior (x, y) column, walking the interior
// z planes. Arrays are flat with x fastest: cell (x, y, z) is
// q = x + y*nx + z*nx*ny. In Himeno's own indexing p[i][j][k] has k fastest,
// so here z is i, y is j and x is k. The coefficient arrays a[4], b[3], c[3]
// are stored as 4, 3 and 3 consecutive planes-of-the-whole-grid (a[s] at
// s*n + q with n = nx*ny*nz).
//
//   s0 = a0 p[i+1][j][k] + a1 p[i][j+1][k] + a2 p[i][j][k+1]
//      + b0 (p[i+1][j+1][k] - p[i+1][j-1][k] - p[i-1][j+1][k] + p[i-1][j-1][k])
//      + b1 (p[i][j+1][k+1] - p[i][j-1][k+1] - p[i][j+1][k-1] + p[i][j-1][k-1])
//      + b2 (p[i+1][j][k+1] - p[i-1][j][k+1] - p[i+1][j][k-1] + p[i-1][j][k-1])
//      + c0 p[i-1][j][k] + c1 p[i][j-1][k] + c2 p[i][j][k-1] + wrk1[i][j][k]
//   ss = (s0 a3 - p[i][j][k]) bnd[i][j][k];  gosa += ss*ss
//   wrk2[i][j][k] = p[i][j][k] + omega ss
//
// The residual is summed per thread over its column and written to
// gosa[x + y*nx] (the host adds the columns up), so results are the same on
// every run.
__global__ void jacobi(float *p, float *a, float *b, float *c, float *wrk1, float *bnd,
                       float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        float s0 = a[q] * p[q + xy] + a[n + q] * p[q + nx] + a[2 * n + q] * p[q + 1]
            + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx])
            + b[n + q] * (p[q + nx + 1] - p[q - nx + 1] - p[q + nx - 1] + p[q - nx - 1])
            + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1])
            + c[q] * p[q - xy] + c[n + q] * p[q - nx] + c[2 * n + q] * p[q - 1]
            + wrk1[q];
        float ss = (s0 * a[3 * n + q] - p[q]) * bnd[q];
        g += ss * ss;
        wrk2[q] = p[q] + omega * ss;
    }
    gosa[x + y * nx] = g;
}
