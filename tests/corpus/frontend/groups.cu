// Cooperative groups of a block: a thread_block handle passed to a device
// function, cg::sync and the member forms, a 32-thread tile's rank, size,
// meta-group rank and shuffles.

namespace cg = cooperative_groups;

__device__ float block_sum(float *s, float v, cg::thread_block cta)
{
    unsigned int t = cta.thread_rank();
    s[t] = v;
    cg::sync(cta);
    for (unsigned int k = cta.size() / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        cta.sync();
    }
    return s[0];
}

// out[b] = sum of block b's inputs; out[gridDim.x + 4 b + w] = sum of warp w's.
__global__ void reduce(const float *in, float *out, int n)
{
    __shared__ float s[128];
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float w = v;
    for (int off = tile.size() / 2; off > 0; off /= 2)
        w += tile.shfl_down(w, off);
    float total = block_sum(s, v, cta);
    if (cta.thread_rank() == 0) out[blockIdx.x] = total;
    if (tile.thread_rank() == 0) out[gridDim.x + blockIdx.x * 4 + tile.meta_group_rank()] = w;
}
