//! The kernels printed in the seed papers, parsed by the front end, run in the
//! emulator, and compared with independent CPU references written here.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options, Report};
mod common;

use hone_frontend::FrontendOptions;
use hone_ir::Module;
use hone_testkit::stencil5_reference;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn module(file: &str) -> Module {
    common::parse_corpus(&format!("seed/{file}"), &FrontendOptions::default()).module
}

fn launch(grid: [u32; 3], block: [u32; 3]) -> LaunchConfig {
    LaunchConfig {
        grid,
        block,
        dynamic_shared_bytes: 0,
    }
}

fn run(
    m: &Module,
    kernel: &str,
    cfg: LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    tolerate_same_value_races: bool,
) -> Report {
    let opts = Options {
        tolerate_same_value_races,
        ..Options::default()
    };
    let report = hone_emulator::run(m, kernel, &cfg, args, buffers, &opts, None)
        .expect("launch is well formed");
    assert!(
        report.completed,
        "{kernel}: did not complete: {:?}",
        report.faults
    );
    assert!(
        report.faults.is_empty(),
        "{kernel}: faults {:?}",
        report.faults
    );
    report
}

fn random_ints(seed: u64, n: usize, hi: i32) -> Vec<i32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(0..hi)).collect()
}

fn ints(args: &[i64]) -> Vec<KernelArg> {
    args.iter().map(|&v| KernelArg::Int(v)).collect()
}

// Grid dimensions differ in x and y, and from the block's, so index mix-ups show.
const NX: usize = 12;
const NY: usize = 8;

#[test]
fn psysha_one_step_stencils_match_the_reference() {
    let m = module("psysha.cu");
    for kernel in [
        "stencil_kernel",
        "stencil_shared",
        "stencil_sleeve",
        "stencil_sleeve_synth",
    ] {
        let input = random_ints(11, NX * NY, 1000);
        let mut bufs = vec![
            Buffer::from_i32("in", &input),
            Buffer::from_i32("out", &vec![-1; NX * NY]),
        ];
        let mut args = vec![KernelArg::Buffer(0), KernelArg::Buffer(1)];
        args.extend(ints(&[NX as i64, NY as i64]));
        let report = run(
            &m,
            kernel,
            launch([3, 2, 1], [4, 4, 1]),
            &args,
            &mut bufs,
            false,
        );
        assert!(report.races.is_empty(), "{kernel}: {:?}", report.races);
        let got: Vec<i64> = bufs[1].to_i64_vec();
        let want: Vec<i64> = stencil5_reference(&input, NX, NY)
            .into_iter()
            .map(i64::from)
            .collect();
        assert_eq!(got, want, "{kernel}");
    }
}

#[test]
fn psysha_temporal_blocking_matches_two_stencil_steps() {
    let m = module("psysha.cu");
    let input = random_ints(12, NX * NY, 1000);
    let want: Vec<i64> = stencil5_reference(&stencil5_reference(&input, NX, NY), NX, NY)
        .into_iter()
        .map(i64::from)
        .collect();
    // 6x6 blocks compute 4x4 tiles of the output: a 3x2 grid covers 12x8.
    let cfg = launch([3, 2, 1], [6, 6, 1]);

    let mut bufs = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("mid", &vec![0; NX * NY]),
        Buffer::from_i32("out", &vec![-1; NX * NY]),
    ];
    let mut args = vec![
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Buffer(2),
    ];
    args.extend(ints(&[NX as i64, NY as i64]));
    // Overlapping blocks write the same values into `mid` and `out`: tolerated...
    let report = run(&m, "stencil_tb_global", cfg.clone(), &args, &mut bufs, true);
    assert!(report.races.is_empty(), "{:?}", report.races);
    assert_eq!(bufs[2].to_i64_vec(), want);
    // ...and reported when not tolerated.
    bufs[1] = Buffer::from_i32("mid", &vec![0; NX * NY]);
    let report = run(
        &m,
        "stencil_tb_global",
        cfg.clone(),
        &args,
        &mut bufs,
        false,
    );
    assert!(
        report.races.iter().any(|r| r.array == "mid"),
        "the overlapping writes of mid must be reported without tolerance: {:?}",
        report.races
    );

    let mut bufs = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("out", &vec![-1; NX * NY]),
    ];
    let mut args = vec![KernelArg::Buffer(0), KernelArg::Buffer(1)];
    args.extend(ints(&[NX as i64, NY as i64]));
    let report = run(&m, "stencil_tb_shared", cfg, &args, &mut bufs, true);
    assert!(report.races.is_empty(), "{:?}", report.races);
    assert_eq!(bufs[1].to_i64_vec(), want);
}

