// bfloat16 through <cuda_bf16.h>: conversion, arithmetic and the fused
// multiply-add, whose exponents may lie far apart.
#include <cuda_bf16.h>

__global__ void bf16_ops(const nv_bfloat16 *a, const nv_bfloat16 *b, const nv_bfloat16 *c,
                         const float *x, nv_bfloat16 *rn, nv_bfloat16 *sum, nv_bfloat16 *prod,
                         nv_bfloat16 *fma, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        rn[i] = __float2bfloat16(x[i]);
        sum[i] = a[i] + b[i];
        prod[i] = a[i] * b[i];
        fma[i] = __hfma(a[i], b[i], c[i]);
    }
}
