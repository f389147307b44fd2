#define F(a) a
int x = F(1,
  2;
