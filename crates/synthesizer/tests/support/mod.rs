//! Test and bench support: the launch files of `examples/synth/`, the
//! benchmark cases, and emulator runs of plain kernels.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
use hone_ir::Scalar;
use hone_synthesizer::{load_file, AnnotatedKernel, LaunchData};

pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/synth")
}

/// Reads a launch file against the kernel's parameters, named by its file name.
pub fn launch(path: &Path, ak: &AnnotatedKernel) -> LaunchData {
    let mut data = hone_launch::Launch::read(path)
        .and_then(|l| l.data(&ak.kernel))
        .unwrap_or_else(|e| panic!("{e}"));
    data.name = path.file_name().unwrap().to_string_lossy().into_owned();
    data
}

/// One of the thesis's six benchmark cases.
pub struct Case {
    pub name: &'static str,
    pub file: &'static str,
    pub kernel: &'static str,
    /// The thesis's seconds per access for PSySha (Table 6.3).
    pub thesis_seconds: f64,
}

pub const CASES: [Case; 6] = [
    Case {
        name: "diffusion SHA",
        file: "diffusion_sha",
        kernel: "diffusion_sha",
        thesis_seconds: 4.3,
    },
    Case {
        name: "diffusion SHA-sleeve",
        file: "diffusion_sleeve",
        kernel: "diffusion_sleeve",
        thesis_seconds: 1.9,
    },
    Case {
        name: "diffusion TB",
        file: "diffusion_tb",
        kernel: "diffusion_tb",
        thesis_seconds: 4.3,
    },
    Case {
        name: "Himeno SHA",
        file: "himeno_sha",
        kernel: "jacobi_sha",
        thesis_seconds: 5.5,
    },
    Case {
        name: "Himeno SHA-sleeve",
        file: "himeno_sleeve",
        kernel: "jacobi_sleeve",
        thesis_seconds: 5.5,
    },
    Case {
        name: "Himeno TB",
        file: "himeno_tb",
        kernel: "jacobi_tb",
        thesis_seconds: 6.5,
    },
];

pub fn load_case(c: &Case) -> (AnnotatedKernel, LaunchData) {
    let dir = examples_dir();
    let ak = load_file(
        &dir.join(format!("{}.cu", c.file)),
        c.kernel,
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let l = launch(&dir.join(format!("{}.json", c.file)), &ak);
    (ak, l)
}

/// Runs a kernel of `module` in the emulator and checks it ran cleanly.
pub fn run(
    module: &hone_ir::Module,
    kernel: &str,
    cfg: &LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    tolerate: bool,
) {
    let opts = Options {
        tolerate_same_value_races: tolerate,
        ..Options::default()
    };
    let r = hone_emulator::run(module, kernel, cfg, args, buffers, &opts, None)
        .unwrap_or_else(|e| panic!("{kernel}: {e}"));
    assert!(
        r.completed && r.faults.is_empty(),
        "{kernel}: {:?}",
        r.faults
    );
    assert!(r.races.is_empty(), "{kernel}: races {:?}", r.races);
}

pub fn scalar_of(b: &Buffer) -> Scalar {
    b.component()
}
