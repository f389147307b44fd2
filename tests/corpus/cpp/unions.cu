// Unions, and anonymous members read through (as dct8x8 packs two shorts
// into an int); a struct holding an anonymous union.
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
__global__ void unpack(const unsigned int *in, int *out, Tagged *t) {
    int k = threadIdx.x;
    PackedShorts p;
    p.all = in[k];
    out[3 * k] = p.lo;
    out[3 * k + 1] = p.hi + low_half(in[k]) - p.lo;
    PackedShorts q = p;
    q.hi = 7;
    out[3 * k + 2] = (int)q.all;
    Tagged x = t[k];
    x.f = 1.5f;
    t[k].i = x.i + x.tag;
}
