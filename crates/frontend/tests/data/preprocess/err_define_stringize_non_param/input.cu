#define S(x) #y
