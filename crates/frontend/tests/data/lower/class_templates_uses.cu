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
