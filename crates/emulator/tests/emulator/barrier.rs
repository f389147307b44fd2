//! `__syncthreads()`: warps wait for each other; misuse is reported.

use hone_emulator::*;

use crate::{cuda, launch, line_of};

const REDUCE: &str = r#"
__global__ void block_sum(const float *in, float *out, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
"#;

#[test]
fn shared_reduction_across_warps() {
    let m = cuda(REDUCE);
    let n = 1000;
    let input: Vec<f32> = (0..n).map(|i| (i % 17) as f32 - 3.0).collect();
    let mut bufs = vec![
        Buffer::from_f32("in", &input),
        Buffer::zeros("out", hone_ir::Type::FLOAT, 4),
    ];
    let r = launch(
        &m,
        "block_sum",
        LaunchConfig::linear(4, 256),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    assert!(r.warnings.is_empty(), "{:#?}", r.warnings);
    let out = bufs[1].to_f32_vec();
    for (b, got) in out.iter().enumerate() {
        // Small integers: every summation order gives the same float.
        let want: f32 = input.iter().skip(b * 256).take(256).sum();
        assert_eq!(*got, want, "block {b}");
    }
}

#[test]
fn tiled_matrix_multiply_with_barriers_in_a_loop() {
    let src = r#"
#define TILE 8
__global__ void matmul(const float *a, const float *b, float *c, int n) {
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        ta[threadIdx.y][threadIdx.x] = (row < n && k0 + threadIdx.x < n) ? a[row * n + k0 + threadIdx.x] : 0.0f;
        tb[threadIdx.y][threadIdx.x] = (col < n && k0 + threadIdx.y < n) ? b[(k0 + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = acc;
}
"#;
    let m = cuda(src);
    let n = 20usize;
    let a: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 5) as f32 - 2.0).collect();
    let b: Vec<f32> = (0..n * n).map(|i| ((i * 3) % 7) as f32 - 3.0).collect();
    let mut bufs = vec![
        Buffer::from_f32("a", &a),
        Buffer::from_f32("b", &b),
        Buffer::zeros("c", hone_ir::Type::FLOAT, n * n),
    ];
    let grid = n.div_ceil(8) as u32;
    let r = launch(
        &m,
        "matmul",
        LaunchConfig::new([grid, grid, 1], [8, 8, 1]),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
            KernelArg::Int(n as i64),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let c = bufs[2].to_f32_vec();
    for i in 0..n {
        for j in 0..n {
            let want: f32 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
            assert_eq!(c[i * n + j], want, "c[{i}][{j}]");
        }
    }
}

fn divergence(src: &str, threads: u32) -> Report {
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &vec![0; threads as usize])];
    launch(
        &m,
        "k",
        LaunchConfig::linear(2, threads),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    )
}

fn assert_divergence(r: &Report, line: u32) {
    assert!(!r.completed);
    assert_eq!(r.faults.len(), 1, "{:#?}", r.faults);
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::BarrierDivergence, "{f:#?}");
    assert_eq!(f.span.line, line, "{f:#?}");
    assert_eq!(f.block, [0, 0, 0], "the first block stops the launch");
    assert_eq!(r.stats.blocks, 1);
}

#[test]
fn barrier_skipped_by_whole_warps_is_divergence() {
    let src = r#"
__global__ void k(int *out) {
    out[threadIdx.x] = 1;
    if (threadIdx.x < 64) {
        __syncthreads();
    }
}
"#;
    let r = divergence(src, 128);
    assert_divergence(&r, line_of(src, "__syncthreads"));
}

#[test]
fn barrier_in_divergent_branch_within_a_warp() {
    let src = r#"
__global__ void k(int *out) {
    if (threadIdx.x % 2 == 0) {
        __syncthreads();
    }
    out[threadIdx.x] = 2;
}
"#;
    let r = divergence(src, 64);
    assert_divergence(&r, line_of(src, "__syncthreads"));
    assert!(
        r.faults[0].message.contains("divergent"),
        "{}",
        r.faults[0].message
    );
}

#[test]
fn barrier_after_early_exit() {
    let src = r#"
__global__ void k(int *out) {
    if (threadIdx.x >= 100) return;
    __syncthreads();
    out[threadIdx.x] = 3;
}
"#;
    let r = divergence(src, 128);
    assert_divergence(&r, line_of(src, "__syncthreads"));
    assert!(
        r.faults[0].message.contains("exited"),
        "{}",
        r.faults[0].message
    );
}

#[test]
fn warps_at_different_barriers() {
    let src = r#"
__global__ void k(int *out) {
    if (threadIdx.x < 32) {
        out[threadIdx.x] = 1;
        __syncthreads();
    } else {
        __syncthreads();
        out[threadIdx.x] = 2;
    }
}
"#;
    let r = divergence(src, 64);
    assert_divergence(&r, line_of(src, "__syncthreads"));
    assert!(
        r.faults[0].message.contains("test.cu:"),
        "{}",
        r.faults[0].message
    );
}

#[test]
fn uniform_early_exit_of_a_whole_block_is_fine() {
    // Blocks past the data return before the barrier as a whole: no divergence.
    let src = r#"
__global__ void k(int *out) {
    if (blockIdx.x == 1) return;
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}
"#;
    let r = divergence(src, 64);
    assert!(r.is_clean(), "{r:#?}");
}
