//! SYMV on a real GPU: every benchmark candidate, both storages and
//! precisions, odd sizes and leading dimensions, against the CPU reference;
//! cuBLAS through the same check. Each test prints why and returns when the
//! machine has no CUDA device (or no NVRTC / cuBLAS).

use hone_gpu::{Gpu, ModuleCache, TimingOptions};
use hone_kernels::symv::bench::{atomic, candidates, config_label, lu};
use hone_kernels::symv::cublas::Cublas;
use hone_kernels::symv::{
    run_symv, Algorithm, Precision, RunOptions, SymvKernel, SymvOutcome, SymvRunner, Uplo,
};

fn gpu() -> Option<Gpu> {
    match Gpu::open(0) {
        Ok(g) => Some(g),
        Err(e) => {
            println!("skipped: {e}");
            None
        }
    }
}

fn runner(gpu: &Gpu) -> Option<SymvRunner<'_>> {
    let dir = std::env::temp_dir().join(format!("hone-kernels-test-{}", std::process::id()));
    match SymvRunner::new(gpu, ModuleCache::new(dir)) {
        Ok(r) => Some(r),
        Err(e) => {
            println!("skipped: {e}");
            None
        }
    }
}

/// Checked, with a token timing (the tests are about answers).
fn quick(lda_multiple: usize) -> RunOptions {
    RunOptions {
        timing: TimingOptions {
            warmup: 1,
            reps: 2,
            flush_l2: false,
            copies: Some(1),
        },
        timed_runs: 1,
        check: true,
        lda_multiple,
        ..RunOptions::default()
    }
}

fn failures(
    runner: &mut SymvRunner<'_>,
    kernels: &[SymvKernel],
    sizes: &[usize],
    options: &RunOptions,
) -> Vec<String> {
    runner.prepare_kernels(kernels).expect("compiles");
    let mut bad = Vec::new();
    for &n in sizes {
        for k in kernels {
            match run_symv(runner, k, n, options).expect("the device stays usable") {
                SymvOutcome::Valid(m) => {
                    let c = m.check.expect("checked");
                    assert!(c.passed());
                    println!(
                        "ok {} {} n={n} {} rel {:.2e}",
                        k.precision,
                        k.uplo,
                        k.label(),
                        c.relative()
                    );
                }
                SymvOutcome::Invalid { reason } => bad.push(format!(
                    "{} {} n={n} {}: {reason}",
                    k.precision,
                    k.uplo,
                    k.label()
                )),
            }
        }
    }
    bad
}

