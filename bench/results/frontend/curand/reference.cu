#include <curand_kernel.h>
#include <cstdio>

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

// NVIDIA's cuRAND on the same kernels, for comparison with hone's emulation.
int main() {
    const int n = 8;
    unsigned long long sub[n] = {0ull, 1ull, 2ull, 3ull, 1000ull, 65535ull, 1048579ull, 8589934592ull};
    unsigned long long off[n] = {0ull, 1ull, 7ull, 1000ull, 123456789ull, 0ull, 1099511627781ull, 2ull};
    curandState *st; unsigned long long *ds, *dof; unsigned int *u; float *f; double *d;
    cudaMalloc(&st, n * sizeof(curandState)); cudaMalloc(&ds, sizeof sub); cudaMalloc(&dof, sizeof off);
    cudaMalloc(&u, 32 * 4); cudaMalloc(&f, 64 * 4); cudaMalloc(&d, 32 * 8);
    cudaMemcpy(ds, sub, sizeof sub, cudaMemcpyHostToDevice);
    cudaMemcpy(dof, off, sizeof off, cudaMemcpyHostToDevice);
    init_states<<<1, 32>>>(st, ds, dof, 20015998343868ull, n);
    curandState hs[n];
    cudaMemcpy(hs, st, sizeof hs, cudaMemcpyDeviceToHost);
    printf("states =");
    for (int i = 0; i < n; i++) {
        printf(" %u", hs[i].d);
        for (int k = 0; k < 5; k++) printf(" %u", hs[i].v[k]);
    }
    printf("\n");
    draws<<<1, 32>>>(st, u, f, d, n);
    unsigned int hu[32]; float hf[64]; double hd[32];
    cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
    printf("u ="); for (int i = 0; i < 32; i++) printf(" %u", hu[i]); printf("\n");
    printf("f ="); for (int i = 0; i < 64; i++) printf(" %.9g", hf[i]); printf("\n");
    printf("d ="); for (int i = 0; i < 32; i++) printf(" %.17g", hd[i]); printf("\n");
    unsigned int dv[32]; dv[0] = 1u << 31;
    for (int k = 1; k < 32; k++) dv[k] = dv[k - 1] ^ (dv[k - 1] >> 1);
    curandDirectionVectors32_t *ddv; cudaMalloc(&ddv, sizeof dv);
    cudaMemcpy(ddv, dv, sizeof dv, cudaMemcpyHostToDevice);
    sobol<<<1, 32>>>(ddv, u, f, 1000u);
    cudaMemcpy(hu, u, 64 * 4 > sizeof hu ? sizeof hu : 64 * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, f, 32 * 4, cudaMemcpyDeviceToHost);
    printf("sobol_u ="); for (int i = 0; i < 32; i++) printf(" %u", hu[i]); printf("\n");
    printf("sobol_f ="); for (int i = 0; i < 32; i++) printf(" %.9g", hf[i]); printf("\n");
    cudaError_t e = cudaDeviceSynchronize();
    printf("cuda: %s\n", cudaGetErrorString(e));
    return 0;
}
