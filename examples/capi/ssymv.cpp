// y = alpha A x + beta y with hone's tuned SSYMV, from C++, with the handle
// and device buffers owned by small RAII types.
//
//   c++ -std=c++17 ssymv.cpp -I crates/capi/include -L target/release -lhone -Wl,-rpath,target/release
//   ./a.out [N]
//
// Exit codes: 0 when the result matches the host reference, 1 when it does
// not, 2 when hone cannot run (no GPU, bad argument).
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "hone.h"

namespace {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(hone_status_t s) {
  if (s != HONE_STATUS_SUCCESS)
    throw Error(std::string(hone_status_string(s)) + ": " + hone_get_last_error());
}

class Handle {
 public:
  explicit Handle(int device) { check(hone_create(&h_, device)); }
  ~Handle() { hone_destroy(h_); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hone_handle_t get() const { return h_; }

 private:
  hone_handle_t h_ = nullptr;
};

template <typename T>
class DeviceVector {
 public:
  DeviceVector(const Handle& h, const std::vector<T>& host) : h_(h), n_(host.size()) {
    check(hone_device_alloc(h_.get(), n_ * sizeof(T), &p_));
    check(hone_copy_to_device(h_.get(), p_, host.data(), n_ * sizeof(T)));
  }
  ~DeviceVector() { hone_device_free(h_.get(), p_); }
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;
  T* data() const { return static_cast<T*>(p_); }
  std::vector<T> to_host() const {
    std::vector<T> out(n_);
    check(hone_copy_to_host(h_.get(), out.data(), p_, n_ * sizeof(T)));
    return out;
  }

 private:
  const Handle& h_;
  size_t n_;
  void* p_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::stoi(argv[1]) : 2048;
  const int lda = n + 3;  // a leading dimension larger than n
  const float alpha = 0.75f, beta = -1.25f;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  // The upper triangle is stored; the lower one and the padding hold NaN.
  std::vector<float> a(static_cast<size_t>(lda) * n, NAN), x(n), y(n);
  for (int j = 0; j < n; j++)
    for (int i = 0; i <= j; i++) a[i + static_cast<size_t>(j) * lda] = u(rng);
  for (auto& v : x) v = u(rng);
  for (auto& v : y) v = u(rng);
  std::vector<double> want(n);
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++)
      s += double(i <= j ? a[i + size_t(j) * lda] : a[j + size_t(i) * lda]) * x[j];
    want[i] = alpha * s + beta * double(y[i]);
  }
  try {
    Handle h(0);
    DeviceVector<float> da(h, a), dx(h, x), dy(h, y);
    check(hone_ssymv(h.get(), HONE_FILL_MODE_UPPER, n, alpha, da.data(), lda, dx.data(), 1,
                     beta, dy.data(), 1));
    auto got = dy.to_host();
    double err = 0.0, scale = 0.0;
    for (int i = 0; i < n; i++) {
      err = std::fmax(err, std::fabs(got[i] - want[i]));
      scale = std::fmax(scale, std::fabs(want[i]));
    }
    const double rel = err / (scale > 0 ? scale : 1.0);
    const double bound = 16 * std::ldexp(1.0, -24) * std::sqrt(double(n)) * 8;
    std::printf("ssymv n=%d lda=%d: max relative error %.2e (bound %.2e)\n", n, lda, rel, bound);
    return rel <= bound ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
