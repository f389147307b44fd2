#define OTHER 20
