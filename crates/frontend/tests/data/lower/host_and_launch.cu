// Host code with launches is parsed but not lowered; the two kernels and the
// device function are.
#include <cstdio>

__device__ float scale(float x, float s) { return x * s; }

__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = scale(x[i], a) + y[i];
}

__global__ void fill(float *y, float v, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = v;
}

static void check(cudaError_t e) {
    if (e != cudaSuccess) {
        printf("error %s\n", cudaGetErrorString(e));
        exit(1);
    }
}

int main(int argc, char **argv) {
    int n = 1 << 20;
    float *x, *y;
    check(cudaMalloc(&x, n * sizeof(float)));
    check(cudaMalloc(&y, n * sizeof(float)));
    dim3 block(256);
    dim3 grid((n + block.x - 1) / block.x);
    fill<<<grid, block>>>(x, 1.0f, n);
    fill<<<grid, block, 0, 0>>>(y, 2.0f, n);
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    cudaDeviceSynchronize();
    std::vector<float> host(n);
    cudaMemcpy(host.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%f\n", host[0]);
    cudaFree(x);
    cudaFree(y);
    return 0;
}
