// Math functions with a second result through a pointer: frexp, modf and
// sincos (float and double), bound to the definitions hone appends.
__device__ inline int ceil_pow2(int n) {
    if (0 == (n & (n - 1))) {
        return n;
    }
    int exp;
    frexp((float)n, &exp);
    return 1 << exp;
}

__global__ void pointer_results(const float *x, const double *d, float *m, int *e, double *md, float *s, int *p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float ip;
    m[i] = frexpf(x[i], &e[i]) + modff(x[i], &ip) + ip;
    double di;
    md[i] = frexp(d[i], &e[i + 64]) + modf(d[i], &di) + di;
    sincosf(x[i], &s[2 * i], &s[2 * i + 1]);
    p[i] = ceil_pow2(i + 3);
}
