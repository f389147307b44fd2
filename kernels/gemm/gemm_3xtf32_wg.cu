// FP32-accurate SGEMM on Hopper's warpgroup tensor-core MMA (wgmma, sm_90a)
// with the 3xTF32 split: x = big + small, big = x with its low 13 bits
// cleared, small = tf32(x - big); acc += a_small*b_big + a_big*b_small +
// a_big*b_big. C = alpha*op(A)*op(B) + beta*C, column-major, op by TRANS_A /
// TRANS_B.
//
// Every thread stages the next k tiles through registers: it loads them from
// global memory, splits each value and stores the big and small parts, K-major
// (the only layout wgmma accepts for tf32) with the 128-byte swizzle, so that
// every layout of A and B ends in the same shared-memory form (a transposing
// layout is transposed 4 x 4 in registers). The MMAs are asynchronous: a
// warpgroup issues a k tile's 12 wgmmas, then stores the tile STAGES - 1 ahead while
// they run. The tensor cores' FP32 accumulation truncates, so each FLUSH
// k tiles' products go into a separate accumulator that is then added to the
// result with FP32 adds (the error then stays below cuBLAS SGEMM's).
//
// The WGMMA = 1 half of the sgemm_3xtf32 template (gemm_3xtf32.cu is the
// other); compiled for sm_90a, the only target with wgmma.
#include "gemm_common.cuh"
#if defined(WGMMA) && WGMMA == 1

#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef BM             // 64 per warpgroup: 64, 128 or 192
#define BM 128
#endif
#ifndef BN             // the wgmma's N: 64 or 128
#define BN 128
#endif
#ifndef STAGES         // shared-memory k tiles (>= 3: a tile is stored STAGES - 1 tiles ahead)
#define STAGES 3
#endif
#ifndef GROUP
#define GROUP 8
#endif
#ifndef FLUSH          // k tiles (of 32) per FP32 flush of the tensor-core sums; 0 = none
#define FLUSH 4
#endif
#ifndef WS            // 1: warp-specialized: two producer warpgroups fill the stages, mbarriers
#define WS 0
#endif
#ifndef SPLITK
#define SPLITK 1
#endif
#ifndef KERNEL_NAME
#define KERNEL_NAME gemm_3xtf32
#endif

#define WG_BK 32
// BM / 64 warpgroups issue the MMAs; with WS two more fill the stages
#define WG_NT ((BM / 64 + (WS ? 2 : 0)) * 128)
// a stage: big and small tiles of A and B, 128 bytes (32 tf32) a row; the
// stages and 1 KiB to align the swizzled tiles
#define WG_STAGE_BYTES ((2 * BM + 2 * BN) * 128)
#define WG_SMEM_BYTES (STAGES * WG_STAGE_BYTES + 1024)

