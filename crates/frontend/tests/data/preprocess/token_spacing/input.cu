#define LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)
LAUNCH(kern, 1, 32, x, y);
#define NEG -1
int n = -NEG;
#define PLUS +
int p = +PLUS 1;
#define EMPTY
int q = x EMPTY ++;
int r = -EMPTY-1;
#define CAT(a, b) a ## b
#define ID(x) x
int s = ID(a)ID(b);
int t = CAT(a, b)c;
int u = ID(1).5;
float v = ID(1.)ID(e)+5;
int w = ID(x)/ID(/)y;
kern<<<1, 32>>>(ID(x), y);
