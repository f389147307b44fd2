// Shared helpers for the GEMM kernel templates (gemm_fma.cu, gemm_dmma.cu,
// gemm_3xtf32.cu). No system headers: the files must compile under NVRTC
// without the CUDA include path. Only builtins and inline PTX are used.
#ifndef HONE_GEMM_COMMON_CUH
#define HONE_GEMM_COMMON_CUH

#define GEMM_CDIV(a, b) (((a) + (b) - 1) / (b))

// ---- shared-memory address and cp.async --------------------------------
__device__ __forceinline__ unsigned gemm_smem_addr(const void* p) {
  unsigned r;
  asm volatile("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }"
               : "=r"(r) : "l"(p));
  return r;
}
// 16-byte copy global -> shared, bypassing L1 (.cg).
__device__ __forceinline__ void gemm_cp16(void* s, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(gemm_smem_addr(s)), "l"(g));
}
// 4- or 8-byte copy with zero fill when !valid (src-size 0 reads nothing;
// g must still be a valid-looking address, the caller passes the base).
template <int BYTES>
__device__ __forceinline__ void gemm_cp_elem(void* s, const void* g, bool valid) {
  int n = valid ? BYTES : 0;
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(gemm_smem_addr(s)), "l"(g),
               "n"(BYTES), "r"(n));
}
__device__ __forceinline__ void gemm_cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void gemm_cp_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// ---- block rasterization ------------------------------------------------
// Maps the linear block index to (tile_m, tile_n). GROUP = 0: column-major
// order over tiles (tile_m fastest). GROUP = G > 0: tiles are visited in
// column panels of G tile-columns, tile_n fastest inside the panel, so that
// consecutive blocks share A and B panels in L2.
template <int G_>
__device__ __forceinline__ void gemm_tile_index(int gm, int gn, int& tm, int& tn) {
  int bid = blockIdx.x;
  if (G_ <= 0) {
    tm = bid % gm;
    tn = bid / gm;
  } else {
    int per = G_ * gm;          // blocks in one panel of G_ tile-columns
    int panel = bid / per;
    int first_n = panel * G_;
    int width = gn - first_n < G_ ? gn - first_n : G_;
    int r = bid - panel * per;
    tn = first_n + r % width;
    tm = r / width;
  }
}

// ---- async tile loader --------------------------------------------------
// Copies a tile of a column-major-like global matrix into shared memory:
// smem[s * SLD + c] = g[(c0 + c) + (s0 + s) * ld] for c < TC (contiguous
// dimension), s < TS (strided dimension), zero where c0+c >= CMAX or
// s0+s >= SMAX. VEC = elements per 16-byte cp.async (fast path, needs ld %
// VEC == 0 and a 16-byte aligned base), or 1 (element copies, any ld).
template <typename T, int TC_, int TS_, int SLD_, int V_, int NT_>
__device__ __forceinline__ void gemm_async_tile(T* smem, const T* g, long long ld, int c0, int s0,
                                                int CMAX, int SMAX, int tid) {
  constexpr int CHUNKS_C = TC_ / V_;
  constexpr int CHUNKS = CHUNKS_C * TS_;
  static_assert(TC_ % V_ == 0, "tile contiguous size must be a multiple of V_");
#pragma unroll
  for (int i = 0; i < (CHUNKS + NT_ - 1) / NT_; ++i) {
    int ch = tid + i * NT_;
    if (CHUNKS % NT_ == 0 || ch < CHUNKS) {
      int c = (ch % CHUNKS_C) * V_;
      int s = ch / CHUNKS_C;
      int gc = c0 + c, gs = s0 + s;
      T* dst = smem + s * SLD_ + c;
      const T* src = g + (long long)gs * ld + gc;
      bool srow = gs < SMAX;
      if (V_ > 1 && srow && gc + V_ <= CMAX) {
        gemm_cp16(dst, src);
      } else {
#pragma unroll
        for (int v = 0; v < V_; ++v) {
          bool ok = srow && (gc + v < CMAX);
          gemm_cp_elem<sizeof(T)>(dst + v, ok ? (const void*)(src + v) : (const void*)g, ok);
        }
      }
    }
  }
}

