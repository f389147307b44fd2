// A 3-D texture object read with normalized coordinates, trilinear filtering
// and wrapping (the host code below sets the modes), as volume renderers do.

__global__ void sample_volume(float *out, const float *uvw, int n, cudaTextureObject_t vol)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex3D<float>(vol, uvw[3 * i], uvw[3 * i + 1], uvw[3 * i + 2]);
}

void setup(cudaArray_t array, cudaTextureObject_t *vol)
{
    cudaResourceDesc res;
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc tex;
    tex.addressMode[0] = cudaAddressModeWrap;
    tex.addressMode[1] = cudaAddressModeWrap;
    tex.addressMode[2] = cudaAddressModeWrap;
    tex.filterMode = cudaFilterModeLinear;
    tex.readMode = cudaReadModeElementType;
    tex.normalizedCoords = true;
    cudaCreateTextureObject(vol, &res, &tex, NULL);
}
