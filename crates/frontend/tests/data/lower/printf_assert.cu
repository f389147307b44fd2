// Device printf, assert and __trap, the C++ classification functions, and a
// comparison chain the grammar reads as a template call.
#include <assert.h>
#include <cstdio>
#include <cmath>

__global__ void report(const float *x, double *y, int n, int lo, int hi) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
    if (i == 0) {
        printf("n = %d, x[0] = %f, name = %s\n", n, x[0], "report");
        printf("%5.2e|%-4u|%c|%%\n", (double)x[1], (unsigned)n, 'A');
    }
    float v = x[i];
    if (i > (lo - 1) &&
        i < (hi + 1)) {
        v = v * 2.0f;
    }
    int cls = isnan(v) + 2 * isinf(y[i]) + 4 * isfinite(v) + 8 * signbit(y[i]);
    cls += std::isnan(y[i]) ? 16 : 0;
    if (n < 0) __trap();
    y[i] = v + cls;
}
