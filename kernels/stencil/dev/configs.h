// Tuning configurations instantiated by bench.cu (and compiled one by one by
// nvrtc_check.py). Diffusion: zreg (BX, BY, ZCH, RY, PF), zvec (BX, BY, ZCH, PF), xco (BX, BY, ZCH),
// smem (BX, BY, ZCH, PF), tb (BX, BY, T, ZCH, PF), zr (BX, BY, RY, ZCH, PF),
// zr4 (BX, BY, ZCH, PF), tb1 (BX, BY, RY, T, ZCH, PF), tbv (V, BY, RY, T, ZCH, PF), cx (BX, BY, CX, CONTIG, ZCH) with ZCH 0 = whole waves (chosen by the host;
// a tb1 tile is BX x BY*RY). Himeno: zreg (BX, BY, ZCH,
// UNR), smem (BX, BY, ZCH), tb2 (BX, BY, ZCH). PF = planes loaded ahead.
#pragma once
#define DIFF_ZREG(X) X(32, 4, 64, 1, 1) X(32, 4, 64, 1, 2) X(32, 8, 64, 1, 4) X(64, 4, 64, 1, 2) X(128, 2, 64, 1, 2) X(32, 4, 64, 2, 2) X(32, 4, 32, 4, 1)
#define DIFF_ZVEC(X) X(32, 4, 64, 1) X(32, 4, 64, 2) X(32, 8, 32, 2) X(64, 2, 64, 2) X(32, 4, 128, 1) X(64, 4, 32, 1)
#define DIFF_XCO(X) X(32, 4, 8) X(64, 4, 8) X(32, 4, 32) X(64, 2, 32) X(32, 8, 64)
#define DIFF_SMEM(X) X(32, 8, 64, 1) X(32, 8, 64, 2) X(64, 4, 64, 2) X(32, 16, 32, 3)
#define DIFF_TB(X) X(32, 32, 2, 64, 1) X(32, 32, 2, 64, 2) X(32, 32, 2, 32, 2) X(64, 16, 2, 64, 2) X(32, 16, 2, 64, 3) X(32, 32, 3, 64, 2) X(32, 32, 4, 64, 2) X(64, 16, 3, 64, 2)
#define DIFF_ZR(X) X(128, 2, 1, 64, 2) X(128, 2, 1, 0, 2) X(128, 2, 1, 0, 4) X(128, 2, 1, 0, 6) X(128, 2, 1, 128, 4) X(256, 1, 1, 0, 4) X(256, 2, 1, 0, 4) X(64, 4, 1, 0, 4) X(128, 2, 2, 0, 2) X(128, 2, 2, 0, 4) X(128, 4, 1, 0, 8) X(512, 1, 1, 0, 4)
#define DIFF_ZR4(X) X(32, 4, 0, 2) X(64, 2, 0, 2) X(32, 8, 0, 1) X(64, 4, 0, 2) X(32, 4, 0, 3) X(64, 2, 0, 4) X(32, 8, 32, 2)
#define DIFF_TB1(X) X(32, 16, 1, 2, 64, 3) X(32, 32, 1, 2, 0, 2) X(64, 16, 1, 2, 0, 2) X(64, 8, 2, 2, 0, 2) X(64, 16, 2, 2, 0, 2) X(32, 16, 2, 2, 0, 2) X(64, 16, 2, 3, 0, 2) X(64, 8, 2, 3, 0, 2) X(32, 16, 2, 4, 0, 2) X(64, 8, 2, 2, 0, 3) X(64, 16, 2, 2, 64, 2)
#define DIFF_TBV(X) X(4, 12, 2, 2, 0, 1) X(4, 16, 2, 2, 0, 1) X(4, 16, 2, 2, 0, 2) X(4, 24, 2, 2, 0, 1) X(4, 10, 3, 2, 0, 1) X(4, 12, 2, 3, 0, 1) X(4, 16, 2, 3, 0, 1) X(4, 16, 3, 3, 0, 1) X(4, 16, 2, 4, 0, 1) X(2, 16, 2, 2, 0, 2) X(2, 24, 2, 2, 0, 2) X(2, 32, 2, 2, 0, 1) X(2, 32, 2, 3, 0, 1) X(4, 8, 2, 2, 0, 2) X(4, 16, 2, 2, 64, 1)
#define DIFF_CX(X) X(64, 4, 4, 1, 8) X(32, 4, 4, 1, 8) X(64, 4, 2, 1, 8) X(64, 4, 4, 0, 8) X(32, 8, 4, 0, 8) X(64, 4, 2, 0, 8) X(32, 4, 4, 1, 16) X(64, 2, 4, 1, 32) X(32, 4, 4, 1, 64)
#define HIM_ZREG(X) X(32, 4, 32, 1) X(32, 8, 32, 1) X(64, 4, 32, 1) X(128, 2, 32, 1) X(32, 4, 16, 1) X(32, 4, 64, 2) X(64, 4, 64, 2)
#define HIM_SMEM(X) X(32, 4, 32) X(32, 8, 32) X(64, 4, 64)
#define HIM_TB2(X) X(32, 16, 64) X(32, 16, 32) X(64, 8, 64) X(32, 32, 64)
