#define F(x) x
int a = F(
#include "x.h"
);
