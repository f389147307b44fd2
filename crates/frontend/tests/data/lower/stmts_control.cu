// Control flow: if/else chains, for (declaration, expression and empty
// parts), while, do-while, break, continue, return, blocks, empty statements
// and `#pragma unroll`.
__device__ int clamp_index(int i, int n) {
    if (i < 0)
        return 0;
    else if (i >= n)
        return n - 1;
    else {
        return i;
    }
}

__global__ void control(float *a, int n) {
    int i = threadIdx.x;
    int j;
    #pragma unroll
    for (int k = 0, m = 1; k < 4; k++, m *= 2) {
        if (k == 2) continue;
        a[k] = m;
    }
    for (j = 0; j < n; j += 2)
        a[j] = 0;
    for (;;) {
        if (i > n) break;
        i++;
    }
    while (i > 0) --i;
    do {
        i += 3;
    } while (i < 10);
    {
        int local = i;
        a[0] = local;
    }
    ;
    if (n) {} else ;
    if (i == n) return;
    a[1] = clamp_index(i, n);
}
