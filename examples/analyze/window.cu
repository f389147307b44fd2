// A sliding-window sum along each row, as box filters write it: every trip of
// the second loop reloads the row's first element, since the store to `od`
// might change that memory. The loops sit in a device function the kernel
// calls.
__device__ void window_row(const float *id, float *od, int r)
{
    float t = id[0] * r;
    for (int x = 0; x <= r; x++)
        t += id[x];
    od[0] = t;
    for (int x = 1; x <= r; x++) {
        t += id[x + r];
        t -= id[0];
        od[x] = t;
    }
}

__global__ void window_rows(const float *id, float *od, int w, int r)
{
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    window_row(&id[y * w], &od[y * w], r);
}
