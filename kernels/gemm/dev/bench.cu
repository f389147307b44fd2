// Standalone check + benchmark harness for the hone GEMM kernel templates.
// Build one executable per algorithm/config, e.g.
//   nvcc -O3 -arch=sm_90 -DALG=3 -DBM=128 -DBN=128 ... bench.cu -lcublas -o b
// ALG 1 = gemm_fma.cu (PREC float or double), 2 = gemm_dmma.cu, 3 = gemm_3xtf32.cu,
// 4 = gemm_3xtf32_wg.cu (build with ARCHFLAGS="-gencode arch=compute_90a,code=sm_90a").
// All four layouts are instantiated from the same template (wrappers below).
// Usage: ./b [check|time|both] [N list...]
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define GEMM_NO_ENTRY
#ifndef ALG
#define ALG 1
#endif

#if ALG == 1
#include "../gemm_fma.cu"
typedef PREC T;
#define NTHR FMA_NT
#define LBMIN MINB
#define IMPL(ta, tb) gemm_fma_impl<PREC, ta, tb>
static int smem_bytes(int, int) { return FMA_SMEM_BYTES; }
static const char* alg_name() { return sizeof(PREC) == 4 ? "sgemm_fma" : "dgemm_fma"; }
static void cfg(char* s) {
  sprintf(s, "BM=%d BN=%d BK=%d TM=%d TN=%d VEC=%d PAD=%d GROUP=%d MINB=%d SPLITK=%d", BM, BN, BK, TM, TN,
          VEC, PAD, GROUP, MINB, SPLITK);
}
#elif ALG == 2
#include "../gemm_dmma.cu"
typedef double T;
#define NTHR DM_NT
#define LBMIN MINB
#define IMPL(ta, tb) gemm_dmma_impl<ta, tb>
static int smem_bytes(int ta, int tb) {
  int ald = ta ? (BK + PAD_K) : (BM + PAD_MN), ast = ta ? BM * ald : BK * ald;
  int bld = tb ? (BN + PAD_MN) : (BK + PAD_K), bst = tb ? BK * bld : BN * bld;
  return STAGES * (ast + bst) * 8;
}
static const char* alg_name() { return "dgemm_dmma"; }
static void cfg(char* s) {
  sprintf(s, "BM=%d BN=%d BK=%d WARPS_M=%d WARPS_N=%d MMA=m%dn8k%d STAGES=%d VEC=%d GROUP=%d MINB=%d "
          "KPERM=%d PAD_MN=%d PAD_K=%d SPLITK=%d", BM, BN, BK, WARPS_M, WARPS_N, MMA_M, MMA_K, STAGES, VEC, GROUP,
          MINB, KPERM, PAD_MN, PAD_K, SPLITK);
}
#elif ALG == 3
#include "../gemm_3xtf32.cu"
typedef float T;
#define NTHR TF_NT
#define LBMIN 1
#define IMPL(ta, tb) gemm_3xtf32_impl<ta, tb>
static int smem_bytes(int ta, int tb) {
  int ald = ta ? (BK + PAD_K) : (BM + PAD_MN), ast = ta ? BM * ald : BK * ald;
  int bld = tb ? (BN + PAD_MN) : (BK + PAD_K), bst = tb ? BK * bld : BN * bld;
  return STAGES * (ast + bst) * 4;
}
static const char* alg_name() { return "sgemm_3xtf32"; }
static void cfg(char* s) {
  sprintf(s, "BM=%d BN=%d BK=%d WARPS_M=%d WARPS_N=%d STAGES=%d VEC=%d GROUP=%d SPLIT=%d FLUSH=%d SPLITK=%d",
          BM, BN, BK, WARPS_M, WARPS_N, STAGES, VEC, GROUP, SPLIT, FLUSH, SPLITK);
}
#elif ALG == 4
#define WGMMA 1
#include "../gemm_3xtf32_wg.cu"
typedef float T;
#define NTHR WG_NT
#define LBMIN 1
#define VEC 4
#define IMPL(ta, tb) WG_IMPL<ta, tb>
static int smem_bytes(int, int) { return WG_SMEM_BYTES; }
static const char* alg_name() { return "sgemm_3xtf32_wg"; }
static void cfg(char* s) {
  sprintf(s, "BM=%d BN=%d STAGES=%d GROUP=%d FLUSH=%d WS=%d SPLITK=%d", BM, BN, STAGES, GROUP, FLUSH, WS, SPLITK);
}
#endif

