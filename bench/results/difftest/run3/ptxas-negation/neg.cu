#include <cstdio>
#include <climits>
__global__ void k1209(const int *in, int *out) {  // i2 = min(0, min((int)(0u - (unsigned)i1), i2))
    int i1 = in[0], i2 = in[1];
    out[0] = min(0, min(((int)(0u - (unsigned)(i1))), i2));
}
__global__ void k9046(const int *in, int *out) {  // max(i1, max((int)(0u - (unsigned)i2), i2))
    int i1 = in[2], i2 = in[3];
    out[1] = max(i1, max(((int)(0u - (unsigned)(i2))), i2));
}
__global__ void kneg(const int *in, int *out) {   // the negation alone
    int i1 = in[0];
    out[2] = (int)(0u - (unsigned)(i1));
}
__global__ void kmin(const int *in, int *out) {   // one min
    int i1 = in[0], i2 = in[1];
    out[3] = min(((int)(0u - (unsigned)(i1))), i2);
}
int main() {
    int h[4] = {-1, INT_MAX, 0, -157}, *din, *dout, r[4];
    cudaMalloc(&din, 16); cudaMalloc(&dout, 16);
    cudaMemcpy(din, h, 16, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0x55, 16);
    k1209<<<1,1>>>(din, dout); k9046<<<1,1>>>(din, dout); kneg<<<1,1>>>(din, dout); kmin<<<1,1>>>(din, dout);
    cudaMemcpy(r, dout, 16, cudaMemcpyDeviceToHost);
    printf("k1209 %d (C++: 0)  k9046 %d (C++: 157)  kneg %d (C++: 1)  kmin %d (C++: 1)\n", r[0], r[1], r[2], r[3]);
    return 0;
}
