// SHA-sleeve on the Himeno Jacobi sweep: `sb` holds the block's tile of the
// z plane with a one-cell halo. The user copies the tile and reads the
// in-plane neighbours through `__opt__(shared, global)`; hone writes the
// halo copies at `__insert()`, one read after the other in the order they
// are written here (edges first, so the corners need copies only where the
// edges leave them out).
__global__ void jacobi_sleeve(float *p, float *a, float *b, float *c, float *wrk1, float *bnd,
                              float *wrk2, float *gosa, int nx, int ny, int nz, float omega) {
    int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    int xy = nx * ny;
    int n = xy * nz;
    __shared__ float sb[(blockDim.x + 2) * (blockDim.y + 2)];
    int csb = (threadIdx.y + 1) * (blockDim.x + 2) + threadIdx.x + 1;
    float g = 0.0f;
    for (int z = 1; z < nz - 1; ++z) {
        int q = x + y * nx + z * xy;
        sb[csb] = p[q];
        __insert();
        __syncthreads();
        float pw = __opt__(sb[csb - 1], p[q - 1]);
        float pe = __opt__(sb[csb + 1], p[q + 1]);
        float pn = __opt__(sb[csb - blockDim.x - 2], p[q - nx]);
        float ps = __opt__(sb[csb + blockDim.x + 2], p[q + nx]);
        float pnw = __opt__(sb[csb - blockDim.x - 3], p[q - nx - 1]);
        float pne = __opt__(sb[csb - blockDim.x - 1], p[q - nx + 1]);
        float psw = __opt__(sb[csb + blockDim.x + 1], p[q + nx - 1]);
        float pse = __opt__(sb[csb + blockDim.x + 3], p[q + nx + 1]);
        float s0 = a[q] * p[q + xy] + a[n + q] * ps + a[2 * n + q] * pe
            + b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx])
            + b[n + q] * (pse - pne - psw + pnw)
            + b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1])
            + c[q] * p[q - xy] + c[n + q] * pn + c[2 * n + q] * pw
            + wrk1[q];
        float ss = (s0 * a[3 * n + q] - sb[csb]) * bnd[q];
        g += ss * ss;
        wrk2[q] = sb[csb] + omega * ss;
        __syncthreads();
    }
    gosa[x + y * nx] = g;
}
