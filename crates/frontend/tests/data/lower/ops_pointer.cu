// Pointer arithmetic, comparisons, address-of and dereference.
__global__ void ptrs(float *a, const float *b, int n, char k, long long *out) {
    float *p = a + n;
    float *q = n + a;
    p = p - 1;
    out[0] = p - a;
    bool lt = a < p;
    bool eq = b == a;
    bool nul = p != 0;
    bool nul2 = 0 == p;
    p = nullptr;
    p = NULL;
    *p = 1.0f;
    float x = *(a + 1);
    float *r = &a[2];
    float **pr = &r;
    const float *cb = a;
    p++;
    --p;
    p += n;
    p -= k;
    x = p[k];
    x = 3[a];
    x = *b;
    if (!p) return;
}
