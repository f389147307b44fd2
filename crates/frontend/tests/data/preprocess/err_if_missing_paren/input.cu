#define N 3
#if (N > 2
#endif
