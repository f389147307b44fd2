// A syntax error inside one function only costs that function.
__global__ void broken(int *out) {
    out[0] = (1 + ;
}

__global__ void intact(int *out) {
    out[0] = 2;
}
