//! Parallel block execution gives exactly the sequential result, reports included.

use hone_emulator::*;
use hone_ir::Type;

use crate::cuda;

/// Runs a launch sequentially and in parallel and checks both agree.
fn both(
    src: &str,
    kernel: &str,
    cfg: LaunchConfig,
    args: &[KernelArg],
    bufs: &[Buffer],
    opts: Options,
) -> (Report, bool) {
    let m = cuda(src);
    let mut results = Vec::new();
    for parallel in [false, true] {
        let mut b = bufs.to_vec();
        let o = Options {
            parallel,
            ..opts.clone()
        };
        let mut r = run(&m, kernel, &cfg, args, &mut b, &o, None).expect("launch");
        let ran_parallel = r.stats.ran_parallel;
        r.stats.seconds = 0.0;
        r.stats.operations_per_second = 0.0;
        r.stats.ran_parallel = false;
        results.push((r, b, ran_parallel));
    }
    let (seq, par) = (&results[0], &results[1]);
    assert!(!seq.2, "the sequential run stays sequential");
    assert_eq!(seq.0, par.0, "reports differ");
    assert_eq!(seq.1, par.1, "buffers differ");
    let ran_parallel = par.2;
    (results.remove(1).0, ran_parallel)
}

const STENCIL: &str = r#"
__global__ void stencil(const float *in, float *out, int n, int in_place) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = 0.5f * in[i] + 0.25f * (in[i > 0 ? i - 1 : i] + in[i < n - 1 ? i + 1 : i]);
    if (in_place) ((float *)in)[i] = v; else out[i] = v;
}
"#;

fn stencil_args(n: usize, in_place: bool) -> (Vec<KernelArg>, Vec<Buffer>) {
    let input: Vec<f32> = (0..n).map(|x| ((x * 13) % 7) as f32).collect();
    (
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
            KernelArg::Int(in_place as i64),
        ],
        vec![
            Buffer::from_f32("in", &input),
            Buffer::zeros("out", Type::FLOAT, n),
        ],
    )
}

#[test]
fn independent_blocks_run_in_parallel_with_identical_results() {
    let (args, bufs) = stencil_args(2000, false);
    let (r, parallel) = both(
        STENCIL,
        "stencil",
        LaunchConfig::linear(40, 64),
        &args,
        &bufs,
        Options::default(),
    );
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(r.stats.blocks, 40);
    if std::thread::available_parallelism().map_or(1, |n| n.get()) > 1 {
        assert!(parallel, "independent blocks use several cores");
    }
}

#[test]
fn blocks_that_depend_on_each_other_fall_back_to_order() {
    let (args, bufs) = stencil_args(2000, true);
    let (r, _) = both(
        STENCIL,
        "stencil",
        LaunchConfig::linear(40, 64),
        &args,
        &bufs,
        Options::default(),
    );
    assert!(
        r.races.iter().any(|x| x.first.block != x.second.block),
        "{:#?}",
        r.races
    );
}

#[test]
fn a_fault_in_a_middle_block_stops_both_runs_at_the_same_point() {
    let src = r#"
__global__ void k(int *out, int bad) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;
    if (blockIdx.x == bad && threadIdx.x == 5) out[100000] = 1;
}
"#;
    let bufs = vec![Buffer::from_i32("out", &[0; 64 * 32])];
    let (r, _) = both(
        src,
        "k",
        LaunchConfig::linear(32, 64),
        &[KernelArg::Buffer(0), KernelArg::Int(13)],
        &bufs,
        Options::default(),
    );
    assert!(!r.completed);
    assert_eq!(r.faults[0].block, [13, 0, 0]);
    assert_eq!(r.stats.blocks, 14);
}

#[test]
fn warnings_and_tolerated_halos_agree() {
    let src = r#"
__global__ void k(const float *in, float *mid, float *out, int n) {
    __shared__ float s[64];
    int inner = blockDim.x - 2;
    int i = blockIdx.x * inner + threadIdx.x - 1;
    if (threadIdx.x > 0) s[threadIdx.x] = 1.0f;
    if (i >= 0 && i < n) mid[i] = in[i] * 2.0f;
    __syncthreads();
    if (threadIdx.x >= 1 && threadIdx.x <= inner && i < n)
        out[i] = mid[i > 0 ? i - 1 : i] + mid[i] + s[threadIdx.x - 1];
}
"#;
    let n = 300;
    let input: Vec<f32> = (0..n).map(|x| x as f32).collect();
    let bufs = vec![
        Buffer::from_f32("in", &input),
        Buffer::zeros("mid", Type::FLOAT, n),
        Buffer::zeros("out", Type::FLOAT, n),
    ];
    let args = [
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Buffer(2),
        KernelArg::Int(n as i64),
    ];
    for tolerate in [false, true] {
        let opts = Options {
            tolerate_same_value_races: tolerate,
            ..Options::default()
        };
        let (r, _) = both(src, "k", LaunchConfig::linear(11, 64), &args, &bufs, opts);
        assert_eq!(r.warnings.len(), 1, "{:#?}", r.warnings);
        assert_eq!(r.races.is_empty(), tolerate, "{:#?}", r.races);
    }
}
