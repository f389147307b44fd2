int a;
#if 1
int b;
