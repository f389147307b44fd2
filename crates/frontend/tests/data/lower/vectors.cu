// CUDA vector types: components, make_* constructors, brace initialization,
// pointers to vectors, dim3 and the built-in index vectors.
__global__ void vectors(float4 *p4, const float2 *p2, double2 d2, int2 i2,
                        uint4 u4, float3 f3, int4 *i4, uint2 u2, char4 c4) {
    float4 v = make_float4(1, 2.0f, 3.0, i2.x);
    float2 w = {0.5f, 1};
    v.x += w.y;
    v.w = p2[threadIdx.x].x * 2;
    p4[0] = v;
    p4->y = d2.x;
    (*p4).z = f3.z;
    i4[0] = make_int4(u4.x, u4.y, u4.z, u4.w);
    double2 e = make_double2(d2.y, d2.x);
    uint3 t = threadIdx;
    dim3 block(16, 8);
    dim3 grid = gridDim;
    unsigned total = block.x * block.y * block.z + t.x + grid.y + u2.y + c4.w;
    float4 copy = *p4;
}
