// Explicit casts (C style, C++ named casts, functional), the parser's
// `(T)-x` ambiguity, and sizeof of types and expressions.
typedef float T;
__global__ void casts(int i, float f, float *p, int *out, size_t *sz) {
    out[0] = (int)f;
    out[1] = static_cast<int>(f);
    out[2] = int(f);
    out[3] = (T)-i;
    out[4] = (T)(i) + 1;
    out[5] = (i) - 1;
    out[6] = (T)*p;
    int *ip = (int *)p;
    int *ip2 = reinterpret_cast<int *>(p);
    const float *cp = const_cast<const float *>(p);
    float g = T(i);
    (void)g;
    sz[0] = sizeof(float);
    sz[1] = sizeof(T);
    sz[2] = sizeof i;
    sz[3] = sizeof(float4);
    float a[8];
    sz[4] = sizeof(a);
    sz[5] = sizeof(a) / sizeof(a[0]);
    sz[6] = sizeof(double2) * 2;
}
