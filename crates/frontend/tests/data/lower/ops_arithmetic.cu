// Arithmetic operators and the usual arithmetic conversions.
__global__ void arith(int i, unsigned u, long long ll, unsigned long long ull,
                      char c, short s, unsigned char uc, bool b,
                      float f, double d, int *out, float *fo, double *dout) {
    out[0] = i + i;
    out[1] = i + u;
    out[2] = i * ll;
    out[3] = u - ll;
    out[4] = ll / ull;
    out[5] = c + c;
    out[6] = s * uc;
    out[7] = i % u;
    out[8] = b + b;
    fo[0] = i + f;
    fo[1] = f * f;
    dout[0] = f + d;
    dout[1] = ull / d;
    fo[2] = ll - f;
    out[9] = -c;
    out[10] = +s;
    out[11] = -u;
    fo[3] = -f;
    out[12] = c / 2;
    dout[2] = 1 / 2.0;
}
