//! `hone difftest` end to end: the CPU half on a few cases, a case's print,
//! and the GPU run's refusal where there is no device.

mod support;

use support::{hone_with, scratch};

#[test]
fn the_cpu_half_passes_its_cases_and_counts_them() {
    let o = hone_with(
        &[
            "difftest",
            "--seed",
            "7",
            "cpu",
            "--count",
            "6",
            "--no-nvrtc",
        ],
        &[],
    );
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("6 cases: pass 6"), "{}", o.stdout);
}

#[test]
fn show_prints_the_kernel_of_a_case() {
    let o = hone_with(&["difftest", "--seed", "7", "show", "--index", "3"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("__global__"), "{}", o.stdout);
}

#[test]
fn the_gpu_run_says_no_cuda_device_where_there_is_none() {
    if hone_gpu::Gpu::open(0).is_ok() {
        eprintln!("skipping: this machine has a GPU");
        return;
    }
    let out = scratch("difftest-gpu");
    let o = hone_with(
        &[
            "difftest",
            "gpu",
            "--count",
            "4",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("no CUDA device"), "{}", o.stderr);
    assert!(!out.join("summary.json").exists());
}
