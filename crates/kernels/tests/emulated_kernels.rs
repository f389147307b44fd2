//! The CUDA templates themselves, run on the CPU in hone's SIMT emulator:
//! every algorithm, precision and storage against the CPU reference, on
//! matrices whose unstored triangle and padding rows are NaN, with the launch
//! geometry the GPU path computes. The fill kernel is checked bit for bit
//! against the host's copy of the hash.
//!
//! The emulator has no cache-policy loads (`__ldcs`, `__ldcg`, `__stcg`), no
//! `__align__`, no bit casts to floating point and no inline PTX; a short
//! prelude maps them to plain accesses and NaN, and selects the kernels'
//! `__threadfence` form of their release/acquire pair, which changes no
//! result.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options, Report};
use hone_frontend::{parse_source, FrontendOptions, Parsed};
use hone_kernels::symv::bench::{atomic, lu};
use hone_kernels::symv::device::sync_words;
use hone_kernels::symv::geometry::{atomic_launch, fill_launch, lu_launch};
use hone_kernels::symv::reference::{compare, element, hash_product, tolerance};
use hone_kernels::symv::space::{util_source, DeviceLimits};
use hone_kernels::symv::{symv_template, Algorithm, Config, Precision, Uplo};
use rand::{Rng, SeedableRng};

const PRELUDE: &str = "#define SYMV_PORTABLE_SYNC 1\n\
                       #define __ldcs(p) (*(p))\n#define __ldcg(p) (*(p))\n\
                       #define __stcg(p, v) (*(p) = (v))\n#define __align__(x)\n\
                       #define __longlong_as_double(x) (0.0 / 0.0)\n\
                       #define __int_as_float(x) (0.0f / 0.0f)\n";

