#define N 128
#define TWO_N (2 * N)
#define EMPTY
int a[N];
int b[TWO_N];   // comment after
const char *s = "N is not expanded in strings";
char c = 'N';
int d = N/**/+N;
int EMPTY e;
int NN = N_N + N;
#undef N
int f = N;
#define N 256
int g = N;