// Copies a tile that lies wholly inside the matrix, 16 bytes per cp.async and
// no bounds checks: the per-thread source pointer and shared offset are set
// once per block, and each k step only moves the source (`advance`). The
// generic loader above recomputes and checks every chunk's address on every
// step, which costs a DGEMM more issue slots than its tensor instructions.
// Chunk ch = tid + i * NT_ of the TC_ x TS_ tile, as in gemm_async_tile.
template <typename T, int TC_, int TS_, int SLD_, int NT_>
struct gemm_fast_tile {
  static constexpr int V = 16 / sizeof(T);
  static constexpr int CC = TC_ / V;  // 16-byte chunks along the contiguous dimension
  // every thread copies the same number of whole chunks in a fixed pattern;
  // a kernel whose tile does not divide so keeps the generic loader
  static constexpr bool OK =
      TC_ % V == 0 && CC > 0 && (CC * TS_) % NT_ == 0 && (NT_ % CC == 0 || CC % NT_ == 0);
  static constexpr int PER = OK ? CC * TS_ / NT_ : 0;
  // rows advanced, and columns, from chunk i to chunk i + 1 of one thread
  static constexpr int ROWS = NT_ % CC == 0 ? NT_ / CC : 0;
  const char* src;
  unsigned dst;  // byte offset of the thread's first chunk inside a stage
  long long row_step;  // bytes between the thread's consecutive chunks (ROWS > 0)

  __device__ __forceinline__ void init(const T* g, long long ld, int c0, int s0, int tid) {
    int c = (tid % CC) * V, s = tid / CC;
    src = reinterpret_cast<const char*>(g + (long long)(s0 + s) * ld + c0 + c);
    dst = (unsigned)((s * SLD_ + c) * sizeof(T));
    row_step = (long long)ROWS * ld * (long long)sizeof(T);
  }
  __device__ __forceinline__ void copy(unsigned stage, long long ld) const {
    const char* p = src;
#pragma unroll
    for (int i = 0; i < PER; ++i) {
      if (ROWS > 0) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                         stage + dst + (unsigned)(i * ROWS * SLD_ * (int)sizeof(T))),
                     "l"(p));
        p += row_step;
      } else {
        // CC = r * NT_: chunk i is in row i / r, r chunks of NT_ per row
        constexpr int R = CC / NT_ > 0 ? CC / NT_ : 1;
        int row = i / R, col = (i % R) * NT_ * V;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                         stage + dst + (unsigned)((row * SLD_ + col) * (int)sizeof(T))),
                     "l"(src + ((long long)row * ld + col) * (long long)sizeof(T)));
      }
    }
  }
  __device__ __forceinline__ void advance(long long bytes) { src += bytes; }
};

// The fast copiers of a block's A and B tiles, for op(A) = TA_ ? A^T : A and
// op(B) likewise, with the shared layout of the DMMA and 3xTF32 kernels
// (STAGES_ slots of A, A_ST_ elements each, then the slots of B). OK: both
// tiles divide into whole 16-byte chunks per thread.
template <typename T, int TA_, int TB_, int BM_, int BN_, int BK_, int A_LD_, int B_LD_,
          int A_ST_, int B_ST_, int STAGES_, int NT_>
struct gemm_fast_ab {
  gemm_fast_tile<T, TA_ ? BK_ : BM_, TA_ ? BM_ : BK_, A_LD_, NT_> a;
  gemm_fast_tile<T, TB_ ? BN_ : BK_, TB_ ? BK_ : BN_, B_LD_, NT_> b;
  static constexpr bool OK = decltype(a)::OK && decltype(b)::OK;

  __device__ __forceinline__ void init(const T* A, long long lda, const T* B, long long ldb,
                                       int m0, int n0, int tid) {
    if (TA_) a.init(A, lda, 0, m0, tid);
    else a.init(A, lda, m0, 0, tid);
    if (TB_) b.init(B, ldb, n0, 0, tid);
    else b.init(B, ldb, 0, n0, tid);
  }
  // Copies the next k tile into slot st of the shared tiles at `smem`; k
  // tiles are copied in order, so the copiers only move forward.
  __device__ __forceinline__ void copy_next(unsigned smem, int st, long long lda, long long ldb) {
    constexpr long long E = sizeof(T);
    a.copy(smem + st * A_ST_ * E, lda);
    b.copy(smem + (STAGES_ * A_ST_ + st * B_ST_) * E, ldb);
    a.advance(TA_ ? BK_ * E : (long long)BK_ * lda * E);
    b.advance(TB_ ? (long long)BK_ * ldb * E : BK_ * E);
  }
};

