#include <x.h>
int main_x = X;
