#include <cstdio>
#include <cmath>
__global__ void k(const float *x, const double *d, unsigned *o, unsigned long long *q) {
    float m1 = x[0], z = x[1], inf = x[2];
    double dm1 = d[0], dz = d[1], dinf = d[2];
    o[0] = __float_as_uint(sqrtf(m1));
    o[1] = __float_as_uint(z / z);
    o[2] = __float_as_uint(inf - inf);
    o[3] = __float_as_uint(inf * z);
    o[4] = __float_as_uint(logf(m1));
    o[5] = __float_as_uint(__int_as_float(0x7fa00001) + 1.0f);  // signalling NaN in
    o[6] = __float_as_uint(__int_as_float(0xffc12345) * 2.0f);  // quiet NaN with payload
    o[7] = __float_as_uint(fminf(__int_as_float(0x7fc12345), __int_as_float(0x7fc54321)));
    o[8] = __float_as_uint((float)(dz / dz));
    o[9] = __float_as_uint(-(z / z));
    q[0] = __double_as_longlong(sqrt(dm1));
    q[1] = __double_as_longlong(dz / dz);
    q[2] = __double_as_longlong(dinf - dinf);
    q[3] = __double_as_longlong(__longlong_as_double(0xfff0000000012345ll) + 1.0);
    q[4] = __double_as_longlong((double)(z / z));
    q[5] = __double_as_longlong(log(dm1));
}
int main() {
    float hx[3] = {-1.0f, 0.0f, INFINITY};
    double hd[3] = {-1.0, 0.0, INFINITY};
    float *x; double *d; unsigned *o; unsigned long long *q;
    cudaMalloc(&x, sizeof hx); cudaMalloc(&d, sizeof hd); cudaMalloc(&o, 64); cudaMalloc(&q, 64);
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice); cudaMemcpy(d, hd, sizeof hd, cudaMemcpyHostToDevice);
    k<<<1, 1>>>(x, d, o, q);
    unsigned ho[10]; unsigned long long hq[6];
    cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost); cudaMemcpy(hq, q, sizeof hq, cudaMemcpyDeviceToHost);
    const char *fn[10] = {"sqrtf(-1)", "0f/0f", "inf-inf", "inf*0", "logf(-1)", "sNaN+1", "qNaN(payload,-)*2", "fminf(nan,nan)", "(float)(0.0/0.0)", "-(0f/0f)"};
    for (int i = 0; i < 10; i++) printf("f32 %-20s 0x%08x\n", fn[i], ho[i]);
    const char *dn[6] = {"sqrt(-1)", "0.0/0.0", "inf-inf", "sNaN+1", "(double)(0f/0f)", "log(-1)"};
    for (int i = 0; i < 6; i++) printf("f64 %-20s 0x%016llx\n", dn[i], hq[i]);
    return 0;
}
