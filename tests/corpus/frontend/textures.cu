// Textures read as the loads the texture unit makes: legacy references
// (1D fetch, 2D point sampling with clamping and with a border, 2D linear
// filtering, normalized-float bytes) and a texture object.

texture<float, 1, cudaReadModeElementType> line;
texture<float, 2, cudaReadModeElementType> clamped;
texture<float, 2, cudaReadModeElementType> bordered;
texture<float, 2, cudaReadModeElementType> smooth;
texture<unsigned char, 2, cudaReadModeNormalizedFloat> bytes;

__global__ void fetch1d(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * tex1Dfetch(line, i);
}

// Each output reads its pixel shifted by (-2, +1), so edges leave the image.
__global__ void shifted(float *out_clamp, float *out_border, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float u = x - 2 + 0.5f;
        float v = y + 1 + 0.5f;
        out_clamp[y * w + x] = tex2D(clamped, u, v);
        out_border[y * w + x] = tex2D(bordered, u, v);
    }
}

// Sampled between texels: bilinear blending with 8-bit weights.
__global__ void resample(float *out, int w, int h, float sx, float sy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D(smooth, x * sx, y * sy) + tex2D(bytes, x + 0.5f, y + 0.5f);
}

__global__ void object_fetch(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, n - 1 - i);
}

void setup(void)
{
    clamped.addressMode[0] = cudaAddressModeClamp;
    clamped.addressMode[1] = cudaAddressModeClamp;
    bordered.addressMode[0] = cudaAddressModeBorder;
    bordered.addressMode[1] = cudaAddressModeBorder;
    smooth.filterMode = cudaFilterModeLinear;
}
