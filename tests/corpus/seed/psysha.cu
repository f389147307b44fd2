// Stencil kernels of the PSySha thesis (003_b418a1ddbb13ac8e.txt), with the
// printed typos fixed (each fix is noted where it is made). Shared arrays keep
// the thesis's launch-time sizes (blockDim-dependent), which the emulator
// evaluates per block.

// Source 2.1: naive 2-D five-point stencil.
__global__ void stencil_kernel(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    out[c] = in[(i == 0) ? c : c - 1]
            + in[(i == nx - 1) ? c : c + 1]
            + in[(j == 0) ? c : c - nx]
            + in[(j == ny - 1) ? c : c + nx]
            + in[c];}

// Source 2.2: shared-memory version. Fixes: `_shared_` -> `__shared__`;
// csb used `threadIdx.y * blockDim.y`, wrong for non-square blocks.
__global__ void stencil_shared(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    __shared__ float sb[blockDim.x*blockDim.y];
    sb[csb] = in[c];
    __syncthreads();
    out[c] = ((threadIdx.x != 0 || i == 0)
            ? sb[(i == 0) ? csb : csb - 1]
            : in[c - 1])
            + ((threadIdx.x != blockDim.x - 1 || i == nx - 1)
            ? sb[(i == nx - 1) ? csb : csb + 1]
            : in[c + 1] )
            + ((threadIdx.y != 0 || j == 0)
            ? sb[(j == 0) ? csb : csb - blockDim.x]
            : in[c - nx])
            + ((threadIdx.y != blockDim.y - 1 || j == ny - 1)
            ? sb[(threadIdx.y==blockDim.y-1) ? csb : csb+blockDim.x]
            : in[c + nx])
            + sb[csb];}

// Source 4.4: halo ("sleeve") copied into shared memory. Fixes: the index was
// declared as `c2` but used as `csb`; the bottom halo wrote
// `sb[csb + blockDim.y + 2] = in[(j == 0) ? c : c - ny]`, which must be
// `sb[csb + blockDim.x + 2] = in[(j == ny - 1) ? c : c + nx]`.
__global__ void stencil_sleeve(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    int csb = (threadIdx.y + 1) * (blockDim.x + 2) + threadIdx.x + 1;
    __shared__ float sb[(blockDim.x + 2) * (blockDim.y + 2)];
    sb[csb] = in[c];
    if(threadIdx.x == 0){
        sb[csb - 1] = in[(i == 0) ? c : c - 1]; }
    if(threadIdx.x == blockDim.x - 1){
        sb[csb + 1] = in[(i == nx - 1) ? c : c + 1]; }
    if(threadIdx.y == 0){
        sb[csb - blockDim.x - 2] = in[(j == 0) ? c : c - nx]; }
    if(threadIdx.y == blockDim.y - 1){
        sb[csb + blockDim.x + 2] = in[(j == ny - 1) ? c : c + nx]; }
    __syncthreads();
    out[c] = sb[csb]
        + sb[csb - 1]
        + sb[csb + 1]
        + sb[csb - blockDim.x - 2]
        + sb[csb + blockDim.x + 2];
}

// Source 4.6: the synthesized sleeve kernel. Fix: i and j were computed with
// `blockDim.x * blockDim.y` where `blockIdx.x * blockDim.x` is meant.
__global__ void stencil_sleeve_synth(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    __shared__ float sb[(blockDim.x + 2) * (blockDim.y + 2)];
    int csb = (blockDim.x + 2) * (threadIdx.y + 1) + threadIdx.x + 1;
    sb[csb] = in[c];
    if(threadIdx.x == 0){
        sb[csb - 1] = in[(i == 0) ? c : c - 1];
    }
    if(threadIdx.x == blockDim.x - 1){
        sb[csb + 1] = in[(i == nx - 1) ? c : c + 1];
    }
    if(threadIdx.y == 0){
        sb[csb - blockDim.x - 2] = in[(j == 0) ? c : c - nx];
    }
    if(threadIdx.y == blockDim.y - 1){
        sb[csb + blockDim.x + 2] = in[(j == ny - 1) ? c : c + nx];
    }
    __syncthreads();
    out[c] = sb[csb - 1]
        + sb[csb + 1]
        + sb[csb - blockDim.x - 2]
        + sb[csb + blockDim.x + 2]
        + sb[csb]; }

