//! GEMM on a real GPU: each template's kernels (the configurations the
//! development sweep found best, and their element-load variants) in every
//! layout at odd shapes against the CPU reference, cuBLAS through the same
//! check, every kernel the bundled rules can pick at both ends of its
//! interval, and the library call on buffers with odd leading dimensions.
//! Each test prints why and returns where the machine has no CUDA device.

use hone_gpu::{Gpu, ModuleCache, TimingOptions};
use hone_kernels::gemm::dd::{Dd, InputKind};
use hone_kernels::gemm::template::{template, GemmKernel};
use hone_kernels::gemm::{Config, Flavor, GemmProblem, GemmRules, GemmRunner, Layout};
use hone_kernels::vendor::cublas::Cublas;

mod support;
use support::gpu;

fn quick() -> TimingOptions {
    TimingOptions {
        warmup: 0,
        reps: 1,
        flush_l2: false,
        copies: Some(1),
        ..Default::default()
    }
}

/// The configurations of `dev/` whose measurements `bench/results/gemm/dev-sweep/README.md`
/// reports, with every other parameter at its first value.
fn measured(flavor: Flavor) -> Vec<Config> {
    let t = template(flavor);
    let sets: &[&[(&str, i64)]] = match flavor {
        Flavor::Sgemm => &[
            &[
                ("BM", 256),
                ("BN", 128),
                ("BK", 8),
                ("TM", 16),
                ("TN", 8),
                ("VEC", 4),
            ],
            &[
                ("BM", 64),
                ("BN", 64),
                ("BK", 8),
                ("TM", 4),
                ("TN", 8),
                ("VEC", 4),
            ],
            &[
                ("BM", 128),
                ("BN", 64),
                ("BK", 16),
                ("TM", 8),
                ("TN", 4),
                ("VEC", 1),
            ],
            // K in 4 and 64 slices (empty slices where K has fewer k
            // tiles), and the one-warp 32 x 32 tile
            &[
                ("BM", 64),
                ("BN", 64),
                ("BK", 16),
                ("TM", 4),
                ("TN", 8),
                ("VEC", 4),
                ("SPLITK", 4),
            ],
            &[
                ("BM", 32),
                ("BN", 64),
                ("BK", 16),
                ("TM", 4),
                ("TN", 8),
                ("VEC", 1),
                ("SPLITK", 64),
            ],
            &[
                ("BM", 32),
                ("BN", 32),
                ("BK", 16),
                ("TM", 4),
                ("TN", 8),
                ("VEC", 4),
            ],
        ],
        Flavor::Dgemm => &[
            &[
                ("BM", 128),
                ("BN", 64),
                ("BK", 8),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("MMA_K", 8),
                ("STAGES", 4),
                ("VEC", 2),
                ("GROUP", 16),
            ],
            &[
                ("BM", 64),
                ("BN", 64),
                ("BK", 8),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("MMA_K", 8),
                ("STAGES", 4),
                ("VEC", 1),
            ],
            // Eight warps; four mma steps per k tile (fragments one step
            // ahead within a tile and across tiles).
            &[
                ("BM", 128),
                ("BN", 128),
                ("BK", 8),
                ("WARPS_M", 2),
                ("WARPS_N", 4),
                ("MMA_K", 8),
                ("STAGES", 4),
                ("VEC", 2),
                ("GROUP", 16),
            ],
            &[
                ("BM", 64),
                ("BN", 64),
                ("BK", 16),
                ("WARPS_M", 2),
                ("WARPS_N", 4),
                ("MMA_K", 4),
                ("STAGES", 3),
                ("VEC", 2),
            ],
            // K in 4 and 8 slices (empty slices where K has fewer k tiles)
            &[
                ("BM", 64),
                ("BN", 64),
                ("BK", 16),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("MMA_K", 8),
                ("STAGES", 4),
                ("VEC", 2),
                ("SPLITK", 4),
            ],
            &[
                ("BM", 128),
                ("BN", 64),
                ("BK", 8),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("MMA_K", 8),
                ("STAGES", 4),
                ("VEC", 1),
                ("SPLITK", 8),
            ],
            // cuBLAS's tile at N = 256, 16 slices
            &[
                ("BM", 32),
                ("BN", 32),
                ("BK", 32),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("MMA_K", 8),
                ("STAGES", 4),
                ("VEC", 2),
                ("SPLITK", 16),
            ],
        ],
        // The three multiply-adds, on two tile shapes.
        Flavor::Ddgemm | Flavor::DdgemmSplit => &[
            &[
                ("BM", 64),
                ("BN", 64),
                ("BK", 8),
                ("TM", 4),
                ("TN", 4),
                ("MADD", 2),
                ("PAD", 1),
            ],
            &[
                ("BM", 128),
                ("BN", 64),
                ("BK", 16),
                ("TM", 8),
                ("TN", 2),
                ("MADD", 1),
            ],
            &[
                ("BM", 32),
                ("BN", 64),
                ("BK", 8),
                ("TM", 2),
                ("TN", 2),
                ("MADD", 0),
                ("MINB", 2),
            ],
        ],
        Flavor::Sgemm3xTf32 => &[
            &[
                ("BM", 128),
                ("BN", 128),
                ("BK", 32),
                ("WARPS_M", 2),
                ("WARPS_N", 4),
                ("STAGES", 3),
                ("VEC", 4),
            ],
            &[
                ("BM", 64),
                ("BN", 64),
                ("BK", 16),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("STAGES", 3),
                ("VEC", 4),
                ("SPLITK", 4),
            ],
            // packing the operands K-contiguous first (a TN kernel on the
            // copies), with K split
            &[
                ("BM", 64),
                ("BN", 64),
                ("BK", 16),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("STAGES", 3),
                ("VEC", 4),
                ("SPLITK", 4),
                ("PACK", 1),
            ],
            &[
                ("BM", 128),
                ("BN", 64),
                ("BK", 32),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("STAGES", 3),
                ("VEC", 1),
            ],
            // the warpgroup-MMA kernels (sm_90 only: left out elsewhere)
            &[
                ("WGMMA", 1),
                ("BM", 128),
                ("BN", 128),
                ("BK", 32),
                ("STAGES", 3),
                ("FLUSH", 4),
            ],
            &[
                ("WGMMA", 1),
                ("BM", 64),
                ("BN", 128),
                ("BK", 32),
                ("STAGES", 4),
                ("FLUSH", 2),
                ("SPLITK", 4),
            ],
            &[
                ("WGMMA", 1),
                ("BM", 192),
                ("BN", 64),
                ("BK", 32),
                ("STAGES", 3),
                ("FLUSH", 4),
            ],
            // warp-specialized: producer warpgroups and mbarriers
            &[
                ("WGMMA", 1),
                ("WS", 1),
                ("BM", 128),
                ("BN", 128),
                ("BK", 32),
                ("STAGES", 3),
                ("FLUSH", 4),
            ],
            // ... on operands packed K-contiguous first
            &[
                ("WGMMA", 1),
                ("WS", 1),
                ("PACK", 1),
                ("BM", 128),
                ("BN", 128),
                ("BK", 32),
                ("STAGES", 3),
                ("FLUSH", 4),
            ],
        ],
    };
    sets.iter().map(|pairs| t.config(pairs)).collect()
}

