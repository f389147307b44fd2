// Structs and classes: arrays of structs, nested structs, member access
// through values and pointers, member functions, constructors, operator
// overloads on a small vector type, and the CUDA vector helpers.

struct Vec3 {
    float x, y, z;

    __device__ Vec3() : x(0.0f), y(0.0f), z(0.0f) {}
    __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}

    __device__ float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
    __device__ float norm2() const { return dot(*this); }
    __device__ void scale(float s) {
        x *= s;
        y *= s;
        z *= s;
    }
    __device__ Vec3 operator-() const { return Vec3(-x, -y, -z); }
    __device__ Vec3 &operator+=(const Vec3 &o) {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
};

__device__ Vec3 operator+(Vec3 a, Vec3 b) { return Vec3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ Vec3 operator*(float s, Vec3 v) { return Vec3(s * v.x, s * v.y, s * v.z); }

// helper_math.h style operators on CUDA's own vector types.
__device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 operator*(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
__device__ float3 make_float3(float s) { return make_float3(s, s, s); }
__device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }

struct Particle {
    Vec3 pos;
    Vec3 vel;
    float mass;
    int id;
};

typedef struct {
    int lo;
    int hi;
} Range;

class Counter {
public:
    int hits;
    int misses;
    __device__ void add(bool hit) {
        if (hit) {
            hits++;
        } else {
            misses++;
        }
    }
    __device__ int total() const { return hits + misses; }
};

// One thread per particle: p[i].pos += dt * p[i].vel, the array of structs
// read and written member by member.
__global__ void advance(Particle *p, float dt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle q = p[i];
        q.pos += dt * q.vel;
        p[i].pos = q.pos;
        p[i].vel.scale(0.5f);
    }
}

// Only the x member of each 32-byte Particle is read: a strided access.
__global__ void positions_x(const Particle *p, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = p[i].pos.x;
    }
}

__global__ void energies(const Particle *p, float *out, const Range *r) {
    int i = r->lo + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < r->hi) {
        const Particle &q = p[i];
        Vec3 v = -q.vel;
        out[i] = 0.5f * q.mass * v.norm2() + (float)q.id;
    }
}

__global__ void vectors(const float3 *a, float3 *out, int *counts) {
    int i = threadIdx.x;
    float3 s = a[i] + a[i] * 2.0f;
    out[i] = s;
    Counter c = {0, 0};
    for (int k = 0; k < 8; k++) {
        c.add(k % (i + 1) == 0);
    }
    counts[i] = c.total() * 100 + c.hits;
    Vec3 w{1.0f, 2.0f, 3.0f};
    Vec3 z;
    z += w;
    counts[i] += (int)(z.dot(w));
    float d = dot(s, make_float3(1.0f)) + dot(make_float2(1.0f, 2.0f), make_float2(3.0f, 4.0f));
    counts[i] += 1000 * (int)d;
}

// A block's particles staged in shared memory as structs, then each thread
// reads its neighbour's whole struct after the barrier.
__global__ void neighbours(const Particle *p, Particle *out) {
    __shared__ Particle tile[32];
    int t = threadIdx.x;
    tile[t] = p[blockIdx.x * 32 + t];
    __syncthreads();
    Particle q = tile[(t + 1) % 32];
    q.id = t > 15 ? q.id : -q.id;
    out[blockIdx.x * 32 + t] = q;
}

struct Params {
    int n;
    float scale;
    float3 offset;
    int *hits;
};

// A struct passed by value, holding a pointer and a vector.
__global__ void shift(Params prm, float3 *pts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < prm.n) {
        float3 p = pts[i];
        pts[i] = make_float3(p.x * prm.scale + prm.offset.x, p.y * prm.scale + prm.offset.y,
                             p.z * prm.scale + prm.offset.z);
    }
}

struct Affine {
    int mul;
    int add;
    int n;
};

// A struct of scalars passed by value, as the GPU receives it.
__global__ void affine_by_value(Affine a, int *v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.n) {
        v[i] = v[i] * a.mul + a.add;
    }
}
