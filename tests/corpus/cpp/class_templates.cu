// Class templates: instances made where they are used, explicit
// specializations, conversion operators and non-type parameters.

template <class T> struct SharedMemory {
    __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
    __device__ inline operator const T *() const {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <> struct SharedMemory<double> {
    __device__ inline operator double *() {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
    __device__ inline operator const double *() const {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <class T> __device__ T first(const T *p) { return p[0]; }

template <class T> __global__ void scale(T *in, T *out) {
    SharedMemory<T> smem;
    T *sdata = smem;
    T *again;
    again = smem;
    const T *viewed = (const T *)smem;
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[tid];
    __syncthreads();
    out[tid] = sdata[blockDim.x - 1 - tid] * (T)2 + first<T>(smem) - again[0] + viewed[0];
}

template <class T> __global__ void sum(const T *in, T *out, unsigned int n) {
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        out[blockIdx.x] = sdata[0];
    }
}

// The CUDA samples' reduction: the `double` specialization's own array.
template <class T, unsigned int blockSize>
__global__ void reduce(const T *g_idata, T *g_odata, unsigned int n) {
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockSize < n) mySum += g_idata[i + blockSize];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] = mySum = mySum + sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

template <class T> __global__ void reverse(const T *in, T *out) {
    SharedMemory<T> smem;
    T *s = smem;
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

template <typename Real> struct Option {
    Real spot;
    Real strike;
    int type;
    __device__ Real payoff(Real avg) const { return avg * spot - strike; }
};

template <int W, int H> class Window {
public:
    int base;
    float cells[W * H];
    __device__ Window(int b) : base(b) {}
    __device__ int size() const { return W * H; }
    __device__ void put(int x, int y, float v) { cells[y * W + x] = v; }
};

// A reference-returning member: the element's address, read through.
template <typename T, int N> struct Tile {
    T data[N];
    __device__ T &operator[](int i) { return data[i]; }
    __device__ T &first() { return data[0]; }
};

template <typename T> __global__ void tile(T *out) {
    Tile<T, 4> t;
    for (int i = 0; i < 4; i++) {
        t[i] = (T)i;
    }
    t[1] += t[2];
    t.first() = t[3];
    out[threadIdx.x] = t[threadIdx.x % 4];
}

template <typename Real>
__global__ void price(Real *values, const Real *paths, const Option<Real> *const option, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        values[i] = option->payoff(paths[i]);
    }
}

template <int W, int H> __global__ void window(float *out) {
    Window<W, H> w(3);
    w.put(threadIdx.x % W, 0, 1.0f);
    out[threadIdx.x] = (float)(w.size() + w.base) + w.cells[threadIdx.x % W];
}

void host(float *f, double *d, int *i, unsigned int n) {
    scale<float><<<1, 32, 32 * sizeof(float)>>>(f, f);
    scale<double><<<1, 32, 32 * sizeof(double)>>>(d, d);
    sum<int><<<4, 64, 64 * sizeof(int)>>>(i, i, n);
    sum<double><<<4, 64, 64 * sizeof(double)>>>(d, d, n);
    price<float><<<4, 64>>>(f, f, 0, n);
    window<4, 2><<<1, 32>>>(f);
    tile<int><<<1, 32>>>(i);
    reduce<int, 64><<<8, 64, 64 * sizeof(int)>>>(i, i, n);
    reduce<double, 64><<<8, 64, 64 * sizeof(double)>>>(d, d, n);
    reverse<float><<<1, 32, 32 * sizeof(float)>>>(f, f);
}