// The origin, along one dimension of extent E, of a block's B_-wide tile:
// a block on C's edge moves its tile back so that it lies inside the matrix
// and keeps the fast copies for the whole K. The rows it then shares with
// the block before it are computed twice and stored by that block only
// (the epilogue stores from the block's own origin o). Unchanged where the
// matrix is narrower than the tile, or where the dimension is contiguous in
// memory (aligned) and no 16-byte aligned origin keeps the tile inside.
template <int B_, int V_>
__device__ __forceinline__ int gemm_inside_origin(int o, int E, bool aligned) {
  if (o + B_ <= E || E < B_) return o;
  int s = E - B_;
  return aligned && s % V_ != 0 ? o : s;
}

// The k-tile copies of the DMMA and 3xTF32 kernels: tile kt of A and B into
// slot st of the shared tiles, with the fast copiers for blocks inside C while
// whole k tiles remain (FASTLOAD_, 16-byte copies only), the checked loader
// otherwise. With the fast copiers, m0 and n0 are the tile's origin moved
// inside C (gemm_inside_origin); the block's results start at the origin
// given to the constructor.
template <typename T, int TA_, int TB_, int BM_, int BN_, int BK_, int A_LD_, int B_LD_,
          int A_ST_, int B_ST_, int STAGES_, int VEC_, int NT_, int FASTLOAD_>
struct gemm_ab_loader {
  gemm_fast_ab<T, TA_, TB_, BM_, BN_, BK_, A_LD_, B_LD_, A_ST_, B_ST_, STAGES_, NT_> fast;
  static constexpr bool FAST = FASTLOAD_ && VEC_ * sizeof(T) == 16 && decltype(fast)::OK;
  T* As;
  T* Bs;
  const T* A;
  const T* B;
  int lda, ldb, M, N, K, m0, n0, tid;
  int KT;  // k tiles
  int KF;  // k tiles the fast copiers take (0 for a block on C's edge)
  unsigned smem;

  __device__ __forceinline__ gemm_ab_loader(T* As_, T* Bs_, const T* A_, int lda_, const T* B_,
                                            int ldb_, int M_, int N_, int K_, int m0_, int n0_,
                                            int tid_)
      : As(As_), Bs(Bs_), A(A_), B(B_), lda(lda_), ldb(ldb_), M(M_), N(N_), K(K_), m0(m0_),
        n0(n0_), tid(tid_), KT(GEMM_CDIV(K_, BK_)), KF(0), smem(gemm_smem_addr(As_)) {
    if (FAST) {
      // op(A)'s m runs along A's columns unless A is transposed, op(B)'s n
      // along B's columns when B is
      constexpr int V = 16 / sizeof(T);
      m0 = gemm_inside_origin<BM_, V>(m0, M, !TA_);
      n0 = gemm_inside_origin<BN_, V>(n0, N, TB_);
      if (m0 + BM_ <= M && n0 + BN_ <= N) KF = K / BK_;
      fast.init(A, lda, B, ldb, m0, n0, tid);
    }
  }
  // k tiles are copied in order, so the fast copiers only move forward.
  __device__ __forceinline__ void load_fast(int st) { fast.copy_next(smem, st, lda, ldb); }
  __device__ __forceinline__ void load(int st, int kt) {
    if (FAST && kt < KF) {
      load_fast(st);
      return;
    }
    const int k0 = kt * BK_;
    if (TA_) gemm_async_tile<T, BK_, BM_, A_LD_, VEC_, NT_>(As + st * A_ST_, A, lda, k0, m0, K, M, tid);
    else gemm_async_tile<T, BM_, BK_, A_LD_, VEC_, NT_>(As + st * A_ST_, A, lda, m0, k0, M, K, tid);
    if (TB_) gemm_async_tile<T, BN_, BK_, B_LD_, VEC_, NT_>(Bs + st * B_ST_, B, ldb, n0, k0, N, K, tid);
    else gemm_async_tile<T, BK_, BN_, B_LD_, VEC_, NT_>(Bs + st * B_ST_, B, ldb, k0, n0, K, N, tid);
  }
  // The first STAGES_ - 1 tiles, each its own commit group.
  __device__ __forceinline__ void prologue() {
#pragma unroll
    for (int s = 0; s < STAGES_ - 1; ++s) {
      if (s < KT) load(s, s);
      gemm_cp_commit();
    }
  }
  // The copy of tile kt + STAGES_ - 1, as one commit group; all_fast (a
  // constant at every call): known to be a fast one (no branch, no checked
  // loader in the loop body).
  __device__ __forceinline__ void issue(int kt, bool all_fast) {
    int nk = kt + STAGES_ - 1;
    if (all_fast) load_fast(nk % STAGES_);
    else if (nk < KT) load(nk % STAGES_, nk);
    gemm_cp_commit();
  }
};

