// Every scalar type spelling, typedefs, const, restrict and pointer depth.
typedef float DATA_TYPE;
typedef unsigned int index_t;
typedef const double *cdptr;
using real = double;

__global__ void scalars(bool b, char c, signed char sc, unsigned char uc,
                        short s, unsigned short us, int i, unsigned u,
                        unsigned int ui, long l, unsigned long ul,
                        long long ll, unsigned long long ull, size_t z,
                        float f, double d, long int li, short int si,
                        long double ld, int64_t i64, uint8_t u8) {
    DATA_TYPE x = f;
    index_t k = ui;
    real r = d;
    const int n = 4;
    int const m = 5;
}

__global__ void pointers(const float * __restrict__ a, float *restrict b,
                         int **pp, const int *const *cpp, float *const fc,
                         cdptr q, DATA_TYPE *dt, void *v, float arr[],
                         const float carr[16], float m[][4], int (*rows)[8]) {
    float ***ppp = 0;
    const float *p = a;
    int *const *x = pp;
    m[1][2] = rows[0][7];
}
