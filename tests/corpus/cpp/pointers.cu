// Pointers held in memory: an array of row pointers (`float **`), and a
// `__constant__` array of structs whose members point to buffers.
struct Job { const float *src; float *dst; int n; };
__constant__ Job jobs[2];
__global__ void gather(float **rows, const int *lens, float *out) {
    int r = blockIdx.x;
    if (threadIdx.x < lens[r]) {
        out[r * 32 + threadIdx.x] = rows[r][threadIdx.x] * 2.0f;
    }
    Job j = jobs[r];
    if (threadIdx.x < j.n) {
        j.dst[threadIdx.x] = j.src[threadIdx.x] + 1.0f;
    }
}
