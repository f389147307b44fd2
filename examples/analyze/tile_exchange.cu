// A block walks a row of tiles: each trip every thread stores its element
// of the tile, waits, reads its neighbours' elements and waits again. The
// tile element is stored at the same address every trip, but other threads
// read it between the stores: those stores hand values on. `own` is the
// thread's alone, added to and read back every trip: that traffic repeats.
__global__ void tile_sums(const float *in, float *out, int tiles)
{
    __shared__ float tile[64];
    __shared__ float own[64];
    int t = threadIdx.x;
    own[t] = 0.0f;
    float acc = 0.0f;
    for (int k = 0; k < tiles; ++k) {
        tile[t] = in[(blockIdx.x * tiles + k) * 64 + t];
        __syncthreads();
        acc += tile[(t + 1) % 64] + tile[(t + 63) % 64];
        own[t] += tile[t];
        __syncthreads();
    }
    out[blockIdx.x * 64 + t] = acc + own[t];
}
