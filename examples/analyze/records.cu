// Particles as an array of 32-byte records, each thread reading its own:
// a warp's lanes are 32 bytes apart, so every member load touches a sector
// per lane. The whole record is used and the L1 cache serves the members
// after the first: copying the block's records through shared memory first
// measured slower on an H100 (bench/results/analyze/README.md).
struct Particle {
    float x, y, z, m;
    float vx, vy, vz, q;
};

__global__ void kinetic(const Particle *p, float *e)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Particle a = p[i];
    e[i] = 0.5f * a.m * (a.vx * a.vx + a.vy * a.vy + a.vz * a.vz) + a.q * (a.x + a.y + a.z);
}
