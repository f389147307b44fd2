// Source 2.2 of the PSySha thesis: the stencil of 2.1 optimized with shared
// memory (the thesis's `_shared_` typo fixed to `__shared__`). The shared
// array's length is only known at launch.
__global__ void stencil_kernel(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    int csb = threadIdx.x + threadIdx.y * blockDim.y;
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
