// DMMA throughput per mma.sync f64 shape: independent accumulators, no memory.
#include <cstdio>
#include <cuda_runtime.h>
template <int MK> __device__ __forceinline__ void mma(double* d, const double* a, const double* b);
template <> __device__ __forceinline__ void mma<4>(double* d, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]));
}
template <> __device__ __forceinline__ void mma<8>(double* d, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}
template <> __device__ __forceinline__ void mma<16>(double* d, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                 "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}
template <int MK, int NACC>
__global__ void k(double* out, int iters, double s) {
  double a[MK / 2], b[MK / 4], d[NACC][4];
  for (int i = 0; i < MK / 2; ++i) a[i] = s * (threadIdx.x + i);
  for (int i = 0; i < MK / 4; ++i) b[i] = s * (threadIdx.x - i);
  for (int j = 0; j < NACC; ++j) for (int r = 0; r < 4; ++r) d[j][r] = 0;
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int j = 0; j < NACC; ++j) mma<MK>(d[j], a, b);
  double t = 0;
  for (int j = 0; j < NACC; ++j) for (int r = 0; r < 4; ++r) t += d[j][r];
  if (t == 1.2345) out[0] = t;
}
template <int MK, int NACC> void run(int warps, int blocks_per_sm) {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  double* out; cudaMalloc(&out, 8);
  int iters = 4096 / MK;
  dim3 g(sms * blocks_per_sm), b(32 * warps);
  k<MK, NACC><<<g, b>>>(out, iters, 1e-3);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(e0); k<MK, NACC><<<g, b>>>(out, iters, 1e-3); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1); if (ms < best) best = ms;
  }
  double flops = 2.0 * 16 * 8 * MK * (double)NACC * iters * warps * g.x;
  printf("m16n8k%-2d nacc=%2d warps/block=%2d blocks/SM=%d : %.1f TFLOP/s (%s)\n", MK, NACC, warps, blocks_per_sm,
         flops / best / 1e9, cudaGetErrorString(cudaGetLastError()));
  cudaFree(out);
}
int main() {
  for (int w : {4, 8, 16}) {
    run<4, 8>(w, 1); run<4, 16>(w, 1);
    run<8, 8>(w, 1); run<8, 16>(w, 1);
    run<16, 4>(w, 1); run<16, 8>(w, 1);
  }
  run<4, 4>(4, 1); run<8, 4>(4, 1); run<16, 2>(4, 1);
  return 0;
}
