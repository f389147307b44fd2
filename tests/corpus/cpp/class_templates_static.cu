// Static member functions: called as S::f, S<N>::f, obj.f and unqualified
// from other members, of structs and class template instances.
struct Mirror {
    __device__ static int clamp(int d, int size) { return d < 0 ? -d : (d >= size ? 2 * size - 2 - d : d); }
};
template <int W> class Scan {
public:
    int base;
    __device__ static int width() { return W; }
    __device__ static int twice(int x) { return 2 * x + width(); }
    __device__ int at(int i) const { return base + twice(i); }
    __device__ static void run(const int *in, int *out) {
        Scan<W> s;
        s.base = Mirror::clamp(in[threadIdx.x] - 8, W);
        out[threadIdx.x] = s.at(threadIdx.x) + s.width();
    }
};
template <int W> __global__ void scanKernel(const int *in, int *out) {
    Scan<W>::run(in, out);
}
void host(const int *in, int *out) { scanKernel<16><<<1, 32>>>(in, out); }
