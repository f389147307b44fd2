__device__ __forceinline__ float sq(float v);
__device__ __noinline__ int *pick(int *a, int *b, bool first);

__device__ __forceinline__ float sq(float v) {
    return v * v;
}

__device__ __noinline__ int *pick(int *a, int *b, bool first) {
    return first ? a : b;
}

__global__ void __launch_bounds__(256, 2) transpose(const float *__restrict__ in, float *__restrict__ out, const int n) {
    __shared__ float tile[32][33];
    extern __shared__ float dyn[];
    const int tx = threadIdx.x;
    float coef[2][2] = {{1.0f, 0.5f}, {0.25f, 0.125f}};
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float sum = 0.0f;
    if (tx >= n) {
        return;
    }
    for (int i = tx; i < n; i += blockDim.x) {
        sum += sq(in[i]);
        if (sum < 0.0f) {
            continue;
        } else if (sum > 1000000.0f) {
            break;
        } else {
            tile[0][tx] = sum;
        }
    }
    for (;;) {
        break;
    }
    int j = 0;
    while (j < 4) {
        j++;
    }
    do {
        --j;
    } while (j > 0);
    unsigned int lane = threadIdx.x & 31u;
    switch (lane) {
        case 0:
        case 1:
            sum = 1.0f;
        case 4294967294:
            sum *= 2.0f;
            break;
        default:
            {
                dyn[tx] = sum;
            }
    }
    __syncthreads();
    out[tx] = tile[tx][0] + coef[1][1];
    {
        dyn[0] = acc.z;
    }
}
