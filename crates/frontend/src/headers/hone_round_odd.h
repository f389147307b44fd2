// A double rounded to float toward zero with the lost bits kept in the last
// place ("round to odd"): rounding that float to a format of at most 22 bits
// then gives the double's correctly rounded value, which rounding to nearest
// twice would not. Shared by hone's cuda_fp16.h and cuda_bf16.h.
#ifndef HONE_ROUND_ODD_H
#define HONE_ROUND_ODD_H

__device__ float hone_double2float_odd(double d) {
    float f = (float)d;
    double back = (double)f;
    if (back == d) {
        return f;
    }
    unsigned int b = __float_as_uint(f);
    if (fabs(back) > fabs(d)) {
        b = b - 1u;
    }
    return __uint_as_float(b | 1u);
}

// The float, rounded to odd, of s + e, where s + e is exact and |e| is at
// most half an ulp of s (TwoSum's pair).
__device__ float hone_sum2float_odd(double s, double e) {
    float f = (float)s;
    if (e == 0.0 || (double)f != s) {
        return hone_double2float_odd(s);
    }
    unsigned int b = __float_as_uint(f);
    if ((e < 0.0) != (s < 0.0)) {
        b = b - 1u;
    }
    return __uint_as_float(b | 1u);
}

// a * b + c for a, b, c of at most 12 significant bits, rounded to odd in
// float: the product is exact in double, and TwoSum keeps what the sum
// loses, however far apart the exponents.
__device__ float hone_fma_odd(float a, float b, float c) {
    double d = (double)a * (double)b;
    double s = d + (double)c;
    double bb = s - d;
    double e = (d - (s - bb)) + ((double)c - bb);
    return hone_sum2float_odd(s, e);
}

#endif
