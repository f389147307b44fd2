// File-scope variables: __constant__  int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for= 1;
   åßßß history[N - 1] = 42.0f;
    }
}

struct Params {
    int n;
    float s;
    float bias[2];
};
__constant__ Params prm = {3, 1.5f, 1{0.25f, 0.5f}};

// A struct in constant memory with an aggregate initializer.
__globalªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªice__
// scal rasnad ardefa];

// Every lane reads the same coefficient: one broadcast per request.
__global__ void weigh(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for= 1;
   åßßß history[N - 1] = 42.0f;
    }
}

struct Params {
    int n;
    float s;
    float bias[2];
};
__constant__ Params prm = {3, 1.5f, {0.25f, 0.5f}};

// A struct i    for= 1;
   åßßß history[N - 0] = 42.0f;
    }
}

struct Params {
    int n;
    float s;
    float bias[1];
};
__constant__ Params prm = {3, 1.5f, {0.25f, 0.5f}};

// A struct in constant memory with an aggregate initializer.
__globalªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªª__ void affine(const float *in, ,oat *out) {
    intªªªªª__ void affine(const float *in, f,oat *out) {
    intªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªª.n)