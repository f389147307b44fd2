// hone's cuda_bf16.h: CUDA's bfloat16 types and intrinsics, written in the
// CUDA that hone reads. A bfloat16 is the upper 16 bits of a float; every
// operation converts to float, computes there and rounds back to nearest
// even, which gives the correctly rounded result (float's 24 bits are more
// than twice bfloat16's 8 plus two).
#ifndef HONE_CUDA_BF16_H
#define HONE_CUDA_BF16_H

#include "hone_round_odd.h"

__device__ unsigned short hone_float2bf16_bits(float f, int toward_zero) {
    unsigned int x = __float_as_uint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
        return (unsigned short)0x7fffu;
    }
    if (toward_zero != 0) {
        return (unsigned short)(x >> 16);
    }
    // Adding just under half of the dropped part, plus the kept lowest bit,
    // rounds to nearest with ties to even (and overflows into infinity).
    unsigned int rounded = x + 0x7fffu + ((x >> 16) & 1u);
    return (unsigned short)(rounded >> 16);
}

__device__ float hone_bf16_bits2float(unsigned short b) { return __uint_as_float((unsigned int)b << 16); }

struct __nv_bfloat16 {
    unsigned short __x;
    __device__ __nv_bfloat16() {}
    __device__ __nv_bfloat16(float f) { __x = hone_float2bf16_bits(f, 0); }
    __device__ __nv_bfloat16(double f) { __x = hone_float2bf16_bits(hone_double2float_odd(f), 0); }
    __device__ __nv_bfloat16(int i) { __x = hone_float2bf16_bits(hone_double2float_odd((double)i), 0); }
    __device__ operator float() const { return hone_bf16_bits2float(__x); }
    __device__ __nv_bfloat16 &operator+=(const __nv_bfloat16 &b) {
        set(hone_bf16_bits2float(__x) + hone_bf16_bits2float(b.__x));
        return *this;
    }
    __device__ __nv_bfloat16 &operator-=(const __nv_bfloat16 &b) {
        set(hone_bf16_bits2float(__x) - hone_bf16_bits2float(b.__x));
        return *this;
    }
    __device__ __nv_bfloat16 &operator*=(const __nv_bfloat16 &b) {
        set(hone_bf16_bits2float(__x) * hone_bf16_bits2float(b.__x));
        return *this;
    }
    __device__ __nv_bfloat16 &operator/=(const __nv_bfloat16 &b) {
        set(hone_bf16_bits2float(__x) / hone_bf16_bits2float(b.__x));
        return *this;
    }
    __device__ void set(float f) { __x = hone_float2bf16_bits(f, 0); }
};
typedef __nv_bfloat16 nv_bfloat16;

struct __nv_bfloat162 {
    __nv_bfloat16 x;
    __nv_bfloat16 y;
    __device__ __nv_bfloat162() {}
    __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
    // What C++ does through __nv_bfloat16's converting constructor.
    __device__ __nv_bfloat162(float a, float b) : x(a), y(b) {}
    __device__ __nv_bfloat162 &operator+=(const __nv_bfloat162 &b) {
        x += b.x;
        y += b.y;
        return *this;
    }
    __device__ __nv_bfloat162 &operator*=(const __nv_bfloat162 &b) {
        x *= b.x;
        y *= b.y;
        return *this;
    }
};
typedef __nv_bfloat162 nv_bfloat162;

__device__ __nv_bfloat16 hone_bf16_from_bits(unsigned short b) {
    __nv_bfloat16 h;
    h.__x = b;
    return h;
}

__device__ __nv_bfloat16 __float2bfloat16(float f) { return hone_bf16_from_bits(hone_float2bf16_bits(f, 0)); }
__device__ __nv_bfloat16 __float2bfloat16_rn(float f) { return hone_bf16_from_bits(hone_float2bf16_bits(f, 0)); }
__device__ __nv_bfloat16 __float2bfloat16_rz(float f) { return hone_bf16_from_bits(hone_float2bf16_bits(f, 1)); }
__device__ float __bfloat162float(__nv_bfloat16 h) { return hone_bf16_bits2float(h.__x); }
__device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
__device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short b) { return hone_bf16_from_bits(b); }

__device__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16(__bfloat162float(a) + __bfloat162float(b)); }
__device__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16(__bfloat162float(a) - __bfloat162float(b)); }
__device__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16(__bfloat162float(a) * __bfloat162float(b)); }
__device__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16(__bfloat162float(a) / __bfloat162float(b)); }
__device__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
    return __float2bfloat16(hone_fma_odd(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)));
}
__device__ __nv_bfloat16 __hneg(__nv_bfloat16 a) { return hone_bf16_from_bits((unsigned short)(a.__x ^ 0x8000u)); }
__device__ __nv_bfloat16 __habs(__nv_bfloat16 a) { return hone_bf16_from_bits((unsigned short)(a.__x & 0x7fffu)); }
__device__ bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
__device__ bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
__device__ bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) < __bfloat162float(b); }
__device__ bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) > __bfloat162float(b); }

__device__ __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hadd(a, b); }
__device__ __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hsub(a, b); }
__device__ __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hmul(a, b); }
__device__ __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hdiv(a, b); }
__device__ __nv_bfloat16 operator-(const __nv_bfloat16 &a) { return __hneg(a); }
__device__ bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __heq(a, b); }
__device__ bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hlt(a, b); }
__device__ bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hgt(a, b); }

__device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__device__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
__device__ __nv_bfloat162 __float2bfloat162_rn(float f) { return __nv_bfloat162(__float2bfloat16(f), __float2bfloat16(f)); }
__device__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b)); }
__device__ __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __nv_bfloat162(__float2bfloat16(f.x), __float2bfloat16(f.y)); }
__device__ float2 __bfloat1622float2(__nv_bfloat162 h) { return make_float2(__bfloat162float(h.x), __bfloat162float(h.y)); }
__device__ float __low2float(__nv_bfloat162 h) { return __bfloat162float(h.x); }
__device__ float __high2float(__nv_bfloat162 h) { return __bfloat162float(h.y); }
__device__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
__device__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
__device__ __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
__device__ __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
__device__ __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
__device__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
    return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}

__device__ __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hadd2(a, b); }
__device__ __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hsub2(a, b); }
__device__ __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hmul2(a, b); }

#endif
