// Device functions: defined before and after use, a forward declaration,
// recursion, __host__ __device__, inline qualifiers, launch bounds, and
// arguments and return values converted to the declared types.
__device__ float square(float x);

__device__ __forceinline__ float twice(float x) { return 2 * x; }

static __device__ inline int fact(int n) {
    return n <= 1 ? 1 : n * fact(n - 1);
}

__host__ __device__ double hd(int a, double b) { return a + b; }

__device__ __noinline__ void store(float *p, int i, float v) {
    p[i] = v;
    return;
}

__global__ void __launch_bounds__(256, 2) caller(float *out, int n) {
    int i = threadIdx.x;
    out[i] = square(i) + twice(n);
    store(out, 1.5f, fact(4));
    float r = hd(i, 2.0f);
    helper(out);
}

__global__ void __launch_bounds__(128) bounded(float *out) {
    out[0] = square(out[1]);
}

__device__ float square(float x) { return x * x; }

__device__ void helper(float *p) { p[0] = 0; }
