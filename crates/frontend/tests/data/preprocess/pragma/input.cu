#define UNROLL 4
#define ANSWER 42
__global__ void k(float *a) {
#pragma unroll
    for (int i = 0; i < 4; i++) a[i] = 0;
    #pragma unroll UNROLL
    for (int i = 0; i < 4; i++) a[i] = 1;
#pragma omp parallel for ANSWER
#pragma once
#pragma push_macro("ANSWER")
#undef ANSWER
    int x = ANSWER;
#pragma pop_macro("ANSWER")
    int y = ANSWER;
}
