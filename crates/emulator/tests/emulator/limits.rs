//! The limits of a launch: steps, memory, time and call depth. Each stops
//! the launch with a fault or refuses it with a setup error that names the
//! limit, rather than running without end or exhausting memory.

use std::time::{Duration, Instant};

use hone_emulator::*;

use crate::{cuda, launch_with, line_of};

const LOOPS: &str = r#"
__global__ void spin(int *out) {
    int i = 0;
    while (out[0] == 0) { i++; }
    out[1] = i;
}
__global__ void count(int *out, int n) {
    int s = 0;
    for (int k = 0; k < n; k++) s += k;
    out[blockIdx.x] = s;
}
__global__ void nothing(int *out) {
    if (threadIdx.x == 1000) out[0] = 1;
}
"#;

fn with_limits(limits: Limits) -> Options {
    Options {
        limits,
        ..Options::default()
    }
}

fn only_fault(r: &Report) -> &Fault {
    assert!(!r.completed, "{r:#?}");
    assert_eq!(r.faults.len(), 1, "{:#?}", r.faults);
    &r.faults[0]
}

#[test]
fn an_endless_loop_stops_at_the_launch_step_limit_naming_the_loop_and_flag() {
    let m = cuda(LOOPS);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 2])];
    let opts = Options {
        // The warp's own watchdog is out of the way: the launch's limit stops it.
        max_thread_steps: u64::MAX,
        ..with_limits(Limits {
            max_steps: 200_000,
            ..Limits::default()
        })
    };
    let r = launch_with(
        &m,
        "spin",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
        &opts,
        None,
    );
    let f = only_fault(&r);
    assert!(
        matches!(f.kind, FaultKind::LaunchStepLimit { steps, limit: 200_000 } if steps > 200_000),
        "{f:?}"
    );
    assert_eq!(f.span.line, line_of(LOOPS, "while (out[0] == 0)"));
    assert!(
        f.message.contains("step limit of 200000") && f.message.contains("--max-steps"),
        "{}",
        f.message
    );
}

#[test]
fn the_step_limit_counts_every_block_and_stops_at_the_same_block_in_parallel_and_serial() {
    let m = cuda(LOOPS);
    let run = |parallel: bool| {
        let mut bufs = vec![Buffer::from_i32("out", &[0; 64])];
        let opts = Options {
            parallel,
            ..with_limits(Limits {
                max_steps: 20_000,
                ..Limits::default()
            })
        };
        let r = launch_with(
            &m,
            "count",
            LaunchConfig::linear(64, 32),
            &[KernelArg::Buffer(0), KernelArg::Int(100)],
            &mut bufs,
            &opts,
            None,
        );
        (r, bufs[0].to_i32_vec())
    };
    let (serial, out_serial) = run(false);
    let (parallel, out_parallel) = run(true);
    // No block comes near the limit alone; together they pass it.
    let f = only_fault(&serial);
    assert!(
        matches!(f.kind, FaultKind::LaunchStepLimit { limit: 20_000, .. }),
        "{f:?}"
    );
    assert!(f.message.contains("--max-steps"), "{}", f.message);
    assert!(serial.stats.blocks < 64 && serial.stats.warp_instructions > 20_000);
    assert_eq!(serial.faults, parallel.faults);
    assert_eq!(serial.stats.blocks, parallel.stats.blocks);
    assert_eq!(out_serial, out_parallel);
    // The blocks before the stop wrote their sums; the rest did not run.
    let done = serial.stats.blocks as usize;
    assert!(out_serial[..done].iter().all(|&s| s == 4950));
    assert!(out_serial[done..].iter().all(|&s| s == 0));
}

#[test]
fn an_endless_loop_stops_at_the_time_limit() {
    let m = cuda(LOOPS);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 2])];
    let opts = Options {
        max_thread_steps: u64::MAX,
        ..with_limits(Limits {
            max_steps: u64::MAX,
            time_limit: Some(Duration::from_millis(300)),
            ..Limits::default()
        })
    };
    let t = Instant::now();
    let r = launch_with(
        &m,
        "spin",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
        &opts,
        None,
    );
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    let f = only_fault(&r);
    assert!(
        matches!(f.kind, FaultKind::TimeLimit { seconds } if seconds == 0.3),
        "{f:?}"
    );
    assert_eq!(f.span.line, line_of(LOOPS, "while (out[0] == 0)"));
    assert!(f.message.contains("--time-limit"), "{}", f.message);
}