// every kernel takes split-K tile counters (zero between calls) and a
// workspace
#ifndef SPLITK
#define SPLITK 1
#endif
#define FLAGS_ARG , split_counters, split_work
__device__ unsigned split_counters[1 << 16];
__device__ double split_work_raw[1 << 22];  // 32 MiB
#define split_work reinterpret_cast<T*>(split_work_raw)

#define WRAP(ta, tb)                                                                            \
  extern "C" __global__ void __launch_bounds__(NTHR, LBMIN)                                     \
      k_##ta##tb(int M, int N, int K, T alpha, const T* __restrict__ A, int lda,                \
                 const T* __restrict__ B, int ldb, T beta, T* __restrict__ C, int ldc) {        \
    IMPL(ta, tb)(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc FLAGS_ARG);                       \
  }
WRAP(0, 0)
WRAP(0, 1)
WRAP(1, 0)
WRAP(1, 1)
typedef void (*kfn)(int, int, int, T, const T*, int, const T*, int, T, T*, int);
static kfn kernels[4] = {k_00, k_01, k_10, k_11};
static const char* lname[4] = {"NN", "NT", "TN", "TT"};

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(2);                                                                                \
    }                                                                                         \
  } while (0)
#define CB(x)                                                                  \
  do {                                                                         \
    cublasStatus_t s_ = (x);                                                   \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)s_, __FILE__, __LINE__); \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

template <typename U>
__global__ void fill_rand(U* p, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned long long x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 31; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 27; x *= 0x94D049BB133111EBull; x ^= x >> 33;
    p[i] = (U)((double)(x >> 11) * (2.0 / 9007199254740992.0) - 1.0);
  }
}
template <typename U>
__global__ void fill_val(U* p, size_t n, U v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = v;
}
template <typename U, typename V>
__global__ void convert(const U* s, V* d, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) d[i] = (V)s[i];
}

static cublasHandle_t handle;
static unsigned long long seed_ctr = 12345;

static void cublas_gemm(int ta, int tb, int M, int N, int K, float alpha, const float* A, int lda,
                        const float* B, int ldb, float beta, float* C, int ldc) {
  CB(cublasSgemm(handle, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, M, N, K,
                 &alpha, A, lda, B, ldb, &beta, C, ldc));
}
static void cublas_gemm(int ta, int tb, int M, int N, int K, double alpha, const double* A, int lda,
                        const double* B, int ldb, double beta, double* C, int ldc) {
  CB(cublasDgemm(handle, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, M, N, K,
                 &alpha, A, lda, B, ldb, &beta, C, ldc));
}

