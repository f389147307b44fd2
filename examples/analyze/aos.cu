// Particles stored as an array of structures {x, y, z} of floats: each
// thread reads its particle's three fields, so a warp's lanes are 12 bytes
// apart and every request spreads over three times the sectors it needs.
__global__ void norms(const float *pos, float *r2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = pos[3 * i];
        float y = pos[3 * i + 1];
        float z = pos[3 * i + 2];
        r2[i] = x * x + y * y + z * z;
    }
}
