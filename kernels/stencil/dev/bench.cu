// Check + benchmark harness for the stencil kernels of stencils.cuh.
//   nvcc -O3 -arch=sm_90 -lineinfo -std=c++17 bench.cu -o bench
//   ./bench OUTDIR [reps] [case...]      cases: difftiny diff256 diff512 himT himS himM himL himXL
// For each case: fresh random inputs (seed from the clock, printed), the naive
// kernel as reference (k chained naive sweeps for temporal blocking), every
// variant checked on the device against it (a failing one is reported FAILED
// and not timed), then timed with CUDA events: 2 warm-up launches, L2 flushed
// (256 MiB memset) before each timed launch, median/min/max of `reps`.
// The roof is the copy bandwidth measured in the same run, same method.
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <utility>
#include <string>
#include <vector>

#include "configs.h"
#include "stencils.cuh"

static bool g_sticky = false;  // a launch left the context unusable
static bool ok_(cudaError_t e, const char* what, int line) {
  if (e == cudaSuccess) return true;
  fprintf(stderr, "CUDA error %s at line %d (%s)\n", cudaGetErrorString(e), line, what);
  if (e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure || e == cudaErrorMisalignedAddress ||
      e == cudaErrorIllegalInstruction || e == cudaErrorHardwareStackError)
    g_sticky = true;
  return false;
}
#define OK(x) ok_((x), #x, __LINE__)
#define MUST(x) \
  if (!OK(x)) exit(1)

// Allocates all or nothing, so that a case too big for the device is skipped
// and the run goes on.
static bool alloc_all(std::initializer_list<std::pair<void**, size_t>> bufs) {
  std::vector<void*> got;
  for (auto& b : bufs) {
    if (cudaMalloc(b.first, b.second) != cudaSuccess) {
      cudaGetLastError();
      for (void* p : got) cudaFree(p);
      printf("  skipped: cannot allocate %.2f GB\n", b.second / 1e9);
      return false;
    }
    got.push_back(*b.first);
  }
  return true;
}

static int cdiv(long a, long b) { return (int)((a + b - 1) / b); }

// ------------------------------------------------------------ device helpers
__device__ __forceinline__ unsigned long long mix64(unsigned long long z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
__global__ void fill_rand(float* p, size_t n, unsigned long long seed, float lo, float hi) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const unsigned long long h = mix64(seed + 0x9e3779b97f4a7c15ULL * (i + 1));
    p[i] = lo + (hi - lo) * (float)(h >> 40) * (1.0f / 16777216.0f);
  }
}
struct CmpOut {
  unsigned long long bad, inexact;
  unsigned int maxdiff;  // bits of a non-negative float (NaN counted as +inf)
};
__global__ void compare(const float* __restrict__ r, const float* __restrict__ t, size_t n, float rtol, float atol,
                        CmpOut* o) {
  unsigned long long bad = 0, inexact = 0;
  float md = 0.0f;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const float a = r[i], b = t[i];
    if (__float_as_uint(a) == __float_as_uint(b)) continue;
    ++inexact;
    float d = fabsf(a - b);
    if (!(d <= atol + rtol * fabsf(a))) ++bad;
    if (d != d) d = INFINITY;
    md = fmaxf(md, d);
  }
  if (inexact) {
    atomicAdd(&o->bad, bad);
    atomicAdd(&o->inexact, inexact);
    atomicMax(&o->maxdiff, __float_as_uint(md));
  }
}
__global__ void copy4(const float4* __restrict__ s, float4* __restrict__ d, size_t n4) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
    d[i] = s[i];
}

// ------------------------------------------------------------------ timing
struct Stat {
  float med = 0, mn = 0, mx = 0;
  bool ok = false;
};
static char* g_flush;
#ifndef FLUSH_BYTES
#define FLUSH_BYTES (256ull << 20)
#endif
#ifndef COPY_BYTES
#define COPY_BYTES (1ull << 30)
#endif
static cudaEvent_t e0, e1;
static Stat time_it(const std::function<void()>& pre, const std::function<void()>& launch, int reps) {
  Stat st;
  for (int w = 0; w < 2; ++w) {
    pre();
    launch();
  }
  if (!OK(cudaGetLastError()) || !OK(cudaDeviceSynchronize())) return st;
  std::vector<float> v;
  for (int r = 0; r < reps; ++r) {
    cudaMemsetAsync(g_flush, r & 0xff, FLUSH_BYTES);
    pre();
    cudaEventRecord(e0);
    launch();
    cudaEventRecord(e1);
    if (!OK(cudaEventSynchronize(e1))) return st;
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    v.push_back(ms);
  }
  if (!OK(cudaGetLastError())) return st;
  std::sort(v.begin(), v.end());
  st.med = v[v.size() / 2];
  st.mn = v.front();
  st.mx = v.back();
  st.ok = true;
  return st;
}

