// Records of consecutive floats, each read one element at a time: complex
// numbers as two floats, colours as four. A warp's lanes are 8 or 16 bytes
// apart, so every load's request spans two or four times the sectors its
// data fills; one float2 or float4 load reads a record in one request.
__global__ void magnitude(const float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float re = z[2 * i];
        float im = z[2 * i + 1];
        out[i] = re * re + im * im;
    }
}

__global__ void luminance(const float *rgba, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = rgba[4 * i + 3];
        out[i] = a * (0.2126f * rgba[4 * i] + 0.7152f * rgba[i * 4 + 1] + 0.0722f * rgba[4 * i + 2]);
    }
}

// Not fixable as one load: the second element is read only for some
// threads, and the store between the reads may change it (out may alias z).
__global__ void guarded(const float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float re = z[2 * i];
        float im = re > 0.5f ? z[2 * i + 1] : 0.0f;
        out[i] = re + im;
    }
}

__global__ void store_between(const float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float re = z[2 * i];
        out[i] = re;
        float im = z[2 * i + 1];
        out[i] += im;
    }
}

// Not fixable either: a store hidden in a comma expression, a read that is
// also a store, a pointer the kernel moved (its alignment is no longer the
// allocation's), and an unsigned 32-bit index, where 2 * i + 1 wraps and
// the vector index does not.
__global__ void comma_store(float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float re = z[2 * i];
        out[i] = re, out[i] += z[2 * i + 1];
    }
}

__global__ void self_store(float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        z[2 * i + 1] = z[2 * i] + 1.0f;
        out[i] = z[2 * i + 1];
    }
}

__global__ void moved_pointer(const float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    z += n & 0;
    if (i < n) {
        float re = z[2 * i];
        float im = z[2 * i + 1];
        out[i] = re * im;
    }
}

__global__ void unsigned_index(const float *z, float *out, int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float re = z[2 * i];
        float im = z[2 * i + 1];
        out[i] = re * im;
    }
}
