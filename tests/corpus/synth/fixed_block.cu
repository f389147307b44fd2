// Annotated stencils whose block size is fixed at compile time, as most real
// stencil kernels fix it: shared arrays and indices use the macros, not
// blockDim. `hone synth` must verify them on launches that keep the block.
#define BX 8
#define BY 4
#define TBX 8
#define TBY 6
#define TX 4
#define TY 4
#define TZ 2
#define NX 32

// The thesis's SHA five-point stencil (Source 2.1) with an 8x4 block.
__global__ void sha_fixed(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * BX;
    int j = threadIdx.y + blockIdx.y * BY;
    int c = i + nx * j;
    __shared__ float sb[BX * BY];
    int csb = threadIdx.x + threadIdx.y * BX;
    sb[csb] = in[c];
    __syncthreads();
    out[c] = __opt__in[(i == 0) ? c : c - 1]
            + __opt__in[(i == nx - 1) ? c : c + 1]
            + __opt__in[(j == 0) ? c : c - nx]
            + __opt__in[(j == ny - 1) ? c : c + nx]
            + __opt__in[c];}

// The sleeve (Source 4.4): a halo of one cell around the 8x4 tile.
__global__ void sleeve_fixed(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * BX;
    int j = threadIdx.y + blockIdx.y * BY;
    int c = i + nx * j;
    __shared__ float sb[(BX + 2) * (BY + 2)];
    int csb = (BX + 2) * (threadIdx.y + 1) + threadIdx.x + 1;
    sb[csb] = in[c];
    __insert();
    __syncthreads();
    out[c] = __opt__(sb[csb - 1], in[(i == 0) ? c : c - 1])
        + __opt__(sb[csb + 1], in[(i == nx - 1) ? c : c + 1])
        + __opt__(sb[csb - BX - 2], in[(j == 0) ? c : c - nx])
        + __opt__(sb[csb + BX + 2], in[(j == ny - 1) ? c : c + nx])
        + sb[csb];
}

// Temporal blocking (Source 4.7/4.8): two sweeps per launch, blocks of 8x6
// threads overlapping by one cell on each side.
__global__ void tb_fixed(int *in, int *mid, int *out, int nx, int ny){
    int i, j, i2, j2, c, c2, csb, csb2;
    i = blockIdx.x * (TBX - 2) + threadIdx.x - 1;
    i = max(0, i);
    i = min(i, nx - 1);
    j = blockIdx.y * (TBY - 2) + threadIdx.y - 1;
    j = max(0, j);
    j = min(j, ny - 1);
    c = nx * j + i;
    __shared__ float sb[TBX * TBY];
    csb = TBX * threadIdx.y + threadIdx.x;
    mid[c] = in[(i == 0) ? c : c - 1]
           + in[(i == nx - 1) ? c : c + 1]
           + in[(j == 0) ? c : c - nx]
           + in[(j == ny - 1) ? c : c + nx]
           + in[c];
    sb[csb] = mid[c];
    __syncthreads();
    i2 = blockIdx.x * (TBX - 2) + min(threadIdx.x, TBX - 3);
    i2 = min(i2, nx - 1);
    j2 = blockIdx.y * (TBY - 2) + min(threadIdx.y, TBY - 3);
    j2 = min(j2, ny - 1);
    c2 = nx * j2 + i2;
    csb2 = TBX * (j2 % (TBY - 2) + 1) + i2 % (TBX - 2) + 1;
    out[c2] = __opt__mid[(i2 == 0) ? c2 : c2 - 1]
            + __opt__mid[(i2 == nx - 1) ? c2 : c2 + 1]
            + __opt__mid[(j2 == 0) ? c2 : c2 - nx]
            + __opt__mid[(j2 == ny - 1) ? c2 : c2 + nx]
            + __opt__mid[c2];}

// A 3-D seven-point stencil with a 4x4x2 block.
__global__ void sha3d_fixed(int *in, int *out, int nx, int ny, int nz){
    int i = threadIdx.x + blockIdx.x * TX;
    int j = threadIdx.y + blockIdx.y * TY;
    int k = threadIdx.z + blockIdx.z * TZ;
    int c = i + nx * (j + ny * k);
    __shared__ float sb[TX * TY * TZ];
    int csb = threadIdx.x + TX * (threadIdx.y + TY * threadIdx.z);
    sb[csb] = in[c];
    __syncthreads();
    out[c] = __opt__in[(i == 0) ? c : c - 1]
            + __opt__in[(i == nx - 1) ? c : c + 1]
            + __opt__in[(j == 0) ? c : c - nx]
            + __opt__in[(j == ny - 1) ? c : c + nx]
            + __opt__in[(k == 0) ? c : c - nx * ny]
            + __opt__in[(k == nz - 1) ? c : c + nx * ny]
            + __opt__in[c];}

// Rows of NX elements whatever the launch: other grids or blocks would read
// outside the buffers, so only the data may change.
__global__ void sha_fixed_rows(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * BX;
    int j = threadIdx.y + blockIdx.y * BY;
    int c = i + NX * j;
    __shared__ float sb[BX * BY];
    int csb = threadIdx.x + threadIdx.y * BX;
    sb[csb] = in[c];
    __syncthreads();
    out[c] = __opt__in[(i == 0) ? c : c - 1]
            + __opt__in[(i == nx - 1) ? c : c + 1]
            + __opt__in[(j == 0) ? c : c - NX]
            + __opt__in[(j == ny - 1) ? c : c + NX]
            + __opt__in[c];}