__device__ __forceinline__ unsigned long long wg_desc(unsigned addr) {
  // start >> 4, leading offset 1 (unused with the swizzle), stride 1024 B
  // between 8-row groups, 128-byte swizzle
  return (unsigned long long)((addr & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wg_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N_>
__device__ __forceinline__ void wg_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N_) : "memory");
}
__device__ __forceinline__ void wg_proxy_fence() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
template <int E_>
__device__ __forceinline__ void wg_hold(float (&d)[E_]) {
#pragma unroll
  for (int i = 0; i < E_; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

__device__ __forceinline__ void wg_mma_n64(float (&d)[32], unsigned long long da,
                                               unsigned long long db, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
      "}, %32, %33, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void wg_mma_n128(float (&d)[64], unsigned long long da,
                                               unsigned long long db, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(scale_d));
}
// mbarriers of the warp-specialized form (WS): a stage's "full" barrier
// completes when both producer warpgroups have stored their tiles in it, its
// "empty" barrier when every consumer warp's MMAs are done reading it
__device__ __forceinline__ void wg_mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void wg_mbar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void wg_mbar_wait(unsigned bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

template <int N_>
__device__ __forceinline__ void wg_mma(float (&d)[N_ / 2], unsigned long long da,
                                       unsigned long long db, int scale_d);
template <>
__device__ __forceinline__ void wg_mma<64>(float (&d)[32], unsigned long long da,
                                           unsigned long long db, int scale_d) {
  wg_mma_n64(d, da, db, scale_d);
}
template <>
__device__ __forceinline__ void wg_mma<128>(float (&d)[64], unsigned long long da,
                                            unsigned long long db, int scale_d) {
  wg_mma_n128(d, da, db, scale_d);
}

__device__ __forceinline__ void wg_split(float x, unsigned& big, unsigned& small) {
  big = __float_as_uint(x) & 0xffffe000u;
  float r = x - __uint_as_float(big);
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(small) : "f"(r));
}
__device__ __forceinline__ void wg_st4(unsigned addr, unsigned a, unsigned b, unsigned c, unsigned d) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(a), "r"(b), "r"(c), "r"(d)
               : "memory");
}
// A row of 4 values (k0..k0+3 of row r) split into the big and small tiles.
__device__ __forceinline__ void wg_put(unsigned big, unsigned small, int r, int chunk, float a, float b,
                                       float c, float d) {
  unsigned off = r * 128 + ((chunk ^ (r & 7)) << 4);
  unsigned ba, sa, bb, sb, bc, sc, bd, sd;
  wg_split(a, ba, sa);
  wg_split(b, bb, sb);
  wg_split(c, bc, sc);
  wg_split(d, bd, sd);
  wg_st4(big + off, ba, bb, bc, bd);
  wg_st4(small + off, sa, sb, sc, sd);
}

// One operand's k tile (R rows of 32 k) in registers on its way to shared
// memory. KC_: k is X's contiguous dimension (element (r, k) at X[k + r*ld]):
// 8 threads take a row's 32 k as 16-byte pieces (the 128-byte swizzle puts
// them in 8 distinct bank groups). Otherwise r is (at
// X[r + k*ld]) and a thread takes a 4 x 4 block: a warp's loads cover 4
// columns of 32 rows (128 contiguous bytes each), and each quarter warp (the
// 8 threads a 16-byte shared store serves at once) stores to 8 distinct
// 16-byte bank groups, so a store takes the minimum of 4 wavefronts.
template <int R_, bool KC_, int NT_, bool STEP_ = false>
struct wg_stager {
  static constexpr int UNITS = KC_ ? R_ * 8 : R_ * 2;
  static constexpr int PER = (UNITS + NT_ - 1) / NT_;
  static constexpr int LD4 = KC_ ? 1 : 4;
  float4 v[PER][LD4];

  // unit u's 16-byte piece g (k 4g..4g+3) of row rr, or 4 x 4 block g of row block rr
  __device__ __forceinline__ static void wg_unit(int u, int& g, int& rr) {
    if (KC_) {
      g = u & 7;
      rr = u >> 3;
    } else {
      g = ((u >> 1) & 3) | (((u >> 5) & 1) << 2);
      rr = (u & 1) | (((u >> 3) & 3) << 1) | ((u >> 6) << 3);
    }
  }

