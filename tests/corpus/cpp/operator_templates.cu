// Operator templates over a class template and arithmetic in named rounding
// modes, as the CUDA samples' interval arithmetic writes them; members
// returning const references; scoped enumerators named through their
// namespace; a local constant as a template argument; `::f` naming the
// file's function inside a member of the same name; `nanf`.
namespace iv {
enum class Side { Low = 0, High = 1 };
}

__device__ float width(float lo, float hi) { return __fsub_ru(hi, lo); }

template <class T> class interval {
  public:
    __device__ interval(T l, T h) : lo(l), hi(h) {}
    __device__ T const &lower() const { return lo; }
    __device__ T const &upper() const { return hi; }
    __device__ T width() const { return ::width(lo, hi); }

  private:
    T lo, hi;
};

template <class T>
__device__ interval<T> operator+(interval<T> const &x, interval<T> const &y) {
    return interval<T>(__fadd_rd(x.lower(), y.lower()), __fadd_ru(x.upper(), y.upper()));
}

// Intervals of positive numbers only.
template <class T>
__device__ interval<T> operator*(interval<T> const &x, interval<T> const &y) {
    return interval<T>(__fmul_rd(x.lower(), y.lower()), __fmul_ru(x.upper(), y.upper()));
}

template <class T> __device__ interval<T> operator-(interval<T> const &x) {
    return interval<T>(-x.upper(), -x.lower());
}

// An interval scaled by a number of any type, built as `interval<T>{...}`.
template <class T, class U> __device__ interval<T> operator*(interval<T> const &x, U k) {
    return interval<T>{__fmul_rd(x.lower(), (T)k), __fmul_ru(x.upper(), (T)k)};
}

template <int N> __device__ float sum_first(const float *v) {
    float s = 0.0f;
    for (int i = 0; i < N; ++i) {
        s += v[i];
    }
    return s;
}

__global__ void intervals(const float *a, const float *b, float *out, double *wide) {
    const int i = threadIdx.x;
    interval<float> x(a[i], a[i]);
    interval<float> y(b[i], b[i]);
    interval<float> s = x + y;
    interval<float> p = x * y;
    interval<float> m = -s;
    int const K = 4;
    float *o = out + 16 * i;
    o[0] = s.lower();
    o[1] = s.upper();
    o[2] = p.lower();
    o[3] = p.upper();
    o[4] = m.lower();
    o[5] = s.width();
    o[6] = (float)(int)iv::Side::High;
    o[7] = sum_first<K>(a);
    o[8] = isnan(nanf("")) ? 1.0f : 0.0f;
    o[9] = __fsqrt_rd(a[i]);
    o[10] = __fsqrt_ru(a[i]);
    o[11] = __fdiv_rd(a[i], b[i]);
    o[12] = __fdiv_ru(a[i], b[i]);
    o[13] = __frcp_rz(b[i]);
    o[14] = __fmaf_rd(a[i], b[i], -1.0f);
    o[15] = __fmaf_ru(a[i], b[i], -1.0f);
    wide[2 * i] = __dadd_rd((double)a[i], 1e-20);
    wide[2 * i + 1] = __dmul_ru((double)a[i], (double)b[i]);
}

__global__ void scaled(const float *a, float *out) {
    const int i = threadIdx.x;
    out[i] = (interval<float>(a[i], a[i]) * 3).upper();
}
