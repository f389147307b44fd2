// Class template instances named by typedefs, aliases, other structs' members,
// non-template functions' parameters and sizeof; default arguments filled in.
template <typename T, int N = 2> struct Pair { T a[N]; __device__ T sum() const { T s = 0; for (int i = 0; i < N; i++) s += a[i]; return s; } };
typedef Pair<float> PairF;
using PairI = Pair<int, 3>;
struct Holder { Pair<double> p; int k; };
__device__ float twice(PairF p) { return 2.0f * p.sum(); }
__global__ void k(const PairF *in, const PairI *ii, Holder *h, float *out) {
    out[threadIdx.x] = twice(in[threadIdx.x]) + ii[0].sum() + (float)h->p.sum() + sizeof(Pair<char, 5>);
}

// Member typedefs and aliases, seen by the members after them.
template <typename T> struct Cell {
    typedef T value_type;
    using pointer = const T *;
    value_type v;
    __device__ value_type load(pointer p, int i) const { return p[i] + v; }
};
__global__ void cells(const int *in, int *out) {
    Cell<int> c;
    c.v = 3;
    out[threadIdx.x] = c.load(in, threadIdx.x);
}

// An enum in a class template: each instance has its own values.
template <int W, int H> struct Grid {
    enum { SIZE = W * H, LAST = SIZE - 1 };
    int cells[SIZE];
    __device__ int last() const { return cells[LAST]; }
};
__global__ void grids(int *out) {
    Grid<2, 3> a;
    Grid<4, 4> b;
    a.cells[5] = 1;
    b.cells[15] = 2;
    out[0] = a.last() + b.last();
}

// A class template in a namespace, named with it.
namespace dwt {
template <typename T> struct Acc { T s; __device__ void add(T v) { s += v; } };
}
template <typename T> __global__ void acc(const T *in, T *out) {
    dwt::Acc<T> a;
    a.s = 0;
    for (int i = 0; i < 4; i++) a.add(in[i]);
    out[0] = a.s;
}
void host(const float *i, float *o) { acc<float><<<1, 1>>>(i, o); }