#[test]
fn diffusion_matches_the_reference_bit_for_bit() {
    let m = module("diffusion.cu");
    let (nx, ny, nz) = (16usize, 12usize, 5usize);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let input: Vec<f32> = (0..nx * ny * nz).map(|_| rng.gen::<f32>()).collect();
    let coef: [f32; 7] = [0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.19];
    let mut bufs = vec![
        Buffer::from_f32("in", &input),
        Buffer::from_f32("out", &vec![f32::NAN; input.len()]),
    ];
    let mut args = vec![KernelArg::Buffer(0), KernelArg::Buffer(1)];
    args.extend(ints(&[nx as i64, ny as i64, nz as i64]));
    args.extend(coef.iter().map(|&c| KernelArg::Float(c as f64)));
    let report = run(
        &m,
        "diffusion_kernel",
        launch([2, 3, 1], [8, 4, 1]),
        &args,
        &mut bufs,
        false,
    );
    assert!(report.races.is_empty(), "{:?}", report.races);

    let want = hone_testkit::diffusion_reference(&input, [nx, ny, nz], coef);
    let got: Vec<u32> = bufs[1]
        .to_f64_vec()
        .iter()
        .map(|&v| (v as f32).to_bits())
        .collect();
    let want: Vec<u32> = want.iter().map(|v| v.to_bits()).collect();
    assert_eq!(got, want);
}

#[test]
fn symv_figure_1_computes_a_symmetric_product() {
    let m = module("symv.cu");
    let (n, lda) = (37usize, 40usize);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    // Only the upper triangle is meaningful; poison the rest to prove it is not read.
    let mut a = vec![f64::NAN; lda * n];
    for i in 0..n {
        for j in 0..=i {
            a[j + i * lda] = rng.gen_range(-1.0..1.0);
        }
    }
    let x: Vec<f64> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
    let mut bufs = vec![
        Buffer::from_f64("a", &a),
        Buffer::from_f64("x", &x),
        Buffer::from_f64("y", &vec![f64::NAN; n]),
        Buffer::from_f64("w", &vec![f64::NAN; n]),
    ];
    let args = [
        KernelArg::Int(n as i64),
        KernelArg::Buffer(0),
        KernelArg::Int(lda as i64),
        KernelArg::Buffer(1),
        KernelArg::Buffer(2),
        KernelArg::Buffer(3),
    ];
    run(
        &m,
        "symv_fig1",
        launch([1, 1, 1], [32, 1, 1]),
        &args,
        &mut bufs,
        false,
    );
    let y = bufs[2].to_f64_vec();
    for (r, &got) in y.iter().enumerate() {
        let mut want = 0.0;
        for (col, &xc) in x.iter().enumerate() {
            let (lo, hi) = if r <= col { (r, col) } else { (col, r) };
            want += a[lo + hi * lda] * xc;
        }
        assert!(
            (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
            "y[{r}] = {got} want {want}"
        );
    }
}

#[test]
fn coalescing_paper_kernels_compute_what_they_say() {
    let m = module("coalescing.cu");
    let n = 256usize;
    let a = random_ints(1, n, 50);
    let b = random_ints(2, n + 32, 50);
    for (kernel, offset) in [("kernel1", 1usize), ("kernel2", 16)] {
        let mut bufs = vec![Buffer::from_i32("d_a", &a), Buffer::from_i32("d_b", &b)];
        run(
            &m,
            kernel,
            launch([4, 1, 1], [64, 1, 1]),
            &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
            &mut bufs,
            false,
        );
        let want: Vec<i64> = (0..n).map(|i| (a[i] * b[i + offset]) as i64).collect();
        assert_eq!(bufs[0].to_i64_vec(), want, "{kernel}");
    }

    // Figure 6: index-recording arrays start at -1, so untouched threads stay -1.
    let da = random_ints(3, n + 1, 50);
    let mut bufs = vec![
        Buffer::from_i32("d_A", &da),
        Buffer::from_i32("d_B", &vec![-1; n]),
        Buffer::from_i32("dst1", &vec![-1; n]),
        Buffer::from_i32("src1", &vec![-1; n]),
        Buffer::from_i32("src2", &vec![-1; n]),
    ];
    let args: Vec<KernelArg> = (0..5).map(KernelArg::Buffer).collect();
    run(
        &m,
        "kernel_func",
        launch([4, 1, 1], [64, 1, 1]),
        &args,
        &mut bufs,
        false,
    );
    for id in 0..n {
        let even = id % 2 == 0;
        let expect = |v: i64| if even { v } else { -1 };
        assert_eq!(
            bufs[1].to_i64_vec()[id],
            expect((da[id] + da[id + 1]) as i64)
        );
        assert_eq!(bufs[2].to_i64_vec()[id], expect(id as i64));
        assert_eq!(bufs[3].to_i64_vec()[id], expect(id as i64));
        assert_eq!(bufs[4].to_i64_vec()[id], expect(id as i64 + 1));
    }

    // Figure 11.
    let da = random_ints(4, n + 32, 50);
    let mut bufs = vec![
        Buffer::from_i32("d_A", &da),
        Buffer::from_i32("d_B", &vec![-1; n]),
    ];
    run(
        &m,
        "kernel_func_fixed",
        launch([4, 1, 1], [64, 1, 1]),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
        false,
    );
    let want: Vec<i64> = (0..n)
        .map(|id| {
            if id % 64 < 32 {
                (da[id] + da[id + 32]) as i64
            } else {
                -1
            }
        })
        .collect();
    assert_eq!(bufs[1].to_i64_vec(), want);
}
