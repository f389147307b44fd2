// SIMT GEMM with FMA (no tensor cores): C = alpha*op(A)*op(B) + beta*C,
// column-major, op by TRANS_A / TRANS_B. PREC = float (SGEMM) or double.
// Register-blocked (TM x TN per thread), double-buffered shared memory with
// register-staged global loads (transposing layouts are transposed on the
// store into shared memory, so the inner loop always reads A as [k][m] and
// B as [k][n] with 16-byte vector loads).
#include "gemm_common.cuh"

#ifndef PREC
#define PREC float
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef VEC            // global-load vector width in elements: 1 or 16/sizeof(PREC)
#define VEC (16 / (int)sizeof(PREC))
#endif
#ifndef PAD            // shared-memory row padding in elements
#define PAD 4
#endif
#ifndef GROUP          // block rasterization panel width (0 = plain order)
#define GROUP 8
#endif
#ifndef MINB           // min blocks per SM for __launch_bounds__
#define MINB 1
#endif
#ifndef SPLITK         // slices of K, one grid row each, summed in order by the last
#define SPLITK 1        // block of each tile (gemm_split_reduce)
#endif
#ifndef KERNEL_NAME
#define KERNEL_NAME gemm_fma
#endif

#define FMA_NT ((BM / TM) * (BN / TN))
#define FMA_A_LD (BM + PAD)
#define FMA_B_LD (BN + PAD)
// dynamic shared memory bytes
#define FMA_SMEM_BYTES (2 * BK * (FMA_A_LD + FMA_B_LD) * (int)sizeof(PREC))

template <typename T>
struct __attribute__((aligned(16))) fma_v16 {
  T x[16 / sizeof(T)];
};

template <typename T, int TA, int TB>
__device__ __forceinline__ void gemm_fma_impl(int M, int N, int K, T alpha, const T* __restrict__ A,
                                              int lda, const T* __restrict__ B, int ldb, T beta,
                                              T* __restrict__ C, int ldc,
                                              unsigned* __restrict__ counters,
                                              T* __restrict__ work) {
  constexpr int NT = FMA_NT;
  constexpr int TR = BM / TM, TCn = BN / TN;
  constexpr int VE = 16 / (int)sizeof(T);
  constexpr int A_LD = FMA_A_LD, B_LD = FMA_B_LD;
  constexpr int A_ST = BK * A_LD, B_ST = BK * B_LD;
  static_assert(TM % VE == 0 && TN % VE == 0, "TM, TN must be multiples of 16/sizeof(T)");
  static_assert(BM % TM == 0 && BN % TN == 0, "tile");
  // global tile geometry: contiguous extent / strided extent
  constexpr int A_TC = TA ? BK : BM, A_TS = TA ? BM : BK;
  constexpr int B_TC = TB ? BN : BK, B_TS = TB ? BK : BN;
  constexpr int A_CH = (A_TC / VEC) * A_TS, B_CH = (B_TC / VEC) * B_TS;
  constexpr int LA = (A_CH + NT - 1) / NT, LB = (B_CH + NT - 1) / NT;

  extern __shared__ __attribute__((aligned(16))) unsigned char fma_smem_raw[];
  T* As = reinterpret_cast<T*>(fma_smem_raw);
  T* Bs = As + 2 * A_ST;

  const int tid = threadIdx.x;
  const int gm = GEMM_CDIV(M, BM), gn = GEMM_CDIV(N, BN);
  int tmi, tni;
  gemm_tile_index<GROUP>(gm, gn, tmi, tni);
  const int m0 = tmi * BM, n0 = tni * BN;
  // A split-K slice is the product over its k range only.
  const int slice = SPLITK > 1 ? (int)blockIdx.y : 0;
  gemm_slice<BK, SPLITK, TA, TB>(A, lda, B, ldb, K, slice);

  int tr, tc;
  if (TR % 8 == 0 && TCn % 4 == 0) {
    const int warp = tid >> 5, lane = tid & 31;
    constexpr int WMS = TR / 8;
    tr = (warp % WMS) * 8 + (lane & 7);
    tc = (warp / WMS) * 4 + (lane >> 3);
  } else {
    tr = tid % TR;
    tc = tid / TR;
  }

  T ra[LA][VEC], rb[LB][VEC];
  T acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = T(0);

  // ---- global -> registers
  auto gload = [&](int kt) {
    const int k0 = kt * BK;
#pragma unroll
    for (int i = 0; i < LA; ++i) {
      int ch = tid + i * NT;
      int c = (ch % (A_TC / VEC)) * VEC, s = ch / (A_TC / VEC);
      int gc = (TA ? k0 : m0) + c, gs = (TA ? m0 : k0) + s;
      int CMAX = TA ? K : M, SMAX = TA ? M : K;
      const T* src = A + (long long)gs * lda + gc;
      bool in = (A_CH % NT == 0 || ch < A_CH) && gs < SMAX;
      if (VEC > 1 && in && gc + VEC <= CMAX) {
        fma_v16<T> v = *reinterpret_cast<const fma_v16<T>*>(src);
#pragma unroll
        for (int e = 0; e < VEC; ++e) ra[i][e] = v.x[e];
      } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e) ra[i][e] = (in && gc + e < CMAX) ? src[e] : T(0);
      }
    }
