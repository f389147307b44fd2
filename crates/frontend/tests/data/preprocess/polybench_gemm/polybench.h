/**
 * polybench.h: problem sizes, data type and helpers shared by the
 * PolyBench/GPU-style kernels.
 */
#ifndef POLYBENCH_H
# define POLYBENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

/* Can switch DATA_TYPE between float and double */
#ifndef DATA_TYPE
# define DATA_TYPE float
#endif

/* Problem size. */
#ifndef NI
# define NI 512
#endif
#ifndef NJ
# define NJ 512
#endif
#ifndef NK
# define NK 512
#endif

/* Thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#define POLYBENCH_2D(var, dim1, dim2) DATA_TYPE var[dim1][dim2]
#define SCALAR_VAL(x) x##f
#define IDX(i, j, n) ((i) * (n) + (j))

#endif /* !POLYBENCH_H */
