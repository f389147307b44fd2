#include <curand_kernel.h>

// Thread i's state: subsequence `sub[i]`, offset `off[i]`.
__global__ void init_states(curandState *states, const unsigned long long *sub,
                            const unsigned long long *off, unsigned long long seed, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        curand_init(seed, sub[i], off[i], &states[i]);
    }
}

// Every draw of the device API, in an order that crosses the cached
// second values of the Box-Muller pairs.
__global__ void draws(curandState *states, unsigned int *u, float *f, double *d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    curandState s = states[i];
    u[i * 4] = curand(&s);
    u[i * 4 + 1] = curand(&s);
    f[i * 8] = curand_uniform(&s);
    f[i * 8 + 1] = curand_normal(&s);
    f[i * 8 + 2] = curand_normal(&s);
    f[i * 8 + 3] = curand_normal(&s);
    f[i * 8 + 4] = curand_log_normal(&s, 0.5f, 0.25f);
    float2 p = curand_normal2(&s);
    f[i * 8 + 5] = p.x;
    f[i * 8 + 6] = p.y;
    f[i * 8 + 7] = curand_log_normal(&s, 0.5f, 0.25f);
    d[i * 4] = curand_uniform_double(&s);
    d[i * 4 + 1] = curand_normal_double(&s);
    d[i * 4 + 2] = curand_normal_double(&s);
    d[i * 4 + 3] = curand_normal_double(&s);
    skipahead(1000ull, &s);
    u[i * 4 + 2] = curand(&s);
    skipahead_sequence(3ull, &s);
    u[i * 4 + 3] = curand(&s);
    states[i] = s;
}

// Sobol points of one dimension from `offset` on, through a pointer to the
// host's direction vectors as the samples pass them.
__global__ void sobol(curandDirectionVectors32_t *dirs, unsigned int *u, float *f, unsigned int offset) {
    int i = threadIdx.x;
    curandStateSobol32_t s;
    curand_init(dirs[0], offset + 3u * (unsigned int)i, &s);
    u[i * 2] = curand(&s);
    u[i * 2 + 1] = curand(&s);
    f[i] = curand_uniform(&s);
}
