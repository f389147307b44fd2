// Host emulation of the CUDA features the stencil kernels and bench.cu use:
// every thread of a block is a std::thread, __syncthreads a barrier, warp
// shuffles go through a block buffer (all threads call them together), blocks
// run one after another; the runtime API works on host memory.
#pragma once
#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
using std::max;
using std::min;
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct float2 {
  float x, y;
};
struct float4 {
  float x, y, z, w;
};
// Dynamic shared memory: one block runs at a time.
static std::vector<float> g_dyn_smem(1 << 16);
#define HONE_DYNAMIC_SHARED(T, name) T* name = reinterpret_cast<T*>(g_dyn_smem.data())
static thread_local dim3 threadIdx;
static dim3 blockIdx, blockDim, gridDim;
static std::barrier<>* g_bar;
static std::vector<float> g_shfl;
static std::mutex g_atom;
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __restrict__
#define __builtin_assume(x) ((void)0)
static void __syncthreads() { g_bar->arrive_and_wait(); }
template <class T> static T __ldg(const T* p) { return *p; }
template <class T> static void __stcs(T* p, T v) { *p = v; }
template <class T> static T atomicAdd(T* a, T v) {
  std::lock_guard<std::mutex> l(g_atom);
  T o = *a;
  *a += v;
  return o;
}
static unsigned atomicMax(unsigned* a, unsigned v) {
  std::lock_guard<std::mutex> l(g_atom);
  unsigned o = *a;
  *a = std::max(o, v);
  return o;
}
static unsigned __float_as_uint(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
static float emu_shfl(float v, int d) {
  int t = threadIdx.x + threadIdx.y * blockDim.x, lane = threadIdx.x & 31;
  g_shfl[t] = v;
  __syncthreads();
  float r = (lane + d >= 0 && lane + d < 32) ? g_shfl[t + d] : v;
  __syncthreads();
  return r;
}
static float __shfl_up_sync(unsigned, float v, int d) { return emu_shfl(v, -d); }
static float __shfl_down_sync(unsigned, float v, int d) { return emu_shfl(v, d); }

static std::string g_emu_error;
// Grid-stride helper kernels run as one thread (their loops cover all cells).
static void emu_launch(dim3 g, dim3 b, const char* name, const std::function<void()>& body);
// With dynamic shared memory (g_dyn_smem, sized by cudaFuncSetAttribute).
static void emu_launch(dim3 g, dim3 b, size_t, const char* name, const std::function<void()>& body) {
  emu_launch(g, b, name, body);
}
static void emu_launch(dim3 g, dim3 b, const char* name, const std::function<void()>& body) {
  if (!strcmp(name, "fill_rand") || !strcmp(name, "compare") || !strcmp(name, "copy4")) g = b = dim3(1);
  if (b.x * b.y * b.z > 1024) g_emu_error = std::string("block too large for ") + name;
  gridDim = g;
  blockDim = b;
  int nt = b.x * b.y;
  g_shfl.assign(nt, 0.f);
  for (unsigned bz = 0; bz < g.z; ++bz)
    for (unsigned by = 0; by < g.y; ++by)
      for (unsigned bx = 0; bx < g.x; ++bx) {
        blockIdx = dim3(bx, by, bz);
        std::barrier<> bar(nt);
        g_bar = &bar;
        std::vector<std::thread> th;
        for (int t = 0; t < nt; ++t)
          th.emplace_back([&, t] {
            threadIdx = dim3(t % b.x, t / b.x, 0);
            body();
          });
        for (auto& x : th) x.join();
      }
}

// ---- runtime API on host memory
typedef int cudaError_t;
enum {
  cudaSuccess = 0,
  cudaErrorIllegalAddress,
  cudaErrorLaunchFailure,
  cudaErrorMisalignedAddress,
  cudaErrorIllegalInstruction,
  cudaErrorHardwareStackError,
  cudaErrorInvalidConfiguration
};
enum cudaMemcpyKind { cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyHostToDevice };
static const char* cudaGetErrorString(cudaError_t) { return g_emu_error.c_str(); }
template <class T> static cudaError_t cudaMalloc(T** p, size_t n) {
  *p = (T*)aligned_alloc(256, (n + 255) / 256 * 256);
  return *p ? cudaSuccess : 1;
}
static cudaError_t cudaFree(void* p) {
  free(p);
  return cudaSuccess;
}
static cudaError_t cudaMemset(void* p, int v, size_t n) {
  memset(p, v, n);
  return cudaSuccess;
}
static cudaError_t cudaMemsetAsync(void* p, int v, size_t n) { return cudaMemset(p, v, n); }
static cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind) {
  memcpy(d, s, n);
  return cudaSuccess;
}
static cudaError_t cudaMemcpyAsync(void* d, const void* s, size_t n, cudaMemcpyKind k) { return cudaMemcpy(d, s, n, k); }
static cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
static cudaError_t cudaGetLastError() {
  cudaError_t e = g_emu_error.empty() ? cudaSuccess : cudaErrorInvalidConfiguration;
  g_emu_error.clear();
  return e;
}
typedef double* cudaEvent_t;
static cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = new double(0);
  return cudaSuccess;
}
static cudaError_t cudaEventRecord(cudaEvent_t e) {
  *e = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
  return cudaSuccess;
}
static cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
static cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = (float)(*b - *a);
  return cudaSuccess;
}
template <class K> static cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, K, int, size_t) {
  *n = 1;
  return cudaSuccess;
}
enum cudaDeviceAttr { cudaDevAttrMaxSharedMemoryPerBlockOptin };
static cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr, int) {
  *v = 227 << 10;
  return cudaSuccess;
}
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };
template <class K> static cudaError_t cudaFuncSetAttribute(K, cudaFuncAttribute, int bytes) {
  if ((size_t)bytes > g_dyn_smem.size() * sizeof(float)) g_dyn_smem.resize(bytes / sizeof(float) + 1);
  return cudaSuccess;
}
struct cudaDeviceProp {
  char name[64] = "host emulation";
  int multiProcessorCount = 1;
  size_t totalGlobalMem = 1ull << 30;
};
static cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int) {
  *p = cudaDeviceProp();
  return cudaSuccess;
}
