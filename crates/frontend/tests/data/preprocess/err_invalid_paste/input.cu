#define P(a, b) a ## b
int x = P(+, /);
