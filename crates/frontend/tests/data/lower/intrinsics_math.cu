// Math functions: `f` spellings work in float, plain spellings pick float
// when every argument is float and double otherwise (as nvcc does), min/max
// use the usual arithmetic conversions; fast-math intrinsics map to their
// plain versions.
__global__ void math(float x, double y, int i, unsigned u, long long ll, float *out, double *dout) {
    out[0] = sqrtf(x);
    out[1] = sqrtf(i);
    dout[0] = sqrt(y);
    out[2] = sqrt(x);
    dout[1] = sqrt(i);
    out[3] = rsqrtf(x) + expf(x) + exp2f(x) + logf(x) + log2f(x) + log10f(x);
    out[4] = powf(x, 2) + pow(x, 2.0f);
    dout[2] = pow(x, y);
    out[5] = fmaf(x, x, 1);
    dout[3] = fma(y, x, i);
    out[6] = fminf(x, y) + fmaxf(x, 0);
    out[7] = fabsf(x) + fabs(x);
    out[8] = min(i, 3) + max(i, u);
    out[9] = min(x, i);
    dout[4] = max(ll, y);
    out[10] = abs(i) + abs(x);
    out[11] = sinf(x) + cosf(x) + tanf(x) + tanhf(x);
    out[12] = floorf(x) + ceilf(x) + roundf(x) + truncf(x) + fmodf(x, 2);
    dout[5] = floor(y) + ceil(y) + round(y) + trunc(y) + fmod(y, 2) + tanh(y) + exp(y) + log(y);
    out[13] = __expf(x) + __sinf(x) + __cosf(x) + __logf(x) + __powf(x, 2);
    out[14] = __fdividef(x, 3) + __fmul_rn(x, x) + __fmaf_rn(x, x, x);
    out[15] = umin(i, u) + llmax(i, 2);
    out[16] = __ldg(&out[0]) + __ldg(out + 1);
    dout[6] = pow(x, 2) + fmod(x, 2) + sqrt(i);
}
