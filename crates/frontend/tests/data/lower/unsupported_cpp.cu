// C++ that stays outside the subset: each is reported with its construct,
// file, line and column, and costs only what uses it.
union Bits { float f; unsigned int u; };
struct Flags { unsigned a : 4; unsigned b : 4; };
struct Node { int v; Node *next; };
struct Defaults { float x = 1.0f; };
struct WithDtor {
    int v;
    __device__ ~WithDtor() {}
};
static_assert(sizeof(int) == 8, "int is not 8 bytes");
__device__ int counter_init = 0;
__device__ float bad_init = counter_init;

__device__ float use_union(Bits b) { return b.f; }
__device__ int use_flags(Flags f) { return f.a; }
__device__ int use_node(Node *n) { return n->v; }
__device__ float take_rvalue(float &&x) { return x; }
__device__ int local_struct() {
    struct Local { int a; } l;
    l.a = 1;
    return l.a;
}
__device__ int returns_ref_bad(int *p) {
    int &r = *p;
    int &s = r + 1;
    return s;
}
__global__ void still_fine(float *out) {
    out[threadIdx.x] = 1.0f;
}
__constant__ int cval;
__device__ void write_constant() { cval = 1; }
