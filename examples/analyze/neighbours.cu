// Accesses the compiler changes in ways a line-by-line reading misses.

// s[2 * t] and s[2 * t + 1] are neighbours: where the compiler knows s is
// 8-byte aligned (its storage is doubles), one 8-byte shared load serves both.
__global__ void pair_swap(const float *in, float *out)
{
    __shared__ double storage[128];
    float *s = (float *)storage;
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    s[t + 128] = in[blockIdx.x * 256 + t + 128];
    __syncthreads();
    float a = s[2 * t];
    float b = s[2 * t + 1];
    out[blockIdx.x * 256 + 2 * t] = b;
    out[blockIdx.x * 256 + 2 * t + 1] = a;
}

// out[t] is read before the inner loop and written after it, once per tile:
// the inner loop reads shared memory only, which out cannot overlap, but the
// next tile's global reads may, so neither access leaves the outer loop.
__global__ void tiled_accumulate(const float *in, float *out, int tiles)
{
    __shared__ float tile[64];
    int t = threadIdx.x;
    for (int k = 0; k < tiles; k++) {
        tile[t] = in[k * 64 + t];
        __syncthreads();
        for (int j = 0; j < 64; j++)
            out[t] += tile[j] * tile[(j + t) % 64];
        __syncthreads();
    }
}
