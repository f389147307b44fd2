// Unions, and anonymous members read through (as dct8x8 packs two shorts).
union PackedShorts {
    struct {
        short lo;
        short hi;
    };
    unsigned int all;
};

struct Tagged {
    int tag;
    union {
        float f;
        int i;
    };
};

__device__ int low_half(unsigned int v) {
    PackedShorts p;
    p.all = v;
    return p.lo;
}

__global__ void unpack(const unsigned int *in, int *lo, int *hi, Tagged *t, int n) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    PackedShorts p;
    p.all = in[k];
    lo[k] = p.lo + low_half(in[k]) - p.lo;
    hi[k] = p.hi;
    Tagged x = t[k];
    x.f = 1.5f;
    t[k].i = x.i + x.tag;
}
