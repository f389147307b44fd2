//! Behavioural tests of the emulator: each kernel's result is compared with
//! an independent computation on the host.

mod atomics;
mod barrier;
mod basics;
mod cpp;
mod divergence;
mod faults;
mod intrinsics;
mod limits;
mod order;
mod parallel;
mod psysha;
mod races;
mod setup;
mod shuffle;
mod trace;
mod types;

use hone_emulator::{run, Buffer, KernelArg, LaunchConfig, Options, Report, TraceSink};
use hone_ir::Module;

/// Lowers CUDA C through the front end; the test fails on any diagnostic error.
pub fn cuda(src: &str) -> Module {
    let p =
        hone_frontend::parse_source("test.cu", src, &Default::default()).expect("source parses");
    assert!(
        !p.has_errors(),
        "front end diagnostics: {:#?}",
        p.diagnostics
    );
    p.module
}

pub fn launch(
    m: &Module,
    kernel: &str,
    cfg: LaunchConfig,
    args: &[KernelArg],
    bufs: &mut [Buffer],
) -> Report {
    run(m, kernel, &cfg, args, bufs, &Options::default(), None).expect("launch sets up")
}

pub fn launch_with(
    m: &Module,
    kernel: &str,
    cfg: LaunchConfig,
    args: &[KernelArg],
    bufs: &mut [Buffer],
    opts: &Options,
    trace: Option<&mut dyn TraceSink>,
) -> Report {
    run(m, kernel, &cfg, args, bufs, opts, trace).expect("launch sets up")
}

/// Runs a kernel `k(int *out)` with one thread per output element and returns `out`.
pub fn run_out(src: &str, kernel: &str, cfg: LaunchConfig, n: usize) -> (Vec<i32>, Report) {
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &vec![-1; n])];
    let r = launch(&m, kernel, cfg, &[KernelArg::Buffer(0)], &mut bufs);
    (bufs[0].to_i32_vec(), r)
}

/// Line of the first occurrence of `needle` in `src` (1-based).
pub fn line_of(src: &str, needle: &str) -> u32 {
    src.lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u32 + 1)
        .unwrap_or_else(|| panic!("`{needle}` not in source"))
}
