#define N 3
#if 1 / (N - 3)
#endif
