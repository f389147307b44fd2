// 3-D stencil kernels for single precision: diffusion (7-point) and the
// Himeno benchmark's Jacobi sweep (19-point), each as templates over their
// tuning parameters. Layout: x fastest, cell (x, y, z) at x + y*nx + z*nx*ny.
// Pure device code (no host headers), so NVRTC compiles it as it is.
#pragma once

// A kernel's dynamic shared memory (the CPU emulation defines its own).
#ifndef HONE_DYNAMIC_SHARED
#define HONE_DYNAMIC_SHARED(T, name) extern __shared__ __align__(16) T name[]
#endif

// ---------------------------------------------------------------- diffusion
// Semantics of examples/synth/diffusion.cu: out = cc*c + cw*w + ce*e + cs*s +
// cn*n + cb*b + ct*t, summed in that order (so that FMA contraction matches the
// naive kernel), a neighbour outside the grid replaced by the centre.
struct DiffCoef {
  float ce, cw, cn, cs, ct, cb, cc;
};

__device__ __forceinline__ float diff_point(const DiffCoef& k, float c, float w, float e, float s,
                                            float n, float b, float t) {
  return k.cc * c + k.cw * w + k.ce * e + k.cs * s + k.cn * n + k.cb * b + k.ct * t;
}

// The naive kernel's cell c = (i, j, z), its neighbours' indices chosen as
// the example chooses them.
__device__ __forceinline__ float diff_cell(const DiffCoef& k, const float* __restrict__ in, int c, int i, int j,
                                           int z, int nx, int ny, int nz) {
  const int xy = nx * ny;
  const int w = (i == 0) ? c : c - 1;
  const int e = (i == nx - 1) ? c : c + 1;
  const int n = (j == 0) ? c : c - nx;
  const int s = (j == ny - 1) ? c : c + nx;
  const int b = (z == 0) ? c : c - xy;
  const int t = (z == nz - 1) ? c : c + xy;
  return diff_point(k, in[c], in[w], in[e], in[s], in[n], in[b], in[t]);
}

// The naive kernel, exactly as in the example (one thread per (i, j) column).
__global__ void diff_naive(float* in, float* out, int nx, int ny, int nz, float ce, float cw, float cn,
                           float cs, float ct, float cb, float cc) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  int c = i + j * nx;
  int xy = nx * ny;
  for (int k = 0; k < nz; ++k) {
    int w = (i == 0) ? c : c - 1;
    int e = (i == nx - 1) ? c : c + 1;
    int n = (j == 0) ? c : c - nx;
    int s = (j == ny - 1) ? c : c + nx;
    int b = (k == 0) ? c : c - xy;
    int t = (k == nz - 1) ? c : c + xy;
    out[c] = cc * in[c] + cw * in[w] + ce * in[e] + cs * in[s] + cn * in[n] + cb * in[b] + ct * in[t];
    c += xy;
  }
}

// 2.5-D register streaming: a thread owns RY consecutive rows of one x
// column and walks ZCH planes of z (grid.z = nz / ZCH chunks, so that enough
// blocks exist). A register window per row holds planes z-1 .. z+PF: the
// centre's z neighbours, plus PF planes of prefetch so that several loads per
// thread are in flight (one load per thread cannot cover the DRAM latency).
// Plane indices are clamped into [0, min(z1, nz-1)]: at the grid's faces the
// clamp is the "neighbour replaced by the centre" rule, beyond the chunk it
// only repeats a plane whose value is never used. The y neighbours of inner
// rows come from the next row's registers; the x neighbours and the outer y
// neighbours through the read-only cache (L1 hits: the block loaded them).
template <int BX, int BY, int ZCH, int RY, int PF>
__global__ void __launch_bounds__(BX* BY) diff_zreg(const float* __restrict__ in, float* __restrict__ out,
                                                    int nx, int ny, int nz, DiffCoef k) {
  const int i = blockIdx.x * BX + threadIdx.x;
  const int j0 = (blockIdx.y * BY + threadIdx.y) * RY;
  const int z0 = blockIdx.z * ZCH;
  const int z1 = min(nz, z0 + ZCH);
  if (i >= nx || j0 >= ny) return;
  const int zlast = min(z1, nz - 1);
  const size_t xy = (size_t)nx * ny;
  float win[RY][PF + 2];
  size_t base[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    base[r] = (size_t)i + (size_t)min(j0 + r, ny - 1) * nx;
#pragma unroll
    for (int d = 0; d < PF + 2; ++d) win[r][d] = __ldg(in + (size_t)min(max(z0 - 1 + d, 0), zlast) * xy + base[r]);
  }
  for (int z = z0; z < z1; ++z) {
    float nxt[RY];
    const size_t zn = (size_t)min(z + PF + 1, zlast) * xy;
#pragma unroll
    for (int r = 0; r < RY; ++r) nxt[r] = __ldg(in + zn + base[r]);
    const float* pl = in + (size_t)z * xy;
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      const int j = j0 + r;
      const float* c = pl + base[r];
      const float cur = win[r][1];
      const float w = i == 0 ? cur : __ldg(c - 1);
      const float e = i == nx - 1 ? cur : __ldg(c + 1);
      const float n = j == 0 ? cur : (r > 0 ? win[r - 1][1] : __ldg(c - nx));
      const float s = j >= ny - 1 ? cur : (r < RY - 1 ? win[r + 1][1] : __ldg(c + nx));
      if (j < ny) out[(size_t)z * xy + base[r]] = diff_point(k, cur, w, e, s, n, win[r][0], win[r][2]);
    }
#pragma unroll
    for (int r = 0; r < RY; ++r) {
#pragma unroll
      for (int d = 0; d < PF + 1; ++d) win[r][d] = win[r][d + 1];
      win[r][PF + 1] = nxt[r];
    }
  }
}

