// An 8-bit RGBA image in a texture object, read as normalized floats with
// linear filtering (the host code below sets the modes), as image filters do.

__global__ void rgba_resample(float4 *out, int w, int h, float sx, float sy, cudaTextureObject_t img)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D<float4>(img, x * sx, y * sy);
}

void setup(cudaArray_t array, cudaTextureObject_t *img)
{
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
    cudaResourceDesc res;
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc tex;
    tex.addressMode[0] = cudaAddressModeClamp;
    tex.addressMode[1] = cudaAddressModeClamp;
    tex.filterMode = cudaFilterModeLinear;
    tex.readMode = cudaReadModeNormalizedFloat;
    tex.normalizedCoords = false;
    cudaCreateTextureObject(img, &res, &tex, NULL);
}
