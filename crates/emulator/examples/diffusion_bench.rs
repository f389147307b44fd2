//! Runs the 3-D diffusion kernel of the PSySha thesis (Appendix A.1, with the
//! update written to `out[c]` and `c += xy` per k step as in the original
//! benchmark) on one core, checks the result against a host computation, and
//! prints the time and operation rate.
//!
//! `cargo run --release -p hone-emulator --example diffusion_bench [n] [--no-races] [--parallel]`
//!
//! `--parallel` runs blocks on all cores instead (the result is the same).

use std::time::Instant;

use hone_emulator::{run, Buffer, KernelArg, LaunchConfig, Options};

/// The corpus's copy, which every stage's tests read too.
const KERNEL: &str = include_str!("../../../tests/corpus/seed/diffusion.cu");

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(64);
    let races = !args.iter().any(|a| a == "--no-races");
    let parallel = args.iter().any(|a| a == "--parallel");
    let parsed = hone_frontend::parse_source("diffusion.cu", KERNEL, &Default::default())
        .expect("the kernel parses");
    let module = parsed.module;

    let (nx, ny, nz) = (n, n, n);
    let input: Vec<f32> = (0..nx * ny * nz)
        .map(|x| ((x * 7919) % 1000) as f32 / 1000.0)
        .collect();
    let coef = [0.1f32, 0.1, 0.1, 0.1, 0.1, 0.1, 0.4];
    let mut buffers = vec![
        Buffer::from_f32("in", &input),
        Buffer::zeros("out", hone_ir::Type::FLOAT, input.len()),
    ];
    let mut args = vec![
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Int(nx as i64),
        KernelArg::Int(ny as i64),
        KernelArg::Int(nz as i64),
    ];
    args.extend(coef.iter().map(|&c| KernelArg::Float(c as f64)));
    let cfg = LaunchConfig::new([(nx / 16) as u32, (ny / 16) as u32, 1], [16, 16, 1]);
    let opts = Options {
        detect_races: races,
        parallel,
        ..Options::default()
    };
    let t = Instant::now();
    let report = run(
        &module,
        "diffusion_kernel",
        &cfg,
        &args,
        &mut buffers,
        &opts,
        None,
    )
    .expect("launch");
    let wall = t.elapsed().as_secs_f64();
    let expect = hone_testkit::diffusion_reference(&input, [nx, ny, nz], coef);
    let got = buffers[1].to_f32_vec();
    let mismatches = got
        .iter()
        .zip(&expect)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    println!(
        "diffusion {nx}x{ny}x{nz}, blocks 16x16x1, grid {:?}, race detection {}, {}",
        cfg.grid,
        if races { "on" } else { "off" },
        if report.stats.ran_parallel {
            "blocks in parallel"
        } else {
            "one core"
        }
    );
    println!(
        "time {:.4} s (wall {:.4} s), {} warp instructions, {} thread operations, {:.1} M thread ops/s",
        report.stats.seconds,
        wall,
        report.stats.warp_instructions,
        report.stats.thread_operations,
        report.stats.operations_per_second / 1e6
    );
    println!(
        "completed {}, faults {}, races {}, mismatches vs host {}",
        report.completed,
        report.faults.len(),
        report.races.len(),
        mismatches
    );
    if mismatches != 0 || !report.is_clean() {
        std::process::exit(1);
    }
}
