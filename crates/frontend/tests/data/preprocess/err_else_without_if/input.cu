int a;
#else
