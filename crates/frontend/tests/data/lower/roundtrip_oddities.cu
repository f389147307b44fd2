// Shapes that are easy to print wrongly: local typedefs,
// shadowing, whole built-in vectors, dim3 construction, defaulted and
// discarded values, pointer conditions and 2-D dynamic shared memory.
__device__ int convert(int z, float y) { return (int)y; }

__global__ void odd(int *p, const int n) {
    typedef unsigned short half_t;
    half_t h = 7;
    int x = 1;
    { int x = 2; p[x] = x; { float x = 3; p[0] = x; } }
    uint3 t = threadIdx;
    dim3 b(4);
    char c = 'q';
    const float k[2] = {1.5f, -2};
    extern __shared__ float dyn2[][32];
    dyn2[t.x][b.x] = k[1];
    __syncwarp();
    (void)c;
    if (p) p[1] = h + c + convert(x, 2);
    if (p != 0 && !(p == nullptr)) p[2] = sizeof(x) + sizeof k;
    for (;;) { break; }
    switch (n) { default: p[3] = -1; }
    do ; while (0);
    p[4] = x ? x : -x, p[5] = n;
}
