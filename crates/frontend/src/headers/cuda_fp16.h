// hone's cuda_fp16.h: CUDA's half-precision types and intrinsics, written in
// the CUDA that hone reads. A half is its 16 bits; every operation converts
// to float, computes there and rounds back to nearest even, which gives the
// correctly rounded half result (float's 24 bits are at least twice half's
// 11 plus two, so the second rounding is innocuous). Code that includes
// <cuda_fp16.h> gets these definitions, so the emulator, the analyzer and
// the printed kernel all see ordinary device functions on 16-bit integers.
#ifndef HONE_CUDA_FP16_H
#define HONE_CUDA_FP16_H

#include "hone_round_odd.h"

__device__ unsigned short hone_float2half_bits(float f, int toward_zero) {
    unsigned int x = __float_as_uint(f);
    unsigned int sign = (x >> 16) & 0x8000u;
    unsigned int ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) {
        return (unsigned short)0x7fffu;
    }
    if (ax >= 0x477ff000u) {
        // At or past the midpoint above 65504: infinity, or the largest
        // finite value when truncating.
        if (toward_zero != 0 && ax != 0x7f800000u) {
            return (unsigned short)(sign | 0x7bffu);
        }
        return (unsigned short)(sign | 0x7c00u);
    }
    unsigned int bits;
    unsigned int rest;
    unsigned int halfway;
    if (ax < 0x38800000u) {
        // A subnormal half (or zero): units of 2^-24.
        if (ax < 0x33000000u) {
            return (unsigned short)sign;
        }
        unsigned int e = ax >> 23;
        unsigned int m = (ax & 0x7fffffu) | 0x800000u;
        unsigned int shift = 126u - e;
        bits = m >> shift;
        rest = m & ((1u << shift) - 1u);
        halfway = 1u << (shift - 1u);
    } else {
        unsigned int r = ax - 0x38000000u;
        bits = r >> 13;
        rest = r & 0x1fffu;
        halfway = 0x1000u;
    }
    if (toward_zero == 0 && (rest > halfway || (rest == halfway && (bits & 1u) != 0u))) {
        bits = bits + 1u;
    }
    return (unsigned short)(sign | bits);
}

__device__ float hone_half_bits2float(unsigned short h) {
    unsigned int b = (unsigned int)h;
    unsigned int sign = (b & 0x8000u) << 16;
    unsigned int e = (b >> 10) & 0x1fu;
    unsigned int m = b & 0x3ffu;
    if (e == 31u) {
        return __uint_as_float(sign | 0x7f800000u | (m << 13));
    }
    if (e == 0u) {
        float v = (float)m * 5.9604644775390625e-8f;
        return sign != 0u ? -v : v;
    }
    return __uint_as_float(sign | ((e + 112u) << 23) | (m << 13));
}

struct __half {
    unsigned short __x;
    __device__ __half() {}
    __device__ __half(float f) { __x = hone_float2half_bits(f, 0); }
    __device__ __half(double f) { __x = hone_float2half_bits((float)f, 0); }
    __device__ __half(int i) { __x = hone_float2half_bits((float)i, 0); }
    __device__ operator float() const { return hone_half_bits2float(__x); }
    __device__ __half &operator+=(const __half &b) {
        set(hone_half_bits2float(__x) + hone_half_bits2float(b.__x));
        return *this;
    }
    __device__ __half &operator-=(const __half &b) {
        set(hone_half_bits2float(__x) - hone_half_bits2float(b.__x));
        return *this;
    }
    __device__ __half &operator*=(const __half &b) {
        set(hone_half_bits2float(__x) * hone_half_bits2float(b.__x));
        return *this;
    }
    __device__ __half &operator/=(const __half &b) {
        set(hone_half_bits2float(__x) / hone_half_bits2float(b.__x));
        return *this;
    }
    __device__ void set(float f) { __x = hone_float2half_bits(f, 0); }
};
typedef __half half;

struct __half2 {
    __half x;
    __half y;
    __device__ __half2() {}
    __device__ __half2(__half a, __half b) : x(a), y(b) {}
    // What C++ does through __half's converting constructor.
    __device__ __half2(float a, float b) : x(a), y(b) {}
    __device__ __half2 &operator+=(const __half2 &b) {
        x += b.x;
        y += b.y;
        return *this;
    }
    __device__ __half2 &operator-=(const __half2 &b) {
        x -= b.x;
        y -= b.y;
        return *this;
    }
    __device__ __half2 &operator*=(const __half2 &b) {
        x *= b.x;
        y *= b.y;
        return *this;
    }
};
typedef __half2 half2;

