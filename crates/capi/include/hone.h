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
// the rules there). `*handle` is set on success.
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

// The message of the last failed call on this thread ("" after a
// success). Valid until the thread's next hone call.
const char *hone_get_last_error(void);

// The status's name, e.g. "HONE_STATUS_INVALID_VALUE".
const char *hone_status_string(enum hone_status_t status);

// hone's version, e.g. "0.1.0".
const char *hone_version(void);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* HONE_H */
