// FP32-accurate SGEMM on TF32 tensor cores with the 3xTF32 split:
// x = big + small, big = tf32(x), small = tf32(x - big);
// acc += a_small*b_big + a_big*b_small + a_big*b_big (fp32 accumulate).
// C = alpha*op(A)*op(B) + beta*C, column-major, op by TRANS_A / TRANS_B.
// mma.sync.m16n8k8 tf32, STAGES-deep cp.async pipeline; shared-memory tiles
// keep the global layout (no transpose) and are padded against bank
// conflicts. With WGMMA = 1 the template is gemm_3xtf32_wg.cu's kernel
// instead (the two files are one template, sgemm_3xtf32.json).
#include "gemm_common.cuh"
#if !defined(WGMMA) || WGMMA == 0

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
#define BK 16
#endif
#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 4
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef VEC            // 4: 16-byte cp.async fast path; 1: element copies (any ld)
#define VEC 4
#endif
#ifndef PAD_MN         // padding (floats) of tiles whose contiguous dim is m or n
#define PAD_MN 8
#endif
#ifndef PAD_K          // padding (floats) of tiles whose contiguous dim is k
#define PAD_K 4
#endif
#ifndef GROUP
#define GROUP 8
#endif
#ifndef SPLIT          // 0: big = rna(x), small = rna(x - big); 1: big = x with low 13 bits cleared
#define SPLIT 1        //    (no cvt), small = rna(x - big)
#endif
#ifndef FLUSH          // 0: products accumulate straight into acc (fastest, error grows ~K since
#define FLUSH 2        //    the tensor-core accumulation truncates); 1: each k8 step's three
#endif                 //    products go into a zeroed fragment, then acc += it (RN add);
                       // 2: same per BK slice (i-outer loop order), fewer adds
#ifndef FASTLOAD       // 1: blocks whose tile lies inside C copy full k steps with
#define FASTLOAD 1     //    gemm_fast_tile (VEC = 4 only); 0: every copy checks bounds
#endif
#ifndef SPLITK         // slices of K, one grid row each, summed in order by the last
#define SPLITK 1
#endif
#ifndef KERNEL_NAME
#define KERNEL_NAME gemm_3xtf32
#endif

#define TF_NT (WARPS_M * WARPS_N * 32)
#define TF_A_LD (TRANS_A ? (BK + PAD_K) : (BM + PAD_MN))
#define TF_A_ST (TRANS_A ? BM * TF_A_LD : BK * TF_A_LD)
#define TF_B_LD (TRANS_B ? (BN + PAD_MN) : (BK + PAD_K))
#define TF_B_ST (TRANS_B ? BK * TF_B_LD : BN * TF_B_LD)
// dynamic shared memory bytes (for the TRANS_A/TRANS_B of this compilation)
#define TF_SMEM_BYTES (STAGES * (TF_A_ST + TF_B_ST) * 4)

