/* y = alpha A x + beta y with hone's tuned DSYMV, from C.
 *
 *   cc dsymv.c -I crates/capi/include -L target/release -lhone -Wl,-rpath,target/release -lm
 *   ./a.out [N] [CALLS]
 *
 * Exit codes: 0 when the result matches the host reference, 1 when it does
 * not, 2 when hone cannot run (no GPU, bad argument): the message says why.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hone.h"

#define CHECK(call)                                                            \
  do {                                                                         \
    hone_status_t s_ = (call);                                                 \
    if (s_ != HONE_STATUS_SUCCESS) {                                           \
      fprintf(stderr, "%s: %s\n", hone_status_string(s_),                      \
              hone_get_last_error());                                          \
      return 2;                                                                \
    }                                                                          \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  int calls = argc > 2 ? atoi(argv[2]) : 100;
  int lda = n;
  double alpha = 1.5, beta = 0.5;
  size_t bytes_a = (size_t)lda * n * sizeof(double);
  double *a = malloc(bytes_a), *x = malloc(n * sizeof(double)),
         *y = malloc(n * sizeof(double)), *want = malloc(n * sizeof(double));
  srand(12345);
  /* The lower triangle is stored; the upper one holds NaN to show that
     hone never reads it. */
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      a[i + (size_t)j * lda] = i >= j ? rand() / (double)RAND_MAX - 0.5 : NAN;
  for (int i = 0; i < n; i++) {
    x[i] = rand() / (double)RAND_MAX - 0.5;
    y[i] = rand() / (double)RAND_MAX - 0.5;
  }
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) {
      double aij = i >= j ? a[i + (size_t)j * lda] : a[j + (size_t)i * lda];
      s += aij * x[j];
    }
    want[i] = alpha * s + beta * y[i];
  }

  hone_handle_t h = NULL;
  CHECK(hone_create(&h, 0));
  void *da, *dx, *dy;
  CHECK(hone_device_alloc(h, bytes_a, &da));
  CHECK(hone_device_alloc(h, n * sizeof(double), &dx));
  CHECK(hone_device_alloc(h, n * sizeof(double), &dy));
  CHECK(hone_copy_to_device(h, da, a, bytes_a));
  CHECK(hone_copy_to_device(h, dx, x, n * sizeof(double)));
  CHECK(hone_copy_to_device(h, dy, y, n * sizeof(double)));

  /* One checked call; the first one compiles (or loads from the disk cache)
     the kernel the rules pick for n. */
  CHECK(hone_dsymv(h, HONE_FILL_MODE_LOWER, n, alpha, da, lda, dx, 1, beta, dy, 1));
  CHECK(hone_copy_to_host(h, y, dy, n * sizeof(double)));
  double err = 0.0, scale = 0.0;
  for (int i = 0; i < n; i++) {
    err = fmax(err, fabs(y[i] - want[i]));
    scale = fmax(scale, fabs(want[i]));
  }
  double rel = err / (scale > 0 ? scale : 1.0);
  double bound = 16 * ldexp(1.0, -53) * sqrt((double)n) * 8;
  printf("dsymv n=%d: max relative error %.2e (bound %.2e)\n", n, rel, bound);

  /* Timing: back-to-back calls on the stream, then one wait. */
  CHECK(hone_synchronize(h));
  double t0 = now();
  for (int c = 0; c < calls; c++)
    CHECK(hone_dsymv(h, HONE_FILL_MODE_LOWER, n, alpha, da, lda, dx, 1, beta, dy, 1));
  CHECK(hone_synchronize(h));
  double per_call = (now() - t0) / calls;
  double bytes = 8.0 * ((double)n * (n + 1) / 2 + 3.0 * n);
  printf("%d calls: %.4f ms per call, %.0f GB/s on the stored triangle\n", calls,
         per_call * 1e3, bytes / per_call / 1e9);

  CHECK(hone_device_free(h, da));
  CHECK(hone_device_free(h, dx));
  CHECK(hone_device_free(h, dy));
  CHECK(hone_destroy(h));
  free(a); free(x); free(y); free(want);
  return rel <= bound ? 0 : 1;
}
