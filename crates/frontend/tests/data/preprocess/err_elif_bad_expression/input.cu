#if 0
#elif 1 +
#endif
