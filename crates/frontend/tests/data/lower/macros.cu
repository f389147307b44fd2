// Preprocessed input: an included header, object-like and function-like
// macros, conditional groups and a macro-expanded unroll pragma. Spans and
// diagnostics point at the original files and lines.
#include "common.cuh"
#include "common.cuh"
#define PAD 1
#define UNROLL 4
#ifndef USE_DOUBLE
#define SCALE 2.0f
#else
#define SCALE 2.0
#endif
#if BS > 8 && defined(PAD)
#define TILE (BS + PAD)
#endif

__global__ void transpose(const real *in, real *out, int n) {
    __shared__ real tile[BS][TILE];
    int x = blockIdx.x * BS + threadIdx.x;
    int y = blockIdx.y * BS + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[IDX(y, x, n)];
    __syncthreads();
#pragma unroll UNROLL
    for (int k = 0; k < 2; k++)
        out[IDX(x, y, n)] = sq(tile[threadIdx.x][threadIdx.y]) * SCALE;
}

#define BAD_USE (undefined_name + 1)
__global__ void reports_in_macro(int *out) {
    out[0] = BAD_USE;
}
