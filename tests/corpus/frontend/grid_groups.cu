// Grid groups and tile reductions: every block writes its partial sums,
// the grid synchronizes, and each block then reads the partials of all the
// others; cg::reduce over tiles of 32 and 8 with each operation.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// partial[b] = sum of block b's inputs (through warp reductions);
// after the grid barrier, out[g] = sum of all partials but block b's own,
// for g the thread's rank in the grid.
__global__ void others_sum(const int *in, int *partial, int *out)
{
    __shared__ int warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int v = in[grid.thread_rank()];
    int s = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = s;
    block.sync();
    if (block.thread_rank() == 0) {
        int t = 0;
        for (int w = 0; w < tile.meta_group_size(); w++) t += warp_sums[w];
        partial[grid.block_rank()] = t;
    }
    grid.sync();
    int total = 0;
    for (int b = 0; b < grid.num_blocks(); b++)
        if (b != blockIdx.x) total += partial[b];
    out[grid.thread_rank()] = total;
    cg::sync(grid);
    // A second barrier in the same launch: the partials change after it.
    if (block.thread_rank() == 0) partial[blockIdx.x] = (int)grid.size();
}

// Per tile of 8: min, max, xor, and, or; per tile of 32: the float sum.
__global__ void tile_ops(const int *in, const float *f, int *out, float *fsum)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    out[5 * i] = cg::reduce(t8, v, cg::less<int>());
    out[5 * i + 1] = cg::reduce(t8, v, cg::greater<int>());
    out[5 * i + 2] = cg::reduce(t8, v, cg::bit_xor<int>());
    out[5 * i + 3] = cg::reduce(t8, v, cg::bit_and<int>());
    out[5 * i + 4] = cg::reduce(t8, v, cg::bit_or<int>());
    fsum[i] = cg::reduce(t32, f[i], cg::plus<float>());
}

// Block 0 leaves before the barrier the others wait at.
__global__ void early_exit(int *out)
{
    cg::grid_group grid = cg::this_grid();
    if (blockIdx.x == 0) return;
    grid.sync();
    out[blockIdx.x] = 1;
}
