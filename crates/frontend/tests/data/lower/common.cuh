// Shared definitions for macros.cu.
#pragma once
#define BS 16
#define IDX(i, j, n) ((i) * (n) + (j))
typedef float real;
__device__ inline real sq(real v) { return v * v; }
