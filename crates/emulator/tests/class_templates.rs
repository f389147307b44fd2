//! A reduction written as the CUDA samples write it, with the
//! `SharedMemory<T>` class template (a conversion operator to `T *` over
//! `extern __shared__` memory, and an explicit specialization for `double`),
//! run in the emulator and compared with sums computed here; and a class
//! template whose members return references into the object, and static
//! member functions.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
use hone_frontend::{parse_source, FrontendOptions, Parsed, Severity};

const SOURCE: &str = r#"
template <class T> struct SharedMemory {
    __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
    __device__ inline operator const T *() const {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <> struct SharedMemory<double> {
    __device__ inline operator double *() {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
    __device__ inline operator const double *() const {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <class T, unsigned int blockSize>
__global__ void reduce(const T *g_idata, T *g_odata, unsigned int n) {
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockSize < n) mySum += g_idata[i + blockSize];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] = mySum = mySum + sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

template <class T> __global__ void reverse(const T *in, T *out) {
    SharedMemory<T> smem;
    T *s = smem;
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

template <typename T, int N> struct Tile {
    T data[N];
    __device__ T &operator[](int i) { return data[i]; }
    __device__ T &first() { return data[0]; }
};

template <typename T> __global__ void tile(T *out) {
    Tile<T, 4> t;
    for (int i = 0; i < 4; i++) {
        t[i] = (T)(i * 10);
    }
    t[1] += t[2];
    t.first() = t[3] + 1;
    out[threadIdx.x] = t[threadIdx.x % 4];
}

struct Mirror {
    __device__ static int clamp(int d, int size) { return d < 0 ? -d : (d >= size ? 2 * size - 2 - d : d); }
};

template <int W> class Scan {
public:
    int base;
    __device__ static int width() { return W; }
    __device__ static int twice(int x) { return 2 * x + width(); }
    __device__ int at(int i) const { return base + twice(i); }
    __device__ static void run(const int *in, int *out) {
        Scan<W> s;
        s.base = Mirror::clamp(in[threadIdx.x] - 8, W);
        out[threadIdx.x] = s.at(threadIdx.x) + s.width();
    }
};

template <int W> __global__ void scanKernel(const int *in, int *out) {
    Scan<W>::run(in, out);
}
"#;

fn parsed() -> Parsed {
    let opts = FrontendOptions {
        instantiate: vec![
            "reduce<int, 64>".into(),
            "reduce<double, 64>".into(),
            "reverse<float>".into(),
            "tile<int>".into(),
            "scanKernel<16>".into(),
        ],
        ..FrontendOptions::default()
    };
    let p = parse_source("reduce.cu", SOURCE, &opts).expect("source parses");
    let errors: Vec<_> = p
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    p
}

fn run(p: &Parsed, kernel: &str, grid: u32, block: u32, shared: u64, buffers: &mut [Buffer]) {
    let args = [
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Int(buffers[0].len() as i64),
    ];
    let f = p.kernel(kernel, "reduce.cu").expect("kernel exists");
    let n_args = f.params.len();
    let cfg = LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared_bytes: shared,
    };
    let report = hone_emulator::run(
        &p.module,
        &f.name,
        &cfg,
        &args[..n_args],
        buffers,
        &Options::default(),
        None,
    )
    .expect("launch is well formed");
    assert!(report.completed, "{kernel}: did not complete");
    assert!(report.faults.is_empty(), "{kernel}: {:?}", report.faults);
    assert!(report.races.is_empty(), "{kernel}: {:?}", report.races);
}

/// Each block's sum of its `2 * block` elements.
fn block_sums(input: &[f64], block: usize) -> Vec<f64> {
    input.chunks(2 * block).map(|c| c.iter().sum()).collect()
}

#[test]
fn shared_memory_reduction_sums_each_block() {
    let p = parsed();
    let n: i32 = 1000;
    let (block, grid) = (64usize, 8usize);

    let ints: Vec<i32> = (0..n).map(|i| (i * 37 % 101) - 50).collect();
    let mut buffers = vec![
        Buffer::from_i32("in", &ints),
        Buffer::from_i32("out", &vec![-1; grid]),
    ];
    run(
        &p,
        "reduce<int, 64>",
        grid as u32,
        block as u32,
        64 * 4,
        &mut buffers,
    );
    let want: Vec<i32> = block_sums(&ints.iter().map(|&v| v as f64).collect::<Vec<_>>(), block)
        .into_iter()
        .map(|s| s as i32)
        .collect();
    assert_eq!(buffers[1].to_i32_vec(), want);

    // The `double` specialization declares its own shared array.
    let reals: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let mut buffers = vec![
        Buffer::from_f64("in", &reals),
        Buffer::from_f64("out", &vec![0.0; grid]),
    ];
    run(
        &p,
        "reduce<double, 64>",
        grid as u32,
        block as u32,
        64 * 8,
        &mut buffers,
    );
    let got = buffers[1].to_f64_vec();
    for (i, (g, w)) in got.iter().zip(block_sums(&reals, block)).enumerate() {
        assert!(
            (g - w).abs() <= 1e-12,
            "block {i}: emulator {g}, reference {w}"
        );
    }
}

#[test]
fn shared_memory_object_converts_to_a_pointer() {
    let p = parsed();
    let x: Vec<f32> = (0..32).map(|i| i as f32 * 1.5).collect();
    let mut buffers = vec![
        Buffer::from_f32("in", &x),
        Buffer::from_f32("out", &[0.0; 32]),
    ];
    run(&p, "reverse<float>", 1, 32, 32 * 4, &mut buffers);
    let want: Vec<f32> = x.iter().rev().copied().collect();
    assert_eq!(buffers[1].to_f32_vec(), want);
}

#[test]
fn reference_returning_members_write_the_object() {
    let p = parsed();
    let mut buffers = vec![Buffer::from_i32("out", &[0; 8])];
    run(&p, "tile<int>", 1, 8, 0, &mut buffers);
    assert_eq!(buffers[0].to_i32_vec(), [31, 30, 20, 30, 31, 30, 20, 30]);
}

#[test]
fn static_members_are_called_without_an_object() {
    let p = parsed();
    let input: Vec<i32> = (0..32).collect();
    let mut buffers = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("out", &[0; 32]),
    ];
    run(&p, "scanKernel<16>", 1, 32, 0, &mut buffers);
    let want: Vec<i32> = input
        .iter()
        .map(|&t| {
            let d = t - 8;
            let mirrored = if d < 0 {
                -d
            } else if d >= 16 {
                30 - d
            } else {
                d
            };
            mirrored + 2 * t + 16 + 16
        })
        .collect();
    assert_eq!(buffers[1].to_i32_vec(), want);
}
