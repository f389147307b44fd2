#if 1.5 > 1
#endif
