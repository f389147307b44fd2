#include_next <x.h>
int first_x;
