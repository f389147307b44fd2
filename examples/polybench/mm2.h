#ifndef MM2_H
#define MM2_H
/* Problem sizes; override with -D. */
#ifndef NI
# define NI 64
#endif
#ifndef NJ
# define NJ 64
#endif
#ifndef NK
# define NK 64
#endif
#ifndef NL
# define NL 64
#endif

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8
#endif
