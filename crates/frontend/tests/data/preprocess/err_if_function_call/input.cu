#if UNKNOWN_FUNC(1)
#endif
