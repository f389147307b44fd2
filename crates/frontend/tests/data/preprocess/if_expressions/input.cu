#define N 128
#define SQ(x) ((x) * (x))
#define HAS_N defined(N)
#define HAS_M defined M
#if 1 + 2 * 3 == 7
yes_0;
#else
no_0;
#endif
#if (1 + 2) * 3 == 9
yes_1;
#else
no_1;
#endif
#if -1 < 0u
yes_2;
#else
no_2;
#endif
#if 0x10 + 010 + 0b1 == 25
yes_3;
#else
no_3;
#endif
#if 'A' == 65 && '\n' == 10
yes_4;
#else
no_4;
#endif
#if 1 ? 0 : 1
yes_5;
#else
no_5;
#endif
#if 10 % 4 == 2 && 7 / 2 == 3 && -7 / 2 == -3
yes_6;
#else
no_6;
#endif
#if (1 << 10) == 1024 && (-16 >> 2) == -4
yes_7;
#else
no_7;
#endif
#if ~0 == -1 && !0 && !!5
yes_8;
#else
no_8;
#endif
#if (5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6
yes_9;
#else
no_9;
#endif
#if 1 <= 1 && 2 >= 3
yes_10;
#else
no_10;
#endif
#if 0 && (1 / 0)
yes_11;
#else
no_11;
#endif
#if 1 || (1 % 0)
yes_12;
#else
no_12;
#endif
#if 100000000000LL * 100 == 10000000000000LL
yes_13;
#else
no_13;
#endif
#if 0xFFFFFFFFFFFFFFFFu == -1
yes_14;
#else
no_14;
#endif
#if N > 100 && N * 2 == 256
yes_15;
#else
no_15;
#endif
#if SQ(4) == 16 && SQ(N) == 16384
yes_16;
#else
no_16;
#endif
#if (2 || 0) == 1
yes_17;
#else
no_17;
#endif
#if 1 != 1
yes_18;
#else
no_18;
#endif
#if true && !false
yes_19;
#else
no_19;
#endif
#if -2147483648 < 0
yes_20;
#else
no_20;
#endif
#if (1, 2) == 2
yes_21;
#else
no_21;
#endif
#if HAS_N
yes_22;
#else
no_22;
#endif
#if HAS_M
yes_23;
#else
no_23;
#endif
#if defined __has_include && !__has_include("no_such_file.h")
yes_24;
#else
no_24;
#endif
#if __has_include("input.cu")
yes_25;
#else
no_25;
#endif
#if __has_builtin(__builtin_expect)
yes_26;
#else
no_26;
#endif