// ----------------------------------------------------------------- results
struct Row {
  std::string cas, size, variant, params, status;
  int sweeps;
  Stat st;
  double bytes, flops;  // unique bytes and flops of one sweep
};
static std::vector<Row> g_rows;
static double g_roof = 0;  // GB/s
static FILE* g_csv;
static void emit(const Row& r) {
  g_rows.push_back(r);
  const double per = r.st.med / r.sweeps;  // ms per sweep
  const double gbs = r.st.ok ? r.bytes / (per * 1e6) : 0, gfl = r.st.ok ? r.flops / (per * 1e6) : 0;
  fprintf(g_csv, "%s,%s,%s,\"%s\",%d,%s,%.5f,%.5f,%.5f,%.5f,%.1f,%.1f,%.3f\n", r.cas.c_str(), r.size.c_str(),
          r.variant.c_str(), r.params.c_str(), r.sweeps, r.status.c_str(), r.st.med, r.st.mn, r.st.mx, per, gbs, gfl,
          gbs / g_roof);
  fflush(g_csv);
  printf("  %-6s %-28s %-7s %9.4f ms (min %.4f max %.4f) %7.1f GB/s %.3f roof\n", r.variant.c_str(),
         r.params.c_str(), r.status.c_str(), r.st.med, r.st.mn, r.st.mx, gbs, gbs / g_roof);
  fflush(stdout);
}

// A variant: launches `sweeps` sweeps from the case's input into its output.
struct Variant {
  std::string name, params;
  int sweeps;
  std::function<bool()> applicable;
  std::function<void()> launch;
};

// check: output buffer initialised by `init`, one launch, compare with ref
static std::string check(const Variant& v, float* out, size_t n, const float* ref, float rtol, float atol,
                         const std::function<void()>& init, const std::function<void()>& pre, CmpOut* dcmp,
                         std::string& detail) {
  if (g_sticky) return "SKIPPED";
  init();
  pre();
  v.launch();
  if (!OK(cudaGetLastError()) || !OK(cudaDeviceSynchronize())) return "ERROR";
  OK(cudaMemset(dcmp, 0, sizeof(CmpOut)));
  compare<<<1024, 256>>>(ref, out, n, rtol, atol, dcmp);
  CmpOut h;
  if (!OK(cudaMemcpy(&h, dcmp, sizeof h, cudaMemcpyDeviceToHost))) return "ERROR";
  float md;
  memcpy(&md, &h.maxdiff, 4);
  char buf[160];
  snprintf(buf, sizeof buf, "%llu/%zu not bit-equal, %llu beyond tolerance, max abs diff %.3g", h.inexact, n, h.bad,
           md);
  detail = buf;
  return h.bad ? "FAILED" : "ok";
}

static unsigned long long g_seed;
static int g_reps;

// -------------------------------------------------------------- diffusion
struct DiffCase {
  int nx, ny, nz;
  float *in, *out;
  DiffCoef k;
};
static DiffCase D;

#define V_ZREG(BX, BY, ZC, RY, PF)                                                                            \
  vs.push_back({"zreg", "BX=" #BX " BY=" #BY " ZCH=" #ZC " RY=" #RY " PF=" #PF, 1, [] { return true; }, [] {              \
                  dim3 g(cdiv(D.nx, BX), cdiv(D.ny, BY * RY), cdiv(D.nz, ZC));                                 \
                  diff_zreg<BX, BY, ZC, RY, PF><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, D.k);          \
                }});
#define V_ZVEC(BX, BY, ZC, PF)                                                                                \
  vs.push_back({"zvec", "BX=" #BX " BY=" #BY " ZCH=" #ZC " PF=" #PF " (float4)", 1, [] { return D.nx % 4 == 0; }, [] {     \
                  dim3 g(cdiv(D.nx / 4, BX), cdiv(D.ny, BY), cdiv(D.nz, ZC));                                  \
                  diff_zvec<BX, BY, ZC, PF><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, D.k);              \
                }});
#define V_XCO(BX, BY, ZC)                                                                                     \
  vs.push_back({"xco", "BX=" #BX " BY=" #BY " ZCH=" #ZC " (4 x cells, compiler-vectorized)", 1,                    \
                [] { return D.nx % 4 == 0 && fits_int32(); }, [] {                                            \
                  dim3 g(cdiv(D.nx / 4, BX), cdiv(D.ny, BY), cdiv(D.nz, ZC));                                  \
                  diff_xco<BX, BY, ZC><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, D.k);                   \
                }});
