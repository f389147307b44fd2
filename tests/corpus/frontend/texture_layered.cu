// Layered textures: each layer a 1-D or 2-D image of its own, the layer
// chosen by an integer; point sampling with clamping (the defaults).

__global__ void sample_layers2d(float *out, const float *uv, const int *layer, int n, cudaTextureObject_t t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2DLayered<float>(t, uv[2 * i], uv[2 * i + 1], layer[i]);
}

__device__ float row(cudaTextureObject_t t, float x, int layer)
{
    return tex1DLayered<float>(t, x, layer);
}

__global__ void sample_layers1d(float *out, const float *x, const int *layer, int n, cudaTextureObject_t t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = row(t, x[i], layer[i]);
}
