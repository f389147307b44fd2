int a;

int x; /* open
  still open
