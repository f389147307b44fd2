// main file
#include "sub/first.h"
int main_after_first = FIRST_VALUE;
#include "sub/first.h"
#include "second.h"
int end;
