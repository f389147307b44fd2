#if defined(3)
#endif
