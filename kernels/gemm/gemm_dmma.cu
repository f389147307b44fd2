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
#ifndef FASTLOAD       // 1: blocks whose tile lies inside C copy full k steps with
#define FASTLOAD 1     //    gemm_fast_tile (VEC = 2 only); 0: every copy checks bounds
#endif
#ifndef FRAGPIPE       // 1: fragments loaded one mma step ahead, across k tiles
#define FRAGPIPE 1
#endif
#ifndef MINB           // min blocks per SM for __launch_bounds__ (caps registers)
#define MINB 1
#endif
#ifndef SPLITK         // slices of K, one grid row each, summed in order by the last
#define SPLITK 1
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
                                               double* __restrict__ C, int ldc,
                                               unsigned* __restrict__ counters,
                                               double* __restrict__ work) {
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
  // A split-K slice is the product over its k range only.
  const int slice = SPLITK > 1 ? (int)blockIdx.y : 0;
  gemm_slice<BK, SPLITK, TA, TB>(A, lda, B, ldb, K, slice);

  double acc[MI][NI][CR];
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int r = 0; r < CR; ++r) acc[i][j][r] = 0.0;

  // Blocks inside C, and edge blocks whose tile moves inside, copy their
  // whole k tiles with the fast copiers.
  gemm_ab_loader<double, TA, TB, BM, BN, BK, A_LD, B_LD, A_ST, B_ST, STAGES, VEC, NT, FASTLOAD> ld(
      As, Bs, A, lda, B, ldb, M, N, K, m0, n0, tid);
  constexpr bool FAST = decltype(ld)::FAST;
  const int KT = ld.KT, KF = ld.KF;
  // The fragments of step kk of the tile at (as, bs), in the mma.sync layout.
  auto frags = [&](const double* as, const double* bs, int kk, double (&af)[MI][AR],
                   double (&bf)[NI][BR]) {
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
  };
  auto mmas = [&](const double (&af)[MI][AR], const double (&bf)[NI][BR]) {
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
      for (int j = 0; j < NI; ++j) dm_mma<MMA_M, MMA_K>(acc[i][j], af[i], bf[j]);
  };
  constexpr int KB = BK / MMA_K;

  ld.prologue();
  int kt = 0;
  if (FRAGPIPE) {
    // Fragments are loaded one mma step ahead, across tiles too: the barrier
    // that publishes tile kt + 1 sits before the last step of tile kt, so
    // its first fragments are in flight while tile kt's last mmas run, and
    // the tensor pipe does not wait out a shared-load latency per tile. The
    // copy into the slot of tile kt - 1 goes out at the first step of tile
    // kt: every warp passed the barrier after its last read of that slot.
    double af[2][MI][AR], bf[2][NI][BR];
    gemm_cp_wait<STAGES - 2>();
    __syncthreads();
    frags(As, Bs, 0, af[0], bf[0]);
    // Buffer (step count) % 2 of tile kt's step kb; with an odd number of
    // steps per tile the buffers swap from one tile to the next, so tiles go
    // in pairs and `odd` says which of the pair this is. Every call passes
    // constants, so once inlined the buffer indices are constants and the
    // buffers stay in registers.
    auto tile = [&](int kt, bool all_fast, bool odd) {
      const int rs = kt % STAGES, ns = (kt + 1) % STAGES;
      const int base = odd ? KB : 0;
#pragma unroll
      for (int kb = 0; kb < KB; ++kb) {
        if (kb == 0) ld.issue(kt, all_fast);
        if (kb == KB - 1) {
          gemm_cp_wait<STAGES - 2>();
          __syncthreads();
        }
        const int st = kb == KB - 1 ? ns : rs;
        // past the last tile this reads a slot nothing uses: harmless, and
        // cheaper than a branch
        frags(As + st * A_ST, Bs + st * B_ST, ((kb + 1) % KB) * MMA_K, af[(base + kb + 1) % 2],
              bf[(base + kb + 1) % 2]);
        mmas(af[(base + kb) % 2], bf[(base + kb) % 2]);
      }
    };
    if (FAST)
      for (; kt + STAGES < KF; kt += 2) {
        tile(kt, true, false);
        tile(kt + 1, true, true);
      }
    for (; kt + 1 < KT; kt += 2) {
      tile(kt, false, false);
      tile(kt + 1, false, true);
    }
    if (kt < KT) tile(kt, false, false);
  } else {
    auto tile = [&](int kt, bool all_fast) {
      gemm_cp_wait<STAGES - 2>();
      __syncthreads();
      ld.issue(kt, all_fast);
      const double* as = As + (kt % STAGES) * A_ST;
      const double* bs = Bs + (kt % STAGES) * B_ST;
#pragma unroll
      for (int kk = 0; kk < BK; kk += MMA_K) {
        double af[MI][AR], bf[NI][BR];
        frags(as, bs, kk, af, bf);
        mmas(af, bf);
      }
    };
    if (FAST)
      for (; kt + STAGES - 1 < KF; ++kt) tile(kt, true);
    for (; kt < KT; ++kt) tile(kt, false);
  }
  gemm_cp_wait<0>();

  // the tile starts at the loader's origin, the block's results at m0, n0
  gemm_mma_epilogue<double, MI, NI, CR, MMA_M, SPLITK>(C, ldc, acc, ld.m0 + wm * WM + g,
                                                 ld.n0 + wn * WN + 2 * t, M, N, m0, n0, alpha,
                                                 beta, counters, work, slice);
}

#ifndef GEMM_NO_ENTRY
extern "C" __global__ void __launch_bounds__(DM_NT, MINB)
KERNEL_NAME(int M, int N, int K, double alpha, const double* __restrict__ A, int lda,
            const double* __restrict__ B, int ldb, double beta, double* __restrict__ C, int ldc,
            unsigned* __restrict__ counters, double* __restrict__ work) {
  gemm_dmma_impl<TRANS_A, TRANS_B>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, counters, work);
}
#endif