#define V_SMEM(BX, BY, ZC, PF)                                                                                \
  vs.push_back({"smem", "BX=" #BX " BY=" #BY " ZCH=" #ZC " PF=" #PF, 1, [] { return true; }, [] {                         \
                  dim3 g(cdiv(D.nx, BX), cdiv(D.ny, BY), cdiv(D.nz, ZC));                                      \
                  diff_smem<BX, BY, ZC, PF><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, D.k);              \
                }});
#define V_TB(BX, BY, T, ZC, PF)                                                                               \
  vs.push_back({"tb", "BX=" #BX " BY=" #BY " T=" #T " ZCH=" #ZC " PF=" #PF, T, [] { return true; }, [] {                  \
                  dim3 g(cdiv(D.nx, BX - 2 * T), cdiv(D.ny, BY - 2 * T), cdiv(D.nz, ZC));                      \
                  diff_tb<BX, BY, T, ZC, PF><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, D.k);             \
                }});

// The chunk length that balances the SMs: the grid has cols columns of
// blocks, each cut into chunks of zch planes, and a block also reads (single
// sweep) or recomputes (temporal blocking) `halo` planes beyond its chunk.
// Minimises the planes the busiest SM streams (blocks spread evenly over the
// SMs), scaled up when the grid has fewer blocks than fit at once (fewer
// loads in flight), since shorter chunks cost more halo and a last partial
// round leaves SMs idle.
static int g_sms = 1;
static int wave_zch(long cols, int nz, int slots, int halo) {
  int best = nz;
  double bc = 1e300;
  for (int c = 1; c <= nz; ++c) {
    const int zch = cdiv(nz, c);
    const long blocks = cols * cdiv(nz, zch);
    const double cost = (double)cdiv(blocks, g_sms) * (zch + halo) * std::max(1.0, (double)slots / blocks);
    if (cost < bc) bc = cost, best = zch;
  }
  return best;
}
template <class K> static int slots_of(K kern, int threads, size_t smem = 0) {
  int n = 0;
  if (!OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kern, threads, smem))) n = 1;
  return std::max(n, 1) * g_sms;
}
// The most dynamic shared memory one block may ask for on this device.
static size_t smem_optin() {
  int v = 0;
  if (!OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0))) v = 48 << 10;
  return (size_t)v;
}
static bool fits_int32() { return (size_t)D.nx * D.ny * D.nz < (1ull << 31); }

// ZC = 0: the chunk length from wave_zch
#define V_ZR(BX, BY, RY, ZC, PF)                                                                                  \
  {                                                                                                               \
    const int zch = ZC > 0 ? ZC                                                                                   \
                           : wave_zch((long)cdiv(D.nx, BX) * cdiv(D.ny, BY * RY), D.nz,                           \
                                      slots_of(diff_zr<BX, BY, RY, PF>, BX * BY), 2);                             \
    vs.push_back({"zr",                                                                                           \
                  "BX=" #BX " BY=" #BY " RY=" #RY " ZCH=" + std::to_string(zch) + (ZC > 0 ? "" : " (waves)") +    \
                      " PF=" #PF,                                                                                 \
                  1, fits_int32, [zch] {                                                                          \
                    dim3 g(cdiv(D.nx, BX), cdiv(D.ny, BY * RY), cdiv(D.nz, zch));                                 \
                    diff_zr<BX, BY, RY, PF><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, zch, D.k);        \
                  }});                                                                                            \
  }
#define V_ZR4(BX, BY, ZC, PF)                                                                                     \
  {                                                                                                               \
    const int zch = ZC > 0 ? ZC                                                                                   \
                           : wave_zch((long)cdiv(D.nx / 4, BX) * cdiv(D.ny, BY), D.nz,                            \
                                      slots_of(diff_zr4<BX, BY, PF>, BX * BY), 2);                                \
    vs.push_back({"zr4",                                                                                          \
                  "BX=" #BX " BY=" #BY " ZCH=" + std::to_string(zch) + (ZC > 0 ? "" : " (waves)") + " PF=" #PF + \
                      " (float4)",                                                                                \
                  1, [] { return D.nx % 4 == 0 && fits_int32(); }, [zch] {                                        \
                    dim3 g(cdiv(D.nx / 4, BX), cdiv(D.ny, BY), cdiv(D.nz, zch));                                  \
                    diff_zr4<BX, BY, PF><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, zch, D.k);           \
                  }});                                                                                            \
  }