__device__ __forceinline__ void tf_split(float x, unsigned& big, unsigned& small) {
  if (SPLIT == 1) big = __float_as_uint(x) & 0xffffe000u;
  else asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(big) : "f"(x));
  float r = x - __uint_as_float(big);
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(small) : "f"(r));
}
__device__ __forceinline__ void tf_mma(float* d, const unsigned* a, const unsigned* b) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <int TA, int TB>
__device__ __forceinline__ void gemm_3xtf32_impl(int M, int N, int K, float alpha,
                                                 const float* __restrict__ A, int lda,
                                                 const float* __restrict__ B, int ldb, float beta,
                                                 float* __restrict__ C, int ldc,
                                                 unsigned* __restrict__ counters,
                                                 float* __restrict__ work) {
  constexpr int NT = TF_NT;
  constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;
  constexpr int MI = WM / 16, NI = WN / 8;
  static_assert(WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0, "tile shape");
  constexpr int A_LD = TA ? (BK + PAD_K) : (BM + PAD_MN);
  constexpr int A_ST = TA ? BM * A_LD : BK * A_LD;
  constexpr int B_LD = TB ? (BN + PAD_MN) : (BK + PAD_K);
  constexpr int B_ST = TB ? BK * B_LD : BN * B_LD;

  extern __shared__ __attribute__((aligned(16))) unsigned char tf_smem_raw[];
  float* As = reinterpret_cast<float*>(tf_smem_raw);
  float* Bs = As + STAGES * A_ST;

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

  float acc[MI][NI][4];
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.f;

  // Blocks inside C, and edge blocks whose tile moves inside, copy their
  // whole k tiles with the fast copiers.
  gemm_ab_loader<float, TA, TB, BM, BN, BK, A_LD, B_LD, A_ST, B_ST, STAGES, VEC, NT, FASTLOAD> ld(
      As, Bs, A, lda, B, ldb, M, N, K, m0, n0, tid);
  constexpr bool FAST = decltype(ld)::FAST;
  const int KT = ld.KT, KF = ld.KF;
  // all_fast (a constant at every call): the step's copy is a fast one
  auto step = [&](int kt, bool all_fast) {
    gemm_cp_wait<STAGES - 2>();
    __syncthreads();
    ld.issue(kt, all_fast);
    const float* as = As + (kt % STAGES) * A_ST;
    const float* bs = Bs + (kt % STAGES) * B_ST;
    if (FLUSH == 2) {
      // i-outer order: the three products of a whole BK slice go into a zeroed
      // fragment, added once per k-tile (fewer adds than FLUSH = 1)
      constexpr int KQ = BK / 8;
      unsigned bb[NI][KQ][2], bsm[NI][KQ][2];
#pragma unroll
      for (int j = 0; j < NI; ++j) {
        int n = wn * WN + j * 8 + g;
#pragma unroll
        for (int q = 0; q < KQ; ++q)
#pragma unroll
          for (int r = 0; r < 2; ++r) {
            int k = q * 8 + t + r * 4;
            float v = TB ? bs[k * B_LD + n] : bs[n * B_LD + k];
            tf_split(v, bb[j][q][r], bsm[j][q][r]);
          }
      }
#pragma unroll
      for (int i = 0; i < MI; ++i) {
        unsigned ab[KQ][4], asm_[KQ][4];
        int mr = wm * WM + i * 16 + g;
#pragma unroll
        for (int q = 0; q < KQ; ++q)
#pragma unroll
          for (int r = 0; r < 4; ++r) {
            int m = mr + (r & 1) * 8, k = q * 8 + t + (r >> 1) * 4;
            float v = TA ? as[m * A_LD + k] : as[k * A_LD + m];
            tf_split(v, ab[q][r], asm_[q][r]);
          }
#pragma unroll
        for (int j = 0; j < NI; ++j) {
          float tmp[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
          for (int q = 0; q < KQ; ++q) {
            tf_mma(tmp, asm_[q], bb[j][q]);
            tf_mma(tmp, ab[q], bsm[j][q]);
            tf_mma(tmp, ab[q], bb[j][q]);
          }
#pragma unroll
          for (int r = 0; r < 4; ++r) acc[i][j][r] += tmp[r];
        }
      }
    } else {
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
      unsigned ab[MI][4], asm_[MI][4], bb[NI][2], bsm[NI][2];
#pragma unroll
      for (int i = 0; i < MI; ++i) {
        int mr = wm * WM + i * 16 + g;
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          int m = mr + (r & 1) * 8, k = kk + t + (r >> 1) * 4;
          float v = TA ? as[m * A_LD + k] : as[k * A_LD + m];
          tf_split(v, ab[i][r], asm_[i][r]);
        }
      }
#pragma unroll
      for (int j = 0; j < NI; ++j) {
        int n = wn * WN + j * 8 + g;
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          int k = kk + t + r * 4;
          float v = TB ? bs[k * B_LD + n] : bs[n * B_LD + k];
          tf_split(v, bb[j][r], bsm[j][r]);
        }
      }
#pragma unroll
      for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) {
          if (FLUSH) {
            float tmp[4] = {0.f, 0.f, 0.f, 0.f};
            tf_mma(tmp, asm_[i], bb[j]);
            tf_mma(tmp, ab[i], bsm[j]);
            tf_mma(tmp, ab[i], bb[j]);
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][j][r] += tmp[r];
          } else {
            tf_mma(acc[i][j], asm_[i], bb[j]);
            tf_mma(acc[i][j], ab[i], bsm[j]);
            tf_mma(acc[i][j], ab[i], bb[j]);
          }
        }
    }
    }
  };

  ld.prologue();
  int kt = 0;
  if (FAST)
    for (; kt + STAGES - 1 < KF; ++kt) step(kt, true);
  for (; kt < KT; ++kt) step(kt, false);
  gemm_cp_wait<0>();

  // the tile starts at the loader's origin, the block's results at m0, n0
  gemm_mma_epilogue<float, MI, NI, 4, 16, SPLITK>(C, ldc, acc, ld.m0 + wm * WM + g,
                                                 ld.n0 + wn * WN + 2 * t, M, N, m0, n0, alpha,
                                                 beta, counters, work, slice);
}

#ifndef GEMM_NO_ENTRY
extern "C" __global__ void __launch_bounds__(TF_NT, 1)
KERNEL_NAME(int M, int N, int K, float alpha, const float* __restrict__ A, int lda,
            const float* __restrict__ B, int ldb, float beta, float* __restrict__ C, int ldc,
            unsigned* __restrict__ counters, float* __restrict__ work) {
  gemm_3xtf32_impl<TRANS_A, TRANS_B>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, counters, work);
}
#endif
#endif  // !WGMMA
