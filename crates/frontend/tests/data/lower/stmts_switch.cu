// switch: labels folded to constants, fallthrough between arms, default in
// the middle, break inside a nested loop leaving only the loop.
__global__ void sw(int *out, char c, unsigned u) {
    int v = threadIdx.x;
    switch (v) {
    case 0:
    case 1:
        out[0] = 1;
    case 2 + 1:
        out[1] = 2;
        break;
    default:
        out[2] = 3;
    case -1: {
        for (int k = 0; k < 3; k++) {
            if (k == 1) break;
        }
        break;
    }
    case 'a':
        ;
    }
    switch (c) {
    case 'x': out[3] = 4; break;
    }
    switch (u) {
    case -1: out[4] = 5;
    default: break;
    }
}
