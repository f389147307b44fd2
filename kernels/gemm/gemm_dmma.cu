// DGEMM on the FP64 tensor cores (mma.sync f64): C = alpha*op(A)*op(B) + beta*C,
// column-major, op by TRANS_A / TRANS_B. MMA shape by MMA_M x 8 x MMA_K:
// m8n8k4 (sm_80+), m16n8k4 / m16n8k8 / m16n8k16 (sm_90). STAGES-deep
// cp.async pipeline; shared-memory tiles keep the global layout, padded.
#include "gemm_common.cuh"

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
#define BN 64
#endif
#ifndef BK
#define BK 16
#endif
#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 2
#endif
#ifndef MMA_M
#define MMA_M 16
#endif
#ifndef MMA_K
#define MMA_K 4
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef VEC            // 2: 16-byte cp.async fast path; 1: element copies (any ld)
#define VEC 2
#endif
#ifndef PAD_MN
#define PAD_MN 4
#endif
#ifndef PAD_K
#define PAD_K 4
#endif
#ifndef GROUP
#define GROUP 8
#endif
#ifndef KPERM          // 1: relabel k inside each MMA_K slice (lane t takes k = t*MMA_K/4 + q
#define KPERM 0        //    instead of t + 4q, same for A and B), so a lane's fragment values
#endif                 //    are adjacent in k-contiguous tiles: 16-byte shared loads. Pair with
                       //    PAD_MN = 2 and (BK + PAD_K) % 16 == 8 (conflict-free).
#ifndef MINB           // min blocks per SM for __launch_bounds__ (caps registers)
#define MINB 1
#endif
#ifndef KERNEL_NAME
#define KERNEL_NAME gemm_dmma
#endif

#define DM_NT (WARPS_M * WARPS_N * 32)
#define DM_A_LD (TRANS_A ? (BK + PAD_K) : (BM + PAD_MN))
#define DM_A_ST (TRANS_A ? BM * DM_A_LD : BK * DM_A_LD)
#define DM_B_LD (TRANS_B ? (BN + PAD_MN) : (BK + PAD_K))
#define DM_B_ST (TRANS_B ? BK * DM_B_LD : BN * DM_B_LD)
#define DM_SMEM_BYTES (STAGES * (DM_A_ST + DM_B_ST) * 8)

// d (MMA_M*8/32 doubles per lane), a (MMA_M*MMA_K/32), b (MMA_K/4)
template <int MM, int MK>
__device__ __forceinline__ void dm_mma(double* d, const double* a, const double* b) {
  if (MM == 8 && MK == 4) {
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                 : "+d"(d[0]), "+d"(d[1]) : "d"(a[0]), "d"(b[0]));
  } else if (MM == 16 && MK == 4) {
    asm volatile(
        "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
        "{%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]));
  } else if (MM == 16 && MK == 8) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
  } else if (MM == 16 && MK == 16) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
          "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
  }
}

struct __attribute__((aligned(16))) dm_d2 {
  double x, y;
};

template <int TA, int TB>
__device__ __forceinline__ void gemm_dmma_impl(int M, int N, int K, double alpha,
                                               const double* __restrict__ A, int lda,
                                               const double* __restrict__ B, int ldb, double beta,
                                               double* __restrict__ C, int ldc) {
  constexpr int NT = DM_NT;
  constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;
  constexpr int MI = WM / MMA_M, NI = WN / 8;
  constexpr int AR = MMA_M * MMA_K / 32, BR = MMA_K / 4, CR = MMA_M * 8 / 32;
  static_assert(WM % MMA_M == 0 && WN % 8 == 0 && BK % MMA_K == 0, "tile shape");
  constexpr int A_LD = TA ? (BK + PAD_K) : (BM + PAD_MN);
  constexpr int A_ST = TA ? BM * A_LD : BK * A_LD;
  constexpr int B_LD = TB ? (BN + PAD_MN) : (BK + PAD_K);
  constexpr int B_ST = TB ? BK * B_LD : BN * B_LD;

  extern __shared__ __attribute__((aligned(16))) unsigned char dm_smem_raw[];
  double* As = reinterpret_cast<double*>(dm_smem_raw);
  double* Bs = As + STAGES * A_ST;

  const int tid = threadIdx.x;
  const int gm = GEMM_CDIV(M, BM), gn = GEMM_CDIV(N, BN);
  int tmi, tni;
  gemm_tile_index<GROUP>(gm, gn, tmi, tni);
  const int m0 = tmi * BM, n0 = tni * BN;
  const int warp = tid >> 5, lane = tid & 31;
  const int wm = warp % WARPS_M, wn = warp / WARPS_M;
  const int g = lane >> 2, t = lane & 3;

  double acc[MI][NI][CR];
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int r = 0; r < CR; ++r) acc[i][j][r] = 0.0;

  const int KT = GEMM_CDIV(K, BK);
  auto load = [&](int st, int kt) {
    const int k0 = kt * BK;
    if (TA) gemm_async_tile<double, BK, BM, A_LD, VEC, NT>(As + st * A_ST, A, lda, k0, m0, K, M, tid);
    else gemm_async_tile<double, BM, BK, A_LD, VEC, NT>(As + st * A_ST, A, lda, m0, k0, M, K, tid);
    if (TB) gemm_async_tile<double, BN, BK, B_LD, VEC, NT>(Bs + st * B_ST, B, ldb, n0, k0, N, K, tid);
    else gemm_async_tile<double, BK, BN, B_LD, VEC, NT>(Bs + st * B_ST, B, ldb, k0, n0, K, N, tid);
  };