  __device__ __forceinline__ void load(const float* __restrict__ X, long long ld, int r0, int k0,
                                       int RMAX, int KMAX, bool vec, int tid) {
    // STEP_ (KC_ only): a thread's rows are NT_ / 8 apart, and the pointer
    // steps from one to the next, the step hidden from the compiler so that
    // it does not keep every row's address across k tiles (where both
    // operands are K-contiguous, it spilled them)
    const float* row = nullptr;
    long long step = 0;
    if (KC_ && STEP_) {
      row = X + (long long)(r0 + (tid >> 3)) * ld + k0 + 4 * (tid & 7);
      step = (long long)(NT_ >> 3) * ld;
      asm volatile("" : "+l"(step));
    }
#pragma unroll
    for (int i = 0; i < PER; ++i) {
      int u = tid + i * NT_;
      if (UNITS % NT_ != 0 && u >= UNITS) continue;
      int g, rr;
      wg_unit(u, g, rr);
      if (KC_) {
        int gr = r0 + rr, gk = k0 + 4 * g;
        const float* p = STEP_ ? row : X + (long long)gr * ld + gk;
        row += step;
        bool rin = gr < RMAX;
        if (vec && rin && gk + 3 < KMAX) {
          v[i][0] = *reinterpret_cast<const float4*>(p);
        } else {
          v[i][0].x = rin && gk < KMAX ? p[0] : 0.f;
          v[i][0].y = rin && gk + 1 < KMAX ? p[1] : 0.f;
          v[i][0].z = rin && gk + 2 < KMAX ? p[2] : 0.f;
          v[i][0].w = rin && gk + 3 < KMAX ? p[3] : 0.f;
        }
      } else {
        int gr = r0 + 4 * rr;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          int gk = k0 + 4 * g + j;
          const float* p = X + (long long)gk * ld + gr;
          bool kin = gk < KMAX;
          if (vec && kin && gr + 3 < RMAX) {
            v[i][j] = *reinterpret_cast<const float4*>(p);
          } else {
            v[i][j].x = kin && gr < RMAX ? p[0] : 0.f;
            v[i][j].y = kin && gr + 1 < RMAX ? p[1] : 0.f;
            v[i][j].z = kin && gr + 2 < RMAX ? p[2] : 0.f;
            v[i][j].w = kin && gr + 3 < RMAX ? p[3] : 0.f;
          }
        }
      }
    }
  }
  __device__ __forceinline__ void store(unsigned big, unsigned small, int tid) const {
#pragma unroll
    for (int i = 0; i < PER; ++i) {
      int u = tid + i * NT_;
      if (UNITS % NT_ != 0 && u >= UNITS) continue;
      int g, rr;
      wg_unit(u, g, rr);
      if (KC_) {
        wg_put(big, small, rr, g, v[i][0].x, v[i][0].y, v[i][0].z, v[i][0].w);
      } else {
        wg_put(big, small, 4 * rr + 0, g, v[i][0].x, v[i][1].x, v[i][2].x, v[i][3].x);
        wg_put(big, small, 4 * rr + 1, g, v[i][0].y, v[i][1].y, v[i][2].y, v[i][3].y);
        wg_put(big, small, 4 * rr + 2, g, v[i][0].z, v[i][1].z, v[i][2].z, v[i][3].z);
        wg_put(big, small, 4 * rr + 3, g, v[i][0].w, v[i][1].w, v[i][2].w, v[i][3].w);
      }
    }
  }
};

// k tile kt's MMAs on warpgroup wg's 64 rows: the 12 wgmmas (three products
// of four k8 steps) of the stage at `s` (A's big tile, A's small tile
// A_TILE_ bytes on, then B's two), committed as one group; then the group of
// tile kt - 1 retired, or every group where the FLUSH k tiles end, whose sums
// then join acc; `done` is then the number of k tiles whose MMAs are done.
template <int E_, int A_TILE_, int B_TILE_>
__device__ __forceinline__ void wg_tile(float (&acc)[E_], float (&part)[E_], unsigned s, int wg, int kt,
                                        int KT, int& done) {
  float(&dst)[E_] = FLUSH > 0 ? part : acc;
  const unsigned a_big = s + wg * 64 * 128, a_small = a_big + A_TILE_;
  const unsigned b_big = s + 2 * A_TILE_, b_small = b_big + B_TILE_;
  const bool first = FLUSH > 0 && kt % (FLUSH > 0 ? FLUSH : 1) == 0;
  wg_fence();
  wg_hold(dst);
#pragma unroll
  for (int kk = 0; kk < WG_BK / 8; ++kk) {
    wg_mma<E_ * 2>(dst, wg_desc(a_small + kk * 32), wg_desc(b_big + kk * 32), !(first && kk == 0));
    wg_mma<E_ * 2>(dst, wg_desc(a_big + kk * 32), wg_desc(b_small + kk * 32), 1);
    wg_mma<E_ * 2>(dst, wg_desc(a_big + kk * 32), wg_desc(b_big + kk * 32), 1);
  }
  wg_commit();
  wg_hold(dst);
  const bool flush = FLUSH > 0 && ((kt + 1) % (FLUSH > 0 ? FLUSH : 1) == 0 || kt == KT - 1);
  done = kt;
  if (flush) {
    wg_wait<0>();
    wg_hold(dst);
#pragma unroll
    for (int i = 0; i < E_; ++i) acc[i] += part[i];
    done = kt + 1;
  } else {
    wg_wait<1>();
  }
}