// Register streaming with 16-byte accesses: a thread owns 4 consecutive x
// cells (nx % 4 == 0 required, checked by the host), loads/stores float4;
// its outer x neighbours are the next lanes' values, taken by shuffles where
// the lane exists and loaded otherwise.
template <int BX, int BY, int ZCH, int PF>
__global__ void __launch_bounds__(BX* BY) diff_zvec(const float* __restrict__ in, float* __restrict__ out,
                                                    int nx, int ny, int nz, DiffCoef k) {
  const int i4 = blockIdx.x * BX + threadIdx.x;  // float4 index along x
  const int j = blockIdx.y * BY + threadIdx.y;
  const int z0 = blockIdx.z * ZCH;
  const int z1 = min(nz, z0 + ZCH);
  const int zlast = min(z1, nz - 1);
  const int nx4 = nx >> 2;
  const bool live = i4 < nx4 && j < ny;
  const int ic = min(i4, nx4 - 1), jc = min(j, ny - 1);
  const size_t xy4 = (size_t)nx4 * ny;
  const float4* __restrict__ in4 = reinterpret_cast<const float4*>(in);
  float4* __restrict__ out4 = reinterpret_cast<float4*>(out);
  const size_t base = (size_t)ic + (size_t)jc * nx4;
  const int lane = threadIdx.x & 31;  // BX is a multiple of 32: a warp is one row segment
  float4 win[PF + 2];  // planes z-1 .. z+PF, clamped as in diff_zreg
#pragma unroll
  for (int d = 0; d < PF + 2; ++d) win[d] = __ldg(in4 + (size_t)min(max(z0 - 1 + d, 0), zlast) * xy4 + base);
  for (int z = z0; z < z1; ++z) {
    const float4 nxt = __ldg(in4 + (size_t)min(z + PF + 1, zlast) * xy4 + base);
    const float4* pl = in4 + (size_t)z * xy4 + base;
    const float4 cur = win[1], below = win[0], above = win[2];
    const float4 n = jc == 0 ? cur : __ldg(pl - nx4);
    const float4 s = jc == ny - 1 ? cur : __ldg(pl + nx4);
    float wl = __shfl_up_sync(0xffffffffu, cur.w, 1);
    float er = __shfl_down_sync(0xffffffffu, cur.x, 1);
    if (lane == 0) wl = ic == 0 ? cur.x : __ldg(reinterpret_cast<const float*>(pl) - 1);
    if (lane == 31 || ic == nx4 - 1) er = ic == nx4 - 1 ? cur.w : __ldg(reinterpret_cast<const float*>(pl) + 4);
    float4 o;
    o.x = diff_point(k, cur.x, wl, cur.y, s.x, n.x, below.x, above.x);
    o.y = diff_point(k, cur.y, cur.x, cur.z, s.y, n.y, below.y, above.y);
    o.z = diff_point(k, cur.z, cur.y, cur.w, s.z, n.z, below.z, above.z);
    o.w = diff_point(k, cur.w, cur.z, er, s.w, n.w, below.w, above.w);
    if (live) out4[(size_t)z * xy4 + base] = o;
#pragma unroll
    for (int d = 0; d < PF + 1; ++d) win[d] = win[d + 1];
    win[PF + 1] = nxt;
  }
}

// The naive kernel's body for 4 consecutive x cells per thread, unrolled,
// z-chunked, with the alignment the host guarantees stated to the compiler
// (16-byte buffers, nx % 4 == 0): what a source-to-source x-coarsening of
// the naive kernel can write without restructuring it. NVRTC turns the four
// centre loads and the four stores into one 16-byte access each (the SASS
// shows LDG.E.128 and STG.E.128); the neighbour rows, whose addresses are
// selects, stay scalar. Measures how far that gets towards diff_zvec.
template <int BX, int BY, int ZCH>
__global__ void __launch_bounds__(BX* BY) diff_xco(const float* __restrict__ in0, float* __restrict__ out0,
                                                   int nx, int ny, int nz, DiffCoef k) {
  const float* __restrict__ in = static_cast<const float*>(__builtin_assume_aligned(in0, 16));
  float* __restrict__ out = static_cast<float*>(__builtin_assume_aligned(out0, 16));
  __builtin_assume(nx % 4 == 0);
  const int i0 = (blockIdx.x * BX + threadIdx.x) * 4;
  const int j = blockIdx.y * BY + threadIdx.y;
  if (i0 >= nx || j >= ny) return;
  const int z0 = blockIdx.z * ZCH;
  const int z1 = min(nz, z0 + ZCH);
  const int xy = nx * ny;
  int c0 = i0 + j * nx + z0 * xy;
  for (int z = z0; z < z1; ++z) {
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const int i = i0 + v, c = c0 + v;
      out[c] = diff_cell(k, in, c, i, j, z, nx, ny, nz);
    }
    c0 += xy;
  }
}

