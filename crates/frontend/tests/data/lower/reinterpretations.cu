// Bit reinterpretations between floating and integer types.
__global__ void reinterpretations(const float *x, const double *d, int *o, float *f, double *g) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = __float_as_int(x[i]) ^ (int)__float_as_uint(x[i] * 2.0f);
    o[i + 64] = __double2hiint(d[i]) + __double2loint(d[i]);
    f[i] = __int_as_float(o[i] & 0x7fffffff) + __uint_as_float(0x3f800000u);
    g[i] = __longlong_as_double(__double_as_longlong(d[i]) + 1ll) + __hiloint2double(o[i], o[i + 64]);
}
