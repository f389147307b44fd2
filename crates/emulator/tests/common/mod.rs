//! What the emulator's corpus tests share.
#![allow(dead_code)]

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
use hone_frontend::{parse_file, FrontendOptions, Parsed, Severity};

/// The corpus file `rel` (a path under `tests/corpus`) lowered with `opts`;
/// the front end must report no error.
pub fn parse_corpus(rel: &str, opts: &FrontendOptions) -> Parsed {
    let path = hone_testkit::corpus(rel);
    let p = parse_file(&path, opts).expect("corpus file parses");
    let errors: Vec<_> = p
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "{rel}: {errors:#?}");
    p
}

/// Runs `kernel` (defined in `file`) on `grid` blocks of `block` threads
/// with default options; the run must complete without a fault or race.
pub fn run_clean(
    p: &Parsed,
    kernel: &str,
    file: &str,
    (grid, block): (u32, u32),
    args: &[KernelArg],
    buffers: &mut [Buffer],
) {
    let f = p.kernel(kernel, file).expect("kernel exists");
    let report = hone_emulator::run(
        &p.module,
        &f.name,
        &LaunchConfig {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dynamic_shared_bytes: 0,
        },
        args,
        buffers,
        &Options::default(),
        None,
    )
    .expect("launch is well formed");
    assert!(report.is_clean(), "{kernel}: {report:?}");
}
