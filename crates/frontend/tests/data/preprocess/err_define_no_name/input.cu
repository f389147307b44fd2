int x;
#define
