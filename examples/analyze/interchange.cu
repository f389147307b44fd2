// Loop nests of row-major matrices whose threads share the loop over rows:
// a warp's lanes are a row apart, so each of their requests spans 32
// sectors. Every (row, column) is independent of the others, so the threads
// can share the loop over columns instead.

// The block scales each row of its matrix by that row's factor.
__global__ void scale_rows(float *m, const float *factor, int rows, int cols)
{
    float *mine = m + blockIdx.x * rows * cols;
    for (int c = 0; c < cols; c++)
        for (int r = threadIdx.x; r < rows; r += blockDim.x)
            mine[r * cols + c] *= factor[r];
}

// Each thread of the grid adds a bias to the rows it owns, one after the
// other.
__global__ void add_bias(const float *in, float *out, const float *bias, int rows, int cols)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x)
        for (int c = 0; c < cols; c++)
            out[r * cols + c] = in[r * cols + c] + bias[c];
}

// Kernels whose trips depend on each other: the order cannot change.

// Sums a column per thread: the sum carries from trip to trip.
__global__ void column_sums(const float *m, float *out, int rows, int cols)
{
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
        for (int r = threadIdx.x; r < rows; r += blockDim.x)
            s += m[r * cols + c];
    out[threadIdx.x] = s;
}

// A running sum along each row: a trip reads what the trip before it wrote.
__global__ void row_prefix(float *m, int rows, int cols)
{
    for (int c = 1; c < cols; c++)
        for (int r = threadIdx.x; r < rows; r += blockDim.x)
            m[r * cols + c] += m[r * cols + c - 1];
}

// Every column's trip writes the same element of `last`.
__global__ void last_column(const float *m, float *last, int rows, int cols)
{
    for (int c = 0; c < cols; c++)
        for (int r = threadIdx.x; r < rows; r += blockDim.x)
            last[r] = m[r * cols + c];
}

// The rows a thread starts at depend on the column: not a rectangle.
__global__ void lower_triangle(float *m, int rows, int cols)
{
    for (int c = 0; c < cols; c++)
        for (int r = c + threadIdx.x; r < rows; r += blockDim.x)
            m[r * cols + c] *= 2.0f;
}

// The threads of the block wait for each other on every trip.
__global__ void with_barrier(float *m, int rows, int cols)
{
    for (int c = 0; c < cols; c++)
        for (int r = threadIdx.x; r < rows; r += blockDim.x) {
            m[r * cols + c] *= 2.0f;
            __syncthreads();
        }
}

// Each thread scales by a factor of its own: the trip depends on the
// thread that runs it.
__global__ void own_factor(float *m, const float *factor, int rows, int cols)
{
    float f = factor[threadIdx.x];
    for (int c = 0; c < cols; c++)
        for (int r = threadIdx.x; r < rows; r += blockDim.x)
            m[r * cols + c] *= f;
}

// Trips (r, c) and (r + 1, c - 2) write the same element.
__global__ void diagonal_sums(float *m, int rows, int cols)
{
    for (int c = 0; c < cols; c++)
        for (int r = threadIdx.x; r < rows; r += blockDim.x)
            m[r * 2 + c] += 1.0f;
}

// The rows are copied one row further on in the same buffer: a trip reads
// what another writes, through another pointer.
__global__ void shift_rows(float *m, int rows, int cols)
{
    float *next = m + cols;
    for (int c = 0; c < cols; c++)
        for (int r = threadIdx.x; r < rows; r += blockDim.x)
            next[r * cols + c] = m[r * cols + c];
}
