// Cubemap textures: a direction selects a face by its major axis and a
// texel on it; point sampling.

__global__ void sample_cube(float *out, const float *dir, int n, cudaTextureObject_t cube)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = texCubemap<float>(cube, dir[3 * i], dir[3 * i + 1], dir[3 * i + 2]);
}

__global__ void sample_cube_layers(float *out, const float *dir, int layer, int n, cudaTextureObject_t cube)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = texCubemapLayered<float>(cube, dir[3 * i], dir[3 * i + 1], dir[3 * i + 2], layer);
}
