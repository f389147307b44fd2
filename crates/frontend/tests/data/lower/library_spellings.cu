// Spellings real programs use: default arguments, GNU `__restrict`, the
// address of constant memory as a plain pointer, `__sincosf`, cuFFT's complex
// type and <math_constants.h>.
#include <cufft.h>
#include <math_constants.h>

__constant__ unsigned int c_table[4][8];

__device__ unsigned int sad(unsigned int a, unsigned int b, unsigned int c = 0) {
    return (a > b ? a - b : b - a) + c;
}

__device__ float scale(float x, float k = 2.0f, int shift = 1) { return x * k + shift; }

__global__ void spellings(cufftComplex *__restrict out, const float *__restrict in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned int *row = &c_table[threadIdx.x % 4][0];
    unsigned int *first = c_table[0];
    cufftComplex z;
    __sincosf(in[i] * CUDART_PI_F, &z.y, &z.x);
    z.x += sad(row[1], first[2]) + sad(1u, 2u, 3u);
    z.y += scale(in[i]) + scale(in[i], 0.5f) + (float)CUDART_PI;
    out[i] = z;
}
