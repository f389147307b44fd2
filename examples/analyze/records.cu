// Particles as an array of 32-byte records, each thread reading its own:
// a warp's lanes are 32 bytes apart, so every member load touches a sector
// per lane. The whole record is used, so no member is wasted: the fix is to
// read the block's records together (shared-memory staging), not to change
// the layout.
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
