// Double-double GEMM on the CUDA cores: C = alpha*op(A)*op(B) + beta*C,
// column-major, every element an unevaluated sum hi + lo of two doubles
// (about 106 significant bits), alpha and beta double-double too.
//
// Storage (SPLIT): 0 = interleaved, element e is (X[2e], X[2e+1]) as QD's
// dd_real and MPLAPACK keep it; 1 = split, the hi parts of the whole stored
// matrix (ld * columns doubles) followed by its lo parts.
//
// The multiply-add (MADD), the template's main choice:
//   0 = accurate: the FMA product (a.lo*b.lo dropped, renormalised) then the
//       IEEE-style double-double sum with two TwoSums;
//   1 = sloppy: the same product then the sum with one TwoSum;
//   2 = lazy: the product's error terms and the TwoSum's error go into a low
//       word that is renormalised once per K panel, not per step.
// Every error-free transformation uses the _rn intrinsics so that the
// compiler cannot contract a product into a following sum.
#include "gemm_common.cuh"

#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef SPLIT
#define SPLIT 0
#endif
#ifndef MADD
#define MADD 2
#endif
#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 4
#endif
#ifndef TN
#define TN 4
#endif
#ifndef PAD            // shared-memory row padding in elements
#define PAD 0
#endif
#ifndef GROUP
#define GROUP 8
#endif
#ifndef MINB
#define MINB 1
#endif
#ifndef KERNEL_NAME
#define KERNEL_NAME gemm_dd
#endif

#define DD_NT ((BM / TM) * (BN / TN))

struct __attribute__((aligned(16))) dd_t {
  double hi, lo;
};

__device__ __forceinline__ dd_t dd_two_sum(double a, double b) {
  double s = __dadd_rn(a, b);
  double bb = __dsub_rn(s, a);
  double e = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb));
  return {s, e};
}

// |a| >= |b| or a == 0.
__device__ __forceinline__ dd_t dd_quick_two_sum(double a, double b) {
  double s = __dadd_rn(a, b);
  return {s, __dsub_rn(b, __dsub_rn(s, a))};
}

__device__ __forceinline__ dd_t dd_mul(dd_t a, dd_t b) {
  double p = __dmul_rn(a.hi, b.hi);
  double e = __fma_rn(a.hi, b.hi, -p);
  e = __fma_rn(a.hi, b.lo, e);
  e = __fma_rn(a.lo, b.hi, e);
  return dd_quick_two_sum(p, e);
}

__device__ __forceinline__ dd_t dd_add_accurate(dd_t a, dd_t b) {
  dd_t s = dd_two_sum(a.hi, b.hi);
  dd_t t = dd_two_sum(a.lo, b.lo);
  s.lo = __dadd_rn(s.lo, t.hi);
  s = dd_quick_two_sum(s.hi, s.lo);
  s.lo = __dadd_rn(s.lo, t.lo);
  return dd_quick_two_sum(s.hi, s.lo);
}

__device__ __forceinline__ dd_t dd_add_sloppy(dd_t a, dd_t b) {
  dd_t s = dd_two_sum(a.hi, b.hi);
  s.lo = __dadd_rn(s.lo, __dadd_rn(a.lo, b.lo));
  return dd_quick_two_sum(s.hi, s.lo);
}

// acc += a * b in the template's way.
__device__ __forceinline__ void dd_madd(dd_t& acc, dd_t a, dd_t b) {
#if MADD == 0
  acc = dd_add_accurate(acc, dd_mul(a, b));
#elif MADD == 1
  acc = dd_add_sloppy(acc, dd_mul(a, b));
#else
  double p = __dmul_rn(a.hi, b.hi);
  double q = __fma_rn(a.hi, b.hi, -p);
  q = __fma_rn(a.hi, b.lo, q);
  q = __fma_rn(a.lo, b.hi, q);
  dd_t s = dd_two_sum(acc.hi, p);
  acc.hi = s.hi;
  acc.lo = __dadd_rn(acc.lo, __dadd_rn(s.lo, q));
#endif
}

// The lazy accumulator's low word back under half an ulp of its high word.
__device__ __forceinline__ void dd_settle(dd_t& acc) {
#if MADD == 2
  acc = dd_two_sum(acc.hi, acc.lo);
#endif
}

// Element (r, c) of a stored matrix with leading dimension ld; `plane` is
// the offset of the lo parts in split storage.
__device__ __forceinline__ dd_t dd_load(const double* X, long long ld, long long plane, int r,
                                        int c) {
  long long e = (long long)c * ld + r;
#if SPLIT
  return {X[e], X[plane + e]};
#else
  return *reinterpret_cast<const dd_t*>(X + 2 * e);
#endif
}

__device__ __forceinline__ void dd_store_c(double* C, long long ldc, long long plane, int m, int n,
                                           dd_t v) {
  long long e = (long long)n * ldc + m;
#if SPLIT
  C[e] = v.hi;
  C[plane + e] = v.lo;
#else
  *reinterpret_cast<dd_t*>(C + 2 * e) = v;
#endif
}

