// Ill-typed code is reported rather than lowered.
__global__ void bad_pointer_conv(float *f, int *i) { f = i; }

__global__ void assign_const(const float *p) { p[0] = 1.0f; }

__global__ void assign_rvalue(int a, int b) { (a + b) = 3; }

__global__ void float_modulo(float a, float *out) { out[0] = a % 2.0f; }

__global__ void vector_add(float4 a, float4 b, float4 *out) { out[0] = a + b; }

__global__ void bad_component(float2 v, float *out) { out[0] = v.z; }

__global__ void break_outside(int x) { break; }

__global__ void returns_value(int x) { return x; }

__device__ int missing_return_value() { return; }

__device__ float *deref_void(void *p) { return *p; }

__global__ void wrong_arity(int *out) { out[0] = __shfl_sync(0xffffffff, 1); }

__global__ void bad_atomic(short *s) { atomicAdd(s, 1); }

__global__ void good(int *out) { out[0] = 1; }