#define V_TB1(BX, BY, RY, T, ZC, PF)                                                                              \
  {                                                                                                               \
    const int zch = ZC > 0 ? ZC                                                                                   \
                           : wave_zch((long)cdiv(D.nx, BX - 2 * T) * cdiv(D.ny, BY * RY - 2 * T), D.nz,           \
                                      slots_of(diff_tb1<BX, BY, RY, T, PF>, BX * BY), 2 * T);                     \
    vs.push_back({"tb1",                                                                                          \
                  "BX=" #BX " BY=" #BY " RY=" #RY " T=" #T " ZCH=" + std::to_string(zch) +                        \
                      (ZC > 0 ? "" : " (waves)") + " PF=" #PF,                                                    \
                  T, fits_int32, [zch] {                                                                          \
                    dim3 g(cdiv(D.nx, BX - 2 * T), cdiv(D.ny, BY * RY - 2 * T), cdiv(D.nz, zch));                 \
                    diff_tb1<BX, BY, RY, T, PF><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, zch, D.k);    \
                  }});                                                                                            \
  }

#define V_TBV(V, BY, RY, T, ZC, PF)                                                                               \
  {                                                                                                               \
    constexpr int W = 32 * V, HH = BY * RY, HX = (T + V - 1) / V * V;                                             \
    constexpr size_t SM = (size_t)T * 2 * BY * 2 * W * 4;                                                         \
    OK(cudaFuncSetAttribute(diff_tbv<V, BY, RY, T, PF>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SM));   \
    const long gxs = D.nx <= W ? 1 : cdiv(D.nx, W - 2 * HX), gys = D.ny <= HH ? 1 : cdiv(D.ny, HH - 2 * T);       \
    const int zch = ZC > 0 ? ZC                                                                                   \
                           : wave_zch(gxs * gys, D.nz, slots_of(diff_tbv<V, BY, RY, T, PF>, 32 * BY, SM), 2 * T);     \
    vs.push_back({"tbv",                                                                                          \
                  "V=" #V " BY=" #BY " RY=" #RY " T=" #T " ZCH=" + std::to_string(zch) +                          \
                      (ZC > 0 ? "" : " (waves)") + " PF=" #PF,                                                    \
                  T, [] { return D.nx % V == 0 && fits_int32() && SM <= smem_optin(); }, [zch, gxs, gys] {                               \
                    dim3 g(gxs, gys, cdiv(D.nz, zch));                                                            \
                    diff_tbv<V, BY, RY, T, PF><<<g, dim3(32, BY), SM>>>(D.in, D.out, D.nx, D.ny, D.nz, zch, D.k);     \
                  }});                                                                                            \
  }
#define V_CX(BX, BY, CX, CONTIG, ZC)                                                                              \
  vs.push_back({"cx",                                                                                             \
                "BX=" #BX " BY=" #BY " CX=" #CX " ZCH=" #ZC + std::string(CONTIG ? " contiguous" : " strided"), 1, \
                [] { return (!CONTIG || D.nx % CX == 0) && fits_int32(); }, [] {                                 \
                  dim3 g(cdiv(D.nx, BX * CX), cdiv(D.ny, BY), cdiv(D.nz, ZC));                                    \
                  diff_cx<BX, BY, CX, CONTIG><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, ZC, D.k);       \
                }});

#define V_XV(BX, BY, U, EXPL, ZC)                                                                               \
  vs.push_back({"xv", "BX=" #BX " BY=" #BY " U=" #U " EXPL=" #EXPL " ZCH=" #ZC, 1,                                 \
                [] { return D.nx % 4 == 0 && fits_int32(); }, [] {                                                \
                  dim3 g(cdiv(D.nx / 4, BX), cdiv(D.ny, BY), cdiv(D.nz, ZC));                                    \
                  diff_xv<BX, BY, U, EXPL><<<g, dim3(BX, BY)>>>(D.in, D.out, D.nx, D.ny, D.nz, ZC, D.k);         \
                }});

// ONLY=name,name,... runs only those variants (all when unset).
static bool selected(const std::string& name) {
  const char* only = getenv("ONLY");
  if (!only || !*only) return true;
  const std::string list = std::string(",") + only + ",";
  return list.find("," + name + ",") != std::string::npos;
}

static void naive_diff(float* in, float* out) {
  diff_naive<<<dim3(D.nx / 32, D.ny / 8), dim3(32, 8)>>>(in, out, D.nx, D.ny, D.nz, D.k.ce, D.k.cw, D.k.cn, D.k.cs,
                                                          D.k.ct, D.k.cb, D.k.cc);
}

