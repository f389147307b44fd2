// Barriers, fences and atomics, with their arguments converted to the types
// CUDA's overloads take.
__global__ void atomics(int *i, unsigned *u, unsigned long long *ull, float *f,
                        double *d, long long *ll, unsigned short *us) {
    __syncthreads();
    __syncwarp();
    __syncwarp(0xffff);
    __threadfence();
    int old = atomicAdd(i, 1);
    atomicAdd(u, 1);
    atomicAdd(ull, 1);
    float fo = atomicAdd(f, 1);
    atomicAdd(d, 1.0f);
    atomicSub(i, 2);
    atomicExch(f, 0.0);
    atomicExch(u, 5u);
    atomicMin(i, old);
    atomicMax(ll, 7);
    atomicMin(u, -1);
    atomicCAS(i, 0, 1);
    atomicCAS(ull, 0, 1);
    atomicCAS(us, 0, 1);
    atomicAnd(u, 0xf0);
    atomicOr(i, 1);
    atomicXor(ull, 3);
    __shared__ int s[32];
    atomicAdd(&s[threadIdx.x % 32], 1);
    atomicAdd(s, 2);
}
