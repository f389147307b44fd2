#define F(a, 1) a