static void run_diffusion(int nx, int ny, int nz, CmpOut* dcmp) {
  char size[64];
  snprintf(size, sizeof size, "%dx%dx%d", nx, ny, nz);
  printf("\n## diffusion %s\n", size);
  if (nx % 32 || ny % 8) {
    printf("  size must be a multiple of 32x8 in x, y for the naive launch; skipped\n");
    return;
  }
  const size_t n = (size_t)nx * ny * nz;
  D.nx = nx, D.ny = ny, D.nz = nz;
  D.k = {0.11f, 0.13f, 0.12f, 0.1f, 0.14f, 0.09f, 0.31f};
  float *in, *out, *ref[5];
  if (!alloc_all({{(void**)&in, n * 4}, {(void**)&out, n * 4}, {(void**)&ref[1], n * 4}, {(void**)&ref[2], n * 4},
                  {(void**)&ref[3], n * 4}, {(void**)&ref[4], n * 4}}))
    return;
  ref[0] = in;
  fill_rand<<<2048, 256>>>(in, n, g_seed ^ 0xd1ffULL, 0.0f, 1.0f);
  for (int s = 1; s <= 4; ++s) naive_diff(ref[s - 1], ref[s]);
  MUST(cudaDeviceSynchronize());
  D.in = in, D.out = out;
  const double bytes = 8.0 * n, flops = 13.0 * n;
  auto nop = [] {};
  Row base{"diffusion", size, "naive", "32x8 column walk", "ref", 1, {}, bytes, flops};
  base.st = time_it(nop, [&] { naive_diff(D.in, D.out); }, g_reps);
  emit(base);
  std::vector<Variant> vs;
  DIFF_ZREG(V_ZREG)
  DIFF_ZVEC(V_ZVEC)
  DIFF_XCO(V_XCO)
  DIFF_SMEM(V_SMEM)
  DIFF_TB(V_TB)
  DIFF_ZR(V_ZR)
  DIFF_ZR4(V_ZR4)
  DIFF_TB1(V_TB1)
  DIFF_TBV(V_TBV)
  DIFF_CX(V_CX)
  DIFF_XV(V_XV)
  for (auto& v : vs) {
    if (!v.applicable() || !selected(v.name)) continue;
    std::string detail;
    // same summation order as naive: bit-equal unless FMA contraction differs
    // output preset to NaN bits: a cell not written cannot pass
    const std::string st =
        check(v, out, n, ref[v.sweeps], 1e-5f, 1e-6f, [&] { OK(cudaMemset(out, 0xff, n * 4)); }, nop, dcmp, detail);
    printf("  check %-6s %-28s %s: %s\n", v.name.c_str(), v.params.c_str(), st.c_str(), detail.c_str());
    Row r{"diffusion", size, v.name, v.params, st, v.sweeps, {}, bytes, flops};
    if (st == "ok") r.st = time_it(nop, v.launch, g_reps);
    if (st == "ok" && !r.st.ok) r.status = "ERROR";
    emit(r);
  }
  for (float* p : {in, out, ref[1], ref[2], ref[3], ref[4]}) cudaFree(p);
}

// ------------------------------------------------------------------ Himeno
static HimenoArgs H;
static float* g_gcol;  // the naive kernel's per-column residuals

#define V_HZREG(BX, BY, ZC, U)                                                                    \
  vs.push_back({"zreg", "BX=" #BX " BY=" #BY " ZCH=" #ZC " UNR=" #U, 1, [] { return true; }, [] { \
                  dim3 g(cdiv(H.nx - 2, BX), cdiv(H.ny - 2, BY), cdiv(H.nz - 2, ZC));              \
                  himeno_zreg<BX, BY, ZC, U><<<g, dim3(BX, BY)>>>(H);                              \
                }});
#define V_HSMEM(BX, BY, ZC)                                                              \
  vs.push_back({"smem", "BX=" #BX " BY=" #BY " ZCH=" #ZC, 1, [] { return true; }, [] { \
                  dim3 g(cdiv(H.nx - 2, BX), cdiv(H.ny - 2, BY), cdiv(H.nz - 2, ZC));     \
                  himeno_smem<BX, BY, ZC><<<g, dim3(BX, BY)>>>(H);                        \
                }});