/// The measured configurations that `gpu` runs: the warpgroup-MMA kernels
/// need sm_90.
fn runnable(gpu: &Gpu, flavor: Flavor) -> Vec<Config> {
    let sm90 = gpu.props().compute_capability == (9, 0);
    let all = measured(flavor);
    let n = all.len();
    let kept: Vec<Config> = all
        .into_iter()
        .filter(|c| sm90 || c.get("WGMMA") != Some(&1))
        .collect();
    if kept.len() < n {
        println!(
            "{flavor}: {} warpgroup-MMA kernels left out (sm_90 only)",
            n - kept.len()
        );
    }
    kept
}

// (640, 384, 1000) and (256, 320, 72): every block inside C and aligned
// leading dimensions (the fast copies), with an odd number of whole k tiles
// of 8 and a k tail. The last two: edge blocks whose tiles move back inside
// C to keep the fast copies (rows computed twice, stored once); N = 522 in
// single precision with B transposed also where the moved tile would not be
// 16-byte aligned (those blocks keep the checked copies).
// (96, 80, 5000): K much longer than M and N, which the library splits
// (up to 64 slices) for kernels that do not.
const SHAPES: [(usize, usize, usize); 12] = [
    (1, 1, 1),
    (17, 17, 17),
    (333, 77, 129),
    (64, 1000, 7),
    (1000, 1, 300),
    (130, 257, 1031),
    (1536, 1536, 1536),
    (640, 384, 1000),
    (256, 320, 72),
    (300, 200, 96),
    (1000, 522, 264),
    (96, 80, 5000),
];

#[test]
fn every_measured_kernel_is_right_in_every_layout_at_odd_shapes() {
    let Some(gpu) = gpu() else { return };
    check_at_odd_shapes(&gpu, &Flavor::ALL, &|_| true);
}

