#define F(a, b) a
int x = F(1);
