// File-scope variables: __constant__ tables with initializers, __device__
// scalars and arrays the kernel updates, and a file-scope __shared__ tile.

#define N 8

__constant__ float coeff[4] = {0.5f, 0.25f, 0.125f, 0.0625f};
__constant__ int offsets[N];
__constant__ float scale = 2.0f;
__device__ int counter;
__device__ float history[N] = {1, 2, 3};
__shared__ float tile[64];

// Every lane reads the same coefficient: one broadcast per request.
__global__ void weigh(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int k = 0; k < 4; k++) {
            acc += coeff[k] * in[i];
        }
        out[i] = acc * scale;
    }
}

// Lanes read offsets[i % N]: eight distinct addresses per warp request.
__global__ void gather(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] + offsets[i % N];
    }
}

__global__ void count(float *out) {
    int t = threadIdx.x;
    tile[t] = (float)t;
    __syncthreads();
    out[t] = tile[63 - t] + history[t % N];
    __syncthreads();
    if (t == 0) {
        counter += 1;
        history[N - 1] = 42.0f;
    }
}

struct Params {
    int n;
    float s;
    float bias[2];
};
__constant__ Params prm = {3, 1.5f, {0.25f, 0.5f}};

// A struct in constant memory with an aggregate initializer.
__global__ void affine(const float *in, float *out) {
    int i = threadIdx.x;
    if (i < prm.n) {
        out[i] = in[i] * prm.s + prm.bias[i % 2];
    }
}
