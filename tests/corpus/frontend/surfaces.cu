// Surface objects: arrays read and written with a byte x-coordinate; out of
// range, accesses trap (the default), clamp, or read zero and write nothing.

__global__ void shift_rows(cudaSurfaceObject_t dst, cudaSurfaceObject_t src, int w, int h, int dx, int mode)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float v;
    if (mode == 0) {
        v = surf2Dread<float>(src, (x + dx) * sizeof(float), y, cudaBoundaryModeZero);
    } else {
        surf2Dread(&v, src, (x + dx) * 4, y, cudaBoundaryModeClamp);
    }
    surf2Dwrite(v, dst, x * 4, y);
}

__global__ void scatter_zero(cudaSurfaceObject_t dst, int w, int dx)
{
    int x = threadIdx.x;
    surf1Dwrite(1.0f + x, dst, (x + dx) * 4, cudaBoundaryModeZero);
}

__global__ void scatter_clamp(cudaSurfaceObject_t dst, int w, int dx)
{
    int x = threadIdx.x;
    if (x == 0)
        surf1Dwrite(1.0f + x + dx, dst, (x + dx) * 4, cudaBoundaryModeClamp);
}

__global__ void volume_index(cudaSurfaceObject_t vol, int w, int h, int d)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    surf3Dwrite(float(x + 10 * y + 100 * z), vol, x * 4, y, z);
}

__global__ void out_of_range(cudaSurfaceObject_t dst, int w)
{
    surf1Dwrite(2.0f, dst, w * 4);
}

void setup(cudaArray_t array)
{
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaMallocArray(&array, &desc, 4, 4, cudaArraySurfaceLoadStore);
}
