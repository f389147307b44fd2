// Lambdas (captures by reference and by value, deduced and trailing return
// types, `return {}`), `memcpy` between objects of one scalar layout, and a
// tile shuffling a vector, as the CUDA samples' shfl_scan writes them.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Pair {
    float first, second;
};

struct Packed {
    uint4 a, b;
};

__global__ void lambdas(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float acc = 0.0f;
    float scale = 2.0f;
    auto add = [&](float v) { acc += v * scale; };
    // `scale` is copied here, before it changes.
    auto twice = [scale](float v) -> float { return v * scale; };
    auto pick = [&acc](int k) -> Pair {
        switch (k) {
        case 0:
            return {acc, 1.0f};
        }
        return {};
    };
    auto none = []() -> float2 { return {}; };
    // A constant captured by reference; shared memory, which has static
    // storage, is read itself even by a lambda that copies.
    const float half = 0.5f;
    auto halve = [&](float v) { return v * half; };
    __shared__ float staged[64];
    staged[threadIdx.x] = in[i];
    __syncthreads();
    auto staged_at = [=](int j) { return staged[j]; };
    scale = 3.0f;
    add(in[i]);
    add(1.0f);
    Pair p = pick(0);
    Pair q = pick(1);
    out[i] = acc + twice(in[i]) + p.second + q.first + none().y + halve(1.0f) + staged_at(threadIdx.x);
}

__global__ void words(const unsigned int *in, unsigned int *out) {
    const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned int w[8];
    for (int k = 0; k < 8; ++k) {
        w[k] = in[threadIdx.x * 8 + k];
    }
    Packed p;
    memcpy(&p, w, sizeof(p));
    p.b = tile.shfl_xor(p.b, 1);
    memcpy(w, &p, sizeof(w));
    for (int k = 0; k < 8; ++k) {
        out[threadIdx.x * 8 + k] = w[k];
    }
}