// 2.5-D with shared memory: the current plane with a one-cell halo in shared
// memory (x and y neighbours), the z neighbours in registers.
template <int BX, int BY, int ZCH, int PF>
__global__ void __launch_bounds__(BX* BY) diff_smem(const float* __restrict__ in, float* __restrict__ out,
                                                    int nx, int ny, int nz, DiffCoef k) {
  __shared__ float t[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * BX + tx, j = blockIdx.y * BY + ty;
  const int ic = min(i, nx - 1), jc = min(j, ny - 1);
  const int z0 = blockIdx.z * ZCH;
  const int z1 = min(nz, z0 + ZCH);
  const size_t xy = (size_t)nx * ny;
  const size_t base = (size_t)ic + (size_t)jc * nx;
  // halo cells: indices clamped into the grid (their value is unused at the
  // grid's edge, where the centre replaces the neighbour)
  const size_t hx = tx == 0 ? (size_t)max(ic - 1, 0) + (size_t)jc * nx
                            : (size_t)min(ic + 1, nx - 1) + (size_t)jc * nx;
  const size_t hy = ty == 0 ? (size_t)ic + (size_t)max(jc - 1, 0) * nx
                            : (size_t)ic + (size_t)min(jc + 1, ny - 1) * nx;
  const int zlast = min(z1, nz - 1);
  float win[PF + 2];  // planes z-1 .. z+PF, clamped as in diff_zreg
#pragma unroll
  for (int d = 0; d < PF + 2; ++d) win[d] = __ldg(in + (size_t)min(max(z0 - 1 + d, 0), zlast) * xy + base);
  for (int z = z0; z < z1; ++z) {
    const float nxt = __ldg(in + (size_t)min(z + PF + 1, zlast) * xy + base);
    const float* pl = in + (size_t)z * xy;
    const float below = win[0], cur = win[1], above = win[2];
    __syncthreads();  // the previous plane is no longer read
    t[ty + 1][tx + 1] = cur;
    if (tx == 0) t[ty + 1][0] = __ldg(pl + hx);
    if (tx == BX - 1) t[ty + 1][BX + 1] = __ldg(pl + hx);
    if (ty == 0) t[0][tx + 1] = __ldg(pl + hy);
    if (ty == BY - 1) t[BY + 1][tx + 1] = __ldg(pl + hy);
    __syncthreads();
    const float w = i == 0 ? cur : t[ty + 1][tx];
    const float e = i == nx - 1 ? cur : t[ty + 1][tx + 2];
    const float n = j == 0 ? cur : t[ty][tx + 1];
    const float s = j == ny - 1 ? cur : t[ty + 2][tx + 1];
    if (i < nx && j < ny) out[(size_t)z * xy + base] = diff_point(k, cur, w, e, s, n, below, above);
#pragma unroll
    for (int d = 0; d < PF + 1; ++d) win[d] = win[d + 1];
    win[PF + 1] = nxt;
  }
}

// Temporal blocking: T sweeps per launch. A block covers a BX x BY tile in
// (x, y) that overlaps its neighbours by T cells each side (the halo is
// recomputed), and streams its z chunk (plus T planes each side) through a
// pipeline: at step zl level 0 loads plane zl, level s computes plane zl - s
// from level s-1 (x/y neighbours from a double-buffered shared plane, z
// neighbours from a 3-register queue), and level T writes plane zl - T.
// A level-s value is correct on tile cells [s, B-s) and chunk planes that lie
// within s of the loaded range; the written region is inside both. Values
// outside (pipeline fill, halo) are computed and never used. Level-0 loads
// are issued PF steps ahead, so that the barriers do not expose their latency.
template <int BX, int BY, int T, int ZCH, int PF>
__global__ void __launch_bounds__(BX* BY) diff_tb(const float* __restrict__ in, float* __restrict__ out,
                                                  int nx, int ny, int nz, DiffCoef k) {
  static_assert(T >= 2 && 2 * T < BX && 2 * T < BY && PF >= 1, "tile too small for T sweeps");
  __shared__ float sh[T][2][BY][BX];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = (int)blockIdx.x * (BX - 2 * T) + tx - T;
  const int gy = (int)blockIdx.y * (BY - 2 * T) + ty - T;
  const int cx = min(max(gx, 0), nx - 1), cy = min(max(gy, 0), ny - 1);
  const size_t xy = (size_t)nx * ny;
  const size_t base = (size_t)cx + (size_t)cy * nx;
  const int z0 = blockIdx.z * ZCH;
  const int z1 = min(nz, z0 + ZCH);
  const int zs = max(0, z0 - T);
  const bool store = tx >= T && tx < BX - T && ty >= T && ty < BY - T && gx < nx && gy < ny;
  // tile neighbours, kept inside the tile (the edge cells' values are unused)
  const int txw = tx > 0 ? tx - 1 : tx, txe = tx < BX - 1 ? tx + 1 : tx;
  const int tyn = ty > 0 ? ty - 1 : ty, tys = ty < BY - 1 ? ty + 1 : ty;
  const bool ew = gx == 0, ee = gx == nx - 1, en = gy == 0, es = gy == ny - 1;
  float q[T][3];  // level s's values at its three newest planes
#pragma unroll
  for (int s = 0; s < T; ++s) q[s][0] = q[s][1] = q[s][2] = 0.0f;
  // level-0 planes prefetched PF steps ahead; indices clamped to the last
  // plane the chunk needs (a repeated plane past the grid's top is unused:
  // the plane below it takes the centre as its upper neighbour)
  const int zlast = min(nz - 1, z1 - 1 + T);
  float pre[PF];
#pragma unroll
  for (int d = 0; d < PF; ++d) pre[d] = __ldg(in + (size_t)min(zs + d, zlast) * xy + base);
  for (int zl = zs; zl < z1 + T; ++zl) {
    const float v = pre[0];
#pragma unroll
    for (int d = 0; d < PF - 1; ++d) pre[d] = pre[d + 1];
    pre[PF - 1] = __ldg(in + (size_t)min(zl + PF, zlast) * xy + base);
    q[0][0] = q[0][1];
    q[0][1] = q[0][2];
    q[0][2] = v;
    sh[0][zl & 1][ty][tx] = v;
    __syncthreads();
#pragma unroll
    for (int s = 1; s <= T; ++s) {
      const int p = zl - s;  // plane level s computes; its parity picks the buffer
      const float(*P)[BX] = sh[s - 1][p & 1];
      const float c = q[s - 1][1];
      const float w = ew ? c : P[ty][txw];
      const float e = ee ? c : P[ty][txe];
      const float n = en ? c : P[tyn][tx];
      const float so = es ? c : P[tys][tx];
      const float b = p == 0 ? c : q[s - 1][0];
      const float t = p == nz - 1 ? c : q[s - 1][2];
      const float val = diff_point(k, c, w, e, so, n, b, t);
      if (s < T) {
        q[s][0] = q[s][1];
        q[s][1] = q[s][2];
        q[s][2] = val;
        sh[s][p & 1][ty][tx] = val;
        __syncthreads();
      } else if (store && p >= z0 && p < z1) {
        out[(size_t)p * xy + base] = val;
      }
    }
  }
}

// Register streaming, lean: as diff_zreg with RY rows, but 32-bit offsets
// (the host checks that the grid has fewer than 2^31 cells), the window a ring
// whose slots are compile-time constants (the z loop unrolled by the window's
// length: no register moves per plane), neighbour offsets that are 0 at the
// grid's faces (the load then returns the centre, so no selects per point),
// and streaming stores (the output is not read again: it should not evict
// the input planes that neighbouring blocks still read from L2). The chunk
// length zch is a launch argument, so that the host can size the grid to
// whole waves of resident blocks.
template <int BX, int BY, int RY, int PF>
__global__ void __launch_bounds__(BX* BY) diff_zr(const float* __restrict__ in, float* __restrict__ out, int nx,
                                                  int ny, int nz, int zch, DiffCoef k) {
  constexpr int NW = PF + 2;  // planes z-1 .. z+PF
  const int i = blockIdx.x * BX + threadIdx.x;
  const int j0 = (blockIdx.y * BY + threadIdx.y) * RY;
  if (i >= nx || j0 >= ny) return;
  const int z0 = blockIdx.z * zch;
  const int z1 = min(nz, z0 + zch);
  const int zlast = min(z1, nz - 1);
  const int xy = nx * ny;
  const int ow = i == 0 ? 0 : -1, oe = i == nx - 1 ? 0 : 1;
  int base[RY], on[RY], os[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const int j = min(j0 + r, ny - 1);
    base[r] = i + j * nx;
    on[r] = j == 0 ? 0 : -nx;
    os[r] = j == ny - 1 ? 0 : nx;
  }
  float win[RY][NW];  // at step u of a round, plane z-1+d is in slot (u + d) % NW
#pragma unroll
  for (int r = 0; r < RY; ++r)
#pragma unroll
    for (int d = 0; d < NW; ++d) win[r][d] = __ldg(in + min(max(z0 - 1 + d, 0), zlast) * xy + base[r]);
  for (int zb = z0; zb < z1; zb += NW) {
#pragma unroll
    for (int u = 0; u < NW; ++u) {
      const int z = zb + u;
      if (z < z1) {
        const int zn = min(z + PF + 1, zlast) * xy, zc = z * xy;
        float nxt[RY];
#pragma unroll
        for (int r = 0; r < RY; ++r) nxt[r] = __ldg(in + zn + base[r]);
#pragma unroll
        for (int r = 0; r < RY; ++r) {
          const float* c = in + zc + base[r];
          const float cur = win[r][(u + 1) % NW];
          const float w = __ldg(c + ow), e = __ldg(c + oe);
          // inner rows: the y neighbour is the adjacent row's centre (or the
          // centre itself at the grid's face, where the offset is 0)
          const float n = r > 0 ? (on[r] ? win[r - 1][(u + 1) % NW] : cur) : __ldg(c + on[r]);
          const float s = r < RY - 1 ? (os[r] ? win[r + 1][(u + 1) % NW] : cur) : __ldg(c + os[r]);
          if (j0 + r < ny) __stcs(out + zc + base[r], diff_point(k, cur, w, e, s, n, win[r][u % NW], win[r][(u + 2) % NW]));
        }
#pragma unroll
        for (int r = 0; r < RY; ++r) win[r][u % NW] = nxt[r];
      }
    }
  }
}

// diff_zr with 16-byte accesses (as diff_zvec: 4 x cells per thread, nx % 4
// == 0, the x neighbours across lanes by shuffles, loaded at a warp's ends):
// four times the bytes in flight per load instruction.
template <int BX, int BY, int PF>
__global__ void __launch_bounds__(BX* BY) diff_zr4(const float* __restrict__ in, float* __restrict__ out, int nx,
                                                   int ny, int nz, int zch, DiffCoef k) {
  static_assert(BX % 32 == 0, "a warp must be one row segment");
  constexpr int NW = PF + 2;
  const int nx4 = nx >> 2;
  const int i4 = blockIdx.x * BX + threadIdx.x;
  const int j = blockIdx.y * BY + threadIdx.y;
  const bool live = i4 < nx4 && j < ny;
  const int ic = min(i4, nx4 - 1), jc = min(j, ny - 1);
  const int z0 = blockIdx.z * zch;
  const int z1 = min(nz, z0 + zch);
  const int zlast = min(z1, nz - 1);
  const int xy4 = nx4 * ny;
  const float4* __restrict__ in4 = reinterpret_cast<const float4*>(in);
  float4* __restrict__ out4 = reinterpret_cast<float4*>(out);
  const int base = ic + jc * nx4;
  const int on = jc == 0 ? 0 : -nx4, os = jc == ny - 1 ? 0 : nx4;
  const int lane = threadIdx.x & 31;
  // the end lanes' outer x neighbours, in floats from the thread's first
  // cell: at the grid's faces the centre itself
  const bool lw = lane == 0, le = lane == 31 || ic == nx4 - 1;
  const int ow = ic == 0 ? 0 : -1, oe = ic == nx4 - 1 ? 3 : 4;
  float4 win[NW];  // at step u of a round, plane z-1+d is in slot (u + d) % NW
#pragma unroll
  for (int d = 0; d < NW; ++d) win[d] = __ldg(in4 + min(max(z0 - 1 + d, 0), zlast) * xy4 + base);
  for (int zb = z0; zb < z1; zb += NW) {
#pragma unroll
    for (int u = 0; u < NW; ++u) {
      const int z = zb + u;
      if (z < z1) {
        const int zc = z * xy4 + base;
        const float4 nxt = __ldg(in4 + min(z + PF + 1, zlast) * xy4 + base);
        const float4 cur = win[(u + 1) % NW], below = win[u % NW], above = win[(u + 2) % NW];
        const float4 n = __ldg(in4 + zc + on), s = __ldg(in4 + zc + os);
        float wl = __shfl_up_sync(0xffffffffu, cur.w, 1);
        float er = __shfl_down_sync(0xffffffffu, cur.x, 1);
        const float* c = reinterpret_cast<const float*>(in4 + zc);
        if (lw) wl = __ldg(c + ow);
        if (le) er = __ldg(c + oe);
        float4 o;
        o.x = diff_point(k, cur.x, wl, cur.y, s.x, n.x, below.x, above.x);
        o.y = diff_point(k, cur.y, cur.x, cur.z, s.y, n.y, below.y, above.y);
        o.z = diff_point(k, cur.z, cur.y, cur.w, s.z, n.z, below.z, above.z);
        o.w = diff_point(k, cur.w, cur.z, er, s.w, n.w, below.w, above.w);
        if (live) __stcs(out4 + zc, o);
        win[u % NW] = nxt;
      }
    }
  }
}

// Temporal blocking with one barrier per plane: as diff_tb (overlapped tiles,
// a z pipeline where level s computes plane zl - s at step zl), but level s
// reads level s-1's plane zl - s, which level s-1 wrote at step zl - 1, so
// every shared plane a step reads was written before the previous step's
// barrier, and every buffer a step writes was last read before it (double
// buffering by the plane's parity): one barrier per step instead of T + 1.
// A thread owns RY rows (ty + r*BY) of the BX x BY*RY tile, so that tiles
// larger than 1024 cells waste less on the recomputed halo. zch is a launch
// argument (whole waves, as diff_zr).
template <int BX, int BY, int RY, int T, int PF>
__global__ void __launch_bounds__(BX* BY, 2048 / (BX * BY)) diff_tb1(const float* __restrict__ in, float* __restrict__ out, int nx,
                                                   int ny, int nz, int zch, DiffCoef k) {
  constexpr int H = BY * RY;
  static_assert(T >= 1 && 2 * T < BX && 2 * T < H && PF >= 1, "tile too small for T sweeps");
  __shared__ float sh[T][2][H][BX];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = (int)blockIdx.x * (BX - 2 * T) + tx - T;
  const int cx = min(max(gx, 0), nx - 1);
  const int xy = nx * ny;
  const int z0 = blockIdx.z * zch;
  const int z1 = min(nz, z0 + zch);
  const int zs = max(0, z0 - T);
  const int txw = tx > 0 ? tx - 1 : tx, txe = tx < BX - 1 ? tx + 1 : tx;
  const bool ew = gx == 0, ee = gx == nx - 1;
  int base[RY], lyn[RY], lys[RY];
  bool en[RY], es[RY], store[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const int ly = ty + r * BY;
    const int gy = (int)blockIdx.y * (H - 2 * T) + ly - T;
    base[r] = cx + min(max(gy, 0), ny - 1) * nx;
    lyn[r] = ly > 0 ? ly - 1 : ly;
    lys[r] = ly < H - 1 ? ly + 1 : ly;
    en[r] = gy == 0;
    es[r] = gy == ny - 1;
    store[r] = tx >= T && tx < BX - T && ly >= T && ly < H - T && gx < nx && gy < ny;
  }
  float q[T][RY][3];  // level s's values at its three newest planes
#pragma unroll
  for (int s = 0; s < T; ++s)
#pragma unroll
    for (int r = 0; r < RY; ++r) q[s][r][0] = q[s][r][1] = q[s][r][2] = 0.0f;
  const int zlast = min(nz - 1, z1 - 1 + T);
  float pre[PF][RY];
#pragma unroll
  for (int d = 0; d < PF; ++d)
#pragma unroll
    for (int r = 0; r < RY; ++r) pre[d][r] = __ldg(in + min(zs + d, zlast) * xy + base[r]);
  for (int zl = zs; zl < z1 + T; ++zl) {
    const int zn = min(zl + PF, zlast) * xy;
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      const float v = pre[0][r];
#pragma unroll
      for (int d = 0; d < PF - 1; ++d) pre[d][r] = pre[d + 1][r];
      pre[PF - 1][r] = __ldg(in + zn + base[r]);
      q[0][r][0] = q[0][r][1];
      q[0][r][1] = q[0][r][2];
      q[0][r][2] = v;
      sh[0][zl & 1][ty + r * BY][tx] = v;
    }
#pragma unroll
    for (int s = 1; s <= T; ++s) {
      const int p = zl - s;
      const float(*P)[BX] = sh[s - 1][p & 1];
#pragma unroll
      for (int r = 0; r < RY; ++r) {
        const int ly = ty + r * BY;
        const float c = q[s - 1][r][1];
        const float w = ew ? c : P[ly][txw];
        const float e = ee ? c : P[ly][txe];
        const float n = en[r] ? c : P[lyn[r]][tx];
        const float so = es[r] ? c : P[lys[r]][tx];
        const float b = p == 0 ? c : q[s - 1][r][0];
        const float t = p == nz - 1 ? c : q[s - 1][r][2];
        const float val = diff_point(k, c, w, e, so, n, b, t);
        if (s < T) {
          q[s][r][0] = q[s][r][1];
          q[s][r][1] = q[s][r][2];
          q[s][r][2] = val;
          sh[s][p & 1][ly][tx] = val;
        } else if (store[r] && p >= z0 && p < z1) {
          __stcs(out + p * xy + base[r], val);
        }
      }
    }
    __syncthreads();
  }
}

