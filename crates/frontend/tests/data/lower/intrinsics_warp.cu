// Warp shuffles and votes.
__global__ void warp(float *f, int *i, double *d, unsigned *u) {
    float v = f[threadIdx.x];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off);
    int x = __shfl_sync(0xffffffff, i[0], 0);
    double y = __shfl_xor_sync(0xffffffffu, d[0], 1, 16);
    char c = 1;
    int z = __shfl_up_sync(-1, c, 2);
    unsigned b = __ballot_sync(0xffffffff, v > 0);
    int any = __any_sync(0xffffffff, x);
    int all = __all_sync(0xffffffff, y);
    u[0] = b + any + all + z;
}
