// Source 2.1 of the PSySha thesis: 2-D 5-point stencil before optimization.
__global__ void stencil_kernel(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    out[c] = in[(i == 0) ? c : c - 1]
            + in[(i == nx - 1) ? c : c + 1]
            + in[(j == 0) ? c : c - nx]
            + in[(j == ny - 1) ? c : c + nx]
            + in[c];}
