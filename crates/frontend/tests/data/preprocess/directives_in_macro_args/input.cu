#define F(x) [x]
int a = F(
#ifdef UNDEFINED
    1
#else
    2
#endif
);
#define G(x) x
int b = G

(5);
int c = G
#define NOT_AN_ARGUMENT_LIST
(6);
