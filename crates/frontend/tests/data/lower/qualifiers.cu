// Qualifiers that are accepted: volatile is dropped with a warning (the
// function is still lowered), register and restrict locals are fine.
extern "C" __global__ void reduce(volatile float *sdata_out, const float *__restrict__ in) {
    volatile __shared__ float sdata[64];
    register int tid = threadIdx.x;
    const float *__restrict__ p = in;
    sdata[tid] = p[tid];
    #pragma unroll 4
    for (int s = 32; s > 0; s >>= 1)
        if (tid < s) sdata[tid] += sdata[tid + s];
    if (tid == 0) sdata_out[0] = sdata[0];
}

namespace detail {
__device__ int in_namespace(int x) { return x * 3; }
}
