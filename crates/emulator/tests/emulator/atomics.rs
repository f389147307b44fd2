//! Atomics on global and shared memory, compared with host computations.

use hone_emulator::*;

use crate::{cuda, launch};

#[test]
fn histogram_with_shared_and_global_atomic_add() {
    let src = r#"
#define BINS 16
__global__ void histogram(const unsigned int *data, int n, unsigned int *hist) {
    __shared__ unsigned int local[BINS];
    if (threadIdx.x < BINS) local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}
"#;
    let m = cuda(src);
    let n = 5000usize;
    let data: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2654435761) >> 7)
        .collect();
    let mut bufs = vec![
        Buffer::from_u32("data", &data),
        Buffer::from_u32("hist", &[0; 16]),
    ];
    let r = launch(
        &m,
        "histogram",
        LaunchConfig::linear(6, 128),
        &[
            KernelArg::Buffer(0),
            KernelArg::Int(n as i64),
            KernelArg::Buffer(1),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let mut want = [0u32; 16];
    for d in &data {
        want[(d % 16) as usize] += 1;
    }
    assert_eq!(bufs[1].to_u32_vec(), want.to_vec());
}

#[test]
fn lanes_of_one_atomic_apply_in_lane_order() {
    let src = r#"
__global__ void ticket(int *counter, int *order) {
    order[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(counter, 1);
}
"#;
    let m = cuda(src);
    let mut bufs = vec![
        Buffer::from_i32("counter", &[0]),
        Buffer::from_i32("order", &[0; 96]),
    ];
    let r = launch(
        &m,
        "ticket",
        LaunchConfig::linear(2, 48),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(bufs[0].to_i32_vec(), vec![96]);
    // Blocks in order, warps in order, lanes in order.
    assert_eq!(bufs[1].to_i32_vec(), (0..96).collect::<Vec<i32>>());
}

#[test]
fn atomic_cas_loop_computes_a_maximum() {
    let src = r#"
__device__ int cas_max(int *addr, int v) {
    int old = atomicAdd(addr, 0);
    int assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, max(assumed, v));
    } while (assumed != old);
    return old;
}
__global__ void k(const int *in, int *best) {
    cas_max(best, in[blockIdx.x * blockDim.x + threadIdx.x]);
}
"#;
    let m = cuda(src);
    let input: Vec<i32> = (0..256).map(|i: i32| (i * 7919) % 1000 - 500).collect();
    let mut bufs = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("best", &[i32::MIN]),
    ];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(4, 64),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(bufs[1].to_i32_vec(), vec![*input.iter().max().unwrap()]);
}

#[test]
fn every_atomic_operation_and_type() {
    let src = r#"
__global__ void k(int *i, unsigned int *u, unsigned long long *ull, float *f, double *d, int *old) {
    int t = threadIdx.x;
    old[t] = atomicSub(&i[0], t);
    atomicMin(&i[1], 50 - t);
    atomicMax(&i[2], t * 3 - 40);
    atomicExch(&i[3], t);
    atomicAnd(&u[0], ~(1u << t));
    atomicOr(&u[1], 1u << t);
    atomicXor(&u[2], (unsigned)t * 2654435761u);
    atomicAdd(&ull[0], 1000000000ull * t);
    atomicAdd(&f[0], 0.5f);
    atomicAdd(&d[0], 0.25 * t);
    atomicCAS(&i[4], t, t + 1);
    atomicMin(&u[3], (unsigned)(t - 4));
}
"#;
    let m = cuda(src);
    let mut bufs = vec![
        Buffer::from_i32("i", &[1000, 100, -100, -1, 0]),
        Buffer::from_u32("u", &[u32::MAX, 0, 0, u32::MAX]),
        Buffer::from_u64("ull", &[0]),
        Buffer::from_f32("f", &[0.0]),
        Buffer::from_f64("d", &[0.0]),
        Buffer::from_i32("old", &[0; 32]),
    ];
    let args: Vec<KernelArg> = (0..6).map(KernelArg::Buffer).collect();
    let r = launch(&m, "k", LaunchConfig::linear(1, 32), &args, &mut bufs);
    assert!(r.is_clean(), "{r:#?}");
    let ts = 0..32i32;
    let sub: i32 = ts.clone().sum();
    let xor = ts
        .clone()
        .fold(0u32, |a, t| a ^ (t as u32).wrapping_mul(2654435761));
    // atomicCAS(i[4], t, t+1) in lane order walks 0 -> 32.
    assert_eq!(
        bufs[0].to_i32_vec(),
        vec![1000 - sub, 50 - 31, 31 * 3 - 40, 31, 32]
    );
    assert_eq!(bufs[1].to_u32_vec(), vec![0, u32::MAX, xor, 0]);
    assert_eq!(bufs[2].to_u64_vec(), vec![1_000_000_000u64 * 496]);
    assert_eq!(bufs[3].to_f32_vec(), vec![16.0]);
    assert_eq!(bufs[4].to_f64_vec(), vec![0.25 * 496.0]);
    let mut acc = 1000;
    let old: Vec<i32> = ts
        .map(|t| {
            let o = acc;
            acc -= t;
            o
        })
        .collect();
    assert_eq!(bufs[5].to_i32_vec(), old);
}
