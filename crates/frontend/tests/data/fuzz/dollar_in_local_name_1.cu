__global__ void k(int n) {
    int t = n;
    int t_2 = t;
    int t_1 = t_2;
    int n_1 = n;
    int float_1;
    int threadIdx_1;
    int flo$t4_1;
    int a_b;
    int v;
}
