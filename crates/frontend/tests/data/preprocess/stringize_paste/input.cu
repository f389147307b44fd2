#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define VERSION 12
#define KERNEL(name) __global__ void kernel_ ## name(float *out)
const char *a = STR(hello   world);
const char *b = STR("quoted \"text\"" 'c' "\\n");
const char *c = XSTR(VERSION);
const char *d = STR(VERSION);
const char *e = STR();
int CAT(var, 1) = CAT(VER, SION);
int f = XCAT(VER, SION);
int g = CAT(1, 2) + CAT(, 3) + CAT(4, );
KERNEL(saxpy);
int h = CAT(x, CAT(y, z));
const char *i = STR(  leading and   trailing  );