#define V_HTB2(BX, BY, ZC)                                                                        \
  vs.push_back({"tb2", "BX=" #BX " BY=" #BY " ZCH=" #ZC " T=2", 2, [] { return true; }, [] {      \
                  dim3 g(cdiv(H.nx - 2, BX - 4), cdiv(H.ny - 2, BY - 4), cdiv(H.nz - 2, ZC));      \
                  himeno_tb2<BX, BY, ZC><<<g, dim3(BX, BY)>>>(H);                                  \
                }});

static void naive_him() {
  himeno_naive<<<dim3(cdiv(H.nx - 2, 32), cdiv(H.ny - 2, 8)), dim3(32, 8)>>>(
      (float*)H.p, (float*)H.a, (float*)H.b, (float*)H.c, (float*)H.wrk1, (float*)H.bnd, H.wrk2, g_gcol, H.nx, H.ny,
      H.nz, H.omega);
}

// Himeno's grid mimax x mjmax x mkmax; k is the fastest index, so x = k.
static void run_himeno(const char* name, int mi, int mj, int mk, int reps, CmpOut* dcmp) {
  const int nx = mk, ny = mj, nz = mi;
  char size[96];
  snprintf(size, sizeof size, "%s %dx%dx%d", name, mi, mj, mk);
  printf("\n## himeno %s (x=%d y=%d z=%d)\n", size, nx, ny, nz);
  const size_t n = (size_t)nx * ny * nz, cols = (size_t)nx * ny;
  const size_t inner = (size_t)(nx - 2) * (ny - 2) * (nz - 2);
  float *p, *a, *b, *c, *w1, *bnd, *w2ref, *w2ref2, *w2;
  double* dg;
  if (!alloc_all({{(void**)&p, n * 4}, {(void**)&a, 4 * n * 4}, {(void**)&b, 3 * n * 4}, {(void**)&c, 3 * n * 4},
                  {(void**)&w1, n * 4}, {(void**)&bnd, n * 4}, {(void**)&w2ref, n * 4}, {(void**)&w2ref2, n * 4},
                  {(void**)&w2, n * 4}, {(void**)&g_gcol, cols * 4}, {(void**)&dg, 8}}))
    return;
  unsigned long long s = g_seed ^ 0x41e0ULL;
  fill_rand<<<4096, 256>>>(p, n, s + 1, 0.0f, 1.0f);
  fill_rand<<<4096, 256>>>(a, 4 * n, s + 2, 0.0f, 1.0f);
  fill_rand<<<4096, 256>>>(b, 3 * n, s + 3, -0.5f, 0.5f);
  fill_rand<<<4096, 256>>>(c, 3 * n, s + 4, 0.0f, 1.0f);
  fill_rand<<<4096, 256>>>(w1, n, s + 5, 0.0f, 0.1f);
  fill_rand<<<4096, 256>>>(bnd, n, s + 6, 0.0f, 1.0f);
  // the benchmark's loop: wrk2 holds p's boundary, and p takes wrk2 after a
  // sweep; the reference is one naive sweep, and a second one from its result
  auto naive_sum = [&](const float* pin, float* wout, double& gsum) {
    MUST(cudaMemcpy(wout, p, n * 4, cudaMemcpyDeviceToDevice));
    MUST(cudaMemset(g_gcol, 0, cols * 4));
    H = {pin, a, b, c, w1, bnd, wout, dg, nx, ny, nz, 0.8f};
    naive_him();
    MUST(cudaGetLastError());
    MUST(cudaDeviceSynchronize());
    std::vector<float> gc(cols);
    MUST(cudaMemcpy(gc.data(), g_gcol, cols * 4, cudaMemcpyDeviceToHost));
    gsum = 0;
    for (float g : gc) gsum += g;
  };
  double gref1, gref2;
  naive_sum(p, w2ref, gref1);
  naive_sum(w2ref, w2ref2, gref2);
  H = {p, a, b, c, w1, bnd, w2ref, dg, nx, ny, nz, 0.8f};
  printf("  naive gosa: sweep 1 %.9g, sweep 2 %.9g\n", gref1, gref2);
  // 12 coefficient arrays (a0..a3, b0..b2, c0..c2, wrk1, bnd) and p read, wrk2 written
  const double bytes = 56.0 * inner, flops = 34.0 * inner;
  Row base{"himeno", size, "naive", "32x8 column walk", "ref", 1, {}, bytes, flops};
  base.st = time_it([] {}, naive_him, reps);
  emit(base);
  H.wrk2 = w2;
  auto pre = [dg] { cudaMemsetAsync(dg, 0, 8); };
  std::vector<Variant> vs;
  HIM_ZREG(V_HZREG)
  HIM_SMEM(V_HSMEM)
  HIM_TB2(V_HTB2)
  for (auto& v : vs) {
    std::string detail;
    const double gref = v.sweeps == 2 ? gref2 : gref1;
    // wrk2 preset to p (the boundary the kernels leave alone; an interior cell
    // not written keeps p and fails). Same summation order as naive;
    // cancellation in the b terms makes an absolute floor necessary when FMA
    // contraction differs.
    std::string st = check(v, w2, n, v.sweeps == 2 ? w2ref2 : w2ref, 1e-5f, 1e-5f,
                           [&] { OK(cudaMemcpy(w2, p, n * 4, cudaMemcpyDeviceToDevice)); }, pre, dcmp, detail);
    if (st == "ok" || st == "FAILED") {
      double g = 0;
      OK(cudaMemcpy(&g, dg, 8, cudaMemcpyDeviceToHost));
      const double rel = fabs(g - gref) / fabs(gref);
      char buf[96];
      snprintf(buf, sizeof buf, "; gosa %.9g rel diff %.2e", g, rel);
      detail += buf;
      if (!(rel < 1e-4)) st = "FAILED";
    }
    printf("  check %-6s %-28s %s: %s\n", v.name.c_str(), v.params.c_str(), st.c_str(), detail.c_str());
    Row r{"himeno", size, v.name, v.params, st, v.sweeps, {}, bytes, flops};
    if (st == "ok") r.st = time_it(pre, v.launch, reps);
    if (st == "ok" && !r.st.ok) r.status = "ERROR";
    emit(r);
  }
  for (void* q : {(void*)p, (void*)a, (void*)b, (void*)c, (void*)w1, (void*)bnd, (void*)w2ref, (void*)w2ref2, (void*)w2,
                  (void*)g_gcol, (void*)dg})
    cudaFree(q);
}

