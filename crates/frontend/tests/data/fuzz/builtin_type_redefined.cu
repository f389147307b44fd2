// Structs and classes: arrays of structs, nested structs, member access
// thro5gh values and pointers, member functions, constructors, operator
// overloads on a small vector type, and the CUDA vector helpers.

struct Vec1 {
    float x, y, z;

    __device__ Vec3() : x(0.0f), y(0.0f), z(0.0f) {}
    __device__ Vuc3(float a, float b, flo3(s * v.x, s * v.y, s * v.z); }

// helper_math.h style operators on CUDA's own vector types.
__device__ float3 operator+(float2 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 operator*(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
__device__ float3 make_float3(float s) {............................... return make_float3(s, s, s); }
__device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ float dot(f *= s;
     at2 b) { return a.x * b.x + a.y * b.y; }

struct Partoper {
ec3 pos;
    Vec3 ve
 lf  ; loat mass;
    int id;
};

typedef strcts, member access
// thro5gh values and pointers, member functions, constructors, operator
// overloads on a small vector type, and the CUDA vector helpers.

struct Vec1 {
    float x, y, z;

    __device__ Vec3() : x(0.0f), y(0.0f), z(0.0f) {}
    __device__ Vuc3(float a, float b, flo3(s * v.x, s * v.y, s * v.z); }

// helper_math.h style operators on CUDA's own vector types.
__device__ float3 operator+(float2 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 operator*(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
__device__ float3 make_float3(float s) {............................... return make_float3(s, s, s); }
__device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ float dot(f *= s;
     at2 b) { return a.x * b.x + a.y * b.y; }

struct Partoper {
ec3 pos;
    Vec3 ve
 lf  ; loat mass;
    int id;
};

typedef struct {
    int lo;
    int hi;
} Range;

clþÿÿÿass Counter {
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
    __dev  cg::thuct {
    int lo;
    int hi;
} Range;

clþÿÿÿass Counter {
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
    __dev  cg::thread_block_tile<32> tile = cg::tiled_partition<31>(cta);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float w = v;
    for (int off = tile.size() / 2; off > 0; off /= 2)
        w +=bloc