// File-scope integral constants, enumerators, typedefs and aliases are usable
// in device code; constants become literals.
const int BS = 16;
constexpr unsigned MASK = 0xffu;
static const long long BIG = -5000000000LL;
enum { RADIUS = 2, WIDTH = BS + 2 * RADIUS, NEXT };
typedef float real_t;
typedef real_t vec_t[3];
using idx_t = unsigned int;

__global__ void consts(real_t *out) {
    __shared__ real_t tile[WIDTH][BS + 1];
    vec_t v = {1, 2, 3};
    idx_t t = threadIdx.x & MASK;
    tile[t][0] = v[RADIUS] + NEXT;
    out[t] = tile[t][0] * BS + BIG;
}

// Limits from system headers, which the preprocessor does not read.
__global__ void limits(float *f, int *i, double *d, unsigned *u, long long *l) {
    f[0] = -FLT_MAX;
    f[1] = FLT_EPSILON;
    i[0] = INT_MIN;
    i[1] = INT_MAX;
    u[0] = UINT_MAX;
    l[0] = LLONG_MIN;
    d[0] = M_PI * DBL_EPSILON;
}
