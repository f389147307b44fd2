// Bitwise and shift operators: shifts promote each side on its own.
__global__ void bits(int i, unsigned u, long long ll, char c, unsigned short us, int *out, long long *lo) {
    out[0] = i & u;
    out[1] = i | c;
    out[2] = u ^ us;
    out[3] = ~c;
    out[4] = ~u;
    out[5] = i << 3;
    out[6] = c << ll;
    lo[0] = ll >> i;
    out[7] = us >> 1u;
    lo[1] = 1LL << 40;
    out[8] = ~0u >> 3;
}
