//! Grid barriers (`grid.sync()`) and tile reductions (`cg::reduce`) from the
//! front end's corpus (`tests/corpus/frontend/grid_groups.cu`): values one
//! block writes before the barrier are what the others read after it, with
//! no race reported; a block that leaves before the barrier and a grid too
//! large to be resident at once are refused. A function taking any group
//! (`thread_group`) is made for each group it is called with.

use hone_emulator::{Buffer, FaultKind, KernelArg, LaunchConfig, Options, Report, SetupError};
mod common;

use hone_frontend::{FrontendOptions, Parsed};

fn parsed() -> Parsed {
    parsed_file("grid_groups.cu")
}

fn parsed_file(name: &str) -> Parsed {
    common::parse_corpus(&format!("frontend/{name}"), &FrontendOptions::default())
}

fn launch(
    p: &Parsed,
    kernel: &str,
    grid: u32,
    block: u32,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    opts: &Options,
) -> Result<Report, SetupError> {
    let cfg = LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared_bytes: 0,
    };
    hone_emulator::run(&p.module, kernel, &cfg, args, buffers, opts, None)
}

fn others_sum(opts: &Options) {
    let p = parsed();
    let (blocks, threads) = (6usize, 96usize);
    let n = blocks * threads;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 101 - 50).collect();
    let mut buffers = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("partial", &vec![-7; blocks]),
        Buffer::from_i32("out", &vec![0; n]),
    ];
    let args = [0, 1, 2].map(KernelArg::Buffer);
    let report = launch(
        &p,
        "others_sum",
        blocks as u32,
        threads as u32,
        &args,
        &mut buffers,
        opts,
    )
    .expect("launch is well formed");
    assert!(report.completed, "{:?}", report.faults);
    assert!(report.races.is_empty(), "{:?}", report.races);
    let sums: Vec<i32> = (0..blocks)
        .map(|b| input[b * threads..(b + 1) * threads].iter().sum())
        .collect();
    let all: i32 = sums.iter().sum();
    let want: Vec<i32> = (0..n).map(|i| all - sums[i / threads]).collect();
    assert_eq!(buffers[2].to_i32_vec(), want);
    // Written after the second barrier.
    assert_eq!(buffers[1].to_i32_vec(), vec![n as i32; blocks]);
}

#[test]
fn blocks_see_what_other_blocks_wrote_before_the_grid_barrier() {
    others_sum(&Options::default());
}

#[test]
fn grid_barrier_holds_in_serial_runs_too() {
    others_sum(&Options {
        parallel: false,
        ..Options::default()
    });
}

#[test]
fn tile_reductions_match_their_operations() {
    let p = parsed();
    let (blocks, threads) = (2usize, 64usize);
    let n = blocks * threads;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 1009 - 400).collect();
    let f: Vec<f32> = (0..n).map(|i| (i % 5) as f32 * 0.25).collect();
    let mut buffers = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_f32("f", &f),
        Buffer::from_i32("out", &vec![0; 5 * n]),
        Buffer::from_f32("fsum", &vec![0.0; n]),
    ];
    let args = [0, 1, 2, 3].map(KernelArg::Buffer);
    let report = launch(
        &p,
        "tile_ops",
        blocks as u32,
        threads as u32,
        &args,
        &mut buffers,
        &Options::default(),
    )
    .expect("launch is well formed");
    assert!(report.completed, "{:?}", report.faults);
    let out = buffers[2].to_i32_vec();
    let fsum = buffers[3].to_f32_vec();
    for i in 0..n {
        let t8 = &input[i / 8 * 8..i / 8 * 8 + 8];
        let want = [
            *t8.iter().min().unwrap(),
            *t8.iter().max().unwrap(),
            t8.iter().fold(0, |a, b| a ^ b),
            t8.iter().fold(-1, |a, b| a & b),
            t8.iter().fold(0, |a, b| a | b),
        ];
        assert_eq!(&out[5 * i..5 * i + 5], &want, "thread {i}");
        // Quarters sum exactly in any order.
        let s: f32 = f[i / 32 * 32..i / 32 * 32 + 32].iter().sum();
        assert_eq!(fsum[i], s, "thread {i}");
    }
}

#[test]
fn a_block_that_leaves_before_the_grid_barrier_is_a_fault() {
    let p = parsed();
    let mut buffers = vec![Buffer::from_i32("out", &[0; 4])];
    let report = launch(
        &p,
        "early_exit",
        4,
        32,
        &[KernelArg::Buffer(0)],
        &mut buffers,
        &Options::default(),
    )
    .expect("launch is well formed");
    assert!(!report.completed);
    let f = &report.faults[0];
    assert_eq!(f.kind, FaultKind::BarrierDivergence);
    assert!(f.message.contains("grid.sync()"), "{}", f.message);
    assert!(f.message.contains("block [0, 0, 0]"), "{}", f.message);
}

#[test]
fn a_grid_larger_than_a_cooperative_launch_holds_is_refused() {
    let p = parsed();
    // 1024-thread blocks: two per SM, 264 on an H100.
    let mut buffers = vec![Buffer::from_i32("out", &[0; 300])];
    let err = launch(
        &p,
        "early_exit",
        300,
        1024,
        &[KernelArg::Buffer(0)],
        &mut buffers,
        &Options::default(),
    )
    .expect_err("too many blocks to be resident at once");
    assert!(
        matches!(err, SetupError::CooperativeTooLarge { max: 264, .. }),
        "{err}"
    );
}

#[test]
fn a_function_of_any_group_reduces_over_the_group_it_is_given() {
    let p = parsed_file("thread_group.cu");
    let mut buffers = [Buffer::zeros(
        "out",
        hone_ir::Type::Scalar(hone_ir::Scalar::I32),
        192,
    )];
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [64, 1, 1],
        dynamic_shared_bytes: 64 * 4,
    };
    let f = p.kernel("cgk", "thread_group.cu").expect("kernel");
    let r = hone_emulator::run(
        &p.module,
        &f.name,
        &cfg,
        &[KernelArg::Buffer(0)],
        &mut buffers,
        &Options::default(),
        None,
    )
    .expect("launch");
    assert!(r.is_clean(), "{r:?}");
    let out = buffers[0].to_i64_vec();
    // The block's ranks 0..63 sum to 2016; each tile's 0..15 to 120, at its
    // rank 0; every other thread gets -1.
    for t in 0..64 {
        assert_eq!(out[t], if t == 0 { 2016 } else { -1 }, "block, thread {t}");
        assert_eq!(
            out[64 + t],
            if t % 16 == 0 { 120 } else { -1 },
            "tile, thread {t}"
        );
        // The template made for the tile (deduced) and for the block (given).
        assert_eq!(
            out[128 + t],
            (t as i64 % 16) * 16 + t as i64 * 64,
            "template, thread {t}"
        );
    }
    let names: Vec<&str> = p.module.functions.iter().map(|f| f.name.as_str()).collect();
    assert!(
        names.contains(&"sumReduction_block") && names.contains(&"sumReduction_tile16"),
        "{names:?}"
    );
    assert!(
        names.contains(&"rankTimesSize_cg_tile16") && names.contains(&"rankTimesSize_cg_block"),
        "{names:?}"
    );
}