template <int TA, int TB>
__device__ __forceinline__ void gemm_3xtf32_wg_impl(int M, int N, int K, float alpha,
                                                    const float* __restrict__ A, int lda,
                                                    const float* __restrict__ B, int ldb, float beta,
                                                    float* __restrict__ C, int ldc,
                                                    unsigned* __restrict__ counters,
                                                    float* __restrict__ work) {
  static_assert(BM % 64 == 0 && BM <= 192 && (BN == 64 || BN == 128), "tile shape");
  static_assert(STAGES >= 3, "a k tile is stored at least two tiles ahead of the MMAs");
  constexpr int NT = WG_NT;
  constexpr int A_TILE = BM * 128, B_TILE = BN * 128;
  constexpr int STAGE = WG_STAGE_BYTES;
  constexpr int E = BN / 2;

  extern __shared__ __attribute__((aligned(16))) unsigned char wg_smem_raw[];
  const unsigned base = (gemm_smem_addr(wg_smem_raw) + 1023u) & ~1023u;

  const int tid = threadIdx.x;
  const int gm = GEMM_CDIV(M, BM), gn = GEMM_CDIV(N, BN);
  int tmi, tni;
  gemm_tile_index<GROUP>(gm, gn, tmi, tni);
  const int m0 = tmi * BM, n0 = tni * BN;
  const int slice = SPLITK > 1 ? (int)blockIdx.y : 0;
  gemm_slice<WG_BK, SPLITK, TA, TB>(A, lda, B, ldb, K, slice);

  // op(A) rows are m (k contiguous when A is transposed), op(B)^T rows are n
  // (k contiguous unless B is transposed)
  wg_stager<BM, TA != 0, NT> sa;
  wg_stager<BN, TB == 0, NT> sb;
  const bool va = lda % 4 == 0 && (reinterpret_cast<unsigned long long>(A) & 15) == 0;
  const bool vb = ldb % 4 == 0 && (reinterpret_cast<unsigned long long>(B) & 15) == 0;
  auto load = [&](int kt) {
    const int k0 = kt * WG_BK;
    sa.load(A, lda, m0, k0, M, K, va, tid);
    sb.load(B, ldb, n0, k0, N, K, vb, tid);
  };
  auto store = [&](int kt) {
    const unsigned s = base + (kt % STAGES) * STAGE;
    sa.store(s, s + A_TILE, tid);
    sb.store(s + 2 * A_TILE, s + 2 * A_TILE + B_TILE, tid);
  };

  const int KT = GEMM_CDIV(K, WG_BK);
#pragma unroll 1
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < KT) {
      load(s);
      store(s);
    }
  }
  if (STAGES - 1 < KT) load(STAGES - 1);
  wg_proxy_fence();
  __syncthreads();

  const int wg = tid >> 7;
  float acc[E], part[E];
#pragma unroll
  for (int i = 0; i < E; ++i) acc[i] = part[i] = 0.f;

#pragma unroll 1
  for (int kt = 0; kt < KT; ++kt) {
    int done;
    wg_tile<E, A_TILE, B_TILE>(acc, part, base + (kt % STAGES) * STAGE, wg, kt, KT, done);
    // every warpgroup is done with tile kt - 1: its slot takes tile kt + STAGES - 1
    __syncthreads();
    if (kt + STAGES - 1 < KT) store(kt + STAGES - 1);
    if (kt + STAGES < KT) load(kt + STAGES);
    wg_proxy_fence();
  }
  wg_wait<0>();
  wg_hold(acc);

  const int w = (tid >> 5) & 3, lane = tid & 31;
  float(&frag)[1][BN / 8][4] = reinterpret_cast<float(&)[1][BN / 8][4]>(acc);
  gemm_mma_epilogue<float, 1, BN / 8, 4, 16, SPLITK>(C, ldc, frag, m0 + wg * 64 + w * 16 + (lane >> 2),
                                                      n0 + 2 * (lane & 3), M, N, m0, n0, alpha, beta,
                                                      counters, work, slice);
}

