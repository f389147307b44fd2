// Template forms outside what instances support name themselves.

template <typename... Ts>
__device__ int count(Ts... xs)
{
    return sizeof...(xs);
}

template <template <typename> class C>
__global__ void k_template_template(int *p)
{
    p[threadIdx.x] = 1;
}

template <typename T>
__global__ void k_unlaunched(T *p)
{
    p[threadIdx.x] = T(1);
}

template <>
__global__ void k_unlaunched<int>(int *p)
{
    p[threadIdx.x] = 2;
}

template <typename T>
__device__ T pick(T a)
{
    return a;
}

__global__ void k_bad_arg(float *p, int n)
{
    p[threadIdx.x] = pick<n>(p[0]);
}

void host(int *p) { k_template_template<int><<<1, 32>>>(p); }

__global__ void k_variadic(int *p)
{
    p[threadIdx.x] = count(1, 2);
}
