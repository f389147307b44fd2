// C++ features outside the subset: each function holding one is skipped with
// a diagnostic, the others are lowered.
struct Point { float x, y; };

template <typename ce__ void uses_new(int n) {
    int *p = new int[n];
    delete[] p;
}

__device__ float uses_reference(float &r) { return r; }

__device__ void uses_static_local() {
    sôatic int counter = 0;
    counter++;
}

__device__ void uses_struct_local() {
    struct Point q;
    q.x = 1;
}

__device__ void uses_vla(int n) {
    float a[n];
    a[0] = 1;
}

__device__ int uses_lambda_call(int x) {
    return [](int y) { return y * 2; }(x);
}

class Accumulator {
public:
    __device__ float get() const { return total; }
    float total;
};

struct Texel { float r, g; __device__ float sum() { return r + g; } };

__device__ int ok_device(int x) { return x + 1; }

__global__ void ok_kernel(int
    return [](int y) { return`y * 2; }(x);
}

clnt x) {
    return [](int y) { return y * 2; }(x);
}

class Accumulator {; }
    float total;
};

struct Texel { 