// CPU emulation of the kernels in stencils.cuh: every CUDA thread of a block
// is a std::thread, __syncthreads a barrier, shuffles go through a block
// buffer; blocks run one after another. Checks each variant against a plain
// CPU reference at small odd sizes (partial tiles, chunk edges, grid edges).
//   g++ -std=c++20 -O1 -ffp-contract=off -pthread emu.cpp -o emu && ./emu
#include "emu_cuda.h"
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>
#include "stencils.cuh"

static void launch(dim3 g, dim3 b, std::function<void()> body) { emu_launch(g, b, "kernel", body); }
static int cdiv(int a, int b) { return (a + b - 1) / b; }
static int fails = 0;
static void report(const char* name, const std::vector<float>& r, const std::vector<float>& t) {
  size_t bad = 0;
  for (size_t i = 0; i < r.size(); ++i)
    if (memcmp(&r[i], &t[i], 4)) ++bad;
  printf("%-36s %s (%zu of %zu differ)\n", name, bad ? "FAIL" : "ok, bit-exact", bad, r.size());
  fails += bad != 0;
}

int main() {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> U(0.f, 1.f);
  // ---- diffusion: nx multiple of 4 for the float4 variant
  const int nx = 44, ny = 21, nz = 13;
  const size_t N = (size_t)nx * ny * nz;
  std::vector<float> in(N), ref(N), ref2(N), ref3(N), ref4(N), out(N);
  for (auto& v : in) v = U(rng);
  DiffCoef k{0.11f, 0.13f, 0.12f, 0.1f, 0.14f, 0.09f, 0.31f};
  auto naive = [&](std::vector<float>& src, std::vector<float>& dst) {
    launch({(unsigned)cdiv(nx, 4), (unsigned)cdiv(ny, 3), 1}, {4, 3, 1}, [&] {
      int i = blockIdx.x * 4 + threadIdx.x, j = blockIdx.y * 3 + threadIdx.y;
      if (i < nx && j < ny) diff_naive(src.data(), dst.data(), nx, ny, nz, k.ce, k.cw, k.cn, k.cs, k.ct, k.cb, k.cc);
    });
  };
  naive(in, ref);
  // independent scalar reference for the naive kernel itself
  {
    std::vector<float> r(N);
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          auto at = [&](int a, int b, int c) { return in[a + (size_t)b * nx + (size_t)c * nx * ny]; };
          r[x + (size_t)y * nx + (size_t)z * nx * ny] =
              k.cc * at(x, y, z) + k.cw * at(x ? x - 1 : x, y, z) + k.ce * at(x < nx - 1 ? x + 1 : x, y, z) +
              k.cs * at(x, y < ny - 1 ? y + 1 : y, z) + k.cn * at(x, y ? y - 1 : y, z) +
              k.cb * at(x, y, z ? z - 1 : z) + k.ct * at(x, y, z < nz - 1 ? z + 1 : z);
        }
    report("diff naive vs loop reference", r, ref);
  }
  naive(ref, ref2);
  naive(ref2, ref3);
  naive(ref3, ref4);
