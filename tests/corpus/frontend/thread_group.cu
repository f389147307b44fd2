// A function taking any group (`thread_group`), called with a block and with
// tiles of 16: it is made once for each; so is a template whose type
// parameter is the group it is given.
#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ int sumReduction(thread_group g, int *x, int val) {
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = val;
        g.sync();
        if (lane < i) val += x[lane + i];
        g.sync();
    }
    return g.thread_rank() == 0 ? val : -1;
}
template <typename Group> __device__ int rankTimesSize(Group &g) {
    return g.thread_rank() * g.size();
}
__global__ void cgk(int *out) {
    extern __shared__ int workspace[];
    thread_block b = this_thread_block();
    int r = sumReduction(b, workspace, b.thread_rank());
    b.sync();
    thread_block_tile<16> t = tiled_partition<16>(b);
    int off = b.thread_rank() - t.thread_rank();
    int s = sumReduction(t, workspace + off, t.thread_rank());
    out[b.thread_rank()] = r;
    out[64 + b.thread_rank()] = s;
    out[128 + b.thread_rank()] = rankTimesSize(t) + rankTimesSize<thread_block>(b);
}
