//! Host-to-host DGEMM (or SGEMM): the GEMM paper's transfer model against
//! measurement, then the panelled pipeline that overlaps uploads, the
//! kernel and downloads.
//!
//! For each N: B (pinned host-to-device and device-to-host rates) and F
//! (the rule's kernel on device-resident operands) are measured, the model
//! T = 4 elem N^2 / B + 2 N^3 / F predicted, the serial schedule timed, and
//! the overlapped one timed for several panel counts (the best is kept).
//! The crossover N* = elem F / B (from where compute hides the uploads) is
//! printed for the measured B and F.
//!
//!   cargo run --release -p hone-kernels --example gemm_transfer -- \
//!       [--routine dgemm] [--sizes 2048,4096,8192,12288,16384] [--reps 5]
//!
//! Without a GPU it prints `no CUDA device: ...` and exits with 0.

use std::collections::BTreeMap;

use hone_gpu::Gpu;
use hone_kernels::gemm::device::GemmRunner;
use hone_kernels::gemm::transfer::{
    crossover, measure_link, model_seconds, overlapped, serial, HostOperands,
};
use hone_kernels::gemm::{Flavor, Gemm, GemmProblem, GemmRules, Layout};
use hone_kernels::routine::LibError;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flavor: Flavor = arg(&args, "--routine")
        .unwrap_or_else(|| "dgemm".into())
        .parse()
        .unwrap_or_else(|e| panic!("{e}"));
    let sizes: Vec<usize> = arg(&args, "--sizes")
        .unwrap_or_else(|| "2048,4096,8192,12288,16384".into())
        .split(',')
        .map(|s| s.parse().expect("--sizes takes numbers"))
        .collect();
    let reps: usize = arg(&args, "--reps").map_or(5, |r| r.parse().expect("--reps"));
    let gpu = match Gpu::open(0) {
        Ok(g) => g,
        Err(e) => {
            println!("no CUDA device: {e}");
            return;
        }
    };
    if let Err(e) = run(&gpu, flavor, &sizes, reps) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(gpu: &Gpu, flavor: Flavor, sizes: &[usize], reps: usize) -> Result<(), LibError> {
    let elem = flavor.precision().size();
    let link = measure_link(gpu, 256 << 20, 9)?;
    let b = link.h2d_gbps.min(link.d2h_gbps) * 1e9;
    println!("{}", gpu.props());
    println!(
        "pinned link: host-to-device {:.1} GB/s, device-to-host {:.1} GB/s (256 MiB copies, median of 9)",
        link.h2d_gbps, link.d2h_gbps
    );
    let rules = GemmRules::bundled();
    let mut gemm = Gemm::new(gpu, rules.clone())?;
    let nn = Layout::ALL[0];
    let mut runner = GemmRunner::new(gpu, hone_gpu::ModuleCache::open_default())?;
    println!();
    println!(
        "| N | F (TFLOP/s) | model ms | serial ms | overlapped ms (panels) | overlapped / model rate | serial / overlapped |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    let mut last_f = 0.0;
    for &n in sizes {
        let p = GemmProblem::packed(flavor, nn, n, n, n);
        // F: the rule's kernel on device-resident operands.
        let kernel = rules.kernel(&p)?;
        let timing = hone_gpu::TimingOptions {
            reps: 10,
            ..Default::default()
        };
        runner.data(&p, &timing)?;
        let f_ms = match runner.time(&kernel, &timing, 1)? {
            Ok(t) => t.times[0].median,
            Err(why) => return Err(LibError::Routine(why.reason)),
        };
        let f = p.flops() / (f_ms * 1e-3);
        last_f = f;
        let mut host =
            HostOperands::new(n, elem, |m, i| ((i * 7 + m * 13) % 97) as f64 / 97.0 - 0.5)?;
        let mut enqueue = |q: &GemmProblem, alpha: f64, a: u64, bb: u64, beta: f64, c: u64| {
            // SAFETY: the transfer module passes device buffers holding q's
            // matrices.
            unsafe { gemm.gemm(q, alpha, a, bb, beta, c) }.map(|_| ())
        };
        let serial_ms = median(
            (0..reps)
                .map(|_| serial(gpu, &p, &mut host, 1.0, 0.0, &mut enqueue).map(|t| t.total_ms))
                .collect::<Result<_, _>>()?,
        );
        let mut best: BTreeMap<usize, f64> = BTreeMap::new();
        for panels in [4, 8, 16] {
            let ms = median(
                (0..reps)
                    .map(|_| {
                        overlapped(gpu, &p, &mut host, 1.0, 0.0, panels, &mut enqueue)
                            .map(|t| t.total_ms)
                    })
                    .collect::<Result<_, _>>()?,
            );
            best.insert(panels, ms);
        }
        let (panels, over_ms) = best
            .iter()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map(|(p, m)| (*p, *m))
            .expect("three panel counts");
        let model_ms = model_seconds(n, elem, b, f) * 1e3;
        println!(
            "| {n} | {:.1} | {model_ms:.2} | {serial_ms:.2} | {over_ms:.2} ({panels}) | {:.2} | {:.2} |",
            f / 1e12,
            model_ms / over_ms,
            serial_ms / over_ms
        );
    }
    println!();
    println!(
        "crossover N* = elem F / B = {:.0} (F = {:.1} TFLOP/s at the largest N, B = {:.1} GB/s)",
        crossover(elem, b, last_f),
        last_f / 1e12,
        b / 1e9
    );
    Ok(())
}
