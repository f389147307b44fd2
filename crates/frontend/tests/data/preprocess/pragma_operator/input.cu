#define UNROLL _Pragma("unroll")
#define LOOP(n) _Pragma("unroll 4") for (int i = 0; i < n; i++)
void f(float *a) {
    UNROLL
    for (int i = 0; i < 4; i++) a[i] = 0;
    LOOP(8) a[i] = 1;
    _Pragma("omp parallel") int x;
    _Pragma(L"message(\"a \\\\ b\")")
}