#pragma unroll
    for (int i = 0; i < LB; ++i) {
      int ch = tid + i * NT;
      int c = (ch % (B_TC / VEC)) * VEC, s = ch / (B_TC / VEC);
      int gc = (TB ? n0 : k0) + c, gs = (TB ? k0 : n0) + s;
      int CMAX = TB ? N : K, SMAX = TB ? K : N;
      const T* src = B + (long long)gs * ldb + gc;
      bool in = (B_CH % NT == 0 || ch < B_CH) && gs < SMAX;
      if (VEC > 1 && in && gc + VEC <= CMAX) {
        fma_v16<T> v = *reinterpret_cast<const fma_v16<T>*>(src);
#pragma unroll
        for (int e = 0; e < VEC; ++e) rb[i][e] = v.x[e];
      } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e) rb[i][e] = (in && gc + e < CMAX) ? src[e] : T(0);
      }
    }
  };
  // ---- registers -> shared ([k][m] and [k][n])
  auto sstore = [&](int st) {
    T* as = As + st * A_ST;
    T* bs = Bs + st * B_ST;
#pragma unroll
    for (int i = 0; i < LA; ++i) {
      int ch = tid + i * NT;
      if (A_CH % NT == 0 || ch < A_CH) {
        int c = (ch % (A_TC / VEC)) * VEC, s = ch / (A_TC / VEC);
#pragma unroll
        for (int e = 0; e < VEC; ++e) {
          if (TA) as[(c + e) * A_LD + s] = ra[i][e];
          else as[s * A_LD + c + e] = ra[i][e];
        }
      }
    }
#pragma unroll
    for (int i = 0; i < LB; ++i) {
      int ch = tid + i * NT;
      if (B_CH % NT == 0 || ch < B_CH) {
        int c = (ch % (B_TC / VEC)) * VEC, s = ch / (B_TC / VEC);
#pragma unroll
        for (int e = 0; e < VEC; ++e) {
          if (TB) bs[s * B_LD + c + e] = rb[i][e];
          else bs[(c + e) * B_LD + s] = rb[i][e];
        }
      }
    }
  };

  const int KT = GEMM_CDIV(K, BK);
  gload(0);
  sstore(0);
  __syncthreads();
  for (int kt = 0; kt < KT; ++kt) {
    const int st = kt & 1;
    if (kt + 1 < KT) gload(kt + 1);
    const T* as = As + st * A_ST;
    const T* bs = Bs + st * B_ST;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      T a[TM], b[TN];
#pragma unroll
      for (int j = 0; j < TM / VE; ++j) {
        fma_v16<T> v = *reinterpret_cast<const fma_v16<T>*>(as + k * A_LD + j * TR * VE + tr * VE);
#pragma unroll
        for (int e = 0; e < VE; ++e) a[j * VE + e] = v.x[e];
      }
#pragma unroll
      for (int j = 0; j < TN / VE; ++j) {
        fma_v16<T> v = *reinterpret_cast<const fma_v16<T>*>(bs + k * B_LD + j * TCn * VE + tc * VE);
#pragma unroll
        for (int e = 0; e < VE; ++e) b[j * VE + e] = v.x[e];
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }
    if (kt + 1 < KT) sstore(st ^ 1);
    __syncthreads();
  }

  if (SPLITK > 1) {
    T(&flat)[TM * TN] = reinterpret_cast<T(&)[TM * TN]>(acc);
    if (!gemm_split_reduce<T, TM * TN, SPLITK>(flat, work, counters, slice)) return;
  }
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    int n = n0 + (j / VE) * TCn * VE + tc * VE + (j % VE);
    if (beta == T(0)) {
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        int m = m0 + (i / VE) * TR * VE + tr * VE + (i % VE);
        gemm_store<T>(C, ldc, m, n, M, N, acc[i][j], alpha, beta);
      }
    } else {
      // a column's loads of C before its stores (gemm_update)
      int ms[TM], ns[TM];
      T v[TM];
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        ms[i] = m0 + (i / VE) * TR * VE + tr * VE + (i % VE);
        ns[i] = n;
        v[i] = acc[i][j];
      }
      gemm_update<T, TM>(C, ldc, ms, ns, M, N, v, alpha, beta);
    }
  }
}

#ifndef GEMM_NO_ENTRY
extern "C" __global__ void __launch_bounds__(FMA_NT, MINB)
KERNEL_NAME(int M, int N, int K, PREC alpha, const PREC* __restrict__ A, int lda,
            const PREC* __restrict__ B, int ldb, PREC beta, PREC* __restrict__ C, int ldc,
            unsigned* __restrict__ counters, PREC* __restrict__ work) {
  gemm_fma_impl<PREC, TRANS_A, TRANS_B>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, counters, work);
}
#endif