// Vectors of V floats (V = 1, 2, 4) loaded and stored as one access.
template <int V> struct VecOf;
template <> struct VecOf<1> { using type = float; };
template <> struct VecOf<2> { using type = float2; };
template <> struct VecOf<4> { using type = float4; };
template <int V> __device__ __forceinline__ void load_vec(float (&d)[V], const float* p) {
  using T = typename VecOf<V>::type;
  const T x = __ldg(reinterpret_cast<const T*>(p));
  const float* f = reinterpret_cast<const float*>(&x);
#pragma unroll
  for (int e = 0; e < V; ++e) d[e] = f[e];
}
// STREAM: a streaming store (__stcs), for output that is not read again.
template <int V, bool STREAM = false> __device__ __forceinline__ void store_vec(float* p, const float (&d)[V]) {
  using T = typename VecOf<V>::type;
  T x;
  float* f = reinterpret_cast<float*>(&x);
#pragma unroll
  for (int e = 0; e < V; ++e) f[e] = d[e];
  if (STREAM)
    __stcs(reinterpret_cast<T*>(p), x);
  else
    *reinterpret_cast<T*>(p) = x;
}

// Temporal blocking in registers: a warp is one row segment of 32 V cells,
// a thread owns V x cells of RY consecutive rows (BY warps stacked in y), and
// every level keeps its three newest planes in registers. x neighbours cross
// lanes by shuffles, y neighbours are the thread's own rows except at its
// first and last row, which come from the warps above and below through
// shared memory (only those edge rows are stored there). One barrier per
// step, as diff_tb1 (double buffering by the plane's parity). Tiles overlap
// by HX = T rounded up to whole vectors in x and T rows in y, and not at all
// along an axis the tile covers whole. nx % V == 0.
template <int V, int BY, int RY, int T, int PF>
__global__ void __launch_bounds__(32 * BY) diff_tbv(const float* __restrict__ in, float* __restrict__ out, int nx,
                                                    int ny, int nz, int zch, DiffCoef k) {
  constexpr int W = 32 * V, H = BY * RY, HX = (T + V - 1) / V * V;
  static_assert(T >= 1 && PF >= 1 && 2 * T < H && 2 * HX < W, "tile too small for T sweeps");
  // level s's first (e = 0) and last (e = 1) rows of each warp, planes of parity b
  HONE_DYNAMIC_SHARED(float, shd);
  const int lane = threadIdx.x, w = threadIdx.y;
  auto edge = [&](int s, int b, int wy, int e) { return shd + (((s * 2 + b) * BY + wy) * 2 + e) * W + lane * V; };
  const int hx = nx <= W ? 0 : HX, hy = ny <= H ? 0 : T;
  const int gx = (int)blockIdx.x * (W - 2 * hx) - hx + lane * V;
  const int cx = min(max(gx, 0), nx - V);
  const int xy = nx * ny;
  const int z0 = blockIdx.z * zch;
  const int z1 = min(nz, z0 + zch);
  const int zs = max(0, z0 - T);
  const int zlast = min(nz - 1, z1 - 1 + T);
  const bool ew = gx == 0, ee = gx + V - 1 == nx - 1;
  const bool xout = lane * V >= hx && lane * V < W - hx && gx < nx;
  int base[RY];
  bool en[RY], es[RY], store[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const int ly = w * RY + r;
    const int gy = (int)blockIdx.y * (H - 2 * hy) - hy + ly;
    base[r] = cx + min(max(gy, 0), ny - 1) * nx;
    en[r] = gy == 0;
    es[r] = gy == ny - 1;
    store[r] = xout && ly >= hy && ly < H - hy && gy < ny;
  }
  float q[T][3][RY][V];
#pragma unroll
  for (int s = 0; s < T; ++s)
#pragma unroll
    for (int d = 0; d < 3; ++d)
#pragma unroll
      for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int e = 0; e < V; ++e) q[s][d][r][e] = 0.0f;
  float pre[PF][RY][V];
