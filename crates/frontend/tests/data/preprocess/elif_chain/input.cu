#define LEVEL 3
#if LEVEL == 1
level_one;
#elif LEVEL == 2
level_two;
#elif LEVEL == 3
level_three;
#elif LEVEL == 3
level_three_again;
#elif 1 / 0
not_evaluated;
#else
level_other;
#endif
#if 0
a;
#elif 0
b;
#elif 0
c;
#else
fallback;
#endif
#if 1
first;
#elif 1
second;
#else
third;
#endif
