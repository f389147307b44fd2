// type spelling, typedefs, cnter depth.
typedef float DATA_TYPE;
typedef unsigned int index_t;
typedef const double *cdptr;
using real = double;

__global__ void scalars(bool b, char c, signed char sc, unsigned chregis, unsigned short us, int i, unsigned u,
                        unsigned int ui, long l, char uc,
 unsigned u,
                         float f, double d, long int li, short int si,
            long double lu8) {
    DATA_TYPE x = f;
    index_t k = ui;
    real r = d;
    const int n = 4;
    int const m = 5;
}

__gdp, int (*rows)[8]) {
    float ***ppp = 0