#[test]
fn a_huge_grid_of_short_blocks_stops_at_the_time_limit() {
    let m = cuda(LOOPS);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 1])];
    let opts = with_limits(Limits {
        time_limit: Some(Duration::from_millis(200)),
        ..Limits::default()
    });
    let t = Instant::now();
    let r = launch_with(
        &m,
        "nothing",
        LaunchConfig::new([65535, 65535, 1], [32, 1, 1]),
        &[KernelArg::Buffer(0)],
        &mut bufs,
        &opts,
        None,
    );
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    let f = only_fault(&r);
    assert!(matches!(f.kind, FaultKind::TimeLimit { .. }), "{f:?}");
    assert!(f.message.contains("after") && f.message.contains("blocks"));
}

#[test]
fn buffers_past_the_memory_limit_are_refused_before_the_launch() {
    let m = cuda(LOOPS);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 1000])];
    let opts = with_limits(Limits {
        max_memory: 3999,
        ..Limits::default()
    });
    let e = run(
        &m,
        "nothing",
        &LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
        &opts,
        None,
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            SetupError::MemoryLimit {
                bytes: 4000,
                limit: 3999,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("--max-memory"), "{e}");
}

#[test]
fn local_memory_past_the_thread_limit_is_refused_or_faults() {
    let src = r#"
__global__ void big(int *out, int n) {
    int a[200000];
    a[n] = 1;
    out[0] = a[n];
}
__device__ int deep(int x) {
    int a[1000];
    a[x % 1000] = x;
    return x <= 0 ? 0 : a[x % 1000] + deep(x - 1);
}
__global__ void recurse(int *out, int n) { out[0] = deep(n); }
__global__ void shared(int *out) {
    __shared__ long long s[2305843009213693952];
    s[threadIdx.x] = 1;
    out[0] = s[0];
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 1])];
    let e = run(
        &m,
        "big",
        &LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0), KernelArg::Int(1)],
        &mut bufs,
        &Options::default(),
        None,
    )
    .unwrap_err();
    assert_eq!(
        e,
        SetupError::LocalTooLarge {
            bytes: 800_000,
            limit: LOCAL_LIMIT
        }
    );
    // A shared array whose size overflows 64 bits is refused, not wrapped.
    let e = run(
        &m,
        "shared",
        &LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
        &Options::default(),
        None,
    )
    .unwrap_err();
    assert!(e.to_string().contains("shared `s`"), "{e}");
    // 4000 bytes a frame: 200 frames fit the call depth, not the local memory.
    let opts = with_limits(Limits {
        max_call_depth: 2000,
        ..Limits::default()
    });
    let r = launch_with(
        &m,
        "recurse",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0), KernelArg::Int(1500)],
        &mut bufs,
        &opts,
        None,
    );
    let f = only_fault(&r);
    assert!(
        matches!(f.kind, FaultKind::LocalMemoryLimit { limit: LOCAL_LIMIT, bytes } if bytes > LOCAL_LIMIT),
        "{f:?}"
    );
    // Within the limit the same recursion completes.
    let r = launch_with(
        &m,
        "recurse",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0), KernelArg::Int(100)],
        &mut bufs,
        &opts,
        None,
    );
    assert!(r.completed, "{:#?}", r.faults);
    assert_eq!(bufs[0].to_i32_vec()[0], (1..=100).sum::<i32>());
}

#[test]
fn the_call_depth_limit_is_an_option() {
    let src = r#"
__device__ int down(int x) { return x <= 0 ? 0 : 1 + down(x - 1); }
__global__ void k(int *out, int n) { out[0] = down(n); }
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 1])];
    let opts = with_limits(Limits {
        max_call_depth: 10,
        ..Limits::default()
    });
    let go = |n: i64, bufs: &mut [Buffer]| {
        launch_with(
            &m,
            "k",
            LaunchConfig::linear(1, 1),
            &[KernelArg::Buffer(0), KernelArg::Int(n)],
            bufs,
            &opts,
            None,
        )
    };
    assert!(go(8, &mut bufs).completed);
    let r = go(50, &mut bufs);
    let f = only_fault(&r);
    assert!(
        matches!(f.kind, FaultKind::StackOverflow { depth: 10 }),
        "{f:?}"
    );
    assert!(f.message.contains("--max-call-depth"), "{}", f.message);
}

#[test]
fn progress_counts_the_launch_as_it_runs() {
    let m = cuda(LOOPS);
    let progress = Progress::new();
    let opts = Options {
        progress: progress.clone(),
        ..Options::default()
    };
    let mut bufs = vec![Buffer::from_i32("out", &[0; 16])];
    let r = launch_with(
        &m,
        "count",
        LaunchConfig::linear(16, 64),
        &[KernelArg::Buffer(0), KernelArg::Int(300)],
        &mut bufs,
        &opts,
        None,
    );
    assert!(r.completed);
    let s = progress.snapshot();
    assert_eq!((s.blocks_total, s.blocks_done), (16, 16));
    assert_eq!(s.warp_instructions, r.stats.warp_instructions);
}