#[test]
fn every_candidate_is_right_for_both_storages_and_precisions() {
    let Some(gpu) = gpu() else { return };
    let Some(mut runner) = runner(&gpu) else {
        return;
    };
    let mut bad = Vec::new();
    for p in Precision::ALL {
        for u in Uplo::ALL {
            let kernels: Vec<SymvKernel> = candidates(p)
                .into_iter()
                .map(|(a, c)| SymvKernel::new(p, u, a, c))
                .collect();
            bad.extend(failures(&mut runner, &kernels, &[1000, 2053], &quick(32)));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn odd_sizes_and_leading_dimensions() {
    let Some(gpu) = gpu() else { return };
    let Some(mut runner) = runner(&gpu) else {
        return;
    };
    let mut bad = Vec::new();
    for p in Precision::ALL {
        for u in Uplo::ALL {
            // Scalar loads take any leading dimension.
            let scalar = vec![
                SymvKernel::new(
                    p,
                    u,
                    Algorithm::Atomic,
                    atomic([64, 9, 2, 9, 1, 2, 4, 0, 1, 0]),
                ),
                SymvKernel::new(
                    p,
                    u,
                    Algorithm::Atomic,
                    atomic([32, 13, 4, 3, 1, 1, 2, 1, 0, 0]),
                ),
                SymvKernel::new(p, u, Algorithm::LowerUpper, lu(96, 16)),
            ];
            bad.extend(failures(
                &mut runner,
                &scalar,
                &[1, 2, 31, 33, 257, 1001],
                &quick(1),
            ));
            // 16-byte loads need lda divisible by VEC: 2 (double) or 4.
            let vec = if p == Precision::Double { 2 } else { 4 };
            let wide = vec![SymvKernel::new(
                p,
                u,
                Algorithm::Atomic,
                atomic([128, 16, 2, 0, vec, 2, 8, 0, 1, 1]),
            )];
            bad.extend(failures(
                &mut runner,
                &wide,
                &[3, 515, 4099],
                &quick(vec as usize),
            ));
            match run_symv(&mut runner, &wide[0], 515, &quick(1)).unwrap() {
                SymvOutcome::Invalid { reason } => {
                    assert!(reason.contains("divisible"), "{reason}")
                }
                SymvOutcome::Valid(_) => panic!("VEC={vec} accepted lda = 515"),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_large_problem_is_right() {
    let Some(gpu) = gpu() else { return };
    let Some(mut runner) = runner(&gpu) else {
        return;
    };
    let mut bad = Vec::new();
    for p in Precision::ALL {
        let (alg, c) = candidates(p).remove(0);
        let k = SymvKernel::new(p, Uplo::Lower, alg, c);
        bad.extend(failures(&mut runner, &[k], &[12_345], &quick(32)));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn configurations_outside_the_space_are_invalid_not_errors() {
    let Some(gpu) = gpu() else { return };
    let Some(mut runner) = runner(&gpu) else {
        return;
    };
    // Eight blocks of 128 threads leave 64 registers a thread: violates the
    // register constraint.
    let k = SymvKernel::new(
        Precision::Double,
        Uplo::Lower,
        Algorithm::Atomic,
        atomic([128, 16, 8, 0, 2, 2, 8, 0, 1, 0]),
    );
    match run_symv(&mut runner, &k, 256, &quick(32)).unwrap() {
        SymvOutcome::Invalid { reason } => assert!(reason.contains("regs_per_sm"), "{reason}"),
        SymvOutcome::Valid(_) => panic!("{} ran", config_label(&k.config)),
    }
}

#[test]
fn cublas_passes_the_same_check() {
    let Some(gpu) = gpu() else { return };
    let Some(mut runner) = runner(&gpu) else {
        return;
    };
    let cublas = match Cublas::new(&gpu) {
        Ok(c) => c,
        Err(e) => {
            println!("skipped: {e}");
            return;
        }
    };
    for p in Precision::ALL {
        for u in Uplo::ALL {
            runner.data(p, u, 777, &quick(32)).unwrap();
            let symv = runner
                .check_with(false, |d, alpha, beta| unsafe {
                    cublas.symv(
                        p,
                        u,
                        d.n,
                        alpha,
                        d.matrix_ptr(0),
                        d.lda,
                        d.x_ptr(0),
                        beta,
                        d.y_ptr(0),
                    )
                })
                .unwrap();
            assert!(symv.passed(), "cuBLAS {p} {u} symv: {}", symv.describe());
            let gemv = runner
                .check_with(true, |d, alpha, beta| unsafe {
                    cublas.gemv(
                        p,
                        d.n,
                        alpha,
                        d.matrix_ptr(0),
                        d.lda,
                        d.x_ptr(0),
                        beta,
                        d.y_ptr(0),
                    )
                })
                .unwrap();
            assert!(gemv.passed(), "cuBLAS {p} gemv: {}", gemv.describe());
            // GEMV on the stored triangle alone reads the NaN half: the check
            // must catch it.
            let wrong = runner
                .check_with(false, |d, alpha, beta| unsafe {
                    cublas.gemv(
                        p,
                        d.n,
                        alpha,
                        d.matrix_ptr(0),
                        d.lda,
                        d.x_ptr(0),
                        beta,
                        d.y_ptr(0),
                    )
                })
                .unwrap();
            assert!(!wrong.passed(), "GEMV over a NaN triangle passed");
        }
    }
}