static void launch(int l, int M, int N, int K, T alpha, const T* A, int lda, const T* B, int ldb,
                   T beta, T* C, int ldc) {
  int ta = l >> 1, tb = l & 1;
  int gx = ((M + BM - 1) / BM) * ((N + BN - 1) / BN);
  kernels[l]<<<dim3(gx, SPLITK), NTHR, smem_bytes(ta, tb)>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

template <typename U>
static void rnd(U* p, size_t n) {
  fill_rand<U><<<1024, 256>>>(p, n, seed_ctr++ * 0x2545F4914F6CDD1Dull);
  CK(cudaGetLastError());
}

// error of C (type T, M x N, ldc) against ref (double, M x N, ld M): max|c-r| / max|r|
static double err_vs(const T* dC, int M, int N, int ldc, const double* dR, bool* nan_found) {
  std::vector<T> c((size_t)ldc * N);
  std::vector<double> r((size_t)M * N);
  CK(cudaMemcpy(c.data(), dC, c.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.data(), dR, r.size() * sizeof(double), cudaMemcpyDeviceToHost));
  double md = 0, mr = 0;
  *nan_found = false;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) {
      double cv = (double)c[(size_t)j * ldc + i], rv = r[(size_t)j * M + i];
      if (!std::isfinite(cv)) *nan_found = true;
      md = std::max(md, std::fabs(cv - rv));
      mr = std::max(mr, std::fabs(rv));
    }
  if (getenv("DUMP") && md > 1e-4 * mr) {
    int shown = 0;
    for (int j = 0; j < N && shown < 12; ++j)
      for (int i = 0; i < M && shown < 12; ++i) {
        double cv = (double)c[(size_t)j * ldc + i], rv = r[(size_t)j * M + i];
        if (!(std::fabs(cv - rv) <= 1e-4 * mr)) {
          printf("  bad C(%d,%d) = %g, expected %g\n", i, j, cv, rv);
          ++shown;
        }
      }
  }
  return md / (mr > 0 ? mr : 1.0);
}

#ifndef LD_ALIGN
#define LD_ALIGN VEC
#endif
static int ldof(int rows, int pad) {
  int a = LD_ALIGN;
  int r = (rows + a - 1) / a * a;
  return pad ? r + (a == 1 ? 3 : a) : r;
}

