#if defined(__CUDACC__) && defined(__NVCC__)
int cudacc = __CUDACC__;
#endif
int arch = __CUDA_ARCH__;
#ifdef __CUDA_ARCH__
__device__ int device_pass;
#endif
const char *file = __FILE__;
int line = __LINE__;
int multi = __LINE__ +
            __LINE__;
#include "header.h"
int counter0 = __COUNTER__, counter1 = __COUNTER__;
#define LINE_OF_USE __LINE__
int use = LINE_OF_USE;
#if __cplusplus >= 201103L
int cplusplus;
#endif
