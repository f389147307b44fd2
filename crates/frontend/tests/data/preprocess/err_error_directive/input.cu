#ifndef N
#error N must be defined: see the "README"
#endif