// ---- split-K ------------------------------------------------------------
// With S_ > 1 slices, the blocks of grid row s = blockIdx.y compute a tile's
// product over k tiles [s * per, (s + 1) * per) only. Each writes its
// partial tile to the workspace and counts itself in the tile's counter; the
// last to arrive adds the S_ partials in slice order (its own from
// registers) and stores C. No block waits for another, and the sum's order
// does not depend on which arrives last, so the result is the same on every
// run.
// Narrows op(A), op(B) and K to slice s (a run of whole k tiles, empty
// past the last one).
template <int BK_, int S_, int TA_, int TB_, typename P>
__device__ __forceinline__ void gemm_slice(P& A, int lda, P& B, int ldb, int& K, int s) {
  if (S_ == 1) return;
  int per = GEMM_CDIV(GEMM_CDIV(K, BK_), S_) * BK_;
  int k0 = min(K, s * per), k1 = min(K, k0 + per);
  A += TA_ ? k0 : (long long)k0 * lda;
  B += TB_ ? (long long)k0 * ldb : k0;
  K = k1 - k0;
}
// A load that skips L1: another SM wrote the value.
__device__ __forceinline__ double gemm_ld_l2(const double* p) {
  double v;
  asm volatile("ld.global.cg.f64 %0, [%1];\n" : "=d"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ float gemm_ld_l2(const float* p) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];\n" : "=f"(v) : "l"(p) : "memory");
  return v;
}
// Split-K: stores the block's E_ accumulators in the workspace (slice-major
// per tile, element-major per slice, so that a warp's stores and loads are
// coalesced), then whether this block arrived last for its tile; if so, acc
// becomes the sum of every slice's part, added in slice order. The tile's
// counter is back to zero after the last block.
template <typename T, int E_, int S_>
__device__ __forceinline__ bool gemm_split_reduce(T (&acc)[E_], T* work, unsigned* counters,
                                                  int slice) {
  __shared__ unsigned gemm_split_last;
  const int nt = blockDim.x, tid = threadIdx.x;
  T* tile = work + (long long)blockIdx.x * S_ * E_ * nt;
#pragma unroll
  for (int e = 0; e < E_; ++e) tile[((long long)slice * E_ + e) * nt + tid] = acc[e];
  __threadfence();
  __syncthreads();
  if (tid == 0) {
    unsigned before = atomicAdd(counters + blockIdx.x, 1u);
    gemm_split_last = before == S_ - 1;
    if (before == S_ - 1) counters[blockIdx.x] = 0;
  }
  __syncthreads();
  if (!gemm_split_last) return false;
  __threadfence();
  T sum[E_];
#pragma unroll
  for (int e = 0; e < E_; ++e) sum[e] = T(0);
  for (int s = 0; s < S_; ++s) {
#pragma unroll
    for (int e = 0; e < E_; ++e)
      sum[e] += s == slice ? acc[e] : gemm_ld_l2(tile + ((long long)s * E_ + e) * nt + tid);
  }
#pragma unroll
  for (int e = 0; e < E_; ++e) acc[e] = sum[e];
  return true;
}

// ---- epilogue helpers ---------------------------------------------------
// Stores C(m, n) for m in [m_lo, M), n in [n_lo, N).
template <typename T>
__device__ __forceinline__ void gemm_store(T* C, long long ldc, int m, int n, int M, int N, T v,
                                           T alpha, T beta, int m_lo = 0, int n_lo = 0) {
  if (m < M && n < N && m >= m_lo && n >= n_lo) {
    T* p = C + (long long)n * ldc + m;
    if (beta == T(0)) *p = alpha * v;
    else *p = alpha * v + beta * *p;
  }
}

// C(m[e], n[e]) = alpha v[e] + beta C(m[e], n[e]) for E_ elements of a
// thread, inside [m_lo, M) x [n_lo, N), with beta != 0: every load of C is
// issued before the first store. Element by element (gemm_store), a store
// may alias the next element's load for all the compiler knows (ldc is a
// run-time value), so each element waits one full memory latency.
template <typename T, int E_>
__device__ __forceinline__ void gemm_update(T* C, long long ldc, const int (&m)[E_], const int (&n)[E_],
                                            int M, int N, const T (&v)[E_], T alpha, T beta,
                                            int m_lo = 0, int n_lo = 0) {
  T old[E_];
  bool in[E_];
#pragma unroll
  for (int e = 0; e < E_; ++e) {
    in[e] = m[e] < M && n[e] < N && m[e] >= m_lo && n[e] >= n_lo;
    old[e] = in[e] ? C[(long long)n[e] * ldc + m[e]] : T(0);
  }
#pragma unroll
  for (int e = 0; e < E_; ++e)
    if (in[e]) C[(long long)n[e] * ldc + m[e]] = alpha * v[e] + beta * old[e];
}