template <int TA, int TB>
__device__ __forceinline__ void gemm_dd_impl(int M, int N, int K, dd_t alpha,
                                             const double* __restrict__ A, int lda,
                                             const double* __restrict__ B, int ldb, dd_t beta,
                                             double* __restrict__ C, int ldc) {
  constexpr int NT = DD_NT;
  constexpr int TR = BM / TM, TCn = BN / TN;
  constexpr int A_LD = BM + PAD, B_LD = BN + PAD;
  constexpr int A_ST = BK * A_LD, B_ST = BK * B_LD;
  // Tile geometry in the stored layout: contiguous extent x strided extent.
  constexpr int A_TC = TA ? BK : BM, A_TS = TA ? BM : BK;
  constexpr int B_TC = TB ? BN : BK, B_TS = TB ? BK : BN;
  constexpr int A_CH = A_TC * A_TS, B_CH = B_TC * B_TS;
  constexpr int LA = (A_CH + NT - 1) / NT, LB = (B_CH + NT - 1) / NT;

  extern __shared__ __attribute__((aligned(16))) unsigned char dd_smem_raw[];
  dd_t* As = reinterpret_cast<dd_t*>(dd_smem_raw);
  dd_t* Bs = As + 2 * A_ST;

  const long long plane_a = (long long)lda * (TA ? M : K);
  const long long plane_b = (long long)ldb * (TB ? K : N);
  const long long plane_c = (long long)ldc * N;

  const int tid = threadIdx.x;
  const int gm = GEMM_CDIV(M, BM), gn = GEMM_CDIV(N, BN);
  int tmi, tni;
  gemm_tile_index<GROUP>(gm, gn, tmi, tni);
  const int m0 = tmi * BM, n0 = tni * BN;

  // Lanes 0-7 of a quarter warp take consecutive rows (16-byte shared
  // loads without conflicts) and share a column (a broadcast).
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

  dd_t ra[LA], rb[LB];
  dd_t acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = {0.0, 0.0};

  auto gload = [&](int kt) {
    const int k0 = kt * BK;
#pragma unroll
    for (int i = 0; i < LA; ++i) {
      int ch = tid + i * NT;
      int c = ch % A_TC, s = ch / A_TC;
      int gc = (TA ? k0 : m0) + c, gs = (TA ? m0 : k0) + s;
      bool in = (A_CH % NT == 0 || ch < A_CH) && gc < (TA ? K : M) && gs < (TA ? M : K);
      ra[i] = in ? dd_load(A, lda, plane_a, gc, gs) : dd_t{0.0, 0.0};
    }
#pragma unroll
    for (int i = 0; i < LB; ++i) {
      int ch = tid + i * NT;
      int c = ch % B_TC, s = ch / B_TC;
      int gc = (TB ? n0 : k0) + c, gs = (TB ? k0 : n0) + s;
      bool in = (B_CH % NT == 0 || ch < B_CH) && gc < (TB ? N : K) && gs < (TB ? K : N);
      rb[i] = in ? dd_load(B, ldb, plane_b, gc, gs) : dd_t{0.0, 0.0};
    }
  };
  // Shared tiles are [k][m] and [k][n] whatever the layout.
  auto sstore = [&](int st) {
    dd_t* as = As + st * A_ST;
    dd_t* bs = Bs + st * B_ST;
#pragma unroll
    for (int i = 0; i < LA; ++i) {
      int ch = tid + i * NT;
      if (A_CH % NT == 0 || ch < A_CH) {
        int c = ch % A_TC, s = ch / A_TC;
        if (TA) as[c * A_LD + s] = ra[i];
        else as[s * A_LD + c] = ra[i];
      }
    }
#pragma unroll
    for (int i = 0; i < LB; ++i) {
      int ch = tid + i * NT;
      if (B_CH % NT == 0 || ch < B_CH) {
        int c = ch % B_TC, s = ch / B_TC;
        if (TB) bs[s * B_LD + c] = rb[i];
        else bs[c * B_LD + s] = rb[i];
      }
    }
  };

  const int KT = GEMM_CDIV(K, BK);
  gload(0);
  sstore(0);
  __syncthreads();
#pragma unroll 1
  for (int kt = 0; kt < KT; ++kt) {
    const int st = kt & 1;
    if (kt + 1 < KT) gload(kt + 1);
    const dd_t* as = As + st * A_ST;
    const dd_t* bs = Bs + st * B_ST;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      dd_t a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = as[k * A_LD + i * TR + tr];
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = bs[k * B_LD + j * TCn + tc];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) dd_madd(acc[i][j], a[i], b[j]);
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) dd_settle(acc[i][j]);
    if (kt + 1 < KT) sstore(st ^ 1);
    __syncthreads();
  }

#pragma unroll
  for (int j = 0; j < TN; ++j) {
    int n = n0 + j * TCn + tc;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      int m = m0 + i * TR + tr;
      if (m < M && n < N) {
        dd_t v = dd_mul(alpha, acc[i][j]);
        if (beta.hi != 0.0 || beta.lo != 0.0)
          v = dd_add_accurate(v, dd_mul(beta, dd_load(C, ldc, plane_c, m, n)));
        dd_store_c(C, ldc, plane_c, m, n, v);
      }
    }
  }
}

#ifndef GEMM_NO_ENTRY
extern "C" __global__ void __launch_bounds__(DD_NT, MINB)
KERNEL_NAME(int M, int N, int K, double alpha_hi, double alpha_lo, const double* __restrict__ A,
            int lda, const double* __restrict__ B, int ldb, double beta_hi, double beta_lo,
            double* __restrict__ C, int ldc) {
  gemm_dd_impl<TRANS_A, TRANS_B>(M, N, K, dd_t{alpha_hi, alpha_lo}, A, lda, B, ldb,
                                 dd_t{beta_hi, beta_lo}, C, ldc);
}
#endif
