// Copy bandwidth by size: the roof a stencil sweep of the same bytes can
// reach. Per size (bytes per array: one read, one write), the median of 30
// launches after a 256 MiB write that flushes L2, for a grid-stride float4
// copy, a float4 copy with one thread per element, and cudaMemcpy device to
// device. Same method as kernels/stencil/dev/bench.cu.
// usage: nvcc -O3 -arch=sm_90 copyroof.cu -o copyroof && ./copyroof
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#define MUST(x)                                                              \
  do {                                                                       \
    cudaError_t e = (x);                                                     \
    if (e != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      return 1;                                                              \
    }                                                                        \
  } while (0)

__global__ void stride4(const float4* __restrict__ s, float4* __restrict__ d, size_t n4) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
    d[i] = s[i];
}
__global__ void each4(const float4* __restrict__ s, float4* __restrict__ d, size_t n4) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n4) d[i] = s[i];
}
__global__ void fill(float* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (float)((i * 2654435761u) & 0xffff) / 65536.f;
}

static char* g_flush;
static cudaEvent_t e0, e1;
static float median_ms(const std::function<void()>& launch) {
  for (int w = 0; w < 2; ++w) launch();
  cudaDeviceSynchronize();
  std::vector<float> v;
  for (int r = 0; r < 30; ++r) {
    cudaMemsetAsync(g_flush, r & 0xff, 256u << 20);
    cudaEventRecord(e0);
    launch();
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    v.push_back(ms);
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  cudaDeviceProp prop;
  MUST(cudaGetDeviceProperties(&prop, 0));
  printf("# %s\n", prop.name);
  MUST(cudaMalloc(&g_flush, 256u << 20));
  MUST(cudaEventCreate(&e0));
  MUST(cudaEventCreate(&e1));
  const size_t sizes[] = {16ull << 20, 64ull << 20, 128ull << 20, 256ull << 20, 512ull << 20, 1ull << 30};
  printf("bytes_per_array,stride4_ms,each4_ms,memcpy_ms,best_GBps\n");
  for (size_t cb : sizes) {
    float *s, *d;
    MUST(cudaMalloc(&s, cb));
    MUST(cudaMalloc(&d, cb));
    fill<<<4096, 256>>>(s, cb / 4);
    const size_t n4 = cb / 16;
    float a = median_ms([&] { stride4<<<prop.multiProcessorCount * 8, 256>>>((const float4*)s, (float4*)d, n4); });
    float b = median_ms([&] { each4<<<(unsigned)((n4 + 255) / 256), 256>>>((const float4*)s, (float4*)d, n4); });
    float c = median_ms([&] { cudaMemcpyAsync(d, s, cb, cudaMemcpyDeviceToDevice); });
    MUST(cudaGetLastError());
    float best = std::min(a, std::min(b, c));
    printf("%zu,%.5f,%.5f,%.5f,%.1f\n", cb, a, b, c, 2.0 * cb / (best * 1e6));
    cudaFree(s);
    cudaFree(d);
  }
  return 0;
}
