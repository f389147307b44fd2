// Function templates: instances for the host code's launches, non-type
// parameters as compile-time sizes, device templates called with explicit
// and deduced arguments, defaults and bool parameters.

template <typename T>
__device__ T twice(T x)
{
    return x + x;
}

template <int N, typename T>
__device__ T sum_window(const T *p)
{
    T acc = 0;
    for (int k = 0; k < N; k++)
        acc += p[k];
    return acc;
}

// Inclusive prefix sum of each block: the shared array and the loop are
// sized by BLOCK.
template <int BLOCK, typename T>
__global__ void block_scan(const T *in, T *out, int n)
{
    __shared__ T s[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    for (int off = 1; off < BLOCK; off *= 2) {
        T v = threadIdx.x >= off ? s[threadIdx.x - off] : T(0);
        __syncthreads();
        s[threadIdx.x] += v;
        __syncthreads();
    }
    if (i < n)
        out[i] = s[threadIdx.x];
}

// out[i] = twice(sum of in[i .. i + W)), or its negation.
template <typename T, int W = 3, bool NEGATE = false>
__global__ void window(const T *in, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + W <= n) {
        T s = twice(sum_window<W>(in + i));
        out[i] = NEGATE ? -twice<T>(s) / T(2) : s;
    }
}

void launch_all(const int *a, int *b, const float *x, float *y, int n)
{
    block_scan<64, int><<<(n + 63) / 64, 64>>>(a, b, n);
    block_scan<32, float><<<(n + 31) / 32, 32>>>(x, y, n);
    window<float><<<(n + 127) / 128, 128>>>(x, y, n);
    window<int, 5, true><<<(n + 127) / 128, 128>>>(a, b, n);
}