#pragma unroll
  for (int d = 0; d < PF; ++d)
#pragma unroll
    for (int r = 0; r < RY; ++r) load_vec<V>(pre[d][r], in + min(zs + d, zlast) * xy + base[r]);
  for (int zl = zs; zl < z1 + T; ++zl) {
    const int zn = min(zl + PF, zlast) * xy;
#pragma unroll
    for (int r = 0; r < RY; ++r) {
#pragma unroll
      for (int e = 0; e < V; ++e) {
        q[0][0][r][e] = q[0][1][r][e];
        q[0][1][r][e] = q[0][2][r][e];
        q[0][2][r][e] = pre[0][r][e];
      }
#pragma unroll
      for (int d = 0; d < PF - 1; ++d)
#pragma unroll
        for (int e = 0; e < V; ++e) pre[d][r][e] = pre[d + 1][r][e];
      load_vec<V>(pre[PF - 1][r], in + zn + base[r]);
    }
    store_vec<V>(edge(0, zl & 1, w, 0), q[0][2][0]);
    store_vec<V>(edge(0, zl & 1, w, 1), q[0][2][RY - 1]);
#pragma unroll
    for (int s = 1; s <= T; ++s) {
      const int p = zl - s;
      float val[RY][V];
#pragma unroll
      for (int r = 0; r < RY; ++r) {
        const float(&c)[V] = q[s - 1][1][r];
        float nr[V], sr[V];
        if (r > 0) {
#pragma unroll
          for (int e = 0; e < V; ++e) nr[e] = q[s - 1][1][r - 1][e];
        } else if (w > 0) {
          const float* src = edge(s - 1, p & 1, w - 1, 1);
#pragma unroll
          for (int e = 0; e < V; ++e) nr[e] = src[e];
        } else {
#pragma unroll
          for (int e = 0; e < V; ++e) nr[e] = c[e];
        }
        if (r < RY - 1) {
#pragma unroll
          for (int e = 0; e < V; ++e) sr[e] = q[s - 1][1][r + 1][e];
        } else if (w < BY - 1) {
          const float* src = edge(s - 1, p & 1, w + 1, 0);
#pragma unroll
          for (int e = 0; e < V; ++e) sr[e] = src[e];
        } else {
#pragma unroll
          for (int e = 0; e < V; ++e) sr[e] = c[e];
        }
        const float wl = __shfl_up_sync(0xffffffffu, c[V - 1], 1);
        const float er = __shfl_down_sync(0xffffffffu, c[0], 1);
#pragma unroll
        for (int e = 0; e < V; ++e) {
          const float we = e > 0 ? c[e - 1] : (ew ? c[0] : wl);
          const float ea = e < V - 1 ? c[e + 1] : (ee ? c[V - 1] : er);
          const float n = en[r] ? c[e] : nr[e];
          const float so = es[r] ? c[e] : sr[e];
          const float b = p == 0 ? c[e] : q[s - 1][0][r][e];
          const float t = p == nz - 1 ? c[e] : q[s - 1][2][r][e];
          val[r][e] = diff_point(k, c[e], we, ea, so, n, b, t);
        }
      }
      if (s < T) {
#pragma unroll
        for (int r = 0; r < RY; ++r)
#pragma unroll
          for (int e = 0; e < V; ++e) {
            q[s][0][r][e] = q[s][1][r][e];
            q[s][1][r][e] = q[s][2][r][e];
            q[s][2][r][e] = val[r][e];
          }
        store_vec<V>(edge(s, p & 1, w, 0), val[0]);
        store_vec<V>(edge(s, p & 1, w, 1), val[RY - 1]);
      } else if (p >= z0 && p < z1) {
#pragma unroll
        for (int r = 0; r < RY; ++r)
          if (store[r]) store_vec<V, true>(out + p * xy + base[r], val[r]);
      }
    }
    __syncthreads();
  }
}

