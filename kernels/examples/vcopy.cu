// Vectorised copy: dst[i] = src[i] for i < n.
//
// Each block copies one tile of BLOCK_SIZE * ELEMS_PER_THREAD * VEC floats.
// A thread issues all ELEMS_PER_THREAD loads (VEC floats each: 16-byte loads
// for VEC = 4) before its first store, so several loads per thread are in
// flight; consecutive threads touch consecutive vectors, so each warp access
// is one contiguous 512-byte span for VEC = 4. Every tile but the last is
// full and takes the fast path with no bounds checks; the last tile, which
// may be partial, copies element by element. The grid is exact:
// cdiv(n, BLOCK_SIZE * ELEMS_PER_THREAD * VEC) blocks.
//
// Parameters (-D): BLOCK_SIZE (threads per block), ELEMS_PER_THREAD
// (vectors per thread), VEC (floats per vector: 1, 2 or 4).

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ELEMS_PER_THREAD
#define ELEMS_PER_THREAD 4
#endif
#ifndef VEC
#define VEC 4
#endif

#if VEC == 1
typedef float vec_t;
#elif VEC == 2
typedef float2 vec_t;
#elif VEC == 4
typedef float4 vec_t;
#else
#error "VEC must be 1, 2 or 4"
#endif

#define TILE (BLOCK_SIZE * ELEMS_PER_THREAD * VEC)

extern "C" __global__ void __launch_bounds__(BLOCK_SIZE)
vcopy(float* __restrict__ dst, const float* __restrict__ src, unsigned long long n)
{
    const unsigned long long base = (unsigned long long)blockIdx.x * TILE;
    if (base + TILE <= n) {
        // Tile starts are multiples of TILE floats and device allocations are
        // 256-byte aligned, so the vector casts are aligned.
        const vec_t* s = reinterpret_cast<const vec_t*>(src + base);
        vec_t* d = reinterpret_cast<vec_t*>(dst + base);
        vec_t r[ELEMS_PER_THREAD];
#pragma unroll
        for (int k = 0; k < ELEMS_PER_THREAD; ++k) {
            r[k] = s[threadIdx.x + k * BLOCK_SIZE];
        }
#pragma unroll
        for (int k = 0; k < ELEMS_PER_THREAD; ++k) {
            d[threadIdx.x + k * BLOCK_SIZE] = r[k];
        }
    } else {
        for (unsigned long long i = base + threadIdx.x; i < n; i += BLOCK_SIZE) {
            dst[i] = src[i];
        }
    }
}
