// Literal typing: int, then long long for decimal; unsigned too for hex and
// octal; suffixes; float and double; char (a char in C++); bool.
__global__ void literals(long long *out, double *d, float *f) {
    out[0] = 1;
    out[1] = 2147483647;
    out[2] = 2147483648;
    out[3] = 0x7fffffff;
    out[4] = 0x80000000;
    out[5] = 0xffffffffff;
    out[6] = 017;
    out[7] = 10u;
    out[8] = 10l;
    out[9] = 10ul;
    out[10] = 10LL;
    out[11] = 0x10ULL;
    out[12] = 4294967296u;
    out[13] = 'a';
    out[14] = '\n';
    out[15] = true;
    out[16] = 0b1010;
    d[0] = 1.0;
    d[1] = 1e-3;
    d[2] = 2.;
    f[0] = 1.0f;
    f[1] = .5f;
    f[2] = 1E3F;
    f[3] = 0.1f;
    f[4] = 0x1p-2f;
    d[3] = 1.0 + 2.0f;
}