// The naive kernel's body for CX x cells per thread, z-chunked, with
// __restrict__ pointers and the walk unrolled by 4: what a source-to-source
// x-coarsening of the naive kernel writes. CONTIG: a thread's cells are
// adjacent (the alignment stated, nx % CX == 0, so that the compiler may
// merge them into one wide access); otherwise BX apart (each access of a warp
// stays one contiguous row segment).
template <int BX, int BY, int CX, bool CONTIG>
__global__ void __launch_bounds__(BX* BY) diff_cx(const float* __restrict__ in0, float* __restrict__ out0, int nx,
                                                  int ny, int nz, int zch, DiffCoef k) {
  const float* __restrict__ in = CONTIG ? static_cast<const float*>(__builtin_assume_aligned(in0, 4 * CX)) : in0;
  float* __restrict__ out = CONTIG ? static_cast<float*>(__builtin_assume_aligned(out0, 4 * CX)) : out0;
  if (CONTIG) __builtin_assume(nx % CX == 0);
  const int j = blockIdx.y * BY + threadIdx.y;
  const int z0 = blockIdx.z * zch;
  const int xy = nx * ny;
  const int i0 = CONTIG ? ((int)blockIdx.x * BX + (int)threadIdx.x) * CX : (int)blockIdx.x * BX * CX + (int)threadIdx.x;
  if (j >= ny) return;
  int c0 = i0 + j * nx + z0 * xy;
#pragma unroll 4
  for (int z = z0; z < nz && z - z0 < zch; ++z) {
#pragma unroll
    for (int v = 0; v < CX; ++v) {
      const int i = i0 + (CONTIG ? v : v * BX);
      const int c = c0 + (CONTIG ? v : v * BX);
      if (i < nx) {
        out[c] = diff_cell(k, in, c, i, j, z, nx, ny, nz);
      }
    }
    c0 += xy;
  }
}

// ------------------------------------------------------------------ Himeno
// Semantics of examples/synth/himeno.cu (interior cells 1..n-2 on each
// axis; a[s] at s*n + q), summed in the same order. The residual: each
// thread sums its cells in float like the naive kernel, the block adds its
// threads' sums (shared-memory tree) and adds the block's sum to one double
// with atomicAdd (the host zeroes it before the launch).
struct HimenoArgs {
  const float* __restrict__ p;
  const float* __restrict__ a;
  const float* __restrict__ b;
  const float* __restrict__ c;
  const float* __restrict__ wrk1;
  const float* __restrict__ bnd;
  float* __restrict__ wrk2;
  double* gosa;
  int nx, ny, nz;
  float omega;
};

// The naive kernel of the example, plus a bounds check (the example's grids
// cover the interior exactly; the benchmark's sizes have odd interiors).
__global__ void himeno_naive(float* p, float* a, float* b, float* c, float* wrk1, float* bnd, float* wrk2,
                             float* gosa, int nx, int ny, int nz, float omega) {
  int x = blockDim.x * blockIdx.x + threadIdx.x + 1;
  int y = blockDim.y * blockIdx.y + threadIdx.y + 1;
  if (x >= nx - 1 || y >= ny - 1) return;
  int xy = nx * ny;
  int n = xy * nz;
  float g = 0.0f;
  for (int z = 1; z < nz - 1; ++z) {
    int q = x + y * nx + z * xy;
    float s0 = a[q] * p[q + xy] + a[n + q] * p[q + nx] + a[2 * n + q] * p[q + 1] +
               b[q] * (p[q + xy + nx] - p[q + xy - nx] - p[q - xy + nx] + p[q - xy - nx]) +
               b[n + q] * (p[q + nx + 1] - p[q - nx + 1] - p[q + nx - 1] + p[q - nx - 1]) +
               b[2 * n + q] * (p[q + xy + 1] - p[q - xy + 1] - p[q + xy - 1] + p[q - xy - 1]) +
               c[q] * p[q - xy] + c[n + q] * p[q - nx] + c[2 * n + q] * p[q - 1] + wrk1[q];
    float ss = (s0 * a[3 * n + q] - p[q]) * bnd[q];
    g += ss * ss;
    wrk2[q] = p[q] + omega * ss;
  }
  gosa[x + y * nx] = g;
}

template <int NT>
__device__ __forceinline__ void block_add_gosa(float g, double* gosa) {
  __shared__ float red[NT];
  const int t = threadIdx.x + threadIdx.y * blockDim.x;
  constexpr int P = NT >= 1024 ? 1024 : NT >= 512 ? 512 : NT >= 256 ? 256 : NT >= 128 ? 128 : NT >= 64 ? 64
                  : NT >= 32 ? 32 : NT >= 16 ? 16 : NT >= 8 ? 8 : NT >= 4 ? 4 : NT >= 2 ? 2 : 1;  // 2^k <= NT
  red[t] = g;
  __syncthreads();
  if (P < NT) {
    if (t < NT - P) red[t] += red[t + P];
    __syncthreads();
  }
#pragma unroll
  for (int h = P / 2; h > 0; h >>= 1) {
    if (t < h) red[t] += red[t + h];
    __syncthreads();
  }
  if (t == 0) atomicAdd(gosa, (double)red[0]);
}

// One cell's update from its 19 p values (named by offsets: m = -1, o = 0,
// p = +1 along z, y, x) and its 12 coefficients cf = a0..a3, b0..b2, c0..c2,
// wrk1, bnd.
__device__ __forceinline__ float himeno_update(const float* cf, float pc, float zp, float yp, float xp, float zpyp,
                                               float zpym, float zmyp, float zmym, float ypxp, float ymxp,
                                               float ypxm, float ymxm, float zpxp, float zmxp, float zpxm,
                                               float zmxm, float zm, float ym, float xm, float omega, float& g) {
  const float s0 = cf[0] * zp + cf[1] * yp + cf[2] * xp + cf[4] * (zpyp - zpym - zmyp + zmym) +
                   cf[5] * (ypxp - ymxp - ypxm + ymxm) + cf[6] * (zpxp - zmxp - zpxm + zmxm) + cf[7] * zm +
                   cf[8] * ym + cf[9] * xm + cf[10];
  const float ss = (s0 * cf[3] - pc) * cf[11];
  g += ss * ss;
  return pc + omega * ss;
}

