// CUDA's integer, SIMD and conversion intrinsics, block votes, the active
// mask and the loads and stores with cache hints.
__global__ void more_intrinsics(const unsigned int *a, const unsigned int *b, const float *f, int *out) {
    int t = threadIdx.x;
    unsigned int x = a[t], y = b[t];
    int *o = out + 16 * t;
    o[0] = __sad((int)x, (int)y, 7u);
    o[1] = __hadd((int)x, (int)y);
    o[2] = __rhadd((int)x, (int)y);
    o[3] = __byte_perm(x, y, 0x7531);
    o[4] = __funnelshift_l(x, y, t);
    o[5] = __funnelshift_r(x, y, t);
    o[6] = __vabsdiffu4(x, y);
    o[7] = __vsadu4(x, y);
    o[8] = __float2int_rn(f[t]);
    o[9] = __float2int_rd(f[t]) + __float2int_ru(f[t]);
    o[10] = __syncthreads_count(x & 1u);
    o[11] = __syncthreads_or(t == 5) + 2 * __syncthreads_and(t < 100);
    unsigned int m = 0;
    if (t % 3 == 0) {
        m = __activemask();
    }
    o[12] = m;
    __stcs(&o[13], __ldcs(&a[t]) + 1u);
    __threadfence_block();
    o[14] = (int)__uhadd(x, y);
    o[15] = __float2uint_rz(f[t] < 0.0f ? 0.0f : f[t]);
}