#define ZREG(BX, BY, ZC, RY, PF)                                                                             \
  std::fill(out.begin(), out.end(), NAN);                                                               \
  launch({(unsigned)cdiv(nx, BX), (unsigned)cdiv(ny, BY * RY), (unsigned)cdiv(nz, ZC)}, {BX, BY, 1},    \
         [&] { diff_zreg<BX, BY, ZC, RY, PF>(in.data(), out.data(), nx, ny, nz, k); });                       \
  report("diff_zreg<" #BX "," #BY "," #ZC "," #RY "," #PF ">", ref, out);
  ZREG(8, 4, 5, 1, 1) ZREG(8, 2, 4, 3, 2) ZREG(16, 4, 13, 2, 4) ZREG(8, 4, 1, 1, 3) ZREG(8, 4, 20, 1, 2)
#define ZVEC(BX, BY, ZC, PF)                                                                              \
  std::fill(out.begin(), out.end(), NAN);                                                            \
  launch({(unsigned)cdiv(nx / 4, BX), (unsigned)cdiv(ny, BY), (unsigned)cdiv(nz, ZC)}, {BX, BY, 1}, \
         [&] { diff_zvec<BX, BY, ZC, PF>(in.data(), out.data(), nx, ny, nz, k); });                     \
  report("diff_zvec<" #BX "," #BY "," #ZC "," #PF ">", ref, out);
  ZVEC(32, 2, 5, 1) ZVEC(32, 2, 4, 3) ZVEC(32, 3, 13, 2)
#define SMEM(BX, BY, ZC, PF)                                                                          \
  std::fill(out.begin(), out.end(), NAN);                                                        \
  launch({(unsigned)cdiv(nx, BX), (unsigned)cdiv(ny, BY), (unsigned)cdiv(nz, ZC)}, {BX, BY, 1}, \
         [&] { diff_smem<BX, BY, ZC, PF>(in.data(), out.data(), nx, ny, nz, k); });                 \
  report("diff_smem<" #BX "," #BY "," #ZC "," #PF ">", ref, out);
  SMEM(8, 4, 5, 1) SMEM(16, 8, 13, 3) SMEM(8, 4, 2, 2)
#define TB(BX, BY, T, ZC, PF, R)                                                                              \
  std::fill(out.begin(), out.end(), NAN);                                                                \
  launch({(unsigned)cdiv(nx, BX - 2 * T), (unsigned)cdiv(ny, BY - 2 * T), (unsigned)cdiv(nz, ZC)},      \
         {BX, BY, 1}, [&] { diff_tb<BX, BY, T, ZC, PF>(in.data(), out.data(), nx, ny, nz, k); });             \
  report("diff_tb<" #BX "," #BY "," #T "," #ZC "," #PF ">", R, out);
  TB(8, 8, 2, 4, 1, ref2) TB(16, 8, 2, 13, 2, ref2) TB(12, 10, 3, 3, 3, ref3) TB(8, 6, 2, 1, 2, ref2) TB(12, 12, 4, 5, 2, ref4) TB(16, 10, 4, 13, 1, ref4)

#define ZR(BX, BY, RY, ZC, PF)                                                                            \
  std::fill(out.begin(), out.end(), NAN);                                                              \
  launch({(unsigned)cdiv(nx, BX), (unsigned)cdiv(ny, BY * RY), (unsigned)cdiv(nz, ZC)}, {BX, BY, 1},   \
         [&] { diff_zr<BX, BY, RY, PF>(in.data(), out.data(), nx, ny, nz, ZC, k); });                  \
  report("diff_zr<" #BX "," #BY "," #RY "," #PF "> zch " #ZC, ref, out);
  ZR(8, 4, 1, 5, 1) ZR(8, 2, 3, 4, 2) ZR(16, 4, 2, 13, 4) ZR(8, 4, 1, 1, 3) ZR(8, 4, 1, 20, 6) ZR(16, 2, 2, 3, 2)
  ZR(64, 1, 1, 7, 8)
#define ZR4(BX, BY, ZC, PF)                                                                                \
  std::fill(out.begin(), out.end(), NAN);                                                             \
  launch({(unsigned)cdiv(nx / 4, BX), (unsigned)cdiv(ny, BY), (unsigned)cdiv(nz, ZC)}, {BX, BY, 1},  \
         [&] { diff_zr4<BX, BY, PF>(in.data(), out.data(), nx, ny, nz, ZC, k); });                    \
  report("diff_zr4<" #BX "," #BY "," #PF "> zch " #ZC, ref, out);
  ZR4(32, 2, 5, 1) ZR4(32, 2, 4, 3) ZR4(32, 3, 13, 2) ZR4(32, 1, 1, 4) ZR4(64, 2, 20, 2)
#define TB1(BX, BY, RY, T, ZC, PF, R)                                                                            \
  std::fill(out.begin(), out.end(), NAN);                                                                   \
  launch({(unsigned)cdiv(nx, BX - 2 * T), (unsigned)cdiv(ny, BY * RY - 2 * T), (unsigned)cdiv(nz, ZC)},    \
         {BX, BY, 1}, [&] { diff_tb1<BX, BY, RY, T, PF>(in.data(), out.data(), nx, ny, nz, ZC, k); });       \
  report("diff_tb1<" #BX "," #BY "," #RY "," #T "," #PF "> zch " #ZC, R, out);
  TB1(8, 8, 1, 2, 4, 1, ref2) TB1(16, 4, 2, 2, 13, 2, ref2) TB1(12, 5, 2, 3, 3, 3, ref3) TB1(8, 6, 1, 2, 1, 2, ref2)
  TB1(12, 6, 2, 4, 5, 2, ref4) TB1(16, 5, 2, 4, 13, 1, ref4) TB1(8, 4, 1, 1, 3, 2, ref) TB1(64, 4, 4, 3, 20, 3, ref3)

  // ---- register temporal blocking and x-coarsening, also where tiles overlap in x (nx > 32 V)
  {
    const int mx = 136, my = 21, mz = 9;
    const size_t M = (size_t)mx * my * mz;
    std::vector<float> src(M), r[5], o(M);
    for (auto& v : src) v = U(rng);
    r[0] = src;
    for (int s = 1; s <= 4; ++s) {
      r[s].assign(M, 0.f);
      launch({(unsigned)cdiv(mx, 8), (unsigned)cdiv(my, 3), 1}, {8, 3, 1}, [&] {
        int i = blockIdx.x * 8 + threadIdx.x, j = blockIdx.y * 3 + threadIdx.y;
        if (i < mx && j < my)
          diff_naive(r[s - 1].data(), r[s].data(), mx, my, mz, k.ce, k.cw, k.cn, k.cs, k.ct, k.cb, k.cc);
      });
    }
    for (int pass = 0; pass < 2; ++pass) {
      const int X = pass ? mx : nx, Y = pass ? my : ny, Z = pass ? mz : nz;
      const std::vector<float>& I = pass ? src : in;
      // t sweeps of the naive kernel from I
      const std::vector<float>* first[5] = {&in, &ref, &ref2, &ref3, &ref4};
      auto want = [&](int t) -> const std::vector<float>& { return pass ? r[t] : *first[t]; };
#define TBV(V, BY, RY, T, ZC, PF)                                                                                  \
  {                                                                                                                \
    constexpr int W = 32 * V, HH = BY * RY, HX = (T + V - 1) / V * V;                                              \
    o.assign(I.size(), NAN);                                                                                       \
    const unsigned gx = X <= W ? 1 : cdiv(X, W - 2 * HX), gy = Y <= HH ? 1 : cdiv(Y, HH - 2 * T);                  \
    launch({gx, gy, (unsigned)cdiv(Z, ZC)}, {32, BY, 1},                                                           \
           [&] { diff_tbv<V, BY, RY, T, PF>(I.data(), o.data(), X, Y, Z, ZC, k); });                               \
    char name[96];                                                                                                 \
    snprintf(name, sizeof name, "diff_tbv<%d,%d,%d,%d,%d> %dx%dx%d zch %d", V, BY, RY, T, PF, X, Y, Z, ZC);        \
    report(name, want(T), o);                                                                                      \
  }
      TBV(4, 3, 2, 2, 4, 1) TBV(2, 3, 3, 2, 5, 2) TBV(1, 4, 2, 2, 3, 1) TBV(1, 3, 3, 3, 13, 2) TBV(4, 3, 2, 1, 2, 1)
      TBV(2, 2, 3, 2, 1, 2) TBV(1, 5, 2, 4, 4, 1) TBV(4, 4, 2, 3, 6, 2)
      TBV(1, 11, 2, 2, 4, 1) TBV(2, 4, 3, 3, 5, 1)  // a tile covering y whole; V = 2 with T = 3
#define CXK(BX, BY, CX, CONTIG, ZC)                                                                                 \
  {                                                                                                                \
    o.assign(I.size(), NAN);                                                                                       \
    launch({(unsigned)cdiv(X, BX * CX), (unsigned)cdiv(Y, BY), (unsigned)cdiv(Z, ZC)}, {BX, BY, 1},                \
           [&] { diff_cx<BX, BY, CX, CONTIG>(I.data(), o.data(), X, Y, Z, ZC, k); });                              \
    char name[96];                                                                                                 \
    snprintf(name, sizeof name, "diff_cx<%d,%d,%d,%d> %dx%dx%d zch %d", BX, BY, CX, CONTIG, X, Y, Z, ZC);          \
    report(name, want(1), o);                                                                                      \
  }
      CXK(8, 3, 4, 1, 4) CXK(8, 3, 4, 0, 5) CXK(16, 2, 2, 0, 13) CXK(4, 4, 2, 1, 3)
    }
  }

  // ---- Himeno
  const int hx = 19, hy = 12, hz = 11;
  const size_t n = (size_t)hx * hy * hz;
  std::vector<float> p(n), a(4 * n), b(3 * n), c(3 * n), w1(n), bd(n), w2r(n, NAN), w2(n), gcol(hx * hy, 0.f);
  for (auto* v : {&p, &a, &b, &c, &w1, &bd})
    for (auto& x : *v) x = U(rng);
  const float omega = 0.8f;
  launch({(unsigned)cdiv(hx - 2, 4), (unsigned)cdiv(hy - 2, 4), 1}, {4, 4, 1}, [&] {
    himeno_naive(p.data(), a.data(), b.data(), c.data(), w1.data(), bd.data(), w2r.data(), gcol.data(), hx, hy, hz,
                 omega);
  });
  double gref = 0;
  for (float g : gcol) gref += g;
  HimenoArgs A{p.data(), a.data(), b.data(), c.data(), w1.data(), bd.data(), w2.data(), nullptr, hx, hy, hz, omega};
  auto hcheck = [&](const char* name, double g) {
    report(name, w2r, w2);
    double rel = fabs(g - gref) / gref;
    printf("%-36s gosa %.9g vs %.9g rel %.2e %s\n", name, g, gref, rel, rel < 1e-5 ? "ok" : "FAIL");
    fails += !(rel < 1e-5);
  };
#define HZ(BX, BY, ZC, U)                                                                                       \
  {                                                                                                            \
    std::fill(w2.begin(), w2.end(), NAN);                                                                      \
    double g = 0;                                                                                              \
    A.gosa = &g;                                                                                               \
    launch({(unsigned)cdiv(hx - 2, BX), (unsigned)cdiv(hy - 2, BY), (unsigned)cdiv(hz - 2, ZC)}, {BX, BY, 1}, \
           [&] { himeno_zreg<BX, BY, ZC, U>(A); });                                                            \
    hcheck("himeno_zreg<" #BX "," #BY "," #ZC "," #U ">", g);                                                  \
  }
  HZ(8, 4, 4, 2) HZ(4, 4, 9, 1)
#define HS(BX, BY, ZC)                                                                                          \
  {                                                                                                            \
    std::fill(w2.begin(), w2.end(), NAN);                                                                      \
    double g = 0;                                                                                              \
    A.gosa = &g;                                                                                               \
    launch({(unsigned)cdiv(hx - 2, BX), (unsigned)cdiv(hy - 2, BY), (unsigned)cdiv(hz - 2, ZC)}, {BX, BY, 1}, \
           [&] { himeno_smem<BX, BY, ZC>(A); });                                                               \
    hcheck("himeno_smem<" #BX "," #BY "," #ZC ">", g);                                                         \
  }
  HS(8, 4, 4) HS(16, 8, 9)
  // two chained sweeps: wrk2 starts as p (the boundary stays), then p = wrk2
  {
    std::vector<float> r1(p), r2(p);
    std::fill(gcol.begin(), gcol.end(), 0.f);
    launch({(unsigned)cdiv(hx - 2, 4), (unsigned)cdiv(hy - 2, 4), 1}, {4, 4, 1}, [&] {
      himeno_naive(p.data(), a.data(), b.data(), c.data(), w1.data(), bd.data(), r1.data(), gcol.data(), hx, hy, hz,
                   omega);
    });
    std::fill(gcol.begin(), gcol.end(), 0.f);
    launch({(unsigned)cdiv(hx - 2, 4), (unsigned)cdiv(hy - 2, 4), 1}, {4, 4, 1}, [&] {
      himeno_naive(r1.data(), a.data(), b.data(), c.data(), w1.data(), bd.data(), r2.data(), gcol.data(), hx, hy, hz,
                   omega);
    });
    gref = 0;
    for (float g : gcol) gref += g;
    w2r = r2;
  }
#define HT(BX, BY, ZC)                                                                                                \
  {                                                                                                                  \
    w2 = p;                                                                                                          \
    double g = 0;                                                                                                    \
    A.gosa = &g;                                                                                                     \
    launch({(unsigned)cdiv(hx - 2, BX - 4), (unsigned)cdiv(hy - 2, BY - 4), (unsigned)cdiv(hz - 2, ZC)}, {BX, BY, 1}, \
           [&] { himeno_tb2<BX, BY, ZC>(A); });                                                                      \
    hcheck("himeno_tb2<" #BX "," #BY "," #ZC ">", g);                                                                \
  }
  HT(8, 8, 3) HT(12, 7, 1) HT(32, 8, 20) HT(6, 6, 4)
  printf("emulation failures: %d\n", fails);
  return fails != 0;
}
