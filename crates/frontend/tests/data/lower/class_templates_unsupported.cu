// Class template forms hone reports: each use names the construct.
template <template <class> class C> struct Holder { int x; };
template <class... Ts> struct Pack { int y; };
template <class T> struct Box { T v; };
template <class T> struct Box<T *> { T *p; };
template <class T> struct Node { Node<T> *next; T v; };
template <int N> struct Deep { Deep<N + 1> d; };
template <class T> struct Two { T a; };

__global__ void k1(float *o) { Holder<Box> h; o[0] = h.x; }
__global__ void k2(float *o) { Pack<int, float> p; o[0] = p.y; }
__global__ void k3(float *o) { Box<float> b; b.v = 1; o[0] = b.v; }
__global__ void k4(float *o) { Node<float> n; n.v = 2; o[0] = n.v; }
__global__ void k5(float *o) { Deep<0> d; o[0] = 0; }
__global__ void k6(float *o) { Two<int, int> t; o[0] = 0; }
__global__ void k7(float *o) { Two<Unknown> t; o[0] = 0; }
template <class T> struct Fwd;
__global__ void k8(int *o) { Fwd<int> f; o[0] = 0; }