__device__ __forceinline__ void himeno_coefs(const HimenoArgs& A, size_t n, size_t q, float* cf) {
#pragma unroll
  for (int s = 0; s < 4; ++s) cf[s] = __ldg(A.a + s * n + q);
#pragma unroll
  for (int s = 0; s < 3; ++s) cf[4 + s] = __ldg(A.b + s * n + q);
#pragma unroll
  for (int s = 0; s < 3; ++s) cf[7 + s] = __ldg(A.c + s * n + q);
  cf[10] = __ldg(A.wrk1 + q);
  cf[11] = __ldg(A.bnd + q);
}

__device__ __forceinline__ float himeno_cell(const HimenoArgs& A, size_t n, size_t q, float pc, float zp,
                                             float yp, float xp, float zpyp, float zpym, float zmyp,
                                             float zmym, float ypxp, float ymxp, float ypxm, float ymxm,
                                             float zpxp, float zmxp, float zpxm, float zmxm, float zm,
                                             float ym, float xm, float omega, float& g) {
  float cf[12];
  himeno_coefs(A, n, q, cf);
  return himeno_update(cf, pc, zp, yp, xp, zpyp, zpym, zmyp, zmym, ypxp, ymxp, ypxm, ymxm, zpxp, zmxp, zpxm, zmxm,
                       zm, ym, xm, omega, g);
}

// The update of tile cell (tx, ty) from three planes of p in shared memory
// (neighbour indices clamped into the tile by the caller).
template <int BX>
__device__ __forceinline__ float himeno_tile(const float* cf, const float (*M)[BX], const float (*C)[BX],
                                             const float (*P)[BX], int tx, int ty, int xm, int xp, int ym, int yp,
                                             float omega, float& g) {
  return himeno_update(cf, C[ty][tx], P[ty][tx], C[yp][tx], C[ty][xp], P[yp][tx], P[ym][tx], M[yp][tx], M[ym][tx],
                       C[yp][xp], C[ym][xp], C[yp][xm], C[ym][xm], P[ty][xp], M[ty][xp], P[ty][xm], M[ty][xm],
                       M[ty][tx], C[ym][tx], C[ty][xm], omega, g);
}

// 2.5-D register streaming over a z chunk: the centre column of p in a
// 3-register queue, other p neighbours through the read-only cache, the 12
// coefficient streams read once; UNR unrolls the z loop so that several
// planes' loads are in flight per thread.
template <int BX, int BY, int ZCH, int UNR>
__global__ void __launch_bounds__(BX* BY) himeno_zreg(HimenoArgs A) {
  const int nx = A.nx, ny = A.ny, nz = A.nz;
  const int x = blockIdx.x * BX + threadIdx.x + 1;
  const int y = blockIdx.y * BY + threadIdx.y + 1;
  const int z0 = 1 + blockIdx.z * ZCH;
  const int z1 = min(nz - 1, z0 + ZCH);
  const size_t xy = (size_t)nx * ny, n = xy * nz;
  const float* __restrict__ p = A.p;
  float g = 0.0f;
  if (x < nx - 1 && y < ny - 1) {
    size_t q = (size_t)x + (size_t)y * nx + (size_t)z0 * xy;
    float pm = __ldg(p + q - xy), pc = __ldg(p + q);
#pragma unroll UNR
    for (int z = z0; z < z1; ++z, q += xy) {
      const float pp = __ldg(p + q + xy);
      A.wrk2[q] = himeno_cell(A, n, q, pc, pp, __ldg(p + q + nx), __ldg(p + q + 1),
                              __ldg(p + q + xy + nx), __ldg(p + q + xy - nx), __ldg(p + q - xy + nx),
                              __ldg(p + q - xy - nx), __ldg(p + q + nx + 1), __ldg(p + q - nx + 1),
                              __ldg(p + q + nx - 1), __ldg(p + q - nx - 1), __ldg(p + q + xy + 1),
                              __ldg(p + q - xy + 1), __ldg(p + q + xy - 1), __ldg(p + q - xy - 1), pm,
                              __ldg(p + q - nx), __ldg(p + q - 1), A.omega, g);
      pm = pc;
      pc = pp;
    }
  }
  block_add_gosa<BX * BY>(g, A.gosa);
}

// 2.5-D with shared memory: three planes of p (z-1, z, z+1), each with a
// one-cell halo including corners, in a ring in shared memory; the
// coefficients streamed from global memory.
template <int BX, int BY, int ZCH>
__global__ void __launch_bounds__(BX* BY) himeno_smem(HimenoArgs A) {
  constexpr int W = BX + 2, H = BY + 2;
  __shared__ float sp[3][H][W];
  const int nx = A.nx, ny = A.ny, nz = A.nz;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = tx + ty * BX;
  const int x = blockIdx.x * BX + tx + 1;
  const int y = blockIdx.y * BY + ty + 1;
  const int z0 = 1 + blockIdx.z * ZCH;
  const int z1 = min(nz - 1, z0 + ZCH);
  const size_t xy = (size_t)nx * ny, n = xy * nz;
  const int ox = blockIdx.x * BX, oy = blockIdx.y * BY;  // grid cell of tile position (0, 0)
  const bool live = x < nx - 1 && y < ny - 1;
  auto load_plane = [&](int z, int slot) {
    for (int l = tid; l < W * H; l += BX * BY) {
      const int lx = l % W, ly = l / W;
      const int gx = min(ox + lx, nx - 1), gy = min(oy + ly, ny - 1);
      sp[slot][ly][lx] = __ldg(A.p + (size_t)gx + (size_t)gy * nx + (size_t)z * xy);
    }
  };
  load_plane(z0 - 1, (z0 - 1) % 3);
  load_plane(z0, z0 % 3);
  float g = 0.0f;
  for (int z = z0; z < z1; ++z) {
    load_plane(z + 1, (z + 1) % 3);
    __syncthreads();
    const float(*M)[W] = sp[(z - 1) % 3];
    const float(*C)[W] = sp[z % 3];
    const float(*P)[W] = sp[(z + 1) % 3];
    const int cx = tx + 1, cy = ty + 1;
    if (live) {
      const size_t q = (size_t)x + (size_t)y * nx + (size_t)z * xy;
      A.wrk2[q] = himeno_cell(A, n, q, C[cy][cx], P[cy][cx], C[cy + 1][cx], C[cy][cx + 1], P[cy + 1][cx],
                              P[cy - 1][cx], M[cy + 1][cx], M[cy - 1][cx], C[cy + 1][cx + 1],
                              C[cy - 1][cx + 1], C[cy + 1][cx - 1], C[cy - 1][cx - 1], P[cy][cx + 1],
                              M[cy][cx + 1], P[cy][cx - 1], M[cy][cx - 1], M[cy][cx], C[cy - 1][cx],
                              C[cy][cx - 1], A.omega, g);
    }
    __syncthreads();  // the slot of plane z-1 is overwritten next
  }
  block_add_gosa<BX * BY>(g, A.gosa);
}

