// Member functions declared in their class and defined outside it, for a
// class and a class template; static members (functions and constants);
// objects built from arguments that the grammar reads as a declaration of
// a function (`Pair<float> p(in[i], in[j]);`).

struct Acc {
    float sum;
    int n;
    __device__ Acc();
    __device__ void add(float v);
    __device__ float mean() const;
    __device__ static float twice(float v);
    static const int steps = 8;
};

__device__ Acc::Acc() : sum(0.0f), n(0) {}
__device__ void Acc::add(float v) {
    sum += v;
    n++;
}
__device__ float Acc::mean() const { return n > 0 ? sum / n : 0.0f; }
__device__ float Acc::twice(float v) { return v * 2.0f; }

template <class T> class Pair {
public:
    __device__ Pair(T const &a, T const &b);
    __device__ T sum() const;
    __device__ void scale(T s);
    static __device__ Pair zero();

private:
    T lo;
    T hi;
};

template <class T> __device__ Pair<T>::Pair(T const &a, T const &b) : lo(a), hi(b) {}
// Its own name for the parameter.
template <class U> __device__ U Pair<U>::sum() const { return lo + hi; }
template <class T> __device__ void Pair<T>::scale(T s) {
    lo *= s;
    hi *= s;
}
template <class T> __device__ Pair<T> Pair<T>::zero() { return Pair<T>(T(0), T(0)); }

// out[i] = twice the mean of in[8i .. 8i+7], plus 2 (in[i] + in[i + n]).
__global__ void out_of_line(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Acc a;
        for (int k = 0; k < Acc::steps; k++) {
            a.add(Acc::twice(in[i * Acc::steps + k]));
        }
        Pair<float> p(in[i], in[i + n]);
        p.scale(2.0f);
        out[i] = a.mean() + p.sum() + Pair<float>::zero().sum();
    }
}
