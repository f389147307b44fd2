// Integer intrinsics take their own argument types and return theirs
// (`__clz(x) - 33` is a signed int), the scoped atomics are the plain ones,
// `atomicInc`/`atomicDec` work on unsigned int, and `clock()` is a `clock_t`.
__global__ void bits(unsigned u, unsigned long long w, int *out, unsigned *ctr, clock_t *t) {
    clock_t start = clock();
    out[0] = __popc(u) + __popcll(w) + (__clz(u) - 33) + __clzll(w);
    out[1] = __ffs(u) + __ffsll(w) + __brev(u) + (int)__brevll(w);
    out[2] = __mulhi(-3, u) + __umulhi(u, u) + (int)__mul64hi(w, 5) + (int)__umul64hi(w, w);
    out[3] = atomicInc(ctr, 7u) + atomicDec(ctr + 1, 7u) + atomicAdd_system(ctr + 2, 1u);
    out[4] = cbrtf(u) + hypot(1.0, w) + erff(0.5f) + rint(2.5) + copysignf(1, -2) + exp10(1.0) + __saturatef(u);
    t[0] = clock64() - start;
}
