// The lane's special registers read through inline PTX.
__global__ void lanes(unsigned int *out) {
    unsigned int lane, lt, le, gt, ge;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    int t = threadIdx.x + threadIdx.y * blockDim.x;
    out[5 * t] = lane;
    out[5 * t + 1] = lt;
    out[5 * t + 2] = le;
    out[5 * t + 3] = gt;
    out[5 * t + 4] = ge;
}