/// The 3xTF32 kernels alone (the packing ones among them: the TN kernel on
/// copies whose padding past K holds NaN), so that they run in less time
/// than the whole set takes.
#[test]
fn the_3xtf32_kernels_are_right_in_every_layout_at_odd_shapes() {
    let Some(gpu) = gpu() else { return };
    check_at_odd_shapes(&gpu, &[Flavor::Sgemm3xTf32], &|_| true);
}

/// The warpgroup-MMA kernels alone (sm_90), split-K among them.
#[test]
fn the_warpgroup_mma_kernels_are_right_in_every_layout_at_odd_shapes() {
    let Some(gpu) = gpu() else { return };
    if gpu.props().compute_capability != (9, 0) {
        println!("skipped: the warpgroup-MMA kernels run on sm_90 only");
        return;
    }
    check_at_odd_shapes(&gpu, &Flavor::ALL, &|c| c.get("WGMMA") == Some(&1));
}

/// Checks the measured kernels of `flavors` that `gpu` runs and `keep` takes against the
/// CPU reference (and cuBLAS) on every shape of [`SHAPES`].
fn check_at_odd_shapes(gpu: &Gpu, flavors: &[Flavor], keep: &dyn Fn(&Config) -> bool) {
    let mut runner = GemmRunner::new(gpu, ModuleCache::open_default()).unwrap();
    let cublas = Cublas::new(gpu).unwrap();
    for &flavor in flavors {
        for layout in Layout::ALL {
            let kernels: Vec<GemmKernel> = runnable(gpu, flavor)
                .into_iter()
                .filter(|c| keep(c))
                .map(|config| GemmKernel {
                    flavor,
                    layout,
                    config,
                })
                .collect();
            if kernels.is_empty() {
                continue;
            }
            runner.prepare_kernels(&kernels).unwrap();
            for &(m, n, k) in &SHAPES {
                let mut p = GemmProblem::packed(flavor, layout, m, n, k);
                // Padding rows (NaN) in every matrix on odd shapes.
                if m % 2 == 1 {
                    p.lda += 4;
                    p.ldb += 8;
                    p.ldc += 3;
                }
                runner.data(&p, &quick()).unwrap();
                if !flavor.is_dd() {
                    let vendor = runner.check_vendor(&cublas).unwrap();
                    assert!(vendor.passed(), "cuBLAS {p}: {}", vendor.describe());
                }
                for measured in &kernels {
                    let kernel = runner.fitting(measured.clone());
                    // a warp-specialized kernel gives way to its twin only
                    // where the shape has K split
                    if measured.config.get("WS") == Some(&1) && kernel.config["WS"] != 1 {
                        assert!(kernel.config["SPLITK"] > 1, "{p} {}", kernel.label());
                    }
                    let mut checked = vec![kernel.clone()];
                    // `fitting` drops packing for a thin C, which most of
                    // these shapes are: the packing pass is checked too.
                    if measured.config.get("PACK") == Some(&1) && kernel.config["PACK"] == 0 {
                        let mut packed = kernel.clone();
                        packed.config.insert("PACK".to_string(), 1);
                        checked.push(packed);
                    }
                    for kernel in &checked {
                        match runner.check(kernel).unwrap() {
                            Ok(r) => println!("ok {p} {}: {}", kernel.label(), r.describe()),
                            Err(why) => panic!("{p} {}: {}", kernel.label(), why.reason),
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn every_kernel_the_fallback_rules_pick_is_right_at_its_interval_bounds() {
    let Some(gpu) = gpu() else { return };
    check_rules_at_bounds(&gpu, &GemmRules::bundled());
}

#[test]
fn every_kernel_this_gpu_models_rules_pick_is_right_at_its_interval_bounds() {
    let Some(gpu) = gpu() else { return };
    let own = GemmRules::bundled_for(&gpu.props().name);
    if own == GemmRules::bundled() {
        println!("hone has no rules of its own for {}", gpu.props().name);
        return;
    }
    check_rules_at_bounds(&gpu, &own);
}

fn check_rules_at_bounds(gpu: &Gpu, rules: &GemmRules) {
    let mut runner = GemmRunner::new(gpu, ModuleCache::open_default()).unwrap();
    let mut checked = 0;
    for variant in Flavor::all_variants() {
        let Ok(selections) = rules.set().selections(&variant) else {
            println!("no bundled rule for {variant}");
            continue;
        };
        let (flavor, layout) = Flavor::parse_variant(&variant).unwrap();
        for s in selections {
            let lo = (s.start as usize).max(1);
            let hi = s.end.map(|e| e as usize - 1).unwrap_or(lo.max(4096));
            for size in [lo, hi] {
                let p = GemmProblem::packed(flavor, layout, size, size, size);
                runner.data(&p, &quick()).unwrap();
                let kernel = runner.fitting(rules.kernel(&p).unwrap());
                match runner.check(&kernel).unwrap() {
                    Ok(_) => checked += 1,
                    Err(why) => panic!("{p} {} ({}): {}", kernel.label(), s.label, why.reason),
                }
            }
        }
    }
    println!("{checked} rule kernels checked at their interval bounds");
}

#[test]
fn double_double_kernels_are_right_on_every_input_kind_and_meet_the_accuracy_goal() {
    let Some(gpu) = gpu() else { return };
    let mut runner = GemmRunner::new(&gpu, ModuleCache::open_default()).unwrap();
    for flavor in [Flavor::Ddgemm, Flavor::DdgemmSplit] {
        for config in measured(flavor) {
            let layout = Layout::ALL[2];
            let kernel = GemmKernel {
                flavor,
                layout,
                config,
            };
            let p = GemmProblem::packed(flavor, layout, 1024, 1024, 1024);
            runner.data(&p, &quick()).unwrap();
            for kind in [
                InputKind::Phi(0.5),
                InputKind::Phi(4.0),
                InputKind::IllConditioned(40),
            ] {
                let (report, accuracy) = match runner.check_kind(&kernel, Some(kind)).unwrap() {
                    Ok(r) => r,
                    Err(why) => panic!("{p} {} {}: {}", kernel.label(), kind.label(), why.reason),
                };
                let accuracy = accuracy.expect("double-double checks measure accuracy");
                println!(
                    "{p} {} {}: {} normwise {:.2e} elementwise max {:.2e}",
                    kernel.label(),
                    kind.label(),
                    report.describe(),
                    accuracy.normwise,
                    accuracy.elementwise_max
                );
                assert!(report.passed(), "{}", report.describe());
                if kind == InputKind::Phi(0.5) {
                    assert!(accuracy.normwise <= 1e-30, "{accuracy:?}");
                }
            }
        }
    }
}

#[test]
fn the_double_double_library_call_takes_double_double_scalars_and_refuses_misaligned_c() {
    let Some(gpu) = gpu() else { return };
    let mut runner = GemmRunner::new(&gpu, ModuleCache::open_default()).unwrap();
    let kernel = GemmKernel {
        flavor: Flavor::Ddgemm,
        layout: Layout::ALL[0],
        config: measured(Flavor::Ddgemm).remove(0),
    };
    let p = GemmProblem::packed(Flavor::Ddgemm, Layout::ALL[0], 100, 60, 70);
    let (ea, eb, ec) = p.elements();
    let buf = |e: usize| hone_gpu::launch::DeviceBuffer::alloc(&gpu, 16 * e + 16).unwrap();
    let (a, b, c) = (buf(ea), buf(eb), buf(ec));
    let one = hone_kernels::gemm::dd::Dd::from_f64(1.0);
    let zero = hone_kernels::gemm::dd::Dd::ZERO;
    // SAFETY: the buffers are as large as the problem's matrices; their
    // contents do not matter (beta = 0 never reads C).
    let err = unsafe { runner.enqueue_dd(&kernel, &p, one, a.ptr(), b.ptr(), zero, c.ptr() + 8) }
        .unwrap_err();
    assert!(err.to_string().contains("C at"), "{err}");
    assert!(err.to_string().contains("16 bytes"), "{err}");
    // SAFETY: as above.
    unsafe { runner.enqueue_dd(&kernel, &p, one, a.ptr(), b.ptr(), zero, c.ptr()) }.unwrap();
    hone_kernels::vendor::cublas::synchronize_device().unwrap();
}

#[test]
fn the_int8_emulation_is_right_in_every_layout_and_fewer_moduli_are_caught() {
    let Some(gpu) = gpu() else { return };
    let mut runner = GemmRunner::new(&gpu, ModuleCache::open_default()).unwrap();
    let mut full = hone_kernels::gemm::ozaki::OzakiGemm::new(&gpu, 16).unwrap();
    let mut few = hone_kernels::gemm::ozaki::OzakiGemm::new(&gpu, 6).unwrap();
    for layout in Layout::ALL {
        for &(m, n, k) in &SHAPES[..6] {
            let mut p = GemmProblem::packed(Flavor::Dgemm, layout, m, n, k);
            if m % 2 == 1 {
                p.lda += 4;
                p.ldb += 8;
                p.ldc += 3;
            }
            runner.data(&p, &quick()).unwrap();
            let report = runner
                .check_with(|alpha, a, b, beta, c| {
                    // SAFETY: the runner's buffers hold the problem.
                    unsafe { full.enqueue(&p, alpha.hi, a, b, beta.hi, c) }
                })
                .unwrap();
            println!("int8 emulation, 16 moduli, {p}: {}", report.describe());
            assert!(report.passed(), "{p}: {}", report.describe());
        }
    }
    let p = GemmProblem::packed(Flavor::Dgemm, Layout::ALL[0], 256, 256, 256);
    runner.data(&p, &quick()).unwrap();
    let report = runner
        .check_with(|alpha, a, b, beta, c| {
            // SAFETY: as above.
            unsafe { few.enqueue(&p, alpha.hi, a, b, beta.hi, c) }
        })
        .unwrap();
    println!("int8 emulation, 6 moduli: {}", report.describe());
    assert!(
        !report.passed(),
        "6 moduli keep too few bits for FP64 accuracy"
    );
    // alpha = 0 leaves beta C, even with NaN in A (BLAS semantics); a NaN
    // row with alpha = 1 gives a NaN row.
    let p = GemmProblem::packed(Flavor::Dgemm, Layout::ALL[0], 40, 30, 20);
    let bytes = |v: &[f64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let mut a = vec![0.5; 40 * 20];
    a[3] = f64::NAN;
    let da = hone_gpu::launch::DeviceBuffer::with_data(&gpu, &bytes(&a)).unwrap();
    let db = hone_gpu::launch::DeviceBuffer::with_data(&gpu, &bytes(&vec![0.25; 20 * 30])).unwrap();
    let dc = hone_gpu::launch::DeviceBuffer::with_data(&gpu, &bytes(&vec![3.0; 40 * 30])).unwrap();
    let read = |d: &hone_gpu::launch::DeviceBuffer| {
        gpu.synchronize().unwrap();
        let mut raw = vec![0u8; 8 * 40 * 30];
        d.download(&gpu, &mut raw).unwrap();
        raw.chunks(8)
            .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
            .collect::<Vec<f64>>()
    };
    // SAFETY: the buffers hold p's matrices.
    unsafe { full.enqueue(&p, 0.0, da.ptr(), db.ptr(), 2.0, dc.ptr()) }.unwrap();
    assert!(read(&dc).iter().all(|&v| v == 6.0));
    // SAFETY: as above.
    unsafe { full.enqueue(&p, 1.0, da.ptr(), db.ptr(), 0.0, dc.ptr()) }.unwrap();
    let c = read(&dc);
    for j in 0..30 {
        for i in 0..40 {
            let v = c[i + 40 * j];
            if i == 3 {
                assert!(v.is_nan(), "({i}, {j}): {v}");
            } else {
                assert_eq!(v, 20.0 * 0.5 * 0.25, "({i}, {j})");
            }
        }
    }
    // K beyond the 32-bit sums is refused.
    let big = GemmProblem::packed(Flavor::Dgemm, Layout::ALL[0], 1, 1, 1 << 17);
    // SAFETY: refused before any pointer is used.
    let e = unsafe { full.enqueue(&big, 1.0, 16, 16, 0.0, 16) }.unwrap_err();
    assert!(e.to_string().contains("k = 131072"), "{e}");
}

#[test]
fn the_int8_double_double_product_is_right_in_every_layout_and_fewer_moduli_are_caught() {
    let Some(gpu) = gpu() else { return };
    let mut runner = GemmRunner::new(&gpu, ModuleCache::open_default()).unwrap();
    let mut full = hone_kernels::gemm::ozaki::OzakiGemm::new_dd(&gpu, 30).unwrap();
    let mut few = hone_kernels::gemm::ozaki::OzakiGemm::new_dd(&gpu, 12).unwrap();
    let phi = Some(InputKind::Phi(0.5));
    for layout in Layout::ALL {
        for &(m, n, k) in &SHAPES[..6] {
            let mut p = GemmProblem::packed(Flavor::Ddgemm, layout, m, n, k);
            if m % 2 == 1 {
                p.lda += 4;
                p.ldb += 8;
                p.ldc += 3;
            }
            runner.data(&p, &quick()).unwrap();
            let (report, accuracy) = runner
                .check_inputs(phi, |alpha, a, b, beta, c| {
                    // SAFETY: the runner's buffers hold the problem.
                    unsafe { full.enqueue_dd(&p, alpha, a, b, beta, c) }
                })
                .unwrap();
            let accuracy = accuracy.unwrap();
            println!(
                "int8 double-double, 30 moduli, {p}: {}, normwise {:e}",
                report.describe(),
                accuracy.normwise
            );
            assert!(report.passed(), "{p}: {}", report.describe());
            assert!(accuracy.normwise < 1e-28, "{p}: {accuracy:?}");
        }
    }
    let p = GemmProblem::packed(Flavor::Ddgemm, Layout::ALL[0], 256, 256, 256);
    runner.data(&p, &quick()).unwrap();
    let (report, _) = runner
        .check_inputs(phi, |alpha, a, b, beta, c| {
            // SAFETY: as above.
            unsafe { few.enqueue_dd(&p, alpha, a, b, beta, c) }
        })
        .unwrap();
    println!("int8 double-double, 12 moduli: {}", report.describe());
    assert!(
        !report.passed(),
        "12 moduli keep too few bits for double-double accuracy"
    );
    // An FP64 problem is refused by the double-double product.
    let fp64 = GemmProblem::packed(Flavor::Dgemm, Layout::ALL[0], 8, 8, 8);
    // SAFETY: refused before any pointer is used.
    let e = unsafe { full.enqueue_dd(&fp64, Dd::ZERO, 16, 16, Dd::ZERO, 16) }.unwrap_err();
    assert!(e.to_string().contains("double-double"), "{e}");
}

#[test]
fn the_emulated_dgemm_routine_checks_and_times_against_cublas() {
    let Some(gpu) = gpu() else { return };
    let routine = hone_kernels::routine::find("dgemm_int8").unwrap();
    let mut session = routine.open(&gpu, None).unwrap();
    let words =
        hone_kernels::routine::parse_words(&["m=777", "n=300", "k=1000", "layout=tn"]).unwrap();
    let problem = routine.problem(&words).unwrap();
    let options = hone_kernels::routine::MeasureOptions {
        timing: quick(),
        timed_runs: 1,
    };
    let c = session.compare(&problem, &options, &mut |_| {}).unwrap();
    println!("{:?}\n{:?}", c.hone, c.baselines);
    assert!(c.hone.ok() && c.hone.rate.is_some(), "{:?}", c.hone);
    // No moduli named: fitted to the inputs.
    assert!(c.hone.kernel.starts_with("fit: "), "{}", c.hone.kernel);
    assert!(c.baselines[0].ok(), "{:?}", c.baselines[0]);
}

#[test]
fn the_emulated_double_double_routine_checks_and_times_beside_the_cuda_core_kernel() {
    let Some(gpu) = gpu() else { return };
    let routine = hone_kernels::routine::find("ddgemm_int8").unwrap();
    let mut session = routine.open(&gpu, None).unwrap();
    let words = hone_kernels::routine::parse_words(&[
        "m=777",
        "n=300",
        "k=1000",
        "layout=tn",
        "moduli=auto",
    ])
    .unwrap();
    let problem = routine.problem(&words).unwrap();
    let options = hone_kernels::routine::MeasureOptions {
        timing: quick(),
        timed_runs: 1,
    };
    let c = session.compare(&problem, &options, &mut |_| {}).unwrap();
    println!("{:?}\n{:?}", c.hone, c.baselines);
    assert!(c.hone.ok() && c.hone.rate.is_some(), "{:?}", c.hone);
    assert_eq!(c.baselines[0].implementation, "hone cuda cores");
    assert!(c.baselines[0].ok(), "{:?}", c.baselines[0]);
}

/// Column-major storage of `rows` x `cols` values `at(r, c)`, transposed
/// for Op::T, as FP64 words (or (hi, lo) pairs).
fn stored(
    op: hone_kernels::gemm::Op,
    rows: usize,
    cols: usize,
    at: impl Fn(usize, usize) -> Dd,
    dd: bool,
) -> Vec<u8> {
    let (sr, sc) = GemmProblem::stored_shape(op, rows, cols);
    let mut out = Vec::new();
    for c in 0..sc {
        for r in 0..sr {
            let v = match op {
                hone_kernels::gemm::Op::N => at(r, c),
                hone_kernels::gemm::Op::T => at(c, r),
            };
            out.extend(v.hi.to_le_bytes());
            if dd {
                out.extend(v.lo.to_le_bytes());
            }
        }
    }
    out
}

#[test]
fn the_fitted_emulation_bounds_every_entry_against_the_magnitudes_or_refuses() {
    use hone_gpu::launch::DeviceBuffer;
    use hone_kernels::gemm::dd;
    use hone_kernels::gemm::ozaki_fit::{fewest_for, ratio_cpu, FittedGemm};
    use rand::SeedableRng;
    let Some(gpu) = gpu() else { return };
    let seed: u64 = rand::random();
    println!("inputs from seed {seed}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let cases = [
        (false, Layout::ALL[0], 0.5),
        (false, Layout::ALL[2], 2.0),
        (false, Layout::ALL[1], 3.0),
        (true, Layout::ALL[0], 0.5),
        (true, Layout::ALL[3], 1.0),
    ];
    let mut fitted = [
        FittedGemm::new(&gpu, false).unwrap(),
        FittedGemm::new(&gpu, true).unwrap(),
    ];
    for (is_dd, layout, phi) in cases {
        let (m, n, k) = (70, 53, 611);
        let flavor = if is_dd { Flavor::Ddgemm } else { Flavor::Dgemm };
        let p = GemmProblem::packed(flavor, layout, m, n, k);
        let mut draw = |len: usize| -> Vec<Dd> {
            (0..len)
                .map(|_| {
                    let v = dd::phi_entry(&mut rng, phi);
                    if is_dd {
                        v
                    } else {
                        Dd::from_f64(v.hi)
                    }
                })
                .collect()
        };
        let (opa, opb) = (draw(m * k), draw(k * n));
        let da =
            DeviceBuffer::with_data(&gpu, &stored(layout.a, m, k, |i, q| opa[i * k + q], is_dd))
                .unwrap();
        let db =
            DeviceBuffer::with_data(&gpu, &stored(layout.b, k, n, |q, j| opb[q * n + j], is_dd))
                .unwrap();
        let words = if is_dd { 2 } else { 1 };
        let dc = DeviceBuffer::alloc(&gpu, 8 * words * m * n).unwrap();
        let f = &mut fitted[is_dd as usize];
        // SAFETY: the buffers hold p's matrices.
        let l = unsafe {
            f.enqueue(
                &p,
                Dd::from_f64(1.0),
                da.ptr(),
                db.ptr(),
                Dd::ZERO,
                dc.ptr(),
            )
        }
        .unwrap();
        let got = f.last().unwrap();
        let want = ratio_cpu(m, n, k, |i, q| opa[i * k + q].hi, |q, j| opb[q * n + j].hi);
        let unit = FittedGemm::unit(is_dd);
        println!(
            "fit {flavor:?} {layout} phi {phi}: {l} moduli, ratio 2^{:.2} (CPU 2^{:.2})",
            got.ratio.log2(),
            want.log2()
        );
        // An upper bound of the ratio, and a close one.
        assert!(
            got.ratio >= want * (1.0 - 1e-9) && got.ratio <= want * 1.02,
            "{} against {}",
            got.ratio,
            want
        );
        assert_eq!(
            Some(l),
            fewest_for(k, unit, got.ratio, hone_kernels::gemm::ozaki::MODULI.len())
        );
        gpu.synchronize().unwrap();
        let mut raw = vec![0u8; 8 * words * m * n];
        dc.download(&gpu, &mut raw).unwrap();
        let c: Vec<f64> = raw
            .chunks(8)
            .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
            .collect();
        // The statistics the fit handed over give what the emulation's own
        // give, bit for bit.
        let own = DeviceBuffer::alloc(&gpu, 8 * words * m * n).unwrap();
        let e = f.emulation(l).unwrap();
        // SAFETY: the buffers hold p's matrices.
        unsafe {
            if is_dd {
                e.enqueue_dd(
                    &p,
                    Dd::from_f64(1.0),
                    da.ptr(),
                    db.ptr(),
                    Dd::ZERO,
                    own.ptr(),
                )
            } else {
                e.enqueue(&p, 1.0, da.ptr(), db.ptr(), 0.0, own.ptr())
            }
        }
        .unwrap();
        gpu.synchronize().unwrap();
        let mut raw_own = vec![0u8; 8 * words * m * n];
        own.download(&gpu, &mut raw_own).unwrap();
        assert!(
            raw == raw_own,
            "{flavor:?} {layout}: the shared statistics differ"
        );
        let mut worst = 0.0f64;
        for j in 0..n {
            for i in 0..m {
                let pairs = (0..k).map(|q| (opa[i * k + q], opb[q * n + j]));
                let (exact, abs) = dd::exact_entry(Dd::from_f64(1.0), pairs, Dd::ZERO, None);
                let e = (i + j * m) * words;
                let v = if is_dd {
                    Dd {
                        hi: c[e],
                        lo: c[e + 1],
                    }
                } else {
                    Dd::from_f64(c[e])
                };
                // Less the rounding of the result (a few units for
                // double-double's join).
                let err = dd::error(v, &exact) - 4.0 * unit * dd::to_f64(&exact).abs();
                worst = worst.max(err / ((k as f64).sqrt() * unit * abs));
            }
        }
        println!("  largest error over sqrt(k) u (|A||B|)_ij: {worst:.2e}");
        assert!(worst <= 1.0, "{flavor:?} {layout} phi {phi}: {worst}");
    }
    // Large elements of A meet small ones of B, or elements so far apart
    // that their scaled product underflows: refused, never computed with
    // too few moduli.
    let p = GemmProblem::packed(Flavor::Dgemm, Layout::ALL[0], 4, 3, 2);
    let dc = DeviceBuffer::alloc(&gpu, 8 * 12).unwrap();
    for (big, tiny, small_b) in [(1.0, 2f64.powi(-90), 2f64.powi(-90)), (1e300, 1e-300, 0.0)] {
        let a = stored(
            p.layout.a,
            4,
            2,
            |_, q| Dd::from_f64(if q == 0 { big } else { tiny }),
            false,
        );
        let b = stored(
            p.layout.b,
            2,
            3,
            |q, _| Dd::from_f64(if q == 0 { small_b } else { 1.0 }),
            false,
        );
        let da = DeviceBuffer::with_data(&gpu, &a).unwrap();
        let db = DeviceBuffer::with_data(&gpu, &b).unwrap();
        // SAFETY: the buffers hold p's matrices.
        let e = unsafe {
            fitted[0].enqueue(
                &p,
                Dd::from_f64(1.0),
                da.ptr(),
                db.ptr(),
                Dd::ZERO,
                dc.ptr(),
            )
        }
        .unwrap_err();
        assert!(
            matches!(e, hone_kernels::routine::LibError::Refused(_))
                && e.to_string().contains("too wide"),
            "{e}"
        );
        assert!(fitted[0].last().is_none());
    }
    // A row holding a NaN gives a NaN row and leaves the others bounded;
    // alpha = 0 gives beta C without reading A or B.
    let (m, n, k) = (20, 10, 50);
    let p = GemmProblem::packed(Flavor::Dgemm, Layout::ALL[0], m, n, k);
    let opa: Vec<f64> = (0..m * k)
        .map(|e| {
            if e == 3 * k + 7 {
                f64::NAN
            } else {
                dd::phi_entry(&mut rng, 1.0).hi
            }
        })
        .collect();
    let opb: Vec<f64> = (0..k * n)
        .map(|_| dd::phi_entry(&mut rng, 1.0).hi)
        .collect();
    let da = DeviceBuffer::with_data(
        &gpu,
        &stored(p.layout.a, m, k, |i, q| Dd::from_f64(opa[i * k + q]), false),
    )
    .unwrap();
    let db = DeviceBuffer::with_data(
        &gpu,
        &stored(p.layout.b, k, n, |q, j| Dd::from_f64(opb[q * n + j]), false),
    )
    .unwrap();
    let three: Vec<u8> = (0..m * n).flat_map(|_| 3.0f64.to_le_bytes()).collect();
    let dc = DeviceBuffer::with_data(&gpu, &three).unwrap();
    let read = |d: &DeviceBuffer| -> Vec<f64> {
        gpu.synchronize().unwrap();
        let mut raw = vec![0u8; 8 * m * n];
        d.download(&gpu, &mut raw).unwrap();
        raw.chunks(8)
            .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
            .collect()
    };
    // SAFETY: the buffers hold p's matrices.
    unsafe {
        fitted[0].enqueue(
            &p,
            Dd::ZERO,
            da.ptr(),
            db.ptr(),
            Dd::from_f64(2.0),
            dc.ptr(),
        )
    }
    .unwrap();
    assert!(read(&dc).iter().all(|&v| v == 6.0));
    // SAFETY: as above.
    unsafe {
        fitted[0].enqueue(
            &p,
            Dd::from_f64(1.0),
            da.ptr(),
            db.ptr(),
            Dd::ZERO,
            dc.ptr(),
        )
    }
    .unwrap();
    let c = read(&dc);
    for j in 0..n {
        for i in 0..m {
            let v = c[i + j * m];
            if i == 3 {
                assert!(v.is_nan(), "({i}, {j}): {v}");
                continue;
            }
            let pairs =
                (0..k).map(|q| (Dd::from_f64(opa[i * k + q]), Dd::from_f64(opb[q * n + j])));
            let (exact, abs) = dd::exact_entry(Dd::from_f64(1.0), pairs, Dd::ZERO, None);
            let unit = f64::EPSILON / 2.0;
            let err = dd::error(Dd::from_f64(v), &exact) - unit * dd::to_f64(&exact).abs();
            assert!(err <= (k as f64).sqrt() * unit * abs, "({i}, {j}): {v}");
        }
    }
}
