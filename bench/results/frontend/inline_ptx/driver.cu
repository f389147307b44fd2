// Runs tests/corpus/cpp/inline_ptx.cu as nvcc compiles it (the assembly
// itself, not hone's rewrite) and prints the results as JSON, to compare
// with `hone sim tests/corpus/cpp/launch/inline_ptx.json --json`.
#include <cstdio>
#include "../../../../tests/corpus/cpp/inline_ptx.cu"

int main() {
    const int n = 64;
    unsigned int *o;
    float *f;
    cudaMalloc(&o, 12 * n * sizeof(unsigned int));
    cudaMalloc(&f, (n + 1) * sizeof(float));
    cudaMemset(o, 0, 12 * n * sizeof(unsigned int));
    float hf[n + 1];
    for (int k = 0; k <= n; k++) hf[k] = (float)k;
    cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
    ptx_ops<<<1, n>>>(o, f);
    unsigned int h[12 * n];
    if (cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    printf("[");
    for (int k = 0; k < 12 * n; k++) printf(k ? ",%u" : "%u", h[k]);
    printf("]\n");
    return 0;
}
