// The classic warp-synchronous tail of a shared-memory reduction: the last
// warp sums 64 values through a volatile pointer, relying on its lanes
// running in step (no __syncwarp), and the same with __syncwarp between steps.

__device__ void warp_reduce(volatile float *s, int tid) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

__global__ void reduce_volatile(const float *in, float *out) {
    __shared__ float sdata[128];
    int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * 128 + tid];
    __syncthreads();
    if (tid < 64) {
        sdata[tid] += sdata[tid + 64];
    }
    __syncthreads();
    if (tid < 32) {
        warp_reduce(sdata, tid);
    }
    if (tid == 0) {
        out[blockIdx.x] = sdata[0];
    }
}

__global__ void reduce_syncwarp(const float *in, float *out) {
    __shared__ volatile float sdata[128];
    int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * 128 + tid];
    __syncthreads();
    if (tid < 64) {
        sdata[tid] += sdata[tid + 64];
    }
    __syncthreads();
    if (tid < 32) {
        float v = sdata[tid];
        for (int offset = 32; offset > 0; offset >>= 1) {
            v += sdata[tid + offset];
            __syncwarp();
            sdata[tid] = v;
            __syncwarp();
        }
    }
    if (tid == 0) {
        out[blockIdx.x] = sdata[0];
    }
}
