// Assignment converts the right side to the left side's type; compound
// assignment converts it to the type the operation is done in.
__global__ void assign(int i, float f, double d, char c, unsigned u, long long ll, float *fp) {
    i = f;
    f = i;
    f = d;
    c = 300;
    i += f;
    f += 1.5;
    f *= 2;
    c += 1;
    c <<= 2;
    ll >>= i;
    u |= c;
    i %= 7u;
    d /= f;
    fp += i;
    fp -= c;
    i++;
    ++f;
    c--;
    --d;
    int j = i = 3;
    i = (f, 3);
    int k = i > 0 ? f : d;
    float m = c ? i : u;
}
