// Unknown names, calls of functions that could not be lowered (dropped
// transitively), and undefined device functions.
__device__ int undefined_fn(int);

__device__ int bad_leaf(int x) { return x + undeclared; }

__device__ int calls_bad(int x) { return bad_leaf(x) * 2; }

__global__ void calls_calls_bad(int *out) { out[0] = calls_bad(1); }

__global__ void unknown_function(int *out) { out[0] = mystery(3); }

__global__ void calls_undefined(int *out) { out[0] = undefined_fn(3); }

__global__ void several_errors(int *out) {
    out[0] = nope1;
    out[1] = 2;
    out[2] = nope2();
    int bad = nope3;
    out[3] = bad;
}

__device__ int good_leaf(int x) { return x; }

__global__ void fine(int *out) { out[0] = good_leaf(2); }
