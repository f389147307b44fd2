// Row walks: each thread walks a row of its own, one element a trip, so a
// warp's lanes are a row apart and each request spans 32 sectors. The walk
// carries a value from trip to trip, so the threads cannot share a row; the
// block can still copy the chunk of every thread's row through shared memory
// in whole sectors and walk it there (the staged-walk fix).

// The running sum of each row; threads past the last row idle.
__global__ void row_prefix(const float *in, float *out, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; c++) {
            s += in[row * cols + c];
            out[row * cols + c] = s;
        }
    }
}

// A box filter's sliding window in a helper that is given its row, as the
// CUDA samples' boxFilter walks rows.
__device__ void box_row(const float *id, float *od, int w, int r)
{
    float t = 0.0f;
    for (int x = 0; x < r + 1; x++)
        t += id[x];
    for (int x = r + 1; x < w; x++) {
        t += id[x] - id[x - r - 1];
        od[x] = t;
    }
}

__global__ void box_rows(const float *id, float *od, int w, int r)
{
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    box_row(&id[y * w], &od[y * w], w, r);
}

// Threads past the last row return before the walk: they now join the
// block's copies and skip the rest.
__global__ void row_sums(const float *in, float *out, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
        s += in[row * cols + c];
    out[row] = s;
}

// An early return and a guard: the row `skip` is not walked, but its sum
// (zero) is still stored.
__global__ void skip_row(const float *in, float *out, int rows, int cols, int skip)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    float s = 0.0f;
    if (row != skip) {
        for (int c = 0; c < cols; c++)
            s += in[row * cols + c];
    }
    out[row] = s;
}

// Walks that must not be staged.

// Each row has its own length: the block does not agree on the trips.
__global__ void own_length(const float *in, float *out, const int *len, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int c = 0; c < len[row]; c++)
        s += in[row * cols + c];
    out[row] = s;
}

// Leaves the walk at the first negative element.
__global__ void first_negative(const float *in, int *at, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int found = -1;
    for (int c = 0; c < cols; c++) {
        if (in[row * cols + c] < 0.5f) {
            found = c;
            break;
        }
    }
    at[row] = found;
}

// A store between the early return and the walk, which the threads that
// left must not make.
__global__ void store_then_walk(const float *in, float *out, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    out[row] = -1.0f;
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
        s += in[row * cols + c];
    out[row] = s;
}

// The read runs on some trips only: a copy of the whole chunk would read
// elements the kernel never does.
__global__ void guarded_read(const float *in, float *out, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
        s += c % 3 == 0 ? in[row * cols + c] : 1.0f;
    out[row] = s;
}

// Reads the elements it writes.
__global__ void in_place(float *m, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    for (int c = 1; c < cols; c++)
        m[row * cols + c] += m[row * cols + c - 1];
}

// A helper the kernel calls twice: its barriers would be waited on twice.
__device__ float row_sum(const float *r, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++)
        s += r[c];
    return s;
}

__global__ void two_rows(const float *a, const float *b, float *out, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    out[row] = row_sum(&a[row * cols], cols) + row_sum(&b[row * cols], cols);
}

// Reads through a second name of the array it writes.
__global__ void second_name(float *m, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float *w = m;
    for (int c = 1; c < cols; c++)
        w[row * cols + c] = 0.5f * m[row * cols + c - 1];
}

// A running mean of a row in a helper, called in place: the kernel passes
// it one buffer twice.
__device__ void mean_row(const float *src, float *dst, int n)
{
    float t = 0.0f;
    for (int x = 1; x < n; x++) {
        t += src[x - 1];
        dst[x] = t / x;
    }
}

__global__ void mean_in_place(float *d, int w)
{
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    mean_row(&d[y * w], &d[y * w], w);
}

// An unsigned index less one: `row * cols + c - 1` wraps in 32 bits where
// `&in[row * cols - 1]` would not.
__global__ void unsigned_shift(const float *in, float *out, unsigned cols)
{
    unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (unsigned c = 1; c < cols; c++)
        s += in[row * cols + c - 1];
    out[row] = s;
}

// A 16-bit column: a chunk's first column could wrap.
__global__ void narrow_column(const float *in, float *out, short cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (short c = 0; c < cols; c++)
        s += in[row * cols + c];
    out[row] = s;
}

// The row pointer is made on each trip.
__global__ void pointer_in_trip(const float *in, float *out, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int c = 0; c < cols; c++) {
        const float *p = in + row * cols;
        s += p[c];
    }
    out[row] = s;
}

// Reads through a copy of the pointer it stores through.
__global__ void copied_pointer(float *m, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    const float *r = m;
    for (int c = 1; c < cols; c++)
        m[row * cols + c] = 0.5f * r[row * cols + c - 1];
}
