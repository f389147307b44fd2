// Member templates, member class templates, function objects and base
// classes, written as Rodinia's dwt2d writes its lifting transforms: a
// block loads its chunk (and one halo element each side, mirrored at the
// edges) into a shared object, runs a predict and an update step through
// function objects, and writes the chunk back.

namespace lift {

// A base class: its fields and members are the derived reader's.
class Io {
  protected:
    int end;
    int stride;

    __device__ static void mirror(int &d, const int &size) {
        if (d >= size) {
            d = 2 * size - 2 - d;
        } else if (d < 0) {
            d = -d;
        }
    }

    __device__ int start(const int n, const int first) {
        end = n;
        stride = 1;
        return first;
    }
};

// Reads consecutive elements; the checked reader mirrors indices outside
// the array, as blocks at its edges need.
template <bool CHECKED> class Reader : public Io {
    int next;

  public:
    __device__ void init(const int n, const int first) { next = this->start(n, first); }

    __device__ int read(const int *in) {
        int i = next;
        if (CHECKED) {
            mirror(i, this->end);
        }
        next += stride;
        return in[i];
    }
};

template <typename T, int N> class Buffer {
  public:
    enum { SIZE = N + 2 };

  private:
    T data[SIZE];

    template <typename F> __device__ void apply(const int parity, const F &f) {
        const int i = 2 * threadIdx.x + 2 - parity;
        if (i <= N) {
            T &centre = data[i];
            f(data[i - 1], centre, data[i + 1]);
        }
    }

  public:
    __device__ T &operator[](const int i) { return data[i]; }

    template <typename F> __device__ void evens(const F &f) { apply(0, f); }

    template <typename F> __device__ void odds(const F &f) { apply(1, f); }

    template <int K> __device__ static T scaled(const T v) { return K * v; }
};

template <int W> class Lift {
    // A member class template: its instances see `W`.
    template <bool CHECKED> struct Column {
        Reader<CHECKED> reader;
        int first;

        __device__ void clear() { first = 0; }
    };

    typedef Buffer<int, 2 * W> Buf;

    Buf buffer;

    struct Predict {
        __device__ void operator()(const int p, int &c, const int n) const { c -= (p + n) / 2; }
    };

    struct Update {
        int bias;

        __device__ void operator()(const int p, int &c, const int n) const {
            c += (p + n + bias) / 4;
        }
    };

    // `CHECKED` is deduced from the argument's type.
    template <bool CHECKED>
    __device__ void load(Column<CHECKED> &col, const int *in, const int n) {
        col.clear();
        col.first = blockIdx.x * 2 * W + 2 * threadIdx.x - 1;
        col.reader.init(n, col.first);
        buffer[2 * threadIdx.x] = col.reader.read(in);
        buffer[2 * threadIdx.x + 1] = col.reader.read(in);
        if (threadIdx.x == W - 1) {
            buffer[2 * W] = col.reader.read(in);
            buffer[2 * W + 1] = col.reader.read(in);
        }
    }

    template <bool CHECKED> __device__ void transform(const int *in, int *out, const int n) {
        Column<CHECKED> col;
        load(col, in, n);
        __syncthreads();
        buffer.evens(Predict());
        __syncthreads();
        Update update;
        update.bias = scale<1>(2);
        buffer.odds(update);
        __syncthreads();
        const int base = blockIdx.x * 2 * W;
        out[base + 2 * threadIdx.x] = buffer[2 * threadIdx.x + 1];
        out[base + 2 * threadIdx.x + 1] = buffer[2 * threadIdx.x + 2];
    }

    template <int K> __device__ static int scale(const int v) { return Buf::template scaled<K>(v); }

  public:
    __device__ static void run(const int *in, int *out, const int n) {
        __shared__ Lift<W> lift;
        const bool edge = blockIdx.x == 0 || blockIdx.x == gridDim.x - 1;
        if (edge) {
            lift.transform<true>(in, out, n);
        } else {
            lift.template transform<false>(in, out, n);
        }
    }
};

} // namespace lift

template <int W> __global__ void liftKernel(const int *in, int *out, const int n) {
    lift::Lift<W>::run(in, out, n);
}

void launch(const int *in, int *out, int n) { liftKernel<32><<<n / 64, 32>>>(in, out, n); }
