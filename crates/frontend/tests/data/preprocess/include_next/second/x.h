#define X 2
int second_x;