// Temporal blocking, two sweeps per launch (the benchmark's loop: p takes the
// interior of wrk2, the boundary of p stays). Both sweeps use the same
// coefficients, so a cell's 12 coefficients are read once and kept in
// registers from sweep 1 (plane zl-1 at step zl) to sweep 2 (the same plane
// one step later): per two sweeps the coefficients, p and wrk2 move once,
// 14 of 28 arrays. Overlapped tiles: sweep 1 on tile cells [1, B-1), sweep 2
// written on [2, B-2); three-plane rings of p and of sweep 1 in shared memory.
// The residual is the second sweep's.
template <int BX, int BY, int ZCH>
__global__ void __launch_bounds__(BX* BY) himeno_tb2(HimenoArgs A) {
  __shared__ float S0[3][BY][BX];
  __shared__ float S1[3][BY][BX];
  const int nx = A.nx, ny = A.ny, nz = A.nz;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = (int)blockIdx.x * (BX - 4) + tx - 1;
  const int gy = (int)blockIdx.y * (BY - 4) + ty - 1;
  const int cx = min(max(gx, 0), nx - 1), cy = min(max(gy, 0), ny - 1);
  const size_t xy = (size_t)nx * ny, n = xy * nz;
  const size_t base = (size_t)cx + (size_t)cy * nx;
  const int z0 = 1 + blockIdx.z * ZCH;
  const int z1 = min(nz - 1, z0 + ZCH);
  const int zs = max(0, z0 - 2), zlast = min(nz - 1, z1 + 1);
  const bool inner = gx >= 1 && gx < nx - 1 && gy >= 1 && gy < ny - 1;
  const bool need1 = inner && tx >= 1 && tx < BX - 1 && ty >= 1 && ty < BY - 1;
  const bool out2 = inner && tx >= 2 && tx < BX - 2 && ty >= 2 && ty < BY - 2;
  const int xm = max(tx - 1, 0), xp = min(tx + 1, BX - 1), ym = max(ty - 1, 0), yp = min(ty + 1, BY - 1);
  float cf[12], cfp[12];
#pragma unroll
  for (int c = 0; c < 12; ++c) cf[c] = 0.0f;
  float pre = __ldg(A.p + (size_t)zs * xy + base);
  float g = 0.0f, g1 = 0.0f;
  for (int zl = zs; zl <= z1 + 1; ++zl) {
    const float v = pre;
    pre = __ldg(A.p + (size_t)min(zl + 1, zlast) * xy + base);
    const int p1 = zl - 1, p2 = zl - 2;  // planes of sweep 1 and sweep 2 at this step (>= -2)
#pragma unroll
    for (int c = 0; c < 12; ++c) cfp[c] = cf[c];
    const bool c1 = need1 && p1 >= 1 && p1 <= nz - 2;
    if (c1) himeno_coefs(A, n, base + (size_t)p1 * xy, cf);
    S0[zl % 3][ty][tx] = v;
    __syncthreads();
    {
      const float(*M)[BX] = S0[(p1 + 2) % 3];
      const float(*C)[BX] = S0[(p1 + 3) % 3];
      const float(*P)[BX] = S0[(p1 + 4) % 3];
      const float l1 = c1 ? himeno_tile<BX>(cf, M, C, P, tx, ty, xm, xp, ym, yp, A.omega, g1) : C[ty][tx];
      S1[(p1 + 3) % 3][ty][tx] = l1;
    }
    __syncthreads();
    if (out2 && p2 >= z0 && p2 < z1) {
      const float(*M)[BX] = S1[(p2 + 2) % 3];
      const float(*C)[BX] = S1[(p2 + 3) % 3];
      const float(*P)[BX] = S1[(p2 + 4) % 3];
      A.wrk2[base + (size_t)p2 * xy] = himeno_tile<BX>(cfp, M, C, P, tx, ty, xm, xp, ym, yp, A.omega, g);
    }
  }
  block_add_gosa<BX * BY>(g, A.gosa);
}

// ------------------------------------------------------------ diffusion, xv
// What a mechanical x-vectorization of the naive kernel can write: a thread
// takes 4 consecutive x cells (nx % 4 == 0) in the z-chunked walk; each
// step tests whether every select of the naive body takes its interior arm
// for all 4 cells and every row of 4 it loads is 16-byte aligned. If so
// (fast path) the rows load as float4 (EXPL = 1; EXPL = 2 also keeps each
// row's last float4 and its index, so a row loaded one plane earlier is
// reused when the index matches) or as scalars the compiler may merge
// (EXPL = 0); otherwise the naive body runs once per cell.
__device__ __forceinline__ float4 xv_ld4(const float* __restrict__ p) { return *reinterpret_cast<const float4*>(p); }
template <int BX, int BY, int U, int EXPL>
__global__ void __launch_bounds__(BX* BY) diff_xv(const float* __restrict__ in, float* __restrict__ out, int nx,
                                                  int ny, int nz, int zch, DiffCoef k) {
  const int i0 = ((int)blockIdx.x * BX + (int)threadIdx.x) * 4;
  const int j = (int)blockIdx.y * BY + (int)threadIdx.y;
  const int xy = nx * ny;
  const int z0 = (int)blockIdx.z * zch;
  int c = i0 + j * nx + z0 * xy;
  int qi0 = -1, qi1 = -1;  // EXPL 2: indices of the kept rows (centre, above)
  float4 qv0 = {0, 0, 0, 0}, qv1 = qv0;
#pragma unroll U
  for (int z = z0; z < nz && z - z0 < zch; ++z) {
    bool fast = i0 + 3 < nx && j < ny;
#pragma unroll
    for (int v = 0; v < 4; ++v) fast = fast && i0 + v != 0 && i0 + v != nx - 1;
    fast = fast && j != 0 && j != ny - 1 && z != 0 && z != nz - 1;
    fast = fast && (c & 3) == 0 && ((c - nx) & 3) == 0 && ((c + nx) & 3) == 0 && ((c - xy) & 3) == 0 &&
           ((c + xy) & 3) == 0;
    if (fast) {
      if (EXPL == 0) {
#pragma unroll
        for (int v = 0; v < 4; ++v)
          out[c + v] = diff_point(k, in[c + v], in[c + v - 1], in[c + v + 1], in[c + v + nx], in[c + v - nx],
                                  in[c + v - xy], in[c + v + xy]);
      } else {
        float4 C, B;
        if (EXPL == 2) {
          C = qi1 == c ? qv1 : xv_ld4(in + c);
          B = qi0 == c - xy ? qv0 : xv_ld4(in + c - xy);
        } else {
          C = xv_ld4(in + c);
          B = xv_ld4(in + c - xy);
        }
        const float4 N = xv_ld4(in + c - nx), S = xv_ld4(in + c + nx), T = xv_ld4(in + c + xy);
        const float W = in[c - 1], E = in[c + 4];
        float4 o;
        o.x = diff_point(k, C.x, W, C.y, S.x, N.x, B.x, T.x);
        o.y = diff_point(k, C.y, C.x, C.z, S.y, N.y, B.y, T.y);
        o.z = diff_point(k, C.z, C.y, C.w, S.z, N.z, B.z, T.z);
        o.w = diff_point(k, C.w, C.z, E, S.w, N.w, B.w, T.w);
        *reinterpret_cast<float4*>(out + c) = o;
        if (EXPL == 2) qi0 = c, qv0 = C, qi1 = c + xy, qv1 = T;
      }
    } else {
#pragma unroll
      for (int v = 0; v < 4; ++v)
        if (i0 + v < nx && j < ny) out[c + v] = diff_cell(k, in, c + v, i0 + v, j, z, nx, ny, nz);
    }
    c += xy;
  }
}