#if WS
// Registers per thread after the producers give theirs up (512 threads of 128
// at launch): a producer keeps two k tiles of its operand in flight (64 and
// their addresses), a consumer its two accumulators (BN each); the split
// that spills least in every layout
#define WS_PRODUCER_REGS (BN == 128 ? 104 : 120)
#define WS_CONSUMER_REGS (BN == 128 ? 152 : 136)

// A producer warpgroup's loop over operand X's k tiles (R_ rows of 32 k):
// each tile is loaded two tiles ahead, then split and stored in its stage
// (big tile at `tiles` + the stage's offset, small tile R_ * 128 bytes on)
// once the consumers have released the stage's previous tile.
template <int R_, bool KC_, bool STEP_>
__device__ __forceinline__ void wg_produce(const float* __restrict__ X, int ld, int r0, int RMAX, int K,
                                           bool vec, int ptid, unsigned tiles, int KT, unsigned full0,
                                           unsigned empty0) {
  wg_stager<R_, KC_, 128, STEP_> st0, st1;
  auto put = [&](int kt, const wg_stager<R_, KC_, 128, STEP_>& st) {
    const int stage = kt % STAGES;
    if (kt >= STAGES) wg_mbar_wait(empty0 + 8 * stage, ((kt / STAGES) & 1) ^ 1);
    const unsigned t = tiles + stage * WG_STAGE_BYTES;
    st.store(t, t + R_ * 128, ptid);
    wg_proxy_fence();
    wg_mbar_arrive(full0 + 8 * stage);
  };
  st0.load(X, ld, r0, 0, RMAX, K, vec, ptid);
  if (1 < KT) st1.load(X, ld, r0, WG_BK, RMAX, K, vec, ptid);
#pragma unroll 1
  for (int kt = 0; kt < KT; kt += 2) {
    put(kt, st0);
    if (kt + 2 < KT) st0.load(X, ld, r0, (kt + 2) * WG_BK, RMAX, K, vec, ptid);
    if (kt + 1 < KT) {
      put(kt + 1, st1);
      if (kt + 3 < KT) st1.load(X, ld, r0, (kt + 3) * WG_BK, RMAX, K, vec, ptid);
    }
  }
}

