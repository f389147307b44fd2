int a = __LINE__;
#line 100
int b = __LINE__;
int c = __LINE__;
#line 200 "generated.cu"
int d = __LINE__;
const char *f = __FILE__;
# 50 "marker.cu" 1
int e = __LINE__;
#define BASE 300
#line BASE
int g = __LINE__;
