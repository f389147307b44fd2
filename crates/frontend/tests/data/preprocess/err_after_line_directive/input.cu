#line 41 "renamed.cu"
#error here
