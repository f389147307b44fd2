#define SQ(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CALL(f, arg) f(arg)
#define ID(x) x
#define NOARGS() 42
float s = SQ(3 + 1);
float m = MAX(SQ(2), MAX(1, 5));
int c = CALL(SQ, 7);
int p = ID((1, 2));
int q = MAX(f(1, 2), g[3]);
int r = NOARGS();
int SQ = 5;
int t = SQ
    (4);
int u = ID();
int v = MAX(
    1,
    2) + 1;
