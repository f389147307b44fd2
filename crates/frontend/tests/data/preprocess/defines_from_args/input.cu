int size = SIZE;
#ifdef DEBUG
int debug = DEBUG;
#endif
int empty = EMPTY 0;
int scaled = SCALE(SIZE);
#if __CUDA_ARCH__ >= 800
int arch = 800;
#else
int arch = __CUDA_ARCH__;
#endif
#define SIZE 2048
int redefined = SIZE;
