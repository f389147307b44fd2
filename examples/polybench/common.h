#ifndef COMMON_H
#define COMMON_H
/* Shared definitions in the style of the PolyBench/GPU suite. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define GPU_DEVICE 0
#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

/* Element type of every array; build with -D DATA_TYPE=double for FP64. */
#ifndef DATA_TYPE
#define DATA_TYPE float
#endif

#define IDX2(i, j, ld) ((i) * (ld) + (j))
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

static float absVal(float a) { return a < 0 ? -a : a; }

static float percentDiff(double val1, double val2)
{
	if ((absVal(val1) < 0.01) && (absVal(val2) < 0.01))
		return 0.0f;
	return 100.0f * (absVal(absVal(val1 - val2) / absVal(val1 + 0.00000001f)));
}
#endif
