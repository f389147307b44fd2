/* C = alpha op(A) op(B) + beta C with hone's tuned GEMM, from C.
 *
 *   cc gemm.c -I crates/capi/include -L target/release -lhone -Wl,-rpath,target/release -lm
 *   ./a.out [sgemm|dgemm|sgemm_3xtf32] [NN|NT|TN|TT] [M N K] [CALLS]
 *
 * The result is checked element by element against a host product with the
 * bound |C - C_ref| <= 4 K eps (|alpha| |op(A)| |op(B)| + |beta| |C|), eps of
 * the routine's precision (every element for small problems, 4096 at random
 * for large ones), and the calls are timed.
 * Exit codes: 0 when the result is within the bound, 1 when it is not, 2 when
 * hone cannot run (no GPU, bad argument): the message says why.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static double uniform(void) { return rand() / (double)RAND_MAX - 0.5; }

/* Element (i, j) of op(X), X stored column-major with leading dimension ld. */
static double at(const double *x, int ld, int trans, int i, int j) {
  return trans ? x[j + (size_t)i * ld] : x[i + (size_t)j * ld];
}

/* One call of the chosen routine on device buffers. */
static hone_status_t call(hone_handle_t h, const char *routine, hone_operation_t ta,
                          hone_operation_t tb, int m, int n, int k, double alpha,
                          void *a, int lda, void *b, int ldb, double beta, void *c,
                          int ldc) {
  if (strcmp(routine, "dgemm") == 0)
    return hone_dgemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  if (strcmp(routine, "sgemm_3xtf32") == 0)
    return hone_sgemm_3xtf32(h, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb,
                             (float)beta, c, ldc);
  return hone_sgemm(h, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta,
                    c, ldc);
}

int main(int argc, char **argv) {
  const char *routine = argc > 1 ? argv[1] : "sgemm";
  const char *layout = argc > 2 ? argv[2] : "NN";
  int m = argc > 3 ? atoi(argv[3]) : 1000;
  int n = argc > 4 ? atoi(argv[4]) : m;
  int k = argc > 5 ? atoi(argv[5]) : m;
  int calls = argc > 6 ? atoi(argv[6]) : 10;
  int dbl = strcmp(routine, "dgemm") == 0;
  if (!dbl && strcmp(routine, "sgemm") && strcmp(routine, "sgemm_3xtf32")) {
    fprintf(stderr, "unknown routine %s (sgemm, dgemm or sgemm_3xtf32)\n", routine);
    return 2;
  }
  if (strlen(layout) != 2 || m < 1 || n < 1 || k < 1 || calls < 1) {
    fprintf(stderr, "usage: %s [ROUTINE] [NN|NT|TN|TT] [M N K] [CALLS]\n", argv[0]);
    return 2;
  }
  int ta = layout[0] == 'T', tb = layout[1] == 'T';
  /* Stored shapes: op(A) is m x k, op(B) is k x n. */
  int lda = ta ? k : m, cols_a = ta ? m : k;
  int ldb = tb ? n : k, cols_b = tb ? k : n;
  int ldc = m;
  size_t na = (size_t)lda * cols_a, nb = (size_t)ldb * cols_b, nc = (size_t)ldc * n;
  size_t elem = dbl ? sizeof(double) : sizeof(float);
  double alpha = 1.25, beta = -0.5;
  double *a = malloc(na * sizeof(double)), *b = malloc(nb * sizeof(double)),
         *c = malloc(nc * sizeof(double));
  void *host = malloc((na > nb ? (na > nc ? na : nc) : (nb > nc ? nb : nc)) * elem);
  srand(2024);
  for (size_t i = 0; i < na; i++) a[i] = uniform();
  for (size_t i = 0; i < nb; i++) b[i] = uniform();
  for (size_t i = 0; i < nc; i++) c[i] = uniform();
  if (!dbl) { /* The host reference sees the values the GPU sees. */
    for (size_t i = 0; i < na; i++) a[i] = (float)a[i];
    for (size_t i = 0; i < nb; i++) b[i] = (float)b[i];
    for (size_t i = 0; i < nc; i++) c[i] = (float)c[i];
  }

  hone_handle_t h = NULL;
  CHECK(hone_create(&h, 0));
  void *da, *db, *dc;
  CHECK(hone_device_alloc(h, na * elem, &da));
  CHECK(hone_device_alloc(h, nb * elem, &db));
  CHECK(hone_device_alloc(h, nc * elem, &dc));
  double *src[3] = {a, b, c};
  void *dst[3] = {da, db, dc};
  size_t len[3] = {na, nb, nc};
  for (int t = 0; t < 3; t++) {
    for (size_t i = 0; i < len[t]; i++) {
      if (dbl) ((double *)host)[i] = src[t][i];
      else ((float *)host)[i] = (float)src[t][i];
    }
    CHECK(hone_copy_to_device(h, dst[t], host, len[t] * elem));
  }
  hone_operation_t opa = ta ? HONE_OP_T : HONE_OP_N, opb = tb ? HONE_OP_T : HONE_OP_N;
  CHECK(call(h, routine, opa, opb, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc));
  CHECK(hone_copy_to_host(h, host, dc, nc * elem));

  double eps = dbl ? ldexp(1.0, -53) : ldexp(1.0, -24);
  double worst = 0.0; /* the largest error as a fraction of its bound */
  /* Every element up to 2^27 multiply-adds of reference; beyond that, 4096
     elements at random (with the corners), so that large sizes are checked
     in seconds. */
  int all = (double)m * n * k <= 134217728.0;
  long checks = all ? (long)m * n : 4096;
  for (long e = 0; e < checks; e++) {
    int i, j;
    if (all) {
      i = (int)(e % m);
      j = (int)(e / m);
    } else if (e < 4) {
      i = e & 1 ? m - 1 : 0;
      j = e & 2 ? n - 1 : 0;
    } else {
      i = rand() % m;
      j = rand() % n;
    }
    double s = 0.0, mag = 0.0;
    for (int p = 0; p < k; p++) {
      double x = at(a, lda, ta, i, p) * at(b, ldb, tb, p, j);
      s += x;
      mag += fabs(x);
    }
    double cij = c[i + (size_t)j * ldc];
    double want = alpha * s + beta * cij;
    double bound = 4.0 * k * eps * (fabs(alpha) * mag + fabs(beta * cij)) + 1e-300;
    size_t at_c = i + (size_t)j * ldc;
    double got = dbl ? ((double *)host)[at_c] : ((float *)host)[at_c];
    double r = fabs(got - want) / bound;
    if (!(r <= worst)) worst = r; /* NaN makes it fail */
  }
  printf("%s %s m=%d n=%d k=%d: worst error %.3f of the bound (%ld elements checked)\n",
         routine, layout, m, n, k, worst, checks);

  CHECK(hone_synchronize(h));
  double t0 = now();
  for (int i = 0; i < calls; i++)
    CHECK(call(h, routine, opa, opb, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc));
  CHECK(hone_synchronize(h));
  double per_call = (now() - t0) / calls;
  printf("%d calls: %.4f ms per call, %.1f GFLOP/s\n", calls, per_call * 1e3,
         2.0 * m * n * (double)k / per_call / 1e9);

  CHECK(hone_device_free(h, da));
  CHECK(hone_device_free(h, db));
  CHECK(hone_device_free(h, dc));
  CHECK(hone_destroy(h));
  free(a); free(b); free(c); free(host);
  return worst <= 1.0 ? 0 : 1;
}
