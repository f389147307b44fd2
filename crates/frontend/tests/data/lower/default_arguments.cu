// Default arguments: a kernel's launch gives every argument, so its defaults
// are kept only in the source; a device call must give every argument too.
__device__ int scaled(int x, int factor = 2) { return x * factor; }

__global__ void scan_test(int *data, int width, int *partial_sums = NULL) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    data[id] = scaled(data[id], width);
    if (partial_sums != NULL && threadIdx.x == 0) {
        partial_sums[blockIdx.x] = data[id];
    }
}

__global__ void leaves_one_out(int *data) {
    data[threadIdx.x] = scaled(data[threadIdx.x]);
}
