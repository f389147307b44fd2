//! SYMV on a real GPU: every benchmark candidate, both storages and
//! precisions, odd sizes and leading dimensions, against the CPU reference;
//! cuBLAS through the same check; every kernel the bundled selection rules
//! pick, across its intervals; the library call on the caller's buffers. Each test prints why and returns when the
//! machine has no CUDA device (or no NVRTC / cuBLAS).

use hone_gpu::launch::DeviceBuffer;
use hone_gpu::{Gpu, ModuleCache, TimingOptions};
use hone_kernels::symv::bench::{atomic, candidates, config_label, lu};
use hone_kernels::symv::cublas::Cublas;
use hone_kernels::symv::device::round_to;
use hone_kernels::symv::library::fitting;
use hone_kernels::symv::reference::{compare, hash_matrix, hash_product};
use hone_kernels::symv::{
    run_symv, Algorithm, Precision, RunOptions, Symv, SymvKernel, SymvOutcome, SymvRules,
    SymvRunner, Uplo,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

mod support;
use support::gpu;

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
            ..Default::default()
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
                SymvOutcome::Invalid { reason, .. } => bad.push(format!(
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
                SymvOutcome::Invalid { reason, .. } => {
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
        SymvOutcome::Invalid { kind, reason } => {
            assert_eq!(kind, hone_tuner::InvalidKind::Constraint, "{reason}");
            assert!(reason.contains("regs_per_sm"), "{reason}")
        }
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

/// Sizes to check a rule's kernel at over one interval `[start, end)`: its
/// first size, its last (at most 32768) and an odd size inside.
fn interval_sizes(start: u64, end: Option<u64>) -> Vec<usize> {
    let lo = start as usize;
    let hi = end.map_or(32768, |e| (e as usize - 1).min(32768)).max(lo);
    let mut sizes = vec![lo, hi];
    if lo + 37 < hi {
        sizes.push(lo + 37);
    }
    sizes.dedup();
    sizes
}

#[test]
fn every_kernel_the_bundled_rules_pick_is_right_across_its_intervals() {
    let Some(gpu) = gpu() else { return };
    let Some(mut runner) = runner(&gpu) else {
        return;
    };
    let mut bad = Vec::new();
    let mut checked = 0;
    // Every built-in set: each GPU model's kernels run right on any Hopper.
    for rules in SymvRules::all_bundled() {
        for p in Precision::ALL {
            for u in Uplo::ALL {
                let selections = rules.selections(p, u).unwrap();
                for kernel in rules.kernels(p, u).unwrap() {
                    let mut sizes: Vec<usize> = selections
                        .iter()
                        .filter(|s| s.kernel == kernel)
                        .flat_map(|s| interval_sizes(s.start, s.end))
                        .collect();
                    sizes.sort_unstable();
                    sizes.dedup();
                    checked += sizes.len();
                    bad.extend(failures(&mut runner, &[kernel], &sizes, &quick(32)));
                }
            }
        }
    }
    println!("{checked} (kernel, size) checks");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn to_device(gpu: &Gpu, p: Precision, v: &[f64]) -> DeviceBuffer {
    let bytes: Vec<u8> = match p {
        Precision::Double => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        Precision::Single => v.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect(),
    };
    let b = DeviceBuffer::alloc(gpu, bytes.len()).unwrap();
    b.upload(gpu, &bytes).unwrap();
    b
}

fn from_device(gpu: &Gpu, p: Precision, b: &DeviceBuffer) -> Vec<f64> {
    let mut bytes = vec![0u8; b.bytes()];
    b.download(gpu, &mut bytes).unwrap();
    match p {
        Precision::Double => bytes
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect(),
        Precision::Single => bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64)
            .collect(),
    }
}

fn random(rng: &mut StdRng, p: Precision, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| round_to(p, rng.gen_range(-1.0..1.0)))
        .collect()
}

/// The VEC of the kernel the rules pick at n (1 for L+U).
fn vec_of(rules: &SymvRules, p: Precision, u: Uplo, n: usize) -> usize {
    rules
        .kernel(p, u, n)
        .unwrap()
        .config
        .get("VEC")
        .copied()
        .unwrap_or(1) as usize
}

#[test]
fn the_library_call_is_right_on_the_callers_buffers() {
    let Some(gpu) = gpu() else { return };
    let Some(runner) = runner(&gpu) else {
        return;
    };
    let rules = SymvRules::bundled_for(&gpu.props().name);
    let mut symv = Symv::with_runner(runner, rules.clone());
    let mut rng = StdRng::seed_from_u64(0x5e_ed);
    for p in Precision::ALL {
        for u in Uplo::ALL {
            let unbuilt = symv.prepare(p, u).unwrap();
            assert!(unbuilt.is_empty(), "{p} {u}: {unbuilt:?}");
            // 1000 with lda = n, and an odd size in the second interval (so
            // another kernel, where the rule has one) with rows of padding
            // (NaN, like the other triangle).
            let intervals = &rules.rule(p, u).intervals;
            let second = intervals.get(1).unwrap_or(&intervals[0]).start as usize;
            let first_n = 1000;
            let odd_n = (second + 37) | 1;
            let vec = vec_of(&rules, p, u, odd_n);
            // The third problem has an lda and an x that no vector load
            // suits: the call takes the rule's kernel with scalar loads.
            for (n, lda, x_skew) in [
                (first_n, first_n, 0),
                (odd_n, (odd_n + 40).div_ceil(vec) * vec, 0),
                (odd_n, (odd_n + 40).div_ceil(vec) * vec + 1, 1),
            ] {
                let seed: u64 = rng.gen();
                let a = to_device(&gpu, p, &hash_matrix(p, seed, n, lda, u, false));
                let xv = random(&mut rng, p, n);
                let y0 = random(&mut rng, p, n);
                let mut skewed = vec![0.0; x_skew];
                skewed.extend_from_slice(&xv);
                let x_buf = to_device(&gpu, p, &skewed);
                let x_ptr = x_buf.ptr() + (x_skew * p.size()) as u64;
                let y = to_device(&gpu, p, &y0);
                let product = hash_product(p, seed, &xv);
                let (alpha, beta) = (round_to(p, -1.25), round_to(p, 0.75));
                // SAFETY: a holds lda x n elements, x and y n each, on this GPU.
                let kernel =
                    unsafe { symv.symv(p, u, n, alpha, a.ptr(), lda, x_ptr, beta, y.ptr()) }
                        .unwrap();
                let expected = fitting(
                    rules.kernel(p, u, n).unwrap(),
                    lda,
                    [a.ptr(), x_ptr, y.ptr()],
                    symv.runner().limits(),
                );
                assert_eq!(kernel, expected);
                if x_skew > 0 {
                    assert_eq!(kernel.config.get("VEC").copied().unwrap_or(1), 1);
                }
                symv.synchronize().unwrap();
                let got = from_device(&gpu, p, &y);
                let r = compare(p, &got, &product, alpha, beta, Some(&y0));
                assert!(
                    r.passed(),
                    "{p} {u} n={n} lda={lda} {}: {}",
                    kernel.label(),
                    r.describe()
                );

                // Again on the same words of synchronisation, with beta = 0
                // (y is not read), then alpha = 0 (A and x are not read).
                unsafe { symv.symv(p, u, n, alpha, a.ptr(), lda, x_ptr, 0.0, y.ptr()) }.unwrap();
                symv.synchronize().unwrap();
                let r = compare(p, &from_device(&gpu, p, &y), &product, alpha, 0.0, None);
                assert!(r.passed(), "{p} {u} n={n} beta=0: {}", r.describe());
                let before = from_device(&gpu, p, &y);
                unsafe { symv.symv(p, u, n, 0.0, 0xdead_0000, lda, 0xdead_0000, 2.0, y.ptr()) }
                    .unwrap();
                symv.synchronize().unwrap();
                let after = from_device(&gpu, p, &y);
                assert!(before.iter().zip(&after).all(|(b, a)| *a == 2.0 * b));
                println!("ok {p} {u} n={n} lda={lda} {}", kernel.label());
            }
        }
    }
}

#[test]
fn the_library_call_refuses_bad_problems() {
    let Some(gpu) = gpu() else { return };
    let Some(runner) = runner(&gpu) else {
        return;
    };
    let mut symv = Symv::with_runner(runner, SymvRules::bundled());
    let buf = DeviceBuffer::alloc(&gpu, 8 * 128 * 128).unwrap();
    for p in Precision::ALL {
        let u = Uplo::Lower;
        let call = |symv: &mut Symv<'_>, n: usize, lda: usize| {
            // SAFETY: every call here is refused before a launch.
            unsafe { symv.symv(p, u, n, 1.0, buf.ptr(), lda, buf.ptr(), 0.0, buf.ptr()) }
                .unwrap_err()
                .to_string()
        };
        let e = call(&mut symv, 0, 1);
        assert!(e.contains("n = 0 is out of range"), "{e}");
        let e = call(&mut symv, 64, 63);
        assert!(e.contains("lda = 63 is smaller than n = 64"), "{e}");
        // A kernel with 8- or 16-byte loads needs lda divisible by VEC.
        let vec = if p == Precision::Double { 2 } else { 4 };
        let wide = SymvKernel::new(
            p,
            u,
            Algorithm::Atomic,
            atomic([128, 16, 2, 0, vec, 2, 8, 0, 1, 1]),
        );
        // SAFETY: refused before a launch (lda is odd).
        let e = unsafe {
            symv.runner()
                .enqueue(&wide, 64, 1.0, buf.ptr(), 65, buf.ptr(), 0.0, buf.ptr())
        }
        .unwrap_err()
        .to_string();
        assert!(e.contains("divisible") && e.contains("lda = 65"), "{e}");
        let e = unsafe {
            symv.runner()
                .enqueue(&wide, 64, 1.0, 0, 64, buf.ptr(), 0.0, buf.ptr())
        }
        .unwrap_err()
        .to_string();
        assert!(e.contains("null"), "{e}");
        // A pointer one element into the buffer is not aligned for wide loads.
        let elem = p.size() as u64;
        // SAFETY: refused before a launch (x is misaligned).
        let e = unsafe {
            symv.runner().enqueue(
                &wide,
                64,
                1.0,
                buf.ptr(),
                64,
                buf.ptr() + elem,
                0.0,
                buf.ptr() + 4096,
            )
        }
        .unwrap_err()
        .to_string();
        assert!(e.contains("not aligned"), "{e}");
    }
}
