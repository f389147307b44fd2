int a;
_Pragma(unroll)
