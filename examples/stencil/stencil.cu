// 2-D five-point stencil, naive and with a shared-memory tile (sources 2.1 and
// 2.2 of the PSySha thesis). Both compute the same `out`; run either with
// `hone sim stencil/launch.json` or `hone sim stencil/launch_shared.json`.

__global__ void stencil_kernel(int *in, int *out, int nx, int ny) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    out[c] = in[(i == 0) ? c : c - 1]
           + in[(i == nx - 1) ? c : c + 1]
           + in[(j == 0) ? c : c - nx]
           + in[(j == ny - 1) ? c : c + nx]
           + in[c];
}

#ifndef BX
#define BX 4
#endif
#ifndef BY
#define BY 4
#endif

// The thesis writes the tile with a launch-time size and indexes it with
// blockDim.y where blockDim.x is meant; this copy uses the compile-time block.
__global__ void stencil_shared(int *in, int *out, int nx, int ny) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    __shared__ int sb[BX * BY];
    sb[csb] = in[c];
    __syncthreads();
    out[c] = ((threadIdx.x != 0 || i == 0) ? sb[(i == 0) ? csb : csb - 1] : in[c - 1])
           + ((threadIdx.x != blockDim.x - 1 || i == nx - 1) ? sb[(i == nx - 1) ? csb : csb + 1] : in[c + 1])
           + ((threadIdx.y != 0 || j == 0) ? sb[(j == 0) ? csb : csb - blockDim.x] : in[c - nx])
           + ((threadIdx.y != blockDim.y - 1 || j == ny - 1) ? sb[(j == ny - 1) ? csb : csb + blockDim.x] : in[c + nx])
           + sb[csb];
}
