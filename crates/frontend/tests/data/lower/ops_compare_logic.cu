// Comparisons and logical operators give bool; their operands keep their types
// except for the conversion to a common type of comparisons.
__global__ void cmp(int i, unsigned u, float f, double d, char c, int *p, bool *out) {
    out[0] = i < u;
    out[1] = f >= d;
    out[2] = c == 'x';
    out[3] = i != f;
    out[4] = i && f;
    out[5] = p || i;
    out[6] = !i;
    out[7] = !p;
    out[8] = (i < 3) && (f > 2.0f) || !(c <= 0);
    int r = i > 0;
    if (i) r = 1;
    while (p) p = 0;
    for (; f; ) break;
    r = i ? 1 : 2;
}
