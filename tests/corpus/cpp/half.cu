// Half precision through <cuda_fp16.h>: conversions in both directions and
// rounding modes, the arithmetic intrinsics and operators on half and half2.
#include <cuda_fp16.h>

__global__ void half_convert(const float *x, half *rn, half *rz, float *back, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        half h = __float2half_rn(x[i]);
        rn[i] = h;
        rz[i] = __float2half_rz(x[i]);
        back[i] = __half2float(h);
    }
}

__global__ void half_ops(const half *a, const half *b, const half *c, half *sum, half *prod,
                         half *quot, half *fma, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        sum[i] = a[i] + b[i];
        prod[i] = __hmul(a[i], b[i]);
        quot[i] = a[i] / b[i];
        fma[i] = __hfma(a[i], b[i], c[i]);
    }
}

// A dot product of half2 pairs accumulated in half2, then summed in float.
__global__ void half2_dot(const half2 *a, const half2 *b, float *out, int n) {
    __shared__ half2 partial[64];
    half2 acc(0.0f, 0.0f);
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        acc = __hfma2(a[i], b[i], acc);
    }
    acc += __float2half2_rn(0.0f);
    partial[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        half2 total = partial[0];
        for (int k = 1; k < blockDim.x; k++) {
            total = total + partial[k];
        }
        out[0] = __low2float(total) + (float)total.y;
    }
}
