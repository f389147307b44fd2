//! Host-to-host DGEMM (or SGEMM): the GEMM paper's transfer model against
//! measurement, then the pipelines that overlap uploads, the kernel and
//! downloads.
//!
//! For each N: B (pinned host-to-device and device-to-host rates) and F
//! (the rule's kernel on device-resident operands) are measured, the model
//! T = 4 elem N^2 / B + 2 N^3 / F predicted, the serial schedule timed, then
//! column panels alone (8 and 16) and the plan `Schedule::choose` picks for
//! the rates measured at this N (2-D copies of short columns, products by
//! depth), with its neighbours, each predicted by the timeline model and
//! timed. Every schedule's C is checked against the
//! FP64 reference (sampled entries above 2^31 multiply-adds) with the
//! library's error bound. The crossover N* = elem F / B (from where compute
//! hides the uploads) is printed for the measured B and F.
//!
//!   cargo run --release -p hone-kernels --example gemm_transfer -- \
//!       [--routine dgemm] [--sizes 2048,4096,8192,12288,16384] [--reps 5]
//!
//! Without a GPU it prints `no CUDA device: ...` and exits with 0.

use hone_gpu::Gpu;
use hone_kernels::gemm::device::GemmRunner;
use hone_kernels::gemm::reference::{compare, reference};
use hone_kernels::gemm::transfer::{
    crossover, measure_link, measure_strided_uploads, model_seconds, overlapped, predict, serial,
    Enqueue, HostOperands, Rates, Schedule,
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
    let mut summary = Vec::new();
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
        let fill = |m: usize, i: usize| ((i * 7 + m * 13) % 97) as f64 / 97.0 - 0.5;
        let mut host = HostOperands::new(n, elem, fill)?;
        let mut ops = host.operands();
        // beta = 0: C is never read.
        ops.c.fill(f64::NAN);
        let want = reference(&p, &ops, 1.0, 0.0, n as u64);
        let mut enqueue = |q: &GemmProblem, alpha: f64, a: u64, bb: u64, beta: f64, c: u64| {
            // SAFETY: the transfer module passes device buffers holding q's
            // matrices.
            unsafe { gemm.gemm(q, alpha, a, bb, beta, c) }.map(|_| ())
        };
        let check = |host: &mut HostOperands, what: &str| -> Result<f64, LibError> {
            let got = host.c_values();
            let r = compare(&p, &want, &got, &got);
            if !r.passed() {
                return Err(LibError::Routine(format!(
                    "N = {n}, {what}: {}",
                    r.describe()
                )));
            }
            // Poison C so the next schedule's result cannot pass on this one's.
            host.c.as_mut_slice().fill(0xff);
            Ok(r.max_error)
        };
        let mut time =
            |host: &mut HostOperands,
             what: &str,
             run: &mut dyn FnMut(&mut HostOperands, &mut Enqueue<'_>) -> Result<f64, LibError>|
             -> Result<(f64, f64), LibError> {
                let first = run(host, &mut enqueue)?;
                let error = check(host, what)?;
                let mut ms = vec![first];
                for _ in 1..reps.max(1) {
                    ms.push(run(host, &mut enqueue)?);
                }
                Ok((median(ms), error))
            };
        let (serial_ms, serial_err) = time(&mut host, "serial", &mut |h, e| {
            serial(gpu, &p, h, 1.0, 0.0, e).map(|t| t.total_ms)
        })?;
        // What the plans' pieces run at on this device, at this N.
        let depths = [256, 512, 1024, 2048, 4096];
        let mut flops = Vec::new();
        for &k in depths.iter().filter(|&&k| k < n) {
            let q = GemmProblem::packed(flavor, nn, n, n, k);
            runner.data(&q, &timing)?;
            match runner.time(&rules.kernel(&q)?, &timing, 1)? {
                Ok(t) => flops.push((k, q.flops() / (t.times[0].median * 1e-3))),
                Err(why) => return Err(LibError::Routine(why.reason)),
            }
        }
        flops.push((n, f));
        let up_strided = measure_strided_uploads(gpu, &host.b, n, elem, &depths, 5)?;
        let rates = Rates {
            elem,
            up: link.h2d_gbps * 1e9,
            down: link.d2h_gbps * 1e9,
            up_strided,
            flops,
        };
        let show = |t: &[(usize, f64)], unit: f64| {
            t.iter()
                .map(|(x, r)| format!("{x}: {:.1}", r / unit))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let chosen = Schedule::choose(n, &rates, false);
        let mut schedules = vec![Schedule::panels(8), Schedule::panels(16)];
        let mut near = vec![chosen];
        if chosen.head > 0 {
            near.push(Schedule {
                doubling: !chosen.doubling,
                ..chosen
            });
            for steps in [chosen.head_steps.saturating_sub(1), chosen.head_steps + 1] {
                near.push(Schedule {
                    head_steps: steps.max(1),
                    ..chosen
                });
            }
        }
        for s in near {
            if !schedules.contains(&s) {
                schedules.push(s);
            }
        }
        let compute_ms = f_ms;
        let transfer_ms = 1e3
            * f64::max(
                2.0 * (n * n * elem) as f64 / rates.up,
                (n * n * elem) as f64 / rates.down,
            );
        let bound_ms = compute_ms.max(transfer_ms);
        let model_ms = model_seconds(n, elem, b, f) * 1e3;
        // The model's rate for an overlapped schedule: the larger of its
        // transfer term and its compute term.
        let model_bound_ms = f64::max(4.0 * (n * n * elem) as f64 / b, p.flops() / f) * 1e3;
        println!();
        println!(
            "N = {n}: F = {:.1} TFLOP/s ({compute_ms:.2} ms on the device), model (serial sum) {model_ms:.2} ms, serial {serial_ms:.2} ms (error {serial_err:.1e})",
            f / 1e12
        );
        println!(
            "  products N x N x K, TFLOP/s by K: {}; 2-D copies up, GB/s by bytes a column: {}",
            show(&rates.flops, 1e12),
            show(&rates.up_strided, 1e9)
        );
        println!(
            "  bound of this run's traffic (A and B up, C down, both ways at once, or compute): {bound_ms:.2} ms; the model's overlapped bound {model_bound_ms:.2} ms"
        );
        println!("| schedule | predicted ms | measured ms | bound / measured | model bound / measured | serial / measured | max error / bound |");
        println!("|---|---:|---:|---:|---:|---:|---:|");
        let mut best: Option<(Schedule, f64)> = None;
        for s in &schedules {
            let predicted = predict(&s.plan(n, false), n, &rates).total * 1e3;
            let (ms, err) = time(&mut host, &s.to_string(), &mut |h, e| {
                overlapped(gpu, &p, h, 1.0, 0.0, s, e).map(|t| t.total_ms)
            })?;
            println!(
                "| {s}{} | {predicted:.2} | {ms:.2} | {:.2} | {:.2} | {:.2} | {err:.1e} |",
                if *s == chosen { " (chosen)" } else { "" },
                bound_ms / ms,
                model_bound_ms / ms,
                serial_ms / ms,
            );
            if best.is_none_or(|(_, b)| ms < b) {
                best = Some((*s, ms));
            }
        }
        let (best_s, best_ms) = best.expect("schedules");
        summary.push(format!(
            "| {n} | {:.1} | {model_ms:.2} | {serial_ms:.2} | {best_ms:.2} ({best_s}) | {bound_ms:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            f / 1e12,
            bound_ms / best_ms,
            model_bound_ms / best_ms,
            serial_ms / best_ms,
            best_ms / compute_ms,
        ));
    }
    println!();
    println!(
        "| N | F (TFLOP/s) | model ms | serial ms | best overlapped ms | bound ms | bound / overlapped | model bound / overlapped | serial / overlapped | overlapped / compute |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for line in summary {
        println!("{line}");
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
