/* hone: tuned GPU routines with cuBLAS-style signatures. Generated from crates/capi/src/lib.rs; do not edit. */

#ifndef HONE_H
#define HONE_H

#include <stddef.h>

// What a call returned.
typedef enum hone_status_t {
  HONE_STATUS_SUCCESS = 0,
  // An argument is out of range: a null pointer, n < 0, lda < n, ...
  HONE_STATUS_INVALID_VALUE = 1,
  // No CUDA driver or device.
  HONE_STATUS_NO_DEVICE = 2,
  // A valid request this build does not handle (a non-unit increment,
  // a leading dimension the tuned kernel's vector loads cannot take).
  HONE_STATUS_NOT_SUPPORTED = 3,
  // The GPU refused or failed the work (compilation, launch, fault).
  HONE_STATUS_EXECUTION_FAILED = 4,
  // A bug in hone: please report the message.
  HONE_STATUS_INTERNAL_ERROR = 5,
} hone_status_t;

// op(X) of a GEMM operand, as cuBLAS's `cublasOperation_t`.
typedef enum hone_operation_t {
  // X itself.
  HONE_OP_N = 0,
  // X transposed.
  HONE_OP_T = 1,
} hone_operation_t;

// Which triangle of a symmetric matrix is stored.
typedef enum hone_fill_mode_t {
  HONE_FILL_MODE_LOWER = 0,
  HONE_FILL_MODE_UPPER = 1,
} hone_fill_mode_t;

// A hone context: the GPU, the compiled kernels, the rules and a stream.
typedef struct hone_handle hone_handle;

typedef struct hone_handle *hone_handle_t;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// Creates a handle on CUDA device `device` with the rules built into hone
// (or, when the environment variable `HONE_RULES_DIR` names a directory,
// the rules there: SYMV's four, and the GEMM variants' `VARIANT.json`
// when it holds any (a layout without one takes its flavor's NN rule), the
// built-in GEMM rules for this GPU model when it holds none). Without
// `HONE_RULES_DIR`, SYMV takes the rules `hone retune symv` tuned on this
// GPU model when they are there, and says once on standard error when the
// built-in rules it runs were tuned on another GPU; each GEMM variant that
// `hone retune gemm` tuned on this GPU model takes its rule in place of the
// built-in one. `*handle` is set on success.
//
// # Safety
// `handle` must be a valid pointer to write to.
enum hone_status_t hone_create(hone_handle_t *handle, int device);

// Destroys a handle (null is allowed and does nothing). Work enqueued
// through it must have completed.
//
// # Safety
// `handle` must come from `hone_create` and not be used afterwards.
enum hone_status_t hone_destroy(hone_handle_t handle);

// Orders the handle's calls on `stream` (a `CUstream` / `cudaStream_t`;
// null: the legacy default stream).
//
// # Safety
// `handle` must be valid; `stream` must outlive its use by the handle.
enum hone_status_t hone_set_stream(hone_handle_t handle, void *stream);

// Waits for all work on the handle's stream.
//
// # Safety
// `handle` must be valid.
enum hone_status_t hone_synchronize(hone_handle_t handle);

// The message of the last failed call on this thread ("" after a
// success). Valid until the thread's next hone call.
const char *hone_get_last_error(void);

// The status's name, e.g. "HONE_STATUS_INVALID_VALUE".
const char *hone_status_string(enum hone_status_t status);

// hone's version, e.g. "0.1.0".
const char *hone_version(void);

// C = alpha op(A) op(B) + beta C in single precision on the CUDA cores
// (FP32 FMA), column-major, as `cublasSgemm` with alpha and beta by value;
// beta = 0 never reads C. Ordered on the handle's stream.
//
// # Safety
// `a`, `b` and `c` must point to the stored matrices (lda x ka, ldb x kb,
// ldc x n floats, ka and kb as BLAS defines them) on the handle's device;
// `c` must not overlap `a` or `b`.
enum hone_status_t hone_sgemm(hone_handle_t handle,
                              enum hone_operation_t transa,
                              enum hone_operation_t transb,
                              int m,
                              int n,
                              int k,
                              float alpha,
                              const float *a,
                              int lda,
                              const float *b,
                              int ldb,
                              float beta,
                              float *c,
                              int ldc);

// `hone_sgemm` computed on the TF32 tensor cores with the 3xTF32 split,
// which keeps single-precision accuracy (its error is no worse than
// `cublasSgemm`'s). A name of its own, so that no caller gets tensor-core
// arithmetic by accident.
//
// # Safety
// As for `hone_sgemm`.
enum hone_status_t hone_sgemm_3xtf32(hone_handle_t handle,
                                     enum hone_operation_t transa,
                                     enum hone_operation_t transb,
                                     int m,
                                     int n,
                                     int k,
                                     float alpha,
                                     const float *a,
                                     int lda,
                                     const float *b,
                                     int ldb,
                                     float beta,
                                     float *c,
                                     int ldc);

// The double-precision `hone_sgemm`, on the FP64 tensor cores, as
// `cublasDgemm`.
//
// # Safety
// As for `hone_sgemm`, with doubles.
enum hone_status_t hone_dgemm(hone_handle_t handle,
                              enum hone_operation_t transa,
                              enum hone_operation_t transb,
                              int m,
                              int n,
                              int k,
                              double alpha,
                              const double *a,
                              int lda,
                              const double *b,
                              int ldb,
                              double beta,
                              double *c,
                              int ldc);

// Allocates `bytes` of device memory on the handle's device, for programs
// that do not link the CUDA runtime.
//
// # Safety
// `handle` valid, `ptr` writable.
enum hone_status_t hone_device_alloc(hone_handle_t handle, size_t bytes, void **ptr);

// Frees memory from `hone_device_alloc` (null does nothing).
//
// # Safety
// `ptr` must come from `hone_device_alloc` and not be in use.
enum hone_status_t hone_device_free(hone_handle_t handle, void *ptr);

// Copies `bytes` from host `src` to device `dst`, after all work on the
// handle's stream, and waits.
//
// # Safety
// Both ranges must be valid for `bytes`.
enum hone_status_t hone_copy_to_device(hone_handle_t handle,
                                       void *dst,
                                       const void *src,
                                       size_t bytes);

// Copies `bytes` from device `src` to host `dst` once the handle's stream
// has finished, and waits.
//
// # Safety
// Both ranges must be valid for `bytes`.
enum hone_status_t hone_copy_to_host(hone_handle_t handle,
                                     void *dst,
                                     const void *src,
                                     size_t bytes);

// y = alpha A x + beta y, A an n x n symmetric matrix of which the `uplo`
// triangle is stored column-major with leading dimension `lda`; device
// pointers, ordered on the handle's stream. As `cublasDsymv`, with alpha
// and beta by value; `incx` and `incy` must be 1.
//
// # Safety
// `a` must point to `lda * n` doubles and `x`, `y` to `n` each, on the
// handle's device; `y` must not overlap `a` or `x`.
enum hone_status_t hone_dsymv(hone_handle_t handle,
                              enum hone_fill_mode_t uplo,
                              int n,
                              double alpha,
                              const double *a,
                              int lda,
                              const double *x,
                              int incx,
                              double beta,
                              double *y,
                              int incy);

// The single-precision `hone_dsymv`.
//
// # Safety
// As for `hone_dsymv`, with floats.
enum hone_status_t hone_ssymv(hone_handle_t handle,
                              enum hone_fill_mode_t uplo,
                              int n,
                              float alpha,
                              const float *a,
                              int lda,
                              const float *x,
                              int incx,
                              float beta,
                              float *y,
                              int incy);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* HONE_H */
