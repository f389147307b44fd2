// Local arrays: multi-dimensional, brace lists (nested and elided), lengths
// from the initializer, and constant-folded lengths.
__global__ void arrays(float *out) {
    const int N = 4;
    float a[3] = {1.0f, 2, 3};
    int b[2][3] = {{1, 2, 3}, {4, 5, 6}};
    int c[2][2] = {1, 2, 3, 4};
    int d[] = {7, 8, 9};
    float e[N * 2 + 1];
    double f[16 * 17];
    float g[sizeof(float4) / sizeof(float)];
    int h[4] = {0};
    float2 v[2] = {{1, 2}, {3, 4}};
    char s[N << 1][N > 2 ? 3 : 5];
    e[0] = a[1];
    out[0] = b[1][2] + c[0][1] + d[2];
    out[1] = f[N];
    out[2] = g[3] + h[1] + v[1].y;
    float *p = a;
    out[3] = *p + *(b[1]);
}