#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < KT) load(s, s);
    gemm_cp_commit();
  }
  for (int kt = 0; kt < KT; ++kt) {
    gemm_cp_wait<STAGES - 2>();
    __syncthreads();
    {
      int nk = kt + STAGES - 1;
      if (nk < KT) load(nk % STAGES, nk);
      gemm_cp_commit();
    }
    const double* as = As + (kt % STAGES) * A_ST;
    const double* bs = Bs + (kt % STAGES) * B_ST;
#pragma unroll
    for (int kk = 0; kk < BK; kk += MMA_K) {
      double af[MI][AR], bf[NI][BR];
      constexpr int KS = MMA_K / 4;  // k values per lane per fragment column
#pragma unroll
      for (int i = 0; i < MI; ++i) {
        int mr = wm * WM + i * MMA_M + g;
        if (KPERM && TA && MMA_M == 16 && KS % 2 == 0) {
          // [m][k] tile, lane's k = kk + t*KS + q: q pairs are adjacent
#pragma unroll
          for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int q = 0; q < KS; q += 2) {
              dm_d2 v = *reinterpret_cast<const dm_d2*>(as + (mr + 8 * h) * A_LD + kk + t * KS + q);
              af[i][2 * q + h] = v.x;
              af[i][2 * (q + 1) + h] = v.y;
            }
        } else {
#pragma unroll
          for (int r = 0; r < AR; ++r) {
            // m16: a[2q+h] = A(g + 8h, slot t + 4q); m8: a[0] = A(g, t)
            int m = mr + (MMA_M == 16 ? (r & 1) * 8 : 0);
            int q = MMA_M == 16 ? (r >> 1) : r;
            int k = kk + (KPERM ? t * KS + q : t + q * 4);
            af[i][r] = TA ? as[m * A_LD + k] : as[k * A_LD + m];
          }
        }
      }
#pragma unroll
      for (int j = 0; j < NI; ++j) {
        int n = wn * WN + j * 8 + g;
        if (KPERM && !TB && KS % 2 == 0) {
#pragma unroll
          for (int q = 0; q < KS; q += 2) {
            dm_d2 v = *reinterpret_cast<const dm_d2*>(bs + n * B_LD + kk + t * KS + q);
            bf[j][q] = v.x;
            bf[j][q + 1] = v.y;
          }
        } else {
#pragma unroll
          for (int r = 0; r < BR; ++r) {
            int k = kk + (KPERM ? t * KS + r : t + r * 4);
            bf[j][r] = TB ? bs[k * B_LD + n] : bs[n * B_LD + k];
          }
        }
      }
#pragma unroll
      for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) dm_mma<MMA_M, MMA_K>(acc[i][j], af[i], bf[j]);
    }
  }
  gemm_cp_wait<0>();

#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j) {
      int m = m0 + wm * WM + i * MMA_M + g;
      int n = n0 + wn * WN + j * 8 + 2 * t;
      gemm_store<double>(C, ldc, m, n, M, N, acc[i][j][0], alpha, beta);
      gemm_store<double>(C, ldc, m, n + 1, M, N, acc[i][j][1], alpha, beta);
      if (CR == 4) {
        gemm_store<double>(C, ldc, m + 8, n, M, N, acc[i][j][CR == 4 ? 2 : 0], alpha, beta);
        gemm_store<double>(C, ldc, m + 8, n + 1, M, N, acc[i][j][CR == 4 ? 3 : 1], alpha, beta);
      }
    }
}

#ifndef GEMM_NO_ENTRY
extern "C" __global__ void __launch_bounds__(DM_NT, MINB)
KERNEL_NAME(int M, int N, int K, double alpha, const double* __restrict__ A, int lda,
            const double* __restrict__ B, int ldb, double beta, double* __restrict__ C, int ldc) {
  gemm_dmma_impl<TRANS_A, TRANS_B>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
#endif
