/*
 * 2mm and atax in the style of PolyBench/GPU: D = (A.B).C, and y = A^T (A x).
 * Several kernels, macros from local headers, DATA_TYPE, and a host main
 * with launches. `hone sim` runs any one kernel; the host code is parsed
 * and left alone.
 */
#include <stdio.h>
#include <cuda.h>
#include "common.h"
#include "mm2.h"

__device__ DATA_TYPE dot_row_col(const DATA_TYPE *a, const DATA_TYPE *b, int row, int col, int n, int ldb)
{
	DATA_TYPE sum = 0;
	for (int k = 0; k < n; k++) {
		sum += a[IDX2(row, k, n)] * b[IDX2(k, col, ldb)];
	}
	return sum;
}

__global__ void mm2_kernel1(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *tmp)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ)) {
		tmp[IDX2(i, j, NJ)] = dot_row_col(A, B, i, j, NK, NJ);
	}
}

__global__ void mm2_kernel2(DATA_TYPE *tmp, DATA_TYPE *C, DATA_TYPE *D)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NL)) {
		DATA_TYPE acc = 0;
		for (int k = 0; k < NJ; ++k)
			acc += tmp[IDX2(i, k, NJ)] * C[IDX2(k, j, NL)];
		D[IDX2(i, j, NL)] = acc;
	}
}

/* atax: tmp = A x, then y = A^T tmp. One thread per row, then per column. */
__global__ void atax_kernel1(const DATA_TYPE *__restrict__ A, const DATA_TYPE *x, DATA_TYPE *tmp, int nx, int ny)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < nx) {
		DATA_TYPE s = 0;
		int j;
		for (j = 0; j < ny; j++)
			s += A[i * ny + j] * x[j];
		tmp[i] = s;
	}
}

__global__ void atax_kernel2(const DATA_TYPE *__restrict__ A, DATA_TYPE *y, const DATA_TYPE *tmp, int nx, int ny)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j < ny) {
		DATA_TYPE s = 0;
		for (int i = 0; i < nx; i++)
			s += A[i * ny + j] * tmp[i];
		y[j] = s;
	}
}

void init_array(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i, j;
	for (i = 0; i < NI; i++)
		for (j = 0; j < NK; j++)
			A[i * NK + j] = ((DATA_TYPE) i * j) / NI;
	for (i = 0; i < NK; i++)
		for (j = 0; j < NJ; j++)
			B[i * NJ + j] = ((DATA_TYPE) i * (j + 1)) / NJ;
	for (i = 0; i < NL; i++)
		for (j = 0; j < NJ; j++)
			C[i * NL + j] = ((DATA_TYPE) i * (j + 3)) / NL;
}

void mm2Cuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D)
{
	DATA_TYPE *A_gpu, *B_gpu, *C_gpu, *D_gpu, *tmp_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK);
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ);
	cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NL * NJ);
	cudaMalloc((void **)&D_gpu, sizeof(DATA_TYPE) * NI * NL);
	cudaMalloc((void **)&tmp_gpu, sizeof(DATA_TYPE) * NI * NJ);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice);
	cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NL * NJ, cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid1(CEIL_DIV(NJ, block.x), CEIL_DIV(NI, block.y));
	dim3 grid2(CEIL_DIV(NL, block.x), CEIL_DIV(NI, block.y));

	mm2_kernel1<<<grid1, block>>>(A_gpu, B_gpu, tmp_gpu);
	cudaDeviceSynchronize();
	mm2_kernel2<<<grid2, block>>>(tmp_gpu, C_gpu, D_gpu);
	cudaDeviceSynchronize();

	cudaMemcpy(D, D_gpu, sizeof(DATA_TYPE) * NI * NL, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
	cudaFree(C_gpu);
	cudaFree(D_gpu);
	cudaFree(tmp_gpu);
}

int main(int argc, char *argv[])
{
	DATA_TYPE *A = (DATA_TYPE *)malloc(NI * NK * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(NK * NJ * sizeof(DATA_TYPE));
	DATA_TYPE *C = (DATA_TYPE *)malloc(NL * NJ * sizeof(DATA_TYPE));
	DATA_TYPE *D = (DATA_TYPE *)malloc(NI * NL * sizeof(DATA_TYPE));
	init_array(A, B, C);
	mm2Cuda(A, B, C, D);
	printf("D[0] = %f\n", D[0]);
	free(A);
	free(B);
	free(C);
	free(D);
	return 0;
}