// The warp-specialized kernel: warpgroups 0 .. BM / 64 - 1 issue the MMAs of
// their 64 rows and never touch global memory until the epilogue; the last
// two load, split and store A's and B's tiles, STAGES - 1 k tiles ahead of
// the MMAs at most, each stage handed over through its mbarriers, so that
// neither side waits for the other's latency.
template <int TA, int TB>
__device__ __forceinline__ void gemm_3xtf32_ws_impl(int M, int N, int K, float alpha,
                                                    const float* __restrict__ A, int lda,
                                                    const float* __restrict__ B, int ldb, float beta,
                                                    float* __restrict__ C, int ldc, unsigned*, float*) {
  static_assert(BM == 128 && (BN == 64 || BN == 128), "tile shape of the warp-specialized form");
  static_assert(STAGES >= 2, "a stage is filled while another is read");
  static_assert(SPLITK == 1, "split-K's reduction needs every thread of the block");
  constexpr int CONSUMERS = BM / 64 * 128;
  constexpr int A_TILE = BM * 128, B_TILE = BN * 128;
  constexpr int STAGE = WG_STAGE_BYTES;
  constexpr int E = BN / 2;

  extern __shared__ __attribute__((aligned(16))) unsigned char wg_smem_raw[];
  __shared__ __attribute__((aligned(8))) unsigned long long wg_bars[2 * STAGES];
  const unsigned base = (gemm_smem_addr(wg_smem_raw) + 1023u) & ~1023u;
  const unsigned full0 = gemm_smem_addr(wg_bars), empty0 = full0 + 8 * STAGES;

  const int tid = threadIdx.x;
  const int gm = GEMM_CDIV(M, BM), gn = GEMM_CDIV(N, BN);
  int tmi, tni;
  gemm_tile_index<GROUP>(gm, gn, tmi, tni);
  const int m0 = tmi * BM, n0 = tni * BN;
  const int KT = GEMM_CDIV(K, WG_BK);
  if (tid == 0) {
    for (int s = 0; s < STAGES; ++s) {
      wg_mbar_init(full0 + 8 * s, 256);
      wg_mbar_init(empty0 + 8 * s, CONSUMERS / 32);
    }
  }
  __syncthreads();

  if (tid >= CONSUMERS) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(WS_PRODUCER_REGS));
    const int p = tid - CONSUMERS;
    if (p < 128) {
      const bool va = lda % 4 == 0 && (reinterpret_cast<unsigned long long>(A) & 15) == 0;
      wg_produce<BM, TA != 0, TA != 0 && TB == 0>(A, lda, m0, M, K, va, p, base, KT, full0, empty0);
    } else {
      const bool vb = ldb % 4 == 0 && (reinterpret_cast<unsigned long long>(B) & 15) == 0;
      wg_produce<BN, TB == 0, TA != 0 && TB == 0>(B, ldb, n0, N, K, vb, p - 128, base + 2 * A_TILE, KT, full0, empty0);
    }
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(WS_CONSUMER_REGS));

  const int wg = tid >> 7, w = (tid >> 5) & 3, lane = tid & 31;
  float acc[E], part[E];
#pragma unroll
  for (int i = 0; i < E; ++i) acc[i] = part[i] = 0.f;
  int released = 0;  // k tiles whose stage this warp has handed back
#pragma unroll 1
  for (int kt = 0; kt < KT; ++kt) {
    const int stage = kt % STAGES;
    wg_mbar_wait(full0 + 8 * stage, (kt / STAGES) & 1);
    int done;
    wg_tile<E, A_TILE, B_TILE>(acc, part, base + stage * STAGE, wg, kt, KT, done);
    for (; released < done; ++released)
      if (lane == 0) wg_mbar_arrive(empty0 + 8 * (released % STAGES));
  }
  wg_wait<0>();
  wg_hold(acc);

  float(&frag)[1][BN / 8][4] = reinterpret_cast<float(&)[1][BN / 8][4]>(acc);
  gemm_mma_epilogue<float, 1, BN / 8, 4, 16, 1>(C, ldc, frag, m0 + wg * 64 + w * 16 + (lane >> 2),
                                                 n0 + 2 * (lane & 3), M, N, m0, n0, alpha, beta, nullptr,
                                                 nullptr, 0);
}
#endif  // WS
#if WS
#define WG_IMPL gemm_3xtf32_ws_impl
#else
#define WG_IMPL gemm_3xtf32_wg_impl
#endif

#ifndef GEMM_NO_ENTRY
extern "C" __global__ void __launch_bounds__(WG_NT, 1)
KERNEL_NAME(int M, int N, int K, float alpha, const float* __restrict__ A, int lda,
            const float* __restrict__ B, int ldb, float beta, float* __restrict__ C, int ldc,
            unsigned* __restrict__ counters, float* __restrict__ work) {
  WG_IMPL<TRANS_A, TRANS_B>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, counters, work);
}
#endif
#endif  // WGMMA

// PACK = 1: the library first packs op(A) and op(B) K-contiguous where they
// are not (gemm_pack_tiles), and runs the TN kernel on the packed copies.
#if defined(PACK) && PACK && !defined(GEMM_NO_ENTRY)
extern "C" __global__ void __launch_bounds__(256)
gemm_pack(const float* __restrict__ src, int rows, int cols, int lds, float* __restrict__ dst, int ldd) {
  gemm_pack_tiles<float>(src, rows, cols, lds, dst, ldd);
}
#endif
