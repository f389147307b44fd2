// Probe: INT8 GEMM rates for the Ozaki products (TN, int32 out) at 8192.
// nvcc -O3 -arch=sm_90 i8probe.cu -lcublas -lcublasLt -o i8probe
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { auto e = (x); if (e != 0) { printf("error %d at %s:%d\n", (int)e, __FILE__, __LINE__); exit(1);} } while (0)

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main() {
  cublasHandle_t h; CK(cublasCreate(&h));
  cublasLtHandle_t lt; CK(cublasLtCreate(&lt));
  for (int N : {4096, 8192, 16384}) {
    int L = N == 16384 ? 4 : 14;
    size_t nn = (size_t)N * N;
    signed char *A, *B; int* C; void* ws; size_t wsz = 64 << 20;
    CK(cudaMalloc(&A, L * nn)); CK(cudaMalloc(&B, L * nn)); CK(cudaMalloc(&C, 4 * L * nn)); CK(cudaMalloc(&ws, wsz));
    CK(cudaMemset(A, 1, L * nn)); CK(cudaMemset(B, 3, L * nn));
    int one = 1, zero = 0;
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto timeit = [&](auto f) {
      for (int i = 0; i < 2; i++) f();
      std::vector<float> t;
      for (int i = 0; i < 7; i++) { cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms); }
      CK(cudaGetLastError());
      return median(t);
    };
    double ops = 2.0 * N * (double)N * N * L;
    auto batched = [&]() { CK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, N, N, &one, A, CUDA_R_8I, N, nn, B, CUDA_R_8I, N, nn, &zero, C, CUDA_R_32I, N, nn, L, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT)); };
    auto loop = [&]() { for (int l = 0; l < L; l++) CK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, N, N, &one, A + l * nn, CUDA_R_8I, N, B + l * nn, CUDA_R_8I, N, &zero, C + l * nn, CUDA_R_32I, N, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT)); };
    float tb = timeit(batched), tl = timeit(loop);
    printf("N=%d L=%d batched %.3f ms %.0f TOPS | loop %.3f ms %.0f TOPS\n", N, L, tb, ops / tb / 1e9, tl, ops / tl / 1e9);
    // cublasLt: every heuristic candidate, one matrix (batch via loop), timed.
    cublasLtMatmulDesc_t op; CK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32I, CUDA_R_32I));
    cublasOperation_t ta = CUBLAS_OP_T, tn = CUBLAS_OP_N;
    CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tn, sizeof tn));
    cublasLtMatrixLayout_t la, lb, lc;
    CK(cublasLtMatrixLayoutCreate(&la, CUDA_R_8I, N, N, N)); CK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_8I, N, N, N)); CK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32I, N, N, N));
    int32_t bc = L; int64_t sa = nn, sc = nn;
    for (auto l : {la, lb}) { CK(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof bc)); CK(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sa, sizeof sa)); }
    CK(cublasLtMatrixLayoutSetAttribute(lc, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof bc)); CK(cublasLtMatrixLayoutSetAttribute(lc, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sc, sizeof sc));
    cublasLtMatmulPreference_t pref; CK(cublasLtMatmulPreferenceCreate(&pref));
    CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsz, sizeof wsz));
    cublasLtMatmulHeuristicResult_t res[16]; int got = 0;
    CK(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 16, res, &got));
    for (int i = 0; i < got; i++) {
      auto f = [&]() { CK(cublasLtMatmul(lt, op, &one, A, la, B, lb, &zero, C, lc, C, lc, &res[i].algo, ws, wsz, 0)); };
      float t = timeit(f);
      int tile = -1, stages = -1, cl = -1; size_t w;
      cublasLtMatmulAlgoConfigGetAttribute(&res[i].algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &w);
      cublasLtMatmulAlgoConfigGetAttribute(&res[i].algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &w);
      cublasLtMatmulAlgoConfigGetAttribute(&res[i].algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &cl, sizeof cl, &w);
      printf("  lt algo %d (tile %d stages %d cluster %d ws %zu): %.3f ms %.0f TOPS\n", i, tile, stages, cl, res[i].workspaceSize, t, ops / t / 1e9);
    }
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(ws);
  }
  return 0;
}
