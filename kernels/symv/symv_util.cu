// Helpers of the SYMV benchmark: the test-matrix generator and the beta
// scaling that the atomic algorithm runs before its main kernel.
//
// The generator gives every element of a symmetric matrix a value from a hash
// of (seed, row, column), so the host computes the same values without the
// matrix ever crossing the bus: the CPU reference regenerates each element.
// The host copy of the hash is `reference::sym_value` and must stay
// bit-identical to this one.

// SplitMix64's output function.
__device__ __forceinline__ unsigned long long hone_mix64(unsigned long long z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The value of a(i, j) = a(j, i) for i >= j: uniform in [-1, 1), exact in T.
__device__ __forceinline__ T sym_value(const unsigned long long seed, const int i, const int j)
{
    const unsigned long long key = ((unsigned long long)(unsigned int)i << 32) | (unsigned int)j;
    const unsigned long long h = hone_mix64(key * 0x9E3779B97F4A7C15ull + seed);
#if PREC == 1
    return (double)(h >> 11) * (1.0 / 4503599627370496.0) - 1.0;
#else
    return (float)(unsigned int)(h >> 40) * (1.0f / 8388608.0f) - 1.0f;
#endif
}

// Fills column blockIdx.y of the lda x n array A. mode 0: the stored triangle
// (UPLO of the launch argument) gets its values and everything else NaN, so a
// kernel that reads the other triangle or the padding rows produces NaN;
// mode 1: the full symmetric matrix (for GEMV), padding rows NaN.
extern "C" __global__ void symv_fill(T* A, const int n, const long long lda,
                                     const unsigned long long seed, const int uplo,
                                     const int mode)
{
    const int j = blockIdx.y;
    for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < lda;
         r += (long long)gridDim.x * blockDim.x) {
        T v = T_NAN;
        if (r < n) {
            const int i = (int)r;
            const bool stored = uplo == 0 ? i >= j : i <= j;
            if (stored || mode == 1) {
                v = i >= j ? sym_value(seed, i, j) : sym_value(seed, j, i);
            }
        }
        A[(long long)j * lda + r] = v;
    }
}

// y = beta * y; with beta == 0, y is overwritten without being read (BLAS
// semantics: y need not be initialised then).
extern "C" __global__ void symv_scale(const int n, const T beta, T* y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = (beta == (T)0) ? (T)0 : beta * y[i];
    }
}
