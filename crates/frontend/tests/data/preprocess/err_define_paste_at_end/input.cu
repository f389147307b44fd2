#define P(x) x ##
