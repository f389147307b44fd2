int a;
#foo bar
