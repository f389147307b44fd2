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

// ---- epilogue helper ----------------------------------------------------
template <typename T>
__device__ __forceinline__ void gemm_store(T* C, long long ldc, int m, int n, int M, int N, T v,
                                           T alpha, T beta) {
  if (m < M && n < N) {
    T* p = C + (long long)n * ldc + m;
    if (beta == T(0)) *p = alpha * v;
    else *p = alpha * v + beta * *p;
  }
}

#endif
