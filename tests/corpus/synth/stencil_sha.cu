// The PSySha thesis's five-point stencil (Source 2.1) annotated for `hone
// synth`: each `__opt__in` read is to be served from the shared array `sb`.
__global__ void stencil_kernel(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    __shared__ float sb[blockDim.x * blockDim.y];
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    sb[csb] = in[c];
    __syncthreads();
    out[c] = __opt__in[(i == 0) ? c : c - 1]
            + __opt__in[(i == nx - 1) ? c : c + 1]
            + __opt__in[(j == 0) ? c : c - nx]
            + __opt__in[(j == ny - 1) ? c : c + nx]
            + __opt__in[c];}
