#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)
#define LOG2(fmt, ...) printf(fmt, ## __VA_ARGS__)
#define COUNT(...) count(__VA_ARGS__)
#define NAMED(args...) call(args)
#define FIRST(a, ...) a
#define SHOW(...) #__VA_ARGS__
LOG("%d %d\n", 1, 2);
LOG2("plain\n");
LOG2("%d\n", x);
COUNT();
COUNT(a, (b, c), d);
NAMED(1, 2, 3);
FIRST(only);
FIRST(x, y, z);
const char *s = SHOW(a,b,  c);
