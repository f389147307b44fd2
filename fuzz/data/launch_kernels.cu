// Kernels the launch-file target resolves launches against when the launch's
// source is not one of the examples: every kind of parameter a launch fills.
struct Pair { int key; float value; };
struct P { int n; float s; };
__constant__ float weights[3] = {1.0f, 2.0f, 3.0f};
__constant__ int shift;
__device__ unsigned int counter;
__shared__ float tile[32];

__global__ void weigh(const Pair *in, float *out) {
    int i = threadIdx.x;
    tile[i] = in[i].value * weights[in[i].key % 3];
    __syncthreads();
    out[i] = tile[i] + shift;
}

__global__ void by_value(P p, float *out) {
    if (threadIdx.x < p.n) out[threadIdx.x] = p.s;
}

__global__ void scalars(double *d, char c, unsigned long long u, short s, float f, half *h, int n) {
    if (threadIdx.x < n) d[threadIdx.x] = c + u + s + f;
    atomicAdd(&counter, 1u);
}

template <int B, typename T>
__global__ void scaled(T *x, T a, int n) {
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}
