// C++ that hone reports instead of lowering: each error names the construct,
// its file, line and column, and only the function holding it is skipped.
struct Base {
    int x;
};
struct Shared : virtual Base {
    int y;
};

struct Words {
    float a;
    double b;
};

template <class F> __device__ float apply(F f) { return f(1.0f); }

__global__ void passes_a_lambda(float *out) { out[0] = apply([](float v) { return v; }); }

__global__ void calls_a_lambda_where_written(float *out) { out[0] = [](int x) { return x; }(3); }

__global__ void copies_padding(const Words *w, float *out) { memcpy(out, w, sizeof(Words)); }

__global__ void uses_memcpys_value(float *out) { out[1] = memcpy(out, out + 2, 4) != 0; }

__global__ void lowered(float *out) {
    auto twice = [](float v) { return 2.0f * v; };
    out[0] = twice(out[1]);
}
