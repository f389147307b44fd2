#ifndef FIRST_H
#define FIRST_H
#define FIRST_VALUE 1
#include "nested.h"
int first_decl;
#endif