__device__ __half hone_half_from_bits(unsigned short b) {
    __half h;
    h.__x = b;
    return h;
}

__device__ __half __float2half(float f) { return hone_half_from_bits(hone_float2half_bits(f, 0)); }
__device__ __half __float2half_rn(float f) { return hone_half_from_bits(hone_float2half_bits(f, 0)); }
__device__ __half __float2half_rz(float f) { return hone_half_from_bits(hone_float2half_bits(f, 1)); }
__device__ float __half2float(__half h) { return hone_half_bits2float(h.__x); }
__device__ __half __int2half_rn(int i) { return __float2half((float)i); }
__device__ int __half2int_rz(__half h) { return (int)__half2float(h); }
__device__ unsigned short __half_as_ushort(__half h) { return h.__x; }
__device__ short __half_as_short(__half h) { return (short)h.__x; }
__device__ __half __ushort_as_half(unsigned short b) { return hone_half_from_bits(b); }
__device__ __half __short_as_half(short b) { return hone_half_from_bits((unsigned short)b); }

__device__ __half __hadd(__half a, __half b) { return __float2half(__half2float(a) + __half2float(b)); }
__device__ __half __hsub(__half a, __half b) { return __float2half(__half2float(a) - __half2float(b)); }
__device__ __half __hmul(__half a, __half b) { return __float2half(__half2float(a) * __half2float(b)); }
__device__ __half __hdiv(__half a, __half b) { return __float2half(__half2float(a) / __half2float(b)); }
__device__ __half __hfma(__half a, __half b, __half c) {
    return __float2half(hone_fma_odd(__half2float(a), __half2float(b), __half2float(c)));
}
__device__ __half __hneg(__half a) { return hone_half_from_bits((unsigned short)(a.__x ^ 0x8000u)); }
__device__ __half __habs(__half a) { return hone_half_from_bits((unsigned short)(a.__x & 0x7fffu)); }
__device__ bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
__device__ bool __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u; }
__device__ bool __heq(__half a, __half b) { return __half2float(a) == __half2float(b); }
__device__ bool __hne(__half a, __half b) { return __half2float(a) != __half2float(b) && !__hisnan(a) && !__hisnan(b); }
__device__ bool __hlt(__half a, __half b) { return __half2float(a) < __half2float(b); }
__device__ bool __hle(__half a, __half b) { return __half2float(a) <= __half2float(b); }
__device__ bool __hgt(__half a, __half b) { return __half2float(a) > __half2float(b); }
__device__ bool __hge(__half a, __half b) { return __half2float(a) >= __half2float(b); }
__device__ __half __hmax(__half a, __half b) { return __hisnan(a) ? b : (__hisnan(b) ? a : (__hlt(a, b) ? b : a)); }
__device__ __half __hmin(__half a, __half b) { return __hisnan(a) ? b : (__hisnan(b) ? a : (__hlt(b, a) ? b : a)); }

__device__ __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
__device__ __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
__device__ __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
__device__ __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
__device__ __half operator-(const __half &a) { return __hneg(a); }
__device__ bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
__device__ bool operator!=(const __half &a, const __half &b) { return __hne(a, b); }
__device__ bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
__device__ bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
__device__ bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
__device__ bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }

__device__ __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__device__ __half2 __half2half2(__half a) { return __half2(a, a); }
__device__ __half2 __float2half2_rn(float f) { return __half2(__float2half(f), __float2half(f)); }
__device__ __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half(a), __float2half(b)); }
__device__ __half2 __float22half2_rn(float2 f) { return __half2(__float2half(f.x), __float2half(f.y)); }
__device__ float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
__device__ float __low2float(__half2 h) { return __half2float(h.x); }
__device__ float __high2float(__half2 h) { return __half2float(h.y); }
__device__ __half __low2half(__half2 h) { return h.x; }
__device__ __half __high2half(__half2 h) { return h.y; }
__device__ __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__device__ __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__device__ __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
__device__ __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
__device__ __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }

__device__ __half2 __hadd2(__half2 a, __half2 b) { return __half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
__device__ __half2 __hsub2(__half2 a, __half2 b) { return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
__device__ __half2 __hmul2(__half2 a, __half2 b) { return __half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
__device__ __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
__device__ __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
    return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__device__ __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
__device__ __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }

__device__ __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
__device__ __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
__device__ __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
__device__ __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
__device__ __half2 operator-(const __half2 &a) { return __hneg2(a); }

#endif
