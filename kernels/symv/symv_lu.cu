// The L+U SYMV algorithm (section 2.2 of Imamura et al., HPC-138, 2013), for
// small n: A x = (L + D) x + L^T x for the lower triangle, (D + U) x + U^T x
// for the upper, computed as two triangular products with no atomics.
//
// Block b owns rows r0 = b * NB .. r0 + NB - 1 of y and computes them whole:
//   - the row strip (L + D)(r0:r0+NB, :) x: lanes run over the NB rows, so a
//     warp reads 32 / NB columns of NB consecutive elements;
//   - the column strip L(r0+NB:, r0:r0+NB)^T x (plus the strictly lower part
//     of the diagonal block): each thread walks rows and keeps NB column
//     sums, reduced over the warp by a shuffle reduce-scatter and over warps
//     through shared memory.
// Every block reads NB x n elements of A (each element is read twice in all),
// and y is written once by its owner, so one launch does everything.
//
// Parameters (-D): BLOCK_SIZE (a multiple of 32), NB (1, 2, 4, 8, 16 or 32).

#ifndef UPLO
#error "UPLO must be defined: 0 for the lower triangle, 1 for the upper"
#endif
#if !defined(BLOCK_SIZE) || !defined(NB)
#error "BLOCK_SIZE and NB must be defined"
#endif
#if BLOCK_SIZE % 32 != 0 || BLOCK_SIZE < 32 || BLOCK_SIZE > 1024
#error "BLOCK_SIZE must be a multiple of 32 between 32 and 1024"
#endif

#if NB == 1
#define LOG_NB 0
#elif NB == 2
#define LOG_NB 1
#elif NB == 4
#define LOG_NB 2
#elif NB == 8
#define LOG_NB 3
#elif NB == 16
#define LOG_NB 4
#elif NB == 32
#define LOG_NB 5
#else
#error "NB must be a power of two up to 32"
#endif

#define WARPS (BLOCK_SIZE / 32)
#define GROUPS (BLOCK_SIZE / NB)

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
symv_lu(const int n, const T alpha, const T* __restrict__ A, const long long lda,
        const T* __restrict__ x, const T beta, T* y)
{
    __shared__ T part_rows[BLOCK_SIZE];   // [GROUPS][NB]
    __shared__ T part_cols[WARPS * NB];   // [WARPS][NB]
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int r0 = blockIdx.x * NB;

    // Row strip, diagonal included.
    const int lr = tid % NB;
    const int cg = tid / NB;
    const int r = r0 + lr;
    T acc = (T)0;
    if (r < n) {
#if UPLO == 0
#pragma unroll 4
        for (int j = cg; j < r0; j += GROUPS) {
            acc = fma(A[(long long)j * lda + r], x[j], acc);
        }
        for (int j = r0 + cg; j <= r; j += GROUPS) {
            acc = fma(A[(long long)j * lda + r], x[j], acc);
        }
#else
        const int jdiag = min(r0 + NB, n);
        for (int j = r0 + cg; j < jdiag; j += GROUPS) {
            if (j >= r) {
                acc = fma(A[(long long)j * lda + r], x[j], acc);
            }
        }
#pragma unroll 4
        for (int j = r0 + NB + cg; j < n; j += GROUPS) {
            acc = fma(A[(long long)j * lda + r], x[j], acc);
        }
#endif
    }
    part_rows[tid] = acc;

    // Column strip, diagonal excluded.
    T cs[NB];
#pragma unroll
    for (int c = 0; c < NB; ++c) {
        cs[c] = (T)0;
    }
#if UPLO == 0
#pragma unroll 2
    for (int i = r0 + tid; i < n; i += BLOCK_SIZE) {
        const T xi = x[i];
        if (i < r0 + NB) {
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                if (r0 + c < i) {
                    cs[c] = fma(A[(long long)(r0 + c) * lda + i], xi, cs[c]);
                }
            }
        } else {
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                cs[c] = fma(A[(long long)(r0 + c) * lda + i], xi, cs[c]);
            }
        }
    }
#else
    const int iend = min(r0 + NB, n);
#pragma unroll 2
    for (int i = tid; i < iend; i += BLOCK_SIZE) {
        const T xi = x[i];
        if (i < r0) {
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                if (r0 + c < n) {
                    cs[c] = fma(A[(long long)(r0 + c) * lda + i], xi, cs[c]);
                }
            }
        } else {
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                if (r0 + c > i && r0 + c < n) {
                    cs[c] = fma(A[(long long)(r0 + c) * lda + i], xi, cs[c]);
                }
            }
        }
    }
#endif

    WARP_REDUCE_SCATTER(cs, NB, LOG_NB, lane)
    if ((lane & ((32 >> LOG_NB) - 1)) == 0) {
        part_cols[warp * NB + (lane >> (5 - LOG_NB))] = cs[0];
    }
    __syncthreads();
    if (tid < NB && r0 + tid < n) {
        T s = (T)0;
#pragma unroll 4
        for (int g = 0; g < GROUPS; ++g) {
            s += part_rows[g * NB + tid];
        }
#pragma unroll
        for (int w = 0; w < WARPS; ++w) {
            s += part_cols[w * NB + tid];
        }
        const int row = r0 + tid;
        y[row] = (beta == (T)0) ? alpha * s : fma(beta, y[row], alpha * s);
    }
}