// Source 4.8: temporal blocking through a global `mid` array. Blocks overlap
// by one cell on each side and recompute the same halo values.
__global__ void stencil_tb_global(int *in, int *mid, int *out, int nx, int ny){
    int i, j, i2, j2, c, c2;
    i = blockIdx.x * (blockDim.x - 2) + threadIdx.x - 1;
    i = max(0, i);
    i = min(i, nx - 1);
    j = blockIdx.y * (blockDim.y - 2) + threadIdx.y - 1;
    j = max(0, j);
    j = min(j, ny - 1);
    c = nx * j + i;
    mid[c] = in[(i == 0) ? c : c - 1]
           + in[(i == nx - 1) ? c : c + 1]
           + in[(j == 0) ? c : c - nx]
           + in[(j == ny - 1) ? c : c + nx]
           + in[c];
    __syncthreads();
    i2 = blockIdx.x * (blockDim.x-2) + min(threadIdx.x, blockDim.x-3);
    i2 = min(i2, nx - 1);
    j2 = blockIdx.y * (blockDim.y-2) + min(threadIdx.y, blockDim.y-3);
    j2 = min(j2, ny - 1);
    c2 = nx * j2 + i2;
    out[c2] = mid[(i2 == 0) ? c2 : c2 - 1]
            + mid[(i2 == nx - 1) ? c2 : c2 + 1]
            + mid[(j2 == 0) ? c2 : c2 - nx]
            + mid[(j2 == ny - 1) ? c2 : c2 + nx]
            + mid[c2];}

// Source 4.7: temporal blocking in shared memory. Fixes: the vertical
// neighbours were `csb2 -/+ nx` where the tile row `blockDim.x` is meant.
__global__ void stencil_tb_shared(int *in, int *out, int nx, int ny){
    int i, j, i2, j2, c, c2, csb, csb2;
    i = blockIdx.x * (blockDim.x - 2) + threadIdx.x - 1;
    i = max(0, i);
    i = min(i, nx - 1);
    j = blockIdx.y * (blockDim.y - 2) + threadIdx.y - 1;
    j = max(0, j);
    j = min(j, ny - 1);
    c = nx * j + i;
    __shared__ float sb[blockDim.x * blockDim.y];
    csb = blockDim.x * threadIdx.y + threadIdx.x;
    sb[csb] = in[(i == 0) ? c : c - 1]
            + in[(i == nx - 1) ? c : c + 1]
            + in[(j == 0) ? c : c - nx]
            + in[(j == ny - 1) ? c : c + nx]
            + in[c];
    __syncthreads();
    i2 = blockIdx.x * (blockDim.x-2) + min(threadIdx.x, blockDim.x-3);
    i2 = min(i2, nx - 1);
    j2 = blockIdx.y * (blockDim.y-2) + min(threadIdx.y, blockDim.y-3);
    j2 = min(j2, ny - 1);
    c2 = nx * j2 + i2;
    csb2 = blockDim.x * (j2%(blockDim.y-2) + 1) + i2%(blockDim.x-2) + 1;
    out[c2] = sb[(i2 == 0) ? csb2 : csb2 - 1]
            + sb[(i2 == nx - 1) ? csb2 : csb2 + 1]
            + sb[(j2 == 0) ? csb2 : csb2 - blockDim.x]
            + sb[(j2 == ny - 1) ? csb2 : csb2 + blockDim.x]
            + sb[csb2];}