// The epilogue of the mma.sync kernels: accumulator tile acc[MI_][NI_][CR_]
// in the m16n8 (or m8n8) C fragment layout of a warp whose first fragment
// row is mb and column nb (both with the lane's offsets: g and 2t), each
// fragment MM_ rows apart in m and 8 columns in n. Stores C(m, n) for m in
// [m0, M), n in [n0, N); with split-K only the last of a tile's slices does,
// with the sum of all (gemm_split_reduce).
template <typename T, int MI_, int NI_, int CR_, int MM_, int S_>
__device__ __forceinline__ void gemm_mma_epilogue(T* C, long long ldc, T (&acc)[MI_][NI_][CR_],
                                                  int mb, int nb, int M, int N, int m0, int n0,
                                                  T alpha, T beta, unsigned* counters, T* work,
                                                  int slice) {
  if (S_ > 1) {
    T(&flat)[MI_ * NI_ * CR_] = reinterpret_cast<T(&)[MI_ * NI_ * CR_]>(acc);
    if (!gemm_split_reduce<T, MI_ * NI_ * CR_, S_>(flat, work, counters, slice)) return;
  }
  if (beta == T(0)) {
#pragma unroll
    for (int i = 0; i < MI_; ++i)
#pragma unroll
      for (int j = 0; j < NI_; ++j)
#pragma unroll
        for (int r = 0; r < CR_; ++r)
          gemm_store<T>(C, ldc, mb + i * MM_ + (r >> 1) * 8, nb + j * 8 + (r & 1), M, N,
                        acc[i][j][r], alpha, beta, m0, n0);
    return;
  }
  // beta != 0: JC_ fragments' worth of C is loaded before any of it is
  // stored (gemm_update).
  constexpr int JC_ = NI_ % 4 == 0 ? 4 : NI_ % 2 == 0 ? 2 : 1;
#pragma unroll
  for (int i = 0; i < MI_; ++i)
#pragma unroll
    for (int j0 = 0; j0 < NI_; j0 += JC_) {
      int ms[JC_ * CR_], ns[JC_ * CR_];
      T v[JC_ * CR_];
#pragma unroll
      for (int e = 0; e < JC_ * CR_; ++e) {
        const int j = j0 + e / CR_, r = e % CR_;
        ms[e] = mb + i * MM_ + (r >> 1) * 8;
        ns[e] = nb + j * 8 + (r & 1);
        v[e] = acc[i][j][r];
      }
      gemm_update<T, JC_ * CR_>(C, ldc, ms, ns, M, N, v, alpha, beta, m0, n0);
    }
}


// Packing an operand K-contiguous before a kernel that reads it that way
// (the PACK parameter): dst = src^T, src rows x cols (column-major, leading
// dimension lds), dst cols x rows (leading dimension ldd). The tensor-core
// kernels read K-contiguous operands straight into their shared-memory
// layout, and an operand of the other orientation costs them transposes in
// registers on every k tile of every block; one pass over the operand
// beforehand costs a read and a write of it once. 32 x 32 tiles through
// shared memory (a padded column against bank conflicts), blocks of 32 x 8
// threads, grid-striding over column tiles past the grid's y limit.
template <typename T>
__device__ __forceinline__ void gemm_pack_tiles(const T* __restrict__ src, int rows, int cols,
                                                long long lds, T* __restrict__ dst, long long ldd) {
  __shared__ T tile[32][33];
  const int r0 = blockIdx.x * 32;
  for (int c0 = blockIdx.y * 32; c0 < cols; c0 += gridDim.y * 32) {
#pragma unroll
    for (int j = threadIdx.y; j < 32; j += 8) {
      const int r = r0 + threadIdx.x, c = c0 + j;
      if (r < rows && c < cols) tile[j][threadIdx.x] = src[(long long)c * lds + r];
    }
    __syncthreads();
#pragma unroll
    for (int j = threadIdx.y; j < 32; j += 8) {
      const int c = c0 + threadIdx.x, r = r0 + j;
      if (r < rows && c < cols) dst[(long long)r * ldd + c] = tile[threadIdx.x][j];
    }
    __syncthreads();
  }
}

#endif
