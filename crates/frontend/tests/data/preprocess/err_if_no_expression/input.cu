
#if
#endif
