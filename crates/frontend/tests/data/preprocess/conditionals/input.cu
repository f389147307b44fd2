#define A 1
#define B 0
#if A
int a_true;
#else
int a_false;
#endif
#if B
int b_true;
#else
int b_false;
#endif
#ifdef A
int ifdef_a;
#endif
#ifndef C
int ifndef_c;
#endif
#ifdef C
int ifdef_c;
#endif
#if defined A && defined(B) && !defined C
int defined_forms;
#endif
#if A
#  if B
int inner_b;
#  elif A + 1 == 2
int inner_elif = A;
#  else
int inner_else;
#  endif
#else
#  if 1
int never;
#  endif
#endif
#if 0
this is skipped: it's unbalanced ' and "
#define SKIPPED 1
#error not reached
#include "missing.h"
#bogus directive
#if garbage +
#elif )(
#endif
#else
int after_skip;
#endif
#ifdef SKIPPED
int skipped_defined;
#endif
#if UNDEFINED_NAME == 0
int unknown_is_zero;
#endif
#if A /* comment */ // another
int comment_in_if;
#endif
  #  ifdef A
int indented_directive;
  #  endif
#
