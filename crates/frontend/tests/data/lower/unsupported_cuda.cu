// CUDA features outside the subset: textures, inline PTX, cooperative groups,
// dynamic parallelism, printf, file-scope __constant__/__device__ memory.
__constant__ float coeffs[16];
__device__ int counter;
texture<float, 1, cudaReadModeElementType> tex;

__global__ void child(int *p) { p[0] = 1; }

__global__ void uses_texture(float *out) { out[0] = tex1Dfetch(tex, 0); }

__global__ void uses_texture_object(cudaTextureObject_t t, float *out) { out[0] = 0; }

__global__ void uses_asm(int *out) {
    int lane;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(lane));
    out[0] = lane;
}

__global__ void uses_cg(int *out) {
    cooperative_groups::coalesced_group g = cooperative_groups::coalesced_threads();
    g.sync();
}

__global__ void uses_launch(int *p) { child<<<1, 1>>>(p); }


__global__ void uses_constant(float *out) { out[0] = coeffs[threadIdx.x]; }

__global__ void uses_device_var(int *out) { out[0] = counter; }

__global__ void still_fine(float *out) { out[threadIdx.x] = 1.0f; }
