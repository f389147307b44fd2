// Shared by the SYMV kernels of hone: the element type and the warp
// reduce-scatter. The Rust side prepends this file to each kernel source, so
// NVRTC needs no include path.
//
// Written in plain C plus CUDA built-ins (no templates) so that hone's own
// front end and emulator can run the kernels on the CPU as well.

#ifndef PREC
#error "PREC must be defined: 0 for float, 1 for double"
#endif

#if PREC == 1
typedef double T;
typedef double2 T2;
#define T_NAN __longlong_as_double((long long)-1)
#elif PREC == 0
typedef float T;
typedef float2 T2;
typedef float4 T4;
#define T_NAN __int_as_float(-1)
#else
#error "PREC must be 0 (float) or 1 (double)"
#endif

// Whether element (i, j) lies in the stored triangle (the SYMV kernels
// require UPLO: 0 for the lower triangle, 1 for the upper).
#ifdef UPLO
#if UPLO == 0
#define STORED(i, j) ((i) >= (j))
#else
#define STORED(i, j) ((i) <= (j))
#endif
#endif

// One level of the reduce-scatter: lanes whose bit OFF is set keep the upper
// half of their live values and receive the partner's upper half; the others
// keep and receive the lower half. HALF values stay live afterwards.
#define RS_LEVEL(v, P, LP, LVL, lane)                                          \
    if ((LP) > (LVL)) {                                                        \
        const bool up_ = ((lane) & (16 >> (LVL))) != 0;                        \
        _Pragma("unroll") for (int m_ = 0; m_ < ((P) >> ((LVL) + 1)); ++m_) {  \
            const T send_ = up_ ? v[m_] : v[m_ + ((P) >> ((LVL) + 1))];        \
            const T keep_ = up_ ? v[m_ + ((P) >> ((LVL) + 1))] : v[m_];        \
            v[m_] = keep_ + __shfl_xor_sync(0xffffffffu, send_, 16 >> (LVL)); \
        }                                                                      \
    }

// Plain butterfly on v[0] for the lane bits the reduce-scatter did not use.
#define RS_TAIL(v, LP, OFF)                                                    \
    if ((OFF) < (32 >> (LP))) {                                                \
        v[0] += __shfl_xor_sync(0xffffffffu, v[0], (OFF));                     \
    }

// Sums P = 2^LP per-lane values v[0..P) over the 32 lanes of a warp with
// P - 1 + (5 - LP) shuffles instead of 5 P: afterwards v[0] of lane l holds
// the warp's sum of column l >> (5 - LP), the same in every lane of that
// column.
#define WARP_REDUCE_SCATTER(v, P, LP, lane)                                    \
    {                                                                          \
        RS_LEVEL(v, P, LP, 0, lane)                                            \
        RS_LEVEL(v, P, LP, 1, lane)                                            \
        RS_LEVEL(v, P, LP, 2, lane)                                            \
        RS_LEVEL(v, P, LP, 3, lane)                                            \
        RS_LEVEL(v, P, LP, 4, lane)                                            \
        RS_TAIL(v, LP, 16)                                                     \
        RS_TAIL(v, LP, 8)                                                      \
        RS_TAIL(v, LP, 4)                                                      \
        RS_TAIL(v, LP, 2)                                                      \
        RS_TAIL(v, LP, 1)                                                      \
    }