// -------------------------------------------------------------------- main
static void markdown(FILE* f) {
  fprintf(f, "Roof: measured copy bandwidth %.1f GB/s. Seed %llu.\n", g_roof, g_seed);
  std::string cur;
  for (size_t i = 0; i < g_rows.size(); ++i) {
    const Row& r = g_rows[i];
    const std::string key = r.cas + " " + r.size;
    if (key != cur) {
      cur = key;
      fprintf(f, "\n### %s (%s bytes/point)\n\n", key.c_str(), r.cas == "diffusion" ? "8" : "56");
      fprintf(f, "| variant | parameters | sweeps | ms/launch (min-max) | ms/sweep | GB/s | GFLOP/s | roof | vs naive "
                 "|\n|---|---|---|---|---|---|---|---|---|\n");
    }
    double naive = 0;
    for (const Row& q : g_rows)
      if (q.cas == r.cas && q.size == r.size && q.variant == "naive") naive = q.st.med;
    if (!r.st.ok) {
      fprintf(f, "| %s | %s | %d | %s | | | | | |\n", r.variant.c_str(), r.params.c_str(), r.sweeps,
              r.status.c_str());
      continue;
    }
    const double per = r.st.med / r.sweeps;
    fprintf(f, "| %s | %s | %d | %.4f (%.4f-%.4f) | %.4f | %.0f | %.0f | %.3f | %.2fx |\n", r.variant.c_str(),
            r.params.c_str(), r.sweeps, r.st.med, r.st.mn, r.st.mx, per, r.bytes / (per * 1e6),
            r.flops / (per * 1e6), r.bytes / (per * 1e6) / g_roof, naive / per);
  }
  fprintf(f, "\n### Best per case (time per sweep)\n\n| case | best single sweep | roof | best temporal blocking | "
             "roof (effective) | TB vs best single |\n|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < g_rows.size(); ++i) {
    if (g_rows[i].variant != "naive") continue;
    const Row* bs = nullptr;
    const Row* bt = nullptr;
    for (const Row& q : g_rows) {
      if (q.cas != g_rows[i].cas || q.size != g_rows[i].size || !q.st.ok) continue;
      const Row*& best = q.sweeps > 1 ? bt : bs;
      if (!best || q.st.med / q.sweeps < best->st.med / best->sweeps) best = &q;
    }
    if (!bs) continue;
    const double ps = bs->st.med;
    fprintf(f, "| %s %s | %s %s: %.4f ms | %.3f |", bs->cas.c_str(), bs->size.c_str(), bs->variant.c_str(),
            bs->params.c_str(), ps, bs->bytes / (ps * 1e6) / g_roof);
    if (bt) {
      const double pt = bt->st.med / bt->sweeps;
      fprintf(f, " %s %s: %.4f ms/sweep | %.3f | %.2fx |\n", bt->variant.c_str(), bt->params.c_str(), pt,
              bt->bytes / (pt * 1e6) / g_roof, ps / pt);
    } else {
      fprintf(f, " - | - | - |\n");
    }
  }
}

