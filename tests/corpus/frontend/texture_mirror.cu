// A 2-D texture object read with normalized coordinates, point sampling and
// mirroring: coordinates past the edges read the image reflected.

__global__ void sample_mirrored(float *out, const float *uv, int n, cudaTextureObject_t img)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(img, uv[2 * i], uv[2 * i + 1]);
}

__global__ void sample_mirrored_into(float *out, const float *uv, int n, cudaTextureObject_t img)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = -1.0f;
    if (i < n)
        tex2D(&v, img, uv[2 * i], uv[2 * i + 1]);
    if (i < n)
        out[i] = v;
}

void setup(cudaArray_t array, cudaTextureObject_t *img)
{
    cudaResourceDesc res;
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc tex;
    tex.addressMode[0] = cudaAddressModeMirror;
    tex.addressMode[1] = cudaAddressModeMirror;
    tex.filterMode = cudaFilterModePoint;
    tex.normalizedCoords = true;
    cudaCreateTextureObject(img, &res, &tex, NULL);
}
