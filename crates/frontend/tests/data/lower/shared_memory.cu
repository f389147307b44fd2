// Shared memory: static 1-D and 2-D arrays, a shared scalar, dynamic extern
// shared memory, and launch-time lengths as in the PSySha sketches.
__global__ void shared(const float *in, float *out, int n) {
    __shared__ float tile[16][17];
    __shared__ float row[256];
    __shared__ int count;
    extern __shared__ float dyn[];
    __shared__ float sb[(blockDim.x + 2) * (blockDim.y + 2)];
    __shared__ float halo[blockDim.x + 2][4];
    int tx = threadIdx.x, ty = threadIdx.y;
    if (tx == 0 && ty == 0) count = 0;
    tile[ty][tx] = in[ty * n + tx];
    row[tx] = tile[tx][ty];
    dyn[tx] = row[tx];
    sb[1 + tx + (ty + 1) * (blockDim.x + 2)] = dyn[tx];
    halo[tx][0] = sb[tx];
    __syncthreads();
    atomicAdd(&count, 1);
    out[tx] = halo[tx][0] + count;
}
