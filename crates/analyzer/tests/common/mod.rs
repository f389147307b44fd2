//! Loading the bundled examples (`examples/analyze/`) and building launches.
#![allow(dead_code)]

use std::path::PathBuf;

use hone_analyzer::{analyze, Analysis, LaunchSpec, Model, Options, Site};
use hone_emulator::{Buffer, KernelArg, LaunchConfig};

pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/analyze")
        .join(name)
}

pub fn module(file: &str) -> hone_ir::Module {
    let path = example(file);
    let parsed = hone_frontend::parse_file(&path, &Default::default()).expect("example parses");
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    parsed.module
}

pub fn spec(
    file: &str,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    args: Vec<KernelArg>,
    buffers: Vec<Buffer>,
) -> LaunchSpec {
    LaunchSpec {
        module: module(file),
        kernel: kernel.to_string(),
        launch: hone_analyzer::LaunchData {
            name: String::new(),
            config: LaunchConfig::new(grid, block),
            args,
            buffers,
            symbols: Vec::new(),
        },
    }
}

/// The naive 64x64 transpose on a 2x8 grid of 32x8 blocks: the launch whose
/// counters Nsight Compute measured on an H200 (see gpu-baselines).
pub fn naive_transpose_64() -> LaunchSpec {
    spec(
        "transpose.cu",
        "transpose_naive",
        [2, 8, 1],
        [32, 8, 1],
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(64),
        ],
        vec![
            Buffer::zeros("out", hone_ir::Type::FLOAT, 4096),
            floats("in", 4096, 1),
        ],
    )
}

/// Buffer arguments 0..n in order.
pub fn buffers(n: usize) -> Vec<KernelArg> {
    (0..n).map(KernelArg::Buffer).collect()
}

pub fn run(spec: &LaunchSpec, model: Model, suggest: bool) -> Analysis {
    let opts = Options {
        model,
        suggest,
        ..Options::default()
    };
    analyze(spec, &opts).expect("analysis runs")
}

/// The site at `line` whose access text is `expr`.
pub fn site<'a>(a: &'a Analysis, line: u32, expr: &str) -> &'a Site {
    a.sites
        .iter()
        .find(|s| s.line == line && s.expression.as_deref() == Some(expr))
        .unwrap_or_else(|| {
            let all: Vec<String> = a
                .sites
                .iter()
                .map(|s| format!("{}:{:?}", s.line, s.expression))
                .collect();
            panic!("no site `{expr}` on line {line}; sites: {all:?}")
        })
}

pub fn floats(name: &str, n: usize, seed: u32) -> Buffer {
    let v: Vec<f32> = (0..n)
        .map(|i| ((i as u32).wrapping_mul(2654435761) ^ seed) as f32 / 4e9)
        .collect();
    Buffer::from_f32(name, &v)
}

pub fn ints(name: &str, n: usize, seed: i32) -> Buffer {
    let v: Vec<i32> = (0..n as i32).map(|i| (i * 37 + seed) % 101).collect();
    Buffer::from_i32(name, &v)
}