int main(int argc, char** argv) {
  const std::string outdir = argc > 1 ? argv[1] : ".";
  g_reps = argc > 2 ? atoi(argv[2]) : 30;
  std::vector<std::string> cases;
  for (int i = 3; i < argc; ++i) cases.push_back(argv[i]);
  auto want = [&](const char* c) { return cases.empty() || std::find(cases.begin(), cases.end(), c) != cases.end(); };
  g_seed = (unsigned long long)std::chrono::system_clock::now().time_since_epoch().count();
  cudaDeviceProp prop;
  MUST(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  printf("device: %s, %d SMs, %.1f GiB, seed %llu, reps %d\n", prop.name, prop.multiProcessorCount,
         prop.totalGlobalMem / 1073741824.0, g_seed, g_reps);
  g_csv = fopen((outdir + "/results.csv").c_str(), "w");
  if (!g_csv) {
    fprintf(stderr, "cannot write %s/results.csv\n", outdir.c_str());
    return 1;
  }
  fprintf(g_csv, "case,size,variant,params,sweeps,status,ms_med,ms_min,ms_max,ms_per_sweep,GBps,GFLOPps,roof_frac\n");
  MUST(cudaMalloc(&g_flush, FLUSH_BYTES));
  MUST(cudaEventCreate(&e0));
  MUST(cudaEventCreate(&e1));
  CmpOut* dcmp;
  MUST(cudaMalloc(&dcmp, sizeof(CmpOut)));

  // the roof: copy 1 GiB device to device (2 GiB moved), kernel and memcpy
  {
    const size_t cb = COPY_BYTES;
    float *s, *d;
    MUST(cudaMalloc(&s, cb));
    MUST(cudaMalloc(&d, cb));
    fill_rand<<<4096, 256>>>(s, cb / 4, g_seed, 0.f, 1.f);
    const int nb = prop.multiProcessorCount * 8;
    Stat k = time_it([] {}, [&] { copy4<<<nb, 256>>>((const float4*)s, (float4*)d, cb / 16); }, g_reps);
    Stat m = time_it([] {}, [&] { cudaMemcpyAsync(d, s, cb, cudaMemcpyDeviceToDevice); }, g_reps);
    const double bk = 2.0 * cb / (k.med * 1e6), bm = 2.0 * cb / (m.med * 1e6);
    g_roof = std::max(bk, bm);
    printf("copy bandwidth: kernel %.1f GB/s (%.4f ms, min %.4f max %.4f), memcpy %.1f GB/s; roof %.1f GB/s\n", bk,
           k.med, k.mn, k.mx, bm, g_roof);
    fprintf(g_csv, "copy,%zuMiB,kernel,float4 grid-stride,1,ok,%.5f,%.5f,%.5f,%.5f,%.1f,0,%.3f\n", cb >> 20, k.med, k.mn, k.mx,
            k.med, bk, bk / g_roof);
    fprintf(g_csv, "copy,%zuMiB,memcpy,cudaMemcpyDtoD,1,ok,%.5f,%.5f,%.5f,%.5f,%.1f,0,%.3f\n", cb >> 20, m.med, m.mn, m.mx,
            m.med, bm, bm / g_roof);
    cudaFree(s);
    cudaFree(d);
  }
  // small odd-shaped cases first: partial tiles and chunks everywhere
  if (want("difftiny")) run_diffusion(64, 16, 21, dcmp);
  if (want("diff256")) run_diffusion(256, 256, 256, dcmp);
  if (want("diff512")) run_diffusion(512, 512, 512, dcmp);
  if (want("himT")) run_himeno("T", 13, 18, 37, g_reps, dcmp);
  if (want("himS")) run_himeno("S", 65, 65, 129, g_reps, dcmp);
  if (want("himM")) run_himeno("M", 129, 129, 257, g_reps, dcmp);
  if (want("himL")) run_himeno("L", 257, 257, 513, g_reps, dcmp);
  if (want("himXL")) run_himeno("XL", 513, 513, 1025, std::max(10, std::min(g_reps, 30)), dcmp);
  fclose(g_csv);
  FILE* md = fopen((outdir + "/results.md").c_str(), "w");
  if (md) {
    fprintf(md, "# Stencil kernels on %s\n\n", prop.name);
    markdown(md);
    fclose(md);
  }
  printf("\n");
  markdown(stdout);
  return g_sticky ? 2 : 0;
}
