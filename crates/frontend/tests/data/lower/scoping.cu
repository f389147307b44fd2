// Block scoping: shadowing makes a new variable; names resolve to the
// innermost declaration; a for loop's variables live in its own scope.
__global__ void scopes(int *out) {
    int x = 1;
    {
        float x = 2.0f;
        out[0] = x;
        {
            int x = 3;
            out[1] = x;
        }
        out[2] = x;
    }
    for (int x = 0; x < 2; x++) {
        int y = x;
        out[3] = y;
    }
    for (int x = 5; x < 6; x++) out[4] = x;
    out[5] = x;
    int y = x + 1;
    if (y) { int y = 7; out[6] = y; } else { double y = 8; out[7] = y; }
    out[8] = y;
}
