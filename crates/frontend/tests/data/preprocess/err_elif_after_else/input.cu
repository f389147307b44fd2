#if 0
#else
#elif 1
#endif