// double reference: Cr = alpha*op(A)*op(B) + beta*C0, computed with cuBLAS DGEMM on upcast data
static void ref64(int ta, int tb, int M, int N, int K, double alpha, const T* A, int lda, const T* B,
                  int ldb, double beta, const T* C0, int ldc, double* Cr) {
  double *dA, *dB, *dC;
  size_t na = (size_t)lda * (ta ? M : K), nb = (size_t)ldb * (tb ? K : N), nc = (size_t)ldc * N;
  CK(cudaMalloc(&dA, na * 8)); CK(cudaMalloc(&dB, nb * 8)); CK(cudaMalloc(&dC, nc * 8));
  convert<T, double><<<1024, 256>>>(A, dA, na);
  convert<T, double><<<1024, 256>>>(B, dB, nb);
  if (beta != 0) convert<T, double><<<1024, 256>>>(C0, dC, nc);
  else CK(cudaMemset(dC, 0, nc * 8));
  cublas_gemm(ta, tb, M, N, K, alpha, dA, lda, dB, ldb, beta, dC, ldc);
  CK(cudaMemcpy2D(Cr, (size_t)M * 8, dC, (size_t)ldc * 8, (size_t)M * 8, N, cudaMemcpyDeviceToDevice));
  CK(cudaDeviceSynchronize());
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

static int failures = 0, checks = 0;

static void check_one(int l, int M, int N, int K, bool beta0, int pad) {
  int ta = l >> 1, tb = l & 1;
  int lda = ldof(ta ? K : M, pad), ldb = ldof(tb ? N : K, pad), ldc = ldof(M, pad);
  size_t na = (size_t)lda * (ta ? M : K), nb = (size_t)ldb * (tb ? K : N), nc = (size_t)ldc * N;
  T *A, *B, *C, *C0, *Cb;
  double* R;
  CK(cudaMalloc(&A, na * sizeof(T))); CK(cudaMalloc(&B, nb * sizeof(T)));
  CK(cudaMalloc(&C, nc * sizeof(T))); CK(cudaMalloc(&C0, nc * sizeof(T))); CK(cudaMalloc(&Cb, nc * sizeof(T)));
  CK(cudaMalloc(&R, (size_t)M * N * 8));
  rnd(A, na); rnd(B, nb); rnd(C0, nc);
  T alpha = (T)1.25, beta = beta0 ? (T)0 : (T)-0.75;
  if (beta0) fill_val<T><<<256, 256>>>(C, nc, (T)NAN);
  else CK(cudaMemcpy(C, C0, nc * sizeof(T), cudaMemcpyDeviceToDevice));
  CK(cudaMemcpy(Cb, beta0 ? C : C0, nc * sizeof(T), cudaMemcpyDeviceToDevice));
  launch(l, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cublas_gemm(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, Cb, ldc);
  ref64(ta, tb, M, N, K, (double)alpha, A, lda, B, ldb, (double)beta, C0, ldc, R);
  bool nan1, nan2;
  double e = err_vs(C, M, N, ldc, R, &nan1);
  double eb = err_vs(Cb, M, N, ldc, R, &nan2);
  // normwise error vs the FP64 reference (for double inputs the reference is cuBLAS DGEMM
  // itself); the bound is loose enough for any summation order and far below what an
  // indexing or synchronisation error gives (O(1)). cuBLAS's own error is printed beside it.
  double tol = (sizeof(T) == 8 ? 1e-16 : 1e-7) * (K + 16);
  bool ok = !nan1 && !(e > tol);
  checks++;
  if (!ok) failures++;
  printf("check %s %s M=%d N=%d K=%d lda=%d ldb=%d ldc=%d beta=%s err=%.3e cublas_err=%.3e %s\n",
         alg_name(), lname[l], M, N, K, lda, ldb, ldc, beta0 ? "0(NaN C)" : "-0.75", e, eb,
         ok ? "PASS" : (nan1 ? "FAIL(nan)" : "FAIL"));
  cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(C0); cudaFree(Cb); cudaFree(R);
}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Reads n float4s (a sum no one reads but the compiler cannot drop), to empty L2.
__global__ void read_flush(const float4* __restrict__ p, size_t n, float* sink) {
  float s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.f) *sink = s;
}

static void time_one(int l, int n, int reps) {
  int ta = l >> 1, tb = l & 1;
  int M = n, N = n, K = n;
  size_t ne = (size_t)n * n;
  T *A, *B, *C, *Cb;
  CK(cudaMalloc(&A, ne * sizeof(T))); CK(cudaMalloc(&B, ne * sizeof(T)));
  CK(cudaMalloc(&C, ne * sizeof(T))); CK(cudaMalloc(&Cb, ne * sizeof(T)));
  rnd(A, ne); rnd(B, ne);
  fill_val<T><<<1024, 256>>>(C, ne, (T)NAN);
  T alpha = 1, beta = 0;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> tk, tc;
  for (int w = 0; w < 3; ++w) {
    launch(l, M, N, K, alpha, A, n, B, n, beta, C, n);
    cublas_gemm(ta, tb, M, N, K, alpha, A, n, B, n, beta, Cb, n);
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; ++r) {
    float ms;
    CK(cudaEventRecord(e0));
    launch(l, M, N, K, alpha, A, n, B, n, beta, C, n);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    tk.push_back(ms);
    CK(cudaEventRecord(e0));
    cublas_gemm(ta, tb, M, N, K, alpha, A, n, B, n, beta, Cb, n);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    tc.push_back(ms);
  }
  CK(cudaGetLastError());
  double fl = 2.0 * n * (double)n * n;
  double tfk = fl / (median(tk) * 1e-3) / 1e12, tfc = fl / (median(tc) * 1e-3) / 1e12;
  // B2B=1: also as hone's benchmark times (hone_gpu::timing::time_runs): every run enqueued
  // back to back with its events, one wait at the end, ours then cuBLAS's; B2B_FLUSH=1 reads
  // twice the L2 size before each run, as its read flush does.
  if (getenv("B2B") && atoi(getenv("B2B"))) {
    bool fl2 = getenv("B2B_FLUSH") && atoi(getenv("B2B_FLUSH"));
    int l2 = 0;
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    size_t fn = 2 * (size_t)l2 / sizeof(float4);
    float4* fbuf = nullptr;
    float* fsink = nullptr;
    CK(cudaMalloc(&fbuf, fn * sizeof(float4)));
    CK(cudaMemset(fbuf, 0, fn * sizeof(float4)));
    CK(cudaMalloc(&fsink, sizeof(float)));
    auto b2b = [&](bool ours) {
      std::vector<cudaEvent_t> ev(2 * reps);
      for (auto& e : ev) CK(cudaEventCreate(&e));
      for (int r = 0; r < reps; ++r) {
        if (fl2) read_flush<<<1024, 256>>>(fbuf, fn, fsink);
        CK(cudaEventRecord(ev[2 * r]));
        if (ours) launch(l, M, N, K, alpha, A, n, B, n, beta, C, n);
        else cublas_gemm(ta, tb, M, N, K, alpha, A, n, B, n, beta, Cb, n);
        CK(cudaEventRecord(ev[2 * r + 1]));
      }
      CK(cudaDeviceSynchronize());
      std::vector<float> t;
      for (int r = 0; r < reps; ++r) {
        float ms;
        CK(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]));
        t.push_back(ms);
      }
      for (auto& e : ev) cudaEventDestroy(e);
      return median(t);
    };
    float bk = b2b(true), bc = b2b(false);
    printf("b2b%s %s %s N=%d ours=%.4f ms cublas=%.4f ms ratio=%.3f (alternating: ours=%.4f cublas=%.4f)\n",
           fl2 ? "+flush" : "", alg_name(), lname[l], n, bk, bc, bc / bk, median(tk), median(tc));
    cudaFree(fbuf); cudaFree(fsink);
  }
  // error of the timed result vs an FP64 reference (and cuBLAS's own)
  double* R;
  CK(cudaMalloc(&R, ne * 8));
  ref64(ta, tb, M, N, K, 1.0, A, n, B, n, 0.0, nullptr, n, R);
  bool n1, n2;
  double e = err_vs(C, M, N, n, R, &n1), eb = err_vs(Cb, M, N, n, R, &n2);
  printf("time %s %s N=%d ours=%.2f TFLOP/s cublas=%.2f TFLOP/s ratio=%.3f err=%.3e cublas_err=%.3e%s\n",
         alg_name(), lname[l], n, tfk, tfc, tfk / tfc, e, eb, n1 ? " NAN!" : "");
  fflush(stdout);
  cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(Cb); cudaFree(R);
  cudaEventDestroy(e0); cudaEventDestroy(e1);
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "both";
  std::vector<int> ns;
  for (int i = 2; i < argc; ++i) ns.push_back(atoi(argv[i]));
  if (ns.empty()) ns = {256, 1024, 2048, 4096, 8192};
  CB(cublasCreate(&handle));
  CB(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  for (int l = 0; l < 4; ++l) {
    int sb = smem_bytes(l >> 1, l & 1);
    CK(cudaFuncSetAttribute(kernels[l], cudaFuncAttributeMaxDynamicSharedMemorySize, sb));
  }
  char c[256];
  cfg(c);
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, kernels[0]));
  printf("# %s %s threads=%d smem(NN)=%d regs=%d local=%zu\n", alg_name(), c, NTHR, smem_bytes(0, 0),
         fa.numRegs, fa.localSizeBytes);
  if (mode == "check" || mode == "both") {
    int sz[][3] = {{1, 1, 1}, {17, 17, 17}, {255, 255, 255}, {1000, 1000, 1000}, {333, 77, 129},
                   {64, 1000, 7}, {1000, 1, 300}, {130, 257, 1031}, {100, 90, 50}};
    for (int l = 0; l < 4; ++l)
      for (auto& s : sz) {
        check_one(l, s[0], s[1], s[2], true, 0);
        check_one(l, s[0], s[1], s[2], false, 1);
      }
    printf("# checks: %d, failures: %d\n", checks, failures);
  }
  if (mode == "time" || mode == "both") {
    for (int n : ns)
      for (int l = 0; l < 4; ++l) time_one(l, n, 20);
  }
  cublasDestroy(handle);
  return failures ? 1 : 0;
}
