// helper_math.h-style operators on CUDA's vector types (a compound operator
// taking its left operand by reference), an over-aligned struct, and a class
// with a default constructor.

struct alignas(16) Sample {
    float a;
    int b;
};

__host__ __device__ inline void operator+=(float2 &a, float2 b) {
    a.x += b.x;
    a.y += b.y;
}
__host__ __device__ inline float2 operator-(float2 a) { return make_float2(-a.x, -a.y); }

struct Acc {
    float s;
    __host__ __device__ Acc() : s(0) {}
    __host__ __device__ void add(float v) { s += v; }
};

__global__ void helper(float2 *v, const Sample *q, float *out) {
    int i = threadIdx.x;
    float2 x = v[i];
    x += v[i + 32];
    v[i] = -x;
    Acc acc;
    acc.add(q[i].a);
    acc.add((float)q[i].b);
    out[i] = acc.s + sizeof(Sample);
}
