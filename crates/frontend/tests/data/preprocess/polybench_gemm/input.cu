/**
 * gemm.cu: This file is part of a PolyBench/GPU-style test.
 */
#include <unistd.h>
#include <cuda.h>
#include "polybench.h"

#define ALPHA 32412.0f
#define BETA 2123.0f

#define GPU_DEVICE 0

__global__ void gemm_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ))
	{
		c[i * NJ + j] *= BETA;
		int k;
		for(k = 0; k < NK; k++)
		{
			c[IDX(i, j, NJ)] += ALPHA * a[i * NK + k] * b[k * NJ +j];
		}
	}
}

__global__ void scale_kernel(DATA_TYPE *c, DATA_TYPE s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < NI * NJ)
		c[i] = c[i] * s + SCALAR_VAL(0.5);
}

void gemmCuda(DATA_TYPE* A, DATA_TYPE* B, DATA_TYPE* C)
{
	DATA_TYPE *A_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)(ceil( ((float)NI)/ ((float)block.x) )),(size_t)(ceil( ((float)NJ)/ ((float)block.y) )));
	gemm_kernel<<< grid, block >>>(A_gpu, B, C);
	scale_kernel<<<(NI * NJ + 255) / 256, 256>>>(C, SCALAR_VAL(2.0));
	cudaDeviceSynchronize();
}

int main(int argc, char *argv[])
{
	POLYBENCH_2D(A, NI, NK);
	printf("NI=%d NJ=%d DATA_TYPE\n", NI, NJ);
	return 0;
}
