#include <stdio.h>
#include <cuda_runtime.h>
#include "cuda.h"
#include "cuda_runtime.h"
#include "sys/time.h"
#include <thrust/device_vector.h>
#include "device_launch_parameters.h"
#define HEADER <math.h>
#include HEADER
__global__ void k(float *x) { x[threadIdx.x] = 0.0f; }