fn module(source: &str, defines: &[(String, String)]) -> Parsed {
    let opts = FrontendOptions {
        include_dirs: Vec::new(),
        defines: defines
            .iter()
            .map(|(k, v)| (k.clone(), Some(v.clone())))
            .collect(),
        ..Default::default()
    };
    let text = format!("{PRELUDE}{source}");
    let parsed = parse_source("symv.cu", &text, &opts).expect("preprocesses");
    assert!(
        !parsed.has_errors(),
        "front end: {}",
        parsed
            .diagnostics
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    parsed
}

fn buffer(precision: Precision, name: &str, v: &[f64]) -> Buffer {
    match precision {
        Precision::Double => Buffer::from_f64(name, v),
        Precision::Single => {
            Buffer::from_f32(name, &v.iter().map(|&x| x as f32).collect::<Vec<_>>())
        }
    }
}

fn values(precision: Precision, b: &Buffer) -> Vec<f64> {
    match precision {
        Precision::Double => b.to_f64_vec(),
        Precision::Single => b.to_f32_vec().into_iter().map(f64::from).collect(),
    }
}

fn run(
    m: &Parsed,
    kernel: &str,
    cfg: LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    races: bool,
) -> Report {
    let opts = Options {
        detect_races: races,
        ..Options::default()
    };
    let report =
        hone_emulator::run(&m.module, kernel, &cfg, args, buffers, &opts, None).expect("launches");
    assert!(
        report.completed && report.faults.is_empty(),
        "{kernel}: {:?}",
        report.faults
    );
    report
}

fn scalar(precision: Precision, v: f64) -> f64 {
    match precision {
        Precision::Double => v,
        Precision::Single => v as f32 as f64,
    }
}

/// One kernel on one problem: y0 random, then y = alpha A x + beta y0 through
/// the same launches as the GPU path; checks the answer, twice. The device
/// has `sms` SMs (the atomic kernel's persistent grid is `sms` x
/// MULTIPLICITY blocks).
#[allow(clippy::too_many_arguments)]
fn check_on(
    sms: i64,
    precision: Precision,
    uplo: Uplo,
    algorithm: Algorithm,
    config: &Config,
    n: usize,
    lda: usize,
    beta: f64,
) {
    let t = symv_template(precision, uplo, algorithm);
    let defines: Vec<(String, String)> = t.defines(config, false).unwrap().into_iter().collect();
    let m = module(&t.source, &defines);
    let seed = 0x5eed_0000 + n as u64;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let x: Vec<f64> = (0..n)
        .map(|_| scalar(precision, rng.gen_range(-1.0..1.0)))
        .collect();
    // With beta = 0, y must not be read: it starts as NaN.
    let y0: Vec<f64> = (0..n)
        .map(|_| scalar(precision, rng.gen_range(-1.0..1.0)))
        .map(|v| if beta == 0.0 { f64::NAN } else { v })
        .collect();
    let alpha = scalar(precision, -0.75);
    let beta = scalar(precision, beta);
    // The unstored triangle and the padding rows are NaN.
    let mut a = vec![f64::NAN; lda * n];
    for j in 0..n {
        for i in 0..n {
            if uplo.stores(i, j) {
                a[j * lda + i] = element(precision, seed, i, j);
            }
        }
    }
    let mut buffers = vec![
        buffer(precision, "A", &a),
        buffer(precision, "x", &x),
        buffer(precision, "y", &y0),
        Buffer::from_i32("sync_words", &vec![0; sync_words(n)]),
    ];
    let (nn, al, be) = (
        KernelArg::Int(n as i64),
        KernelArg::Float(alpha),
        KernelArg::Float(beta),
    );
    // Twice on the same synchronisation words: the first launch must leave
    // them ready for the second.
    for _launch in 0..2 {
        buffers[2] = buffer(precision, "y", &y0);
        match algorithm {
            Algorithm::Atomic => {
                let limits = DeviceLimits {
                    sm_count: sms,
                    ..DeviceLimits::h100_sxm()
                };
                let dims = atomic_launch(uplo, config, t.shared_need(config), n, &limits).unwrap();
                let args = [
                    nn,
                    al,
                    KernelArg::Buffer(0),
                    KernelArg::Int(lda as i64),
                    KernelArg::Buffer(1),
                    be,
                    KernelArg::Buffer(2),
                    KernelArg::Buffer(3),
                ];
                let report = run(
                    &m,
                    t.entry,
                    LaunchConfig::linear(dims.grid.0, dims.block.0)
                        .with_dynamic_shared(t.shared_need(config) as u64),
                    &args,
                    &mut buffers,
                    true,
                );
                // The detector cannot see the order that the grid-wide counters
                // (and, with SYNC=1, the mutexes) impose between blocks' accesses
                // to y; every other shared or global array must be race-free.
                let others: Vec<_> = report
                    .races
                    .iter()
                    .filter(|r| r.array != "y" && r.array != "sync_words")
                    .collect();
                assert!(others.is_empty(), "{:?}", others.first());
                // The kernel leaves its counters and mutexes zeroed for the next
                // launch.
                assert!(
                    buffers[3].to_i32_vec().iter().all(|&w| w == 0),
                    "{:?}",
                    buffers[3].to_i32_vec()
                );
            }
            Algorithm::LowerUpper => {
                let dims = lu_launch(config, n).unwrap();
                let args = [
                    nn,
                    al,
                    KernelArg::Buffer(0),
                    KernelArg::Int(lda as i64),
                    KernelArg::Buffer(1),
                    be,
                    KernelArg::Buffer(2),
                ];
                let report = run(
                    &m,
                    t.entry,
                    LaunchConfig::linear(dims.grid.0, dims.block.0).with_dynamic_shared(0),
                    &args,
                    &mut buffers,
                    true,
                );
                assert!(report.races.is_empty(), "{:?}", report.races.first());
            }
        }
        let got = values(precision, &buffers[2]);
        let product = hash_product(precision, seed, &x);
        let y_ref = (beta != 0.0).then_some(y0.as_slice());
        let r = compare(precision, &got, &product, alpha, beta, y_ref);
        assert!(
            r.passed(),
            "{precision} {uplo} {algorithm} n={n} lda={lda} {config:?}: {}",
            r.describe()
        );
        assert!(r.tolerance == tolerance(precision, n));
    }
}

#[test]
fn atomic_kernel_matches_the_reference() {
    // [BLOCK_SIZE, UX, MULTIPLICITY, MX, VEC, STEPS, NP, SYNC, LDHINT, SCHED]
    let cases: &[(Precision, [i64; 10], usize, usize)] = &[
        // Two sub-panels, 16-byte loads, full tiles below the diagonal
        // (SCHED = 1: claimed tiles).
        (Precision::Double, [32, 8, 2, 1, 2, 1, 2, 0, 1, 0], 150, 152),
        (Precision::Single, [32, 8, 3, 7, 4, 1, 2, 0, 0, 1], 150, 152),
        // UX not a power of two, two steps, an odd n.
        (Precision::Double, [32, 9, 2, 9, 1, 2, 4, 0, 1, 1], 77, 77),
        (Precision::Single, [32, 13, 2, 4, 2, 2, 1, 0, 1, 0], 91, 96),
        // UX = 32, one sub-panel (the paper's panel).
        (Precision::Double, [32, 32, 1, 8, 1, 1, 1, 0, 0, 0], 64, 64),
        // The paper's mutexes.
        (Precision::Double, [64, 12, 2, 3, 1, 1, 2, 1, 1, 1], 70, 72),
        // y in two chunks of the beta scaling, the second partial.
        (Precision::Single, [32, 8, 2, 1, 2, 1, 2, 0, 0, 0], 300, 304),
        // 38 and 70 column tiles: the walk to a tile skips 32 column tiles
        // at a time, past the end too (SCHED both ways).
        (Precision::Double, [32, 8, 2, 0, 1, 1, 1, 0, 0, 0], 300, 300),
        (Precision::Double, [32, 8, 3, 0, 1, 1, 1, 0, 1, 1], 559, 560),
        (
            Precision::Single,
            [32, 16, 2, 2, 4, 1, 2, 1, 1, 0],
            100,
            100,
        ),
    ];
    for &(precision, v, n, lda) in cases {
        for (uplo, beta) in Uplo::ALL.into_iter().flat_map(|u| [(u, 0.0), (u, 1.5)]) {
            check_on(
                1,
                precision,
                uplo,
                Algorithm::Atomic,
                &atomic(v),
                n,
                lda,
                beta,
            );
        }
    }
    // 40 SMs, 80 blocks over 70 column tiles (2,485 tiles, lower): each
    // block's walk skips 32 column tiles between its tiles.
    let v = atomic([32, 8, 2, 0, 1, 1, 1, 0, 0, 0]);
    for uplo in Uplo::ALL {
        check_on(
            40,
            Precision::Double,
            uplo,
            Algorithm::Atomic,
            &v,
            559,
            560,
            1.5,
        );
    }
}

#[test]
fn lu_kernel_matches_the_reference() {
    let cases: &[(Precision, (i64, i64), usize, usize)] = &[
        (Precision::Double, (32, 8), 37, 40),
        (Precision::Single, (64, 4), 45, 45),
        (Precision::Double, (64, 32), 70, 70),
        (Precision::Single, (96, 16), 50, 53),
    ];
    for &(precision, (bs, nb), n, lda) in cases {
        for uplo in Uplo::ALL {
            check_on(
                1,
                precision,
                uplo,
                Algorithm::LowerUpper,
                &lu(bs, nb),
                n,
                lda,
                0.0,
            );
            check_on(
                1,
                precision,
                uplo,
                Algorithm::LowerUpper,
                &lu(bs, nb),
                n,
                lda,
                -1.25,
            );
        }
    }
}

#[test]
fn fill_kernel_reproduces_the_host_hash_bit_for_bit() {
    let (n, lda) = (37usize, 40usize);
    for precision in Precision::ALL {
        let m = module(
            &util_source(),
            &[("PREC".to_string(), precision.define().to_string())],
        );
        for uplo in Uplo::ALL {
            for full in [false, true] {
                let seed = 0x5eed_1234_5678_9abcu64 ^ (full as u64);
                let mut buffers = vec![buffer(precision, "A", &vec![0.0; lda * n])];
                let dims = fill_launch(n, lda).unwrap();
                let args = [
                    KernelArg::Buffer(0),
                    KernelArg::Int(n as i64),
                    KernelArg::Int(lda as i64),
                    KernelArg::Int(seed as i64),
                    KernelArg::Int(uplo.define()),
                    KernelArg::Int(i64::from(full)),
                ];
                let cfg = LaunchConfig::new([dims.grid.0, dims.grid.1, 1], [dims.block.0, 1, 1]);
                let report = hone_emulator::run(
                    &m.module,
                    "symv_fill",
                    &cfg,
                    &args,
                    &mut buffers,
                    &Options::default(),
                    None,
                )
                .unwrap();
                assert!(report.is_clean(), "{:?}", report.faults);
                let got = values(precision, &buffers[0]);
                for j in 0..n {
                    for i in 0..lda {
                        let g = got[j * lda + i];
                        if i < n && (full || uplo.stores(i, j)) {
                            let want = element(precision, seed, i, j);
                            assert_eq!(g.to_bits(), want.to_bits(), "{precision} {uplo} ({i},{j})");
                        } else {
                            assert!(g.is_nan(), "{precision} {uplo} ({i},{j}) = {g}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn scale_kernel_overwrites_without_reading_when_beta_is_zero() {
    let n = 37;
    for precision in Precision::ALL {
        let m = module(
            &util_source(),
            &[("PREC".to_string(), precision.define().to_string())],
        );
        for beta in [0.0, -1.5] {
            let y: Vec<f64> = (0..n)
                .map(|i| if i % 3 == 0 { f64::NAN } else { i as f64 })
                .collect();
            let mut buffers = vec![buffer(precision, "y", &y)];
            let args = [
                KernelArg::Int(n as i64),
                KernelArg::Float(beta),
                KernelArg::Buffer(0),
            ];
            run(
                &m,
                "symv_scale",
                LaunchConfig::linear(2, 32).with_dynamic_shared(0),
                &args,
                &mut buffers,
                true,
            );
            let got = values(precision, &buffers[0]);
            for (i, g) in got.iter().enumerate() {
                if beta == 0.0 {
                    assert_eq!(*g, 0.0);
                } else if i % 3 == 0 {
                    assert!(g.is_nan());
                } else {
                    assert_eq!(*g, beta * i as f64);
                }
            }
        }
    }
}
