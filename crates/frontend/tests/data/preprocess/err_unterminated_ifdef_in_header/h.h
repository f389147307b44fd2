int h;
# ifdef X
