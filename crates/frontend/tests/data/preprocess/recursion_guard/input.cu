#define foo foo + 1
#define a b
#define b a
#define f(x) x + f(x)
#define g(x) h(x)
#define h(x) g(x) * 2
#define self(x) self
int r1 = foo;
int r2 = a;
int r3 = b;
int r4 = f(2);
int r5 = g(3);
int r6 = f(f(1));
int r7 = self(1)(2);
