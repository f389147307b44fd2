// C++ conveniences device code uses: namespaces, enums (plain and scoped),
// constexpr, static_assert, typedef and using, auto, and references.

namespace cfg {
constexpr int kWidth = 8;
constexpr float kScale = 0.5f;
__device__ int clamp_index(int i) { return i < 0 ? 0 : (i >= kWidth ? kWidth - 1 : i); }
namespace inner {
__device__ float twice(float x) { return 2.0f * x; }
}
}

enum Mode { MODE_COPY, MODE_SCALE = 4, MODE_SQUARE };
enum class Op : int { Add, Mul, Max };

typedef unsigned int u32;
using real = float;

static_assert(cfg::kWidth == 8, "width");
static_assert(sizeof(real) == 4, "float is 4 bytes");

__device__ void accumulate(real &acc, const real &x, Op op) {
    switch (op) {
    case Op::Add:
        acc += x;
        break;
    case Op::Mul:
        acc *= x;
        break;
    default:
        acc = fmaxf(acc, x);
        break;
    }
}

__device__ void swap_values(int &a, int &b) {
    int t = a;
    a = b;
    b = t;
}

__global__ void features(const real *in, real *out, int *idx, Mode mode, int op) {
    constexpr int kBlock = 32;
    static_assert(kBlock % 32 == 0, "whole warps");
    u32 t = threadIdx.x;
    auto i = (int)(blockIdx.x * kBlock + t);
    auto x = in[i];
    real acc = 1.0f;
    Op o = (Op)op;
    accumulate(acc, x, o);
    accumulate(acc, cfg::inner::twice(x), Op::Add);
    real &slot = out[i];
    switch (mode) {
    case MODE_COPY:
        slot = acc;
        break;
    case MODE_SCALE:
        slot = acc * cfg::kScale;
        break;
    default:
        slot = acc * acc;
        break;
    }
    int a = cfg::clamp_index(i - 4);
    int b = i;
    swap_values(a, b);
    idx[i] = a * 1000 + b;
}
