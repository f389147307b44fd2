// Inline PTX of one instruction: ALU operations, bit fields, byte permutes,
// three-input logic, funnel shifts, and a load with a cache qualifier. The
// inputs are made from the thread index, so the kernel needs no input data.
__device__ unsigned int usad4(unsigned int a, unsigned int b, unsigned int c = 0) {
    unsigned int r;
    asm("vabsdiff4.u32.u32.u32.add"
        " %0, %1, %2, %3;"
        : "=r"(r)
        : "r"(a), "r"(b), "r"(c));
    return r;
}

__device__ unsigned int mix(unsigned int x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

// o holds 12 results per thread, one after another for every thread.
__global__ void ptx_ops(unsigned int *o, const float *f) {
    int i = threadIdx.x;
    int n = blockDim.x;
    unsigned int a = mix(i), b = mix(i + 1000), c = mix(i + 2000), r;
    int s;
    float x;
    o[i] = usad4(a, b, 7);
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(i), "r"(b % 40));
    o[i + n] = r;
    asm volatile("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(i % 36), "r"(c % 34));
    o[i + 2 * n] = (unsigned int)s;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(i % 33), "r"(c % 37));
    o[i + 3 * n] = r;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[i + 4 * n] = r;
    asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[i + 5 * n] = r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[i + 6 * n] = r;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    o[i + 7 * n] = r;
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(i));
    o[i + 8 * n] = r;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    o[i + 9 * n] = r;
    asm("ld.global.nc.f32 %0, [%1+4];" : "=f"(x) : "l"(f + i));
    o[i + 10 * n] = (unsigned int)x;
    asm("brev.b32 %0, %1;" : "=r"(r) : "r"(a));
    o[i + 11 * n] = r ^ (unsigned int)__popc(a);
}
