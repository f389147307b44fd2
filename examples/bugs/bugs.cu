// Kernels with planted bugs, one of each kind the emulator reports.
// Each has a launch file beside it; `hone sim` must name the line of the bug.

// Out of bounds: `<=` lets thread n read and write one past the end.
__global__ void off_by_one(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) {
        out[i] = 2.0f * in[i];
    }
}

// Shared-memory race: the reversal reads tile slots other warps write,
// with no barrier between the write and the read.
__global__ void missing_barrier(const int *in, int *out) {
    __shared__ int tile[64];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * 64 + t];
    out[blockIdx.x * 64 + t] = tile[63 - t];
}

// The same kernel with the barrier: no race.
__global__ void with_barrier(const int *in, int *out) {
    __shared__ int tile[64];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    out[blockIdx.x * 64 + t] = tile[63 - t];
}

// Global race between blocks: every block's thread 0 writes the same cell.
__global__ void last_block_wins(int *flag) {
    if (threadIdx.x == 0) {
        flag[0] = blockIdx.x;
    }
}

// Global race within the grid: an in-place smoothing reads neighbours that
// other threads overwrite.
__global__ void in_place_smooth(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) {
        a[i] = 0.5f * (a[i - 1] + a[i + 1]);
    }
}

// Barrier divergence: only the first half of the block reaches the barrier.
__global__ void half_barrier(float *a) {
    int t = threadIdx.x;
    if (t < blockDim.x / 2) {
        __syncthreads();
        a[t] = 1.0f;
    }
}

// Reads a shared slot nothing wrote: tile[32..63] are never stored.
__global__ void uninitialised_shared(float *out) {
    __shared__ float tile[64];
    int t = threadIdx.x;
    if (t < 32) {
        tile[t] = (float)t;
    }
    __syncthreads();
    out[t] = tile[63 - t];
}

// Atomic updates to one cell are not a race.
__global__ void atomic_count(int *count) {
    atomicAdd(&count[0], 1);
}
