//! Results that depend on the order threads run in: the schedule the
//! emulator runs them in, and the order check that reports such values.

use hone_emulator::*;

use crate::{cuda, launch, launch_with, run_out};

fn ints(name: &str, n: usize) -> Buffer {
    Buffer::from_i32(name, &vec![0; n])
}

#[test]
fn exchanged_value_depends_on_the_order_and_a_sum_does_not() {
    let src = r#"
__global__ void k(int *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicExch(&out[0], t);
    atomicAdd(&out[1], 1);
    atomicMax(&out[2], t);
}
"#;
    let m = cuda(src);
    let mut bufs = vec![ints("out", 4)];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(2, 64),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(bufs[0].to_i32_vec(), vec![127, 128, 127, 0]);
    assert_eq!(
        r.order_dependent,
        vec![OrderDependence {
            buffer: "out".into(),
            cause: OrderCause::ThreadOrder,
            elements: 1,
            ranges: vec![[0, 1]],
        }]
    );
    assert!(
        r.order_dependent[0]
            .describe()
            .contains("`out`: 1 element (0)"),
        "{}",
        r.order_dependent[0].describe()
    );
}

#[test]
fn the_reversed_schedule_runs_the_last_block_and_lane_first() {
    let src = r#"
__global__ void k(int *ticket, int *counter) {
    ticket[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(counter, 1);
}
"#;
    let m = cuda(src);
    let opts = Options {
        schedule: Schedule::reversed(),
        ..Options::default()
    };
    let mut bufs = vec![ints("ticket", 64), ints("counter", 1)];
    let r = launch_with(
        &m,
        "k",
        LaunchConfig::linear(2, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
        &opts,
        None,
    );
    assert!(r.completed, "{r:#?}");
    let t = bufs[0].to_i32_vec();
    // Block 1 first, its lane 31 first; block 0's lane 0 last.
    assert_eq!(t[63], 0);
    assert_eq!(t[32], 31);
    assert_eq!(t[31], 32);
    assert_eq!(t[0], 63);
}

#[test]
fn values_read_from_the_clock_are_reported_as_times() {
    let src = r#"
__global__ void k(long long *timer, int *out) {
    int t = threadIdx.x;
    long long start = clock64();
    out[t] = t * 2;
    timer[t] = clock64() - start;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![
        Buffer::zeros("timer", hone_ir::Type::Scalar(hone_ir::Scalar::I64), 32),
        ints("out", 32),
    ];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(r.order_dependent.len(), 1, "{:#?}", r.order_dependent);
    let d = &r.order_dependent[0];
    assert_eq!(
        (d.buffer.as_str(), d.cause, d.elements, d.ranges.clone()),
        ("timer", OrderCause::Clock, 32, vec![[0, 32]])
    );
}

#[test]
fn a_race_between_blocks_is_reported_with_the_value_it_decides() {
    let src = r#"
__global__ void k(int *out) {
    if (threadIdx.x == 0) out[0] = blockIdx.x;
    out[1 + blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
"#;
    let (_, r) = run_out(src, "k", LaunchConfig::linear(4, 32), 1 + 4 * 32);
    assert!(!r.races.is_empty(), "{r:#?}");
    assert_eq!(r.order_dependent.len(), 1, "{:#?}", r.order_dependent);
    assert_eq!(r.order_dependent[0].ranges, vec![[0, 1]]);
}

#[test]
fn kernels_without_races_atomics_or_clock_are_not_run_again() {
    let src = r#"
__global__ void k(int *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
"#;
    let (_, r) = run_out(src, "k", LaunchConfig::linear(2, 32), 64);
    assert!(r.is_clean() && r.order_dependent.is_empty(), "{r:#?}");
}

#[test]
fn no_order_check_without_race_detection() {
    let src = r#"
__global__ void k(int *out) {
    atomicExch(&out[0], blockIdx.x * blockDim.x + threadIdx.x);
}
"#;
    let m = cuda(src);
    let opts = Options {
        detect_races: false,
        ..Options::default()
    };
    let mut bufs = vec![ints("out", 1)];
    let r = launch_with(
        &m,
        "k",
        LaunchConfig::linear(2, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
        &opts,
        None,
    );
    assert!(r.completed && r.order_dependent.is_empty(), "{r:#?}");
}
