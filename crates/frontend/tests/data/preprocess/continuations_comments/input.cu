#define LONG_MACRO(a, b) \
    ((a) + \
     (b))
int x = LONG_MACRO(1, 2);
int y = 1 + \
2;
/* a block comment
   spanning lines */ int z = 3;
int w /* inline */ = 4; // trailing comment \
continued comment line
int v = 5;
#if 1 /* comment
  inside directive */ + 1
int in_if;
#endif
const char *s = "not /* a comment */ here // either";
int in\
dent = 6;
	int	tabs; /**/ int after;
