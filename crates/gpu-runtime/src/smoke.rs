//! An end-to-end check of the runtime on a real GPU: device properties,
//! copy bandwidth, the bundled vcopy template at a few configurations and
//! sizes through the worker process, and deliberately broken variants (a
//! compile error, an out-of-bounds write, an endless loop) that must each be
//! recorded as invalid while the sweep goes on.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::cache::ModuleCache;
use crate::device::DeviceProps;
use crate::error::{GpuError, Result};
use crate::evaluate::{EvalOptions, Outcome};
use crate::isolated::{IsolatedEvaluator, Limits, WorkerCommand};
use crate::nvrtc;
use crate::sweep::{config_label, sweep, SweepOptions, Variant, VariantResult};
use crate::template::{bundled_vcopy, Config, KernelTemplate};
use crate::timing::CopyBandwidth;

/// A vcopy that writes 4 TiB past its output: an illegal address.
pub const OUT_OF_BOUNDS_SOURCE: &str = r#"
extern "C" __global__ void vcopy(float* dst, const float* src, unsigned long long n)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i + (1ull << 40)] = src[i];
}
"#;

/// A vcopy that never finishes.
pub const ENDLESS_SOURCE: &str = r#"
extern "C" __global__ void vcopy(float* dst, const float* src, unsigned long long n)
{
    long long start = clock64();
    while (clock64() >= start) { }
    if (threadIdx.x < n) dst[threadIdx.x] = src[threadIdx.x];
}
"#;

#[derive(Debug, Clone)]
pub struct SmokeOptions {
    pub sizes: Vec<i64>,
    /// (BLOCK_SIZE, ELEMS_PER_THREAD, VEC) of the vcopy variants.
    pub configs: Vec<(i64, i64, i64)>,
    pub eval: EvalOptions,
    pub limits: Limits,
    pub inject_faults: bool,
    pub compile_threads: usize,
}

impl Default for SmokeOptions {
    fn default() -> Self {
        SmokeOptions {
            sizes: vec![1 << 10, 1 << 16, (1 << 20) + 3, 1 << 24, 1 << 28],
            configs: vec![
                (256, 4, 4),
                (128, 8, 4),
                (512, 2, 4),
                (256, 1, 4),
                (256, 4, 2),
                (256, 4, 1),
                (1024, 1, 1),
                (64, 8, 4),
            ],
            eval: EvalOptions::default(),
            limits: Limits {
                per_launch: std::time::Duration::from_secs(3),
                ..Limits::default()
            },
            inject_faults: true,
            compile_threads: 4,
        }
    }
}

/// The best valid variant at one size against the copy engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BestAtSize {
    pub n: i64,
    pub label: String,
    pub gbps: f64,
    pub memcpy_gbps: f64,
    /// gbps / memcpy_gbps.
    pub ratio: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SmokeReport {
    pub device: DeviceProps,
    pub memcpy: Vec<CopyBandwidth>,
    pub variants: Vec<VariantResult>,
    pub best: Vec<BestAtSize>,
    pub worker_restarts: u32,
    pub workers_started: u32,
    /// Wall time of the sweep, in seconds.
    pub sweep_s: f64,
    /// Sum of the variants' compile times, in seconds; compilation runs on
    /// other threads while the worker times, so it adds little to `sweep_s`.
    pub compile_s_total: f64,
}

fn vcopy_config(bs: i64, ept: i64, vec: i64) -> Config {
    [
        ("BLOCK_SIZE".to_string(), bs),
        ("ELEMS_PER_THREAD".to_string(), ept),
        ("VEC".to_string(), vec),
    ]
    .into()
}

fn with_source(t: &KernelTemplate, source: &str) -> KernelTemplate {
    let mut t = t.clone();
    t.source_text = source.to_string();
    t
}

/// The variants of the smoke run: the good ones, with the broken ones
/// placed among them so that good variants follow each failure.
fn variants(options: &SmokeOptions) -> Vec<Variant> {
    let vcopy = Arc::new(bundled_vcopy());
    let good: Vec<Variant> = options
        .configs
        .iter()
        .map(|&(bs, ept, vec)| {
            let config = vcopy_config(bs, ept, vec);
            Variant {
                label: format!("vcopy {}", config_label(&config)),
                template: Arc::clone(&vcopy),
                config,
                sizes: options.sizes.clone(),
            }
        })
        .collect();
    if !options.inject_faults {
        return good;
    }
    let one_size = vec![options.sizes.first().copied().unwrap_or(1 << 20)];
    let broken = [
        Variant {
            label: "broken: VEC=3 (#error, compile failure)".to_string(),
            template: Arc::clone(&vcopy),
            config: vcopy_config(256, 4, 3),
            sizes: one_size.clone(),
        },
        Variant {
            label: "broken: out-of-bounds write".to_string(),
            template: Arc::new(with_source(&vcopy, OUT_OF_BOUNDS_SOURCE)),
            config: vcopy_config(256, 1, 1),
            sizes: one_size.clone(),
        },
        Variant {
            label: "broken: endless loop".to_string(),
            template: Arc::new(with_source(&vcopy, ENDLESS_SOURCE)),
            config: vcopy_config(256, 1, 1),
            sizes: one_size,
        },
    ];
    let mut out = Vec::new();
    let mut broken = broken.into_iter();
    for (i, v) in good.into_iter().enumerate() {
        out.push(v);
        if i % 2 == 1 {
            out.extend(broken.next());
        }
    }
    out.extend(broken);
    out
}

fn outcome_cell(o: Option<&Outcome>) -> String {
    match o {
        Some(Outcome::Valid(m)) => format!("{:>9.1}", m.gbps),
        Some(Outcome::Invalid { .. }) => format!("{:>9}", "invalid"),
        None => format!("{:>9}", "-"),
    }
}

/// Runs the smoke check, printing as it goes. Fails with
/// [`GpuError::NoDevice`] on a machine without a usable GPU.
pub fn smoke(
    worker: WorkerCommand,
    options: &SmokeOptions,
    out: &mut dyn Write,
) -> Result<SmokeReport> {
    let w = |out: &mut dyn Write, s: String| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    let mut evaluator = IsolatedEvaluator::new(worker).with_limits(options.limits);
    let device = evaluator.device()?;
    w(out, device.to_string());

    let nvrtc_version = nvrtc::version()?;
    let target = nvrtc::target_for(device.compute_capability)?;
    let cache = ModuleCache::open_default();
    w(
        out,
        format!(
            "host NVRTC {}.{}, target {}, module cache {}",
            nvrtc_version.0,
            nvrtc_version.1,
            target.arch_option(),
            cache.dir().display()
        ),
    );

    w(
        out,
        "\ncuMemcpyDtoD bandwidth (bytes read + written):".to_string(),
    );
    let mut memcpy = Vec::new();
    for &n in &options.sizes {
        let bytes = n as usize * 4;
        let b = evaluator.memcpy_bandwidth(bytes, &options.eval.timing)?;
        w(
            out,
            format!(
                "  N={n:>10} ({:>10} B): median {:.4} ms [min {:.4}, q1 {:.4}, q3 {:.4}, max {:.4}] {:8.1} GB/s ({} copies{})",
                bytes,
                b.time_ms.median,
                b.time_ms.min,
                b.time_ms.q1,
                b.time_ms.q3,
                b.time_ms.max,
                b.gbps,
                b.copies,
                if b.flushed { ", L2 flushed" } else { "" }
            ),
        );
        memcpy.push(b);
    }

    let variants = variants(options);
    let total = variants.len();
    w(
        out,
        format!(
            "\nsweep: {total} variants, compiled on {} threads while the worker times them",
            options.compile_threads
        ),
    );
    let sweep_options = SweepOptions {
        eval: options.eval.clone(),
        compile_threads: options.compile_threads,
    };
    let start = Instant::now();
    let mut done = 0;
    let results = sweep(
        &mut evaluator,
        &cache,
        target,
        nvrtc_version,
        variants,
        &sweep_options,
        |r| {
            done += 1;
            let compile = match r.cache_hit {
                Some(true) => format!("cache hit in {:.0} ms", r.compile_ms),
                Some(false) => format!("compiled in {:.0} ms", r.compile_ms),
                None => "not compiled".to_string(),
            };
            w(out, format!("[{done}/{total}] {} ({compile})", r.label));
            for s in &r.results {
                let line = match &s.outcome {
                    Outcome::Valid(m) => format!(
                        "    N={:>10}: median {:.4} ms [min {:.4}, q1 {:.4}, q3 {:.4}, max {:.4}] {:8.1} GB/s{}, grid {} x {}, {} regs, max rel err {:.1e}",
                        s.n,
                        m.time_ms.median,
                        m.time_ms.min,
                        m.time_ms.q1,
                        m.time_ms.q3,
                        m.time_ms.max,
                        m.gbps,
                        if m.flops > 0.0 { format!(" {:.1} GFLOP/s", m.gflops) } else { String::new() },
                        m.dims.grid.0,
                        m.dims.block.0,
                        m.function.registers,
                        m.max_rel_err.unwrap_or(f64::NAN)
                    ),
                    Outcome::Invalid { reason, .. } => {
                        let first = reason.lines().take(3).collect::<Vec<_>>().join(" / ");
                        format!("    N={:>10}: INVALID: {first}", s.n)
                    }
                };
                w(out, line);
            }
        },
    )?;
    let sweep_s = start.elapsed().as_secs_f64();
    let compile_s_total = results.iter().map(|r| r.compile_ms).sum::<f64>() / 1e3;

    // The summary table: GB/s per variant and size.
    let mut header = format!("\n{:<58}", "GB/s");
    for n in &options.sizes {
        header.push_str(&format!(" {:>9}", format!("2^{:.1}", (*n as f64).log2())));
    }
    w(out, header);
    for r in &results {
        let mut row = format!("{:<58}", r.label);
        for &n in &options.sizes {
            row.push(' ');
            row.push_str(&outcome_cell(r.outcome_at(n)));
        }
        w(out, row);
    }
    let mut row = format!("{:<58}", "cuMemcpyDtoD");
    for b in &memcpy {
        row.push_str(&format!(" {:>9.1}", b.gbps));
    }
    w(out, row);

    let mut best = Vec::new();
    for (i, &n) in options.sizes.iter().enumerate() {
        let top = results
            .iter()
            .filter_map(|r| {
                r.outcome_at(n)
                    .and_then(Outcome::measurement)
                    .map(|m| (r, m))
            })
            .max_by(|a, b| a.1.gbps.total_cmp(&b.1.gbps));
        if let Some((r, m)) = top {
            let memcpy_gbps = memcpy[i].gbps;
            best.push(BestAtSize {
                n,
                label: r.label.clone(),
                gbps: m.gbps,
                memcpy_gbps,
                ratio: if memcpy_gbps > 0.0 {
                    m.gbps / memcpy_gbps
                } else {
                    0.0
                },
            });
        }
    }
    w(out, "\nbest per size vs cuMemcpyDtoD:".to_string());
    for b in &best {
        w(
            out,
            format!(
                "  N={:>10}: {:8.1} GB/s = {:5.1}% of {:8.1} GB/s  ({})",
                b.n,
                b.gbps,
                100.0 * b.ratio,
                b.memcpy_gbps,
                b.label
            ),
        );
    }
    w(
        out,
        format!(
            "worker processes started: {}, restarts after faults/time-outs: {}; sweep {:.1} s wall, {:.1} s of compilation inside it",
            evaluator.started(),
            evaluator.restarts(),
            sweep_s,
            compile_s_total
        ),
    );
    let report = SmokeReport {
        device,
        memcpy,
        variants: results,
        best,
        worker_restarts: evaluator.restarts(),
        workers_started: evaluator.started(),
        sweep_s,
        compile_s_total,
    };
    evaluator.shutdown();
    Ok(report)
}

/// What a binary prints and returns for a smoke run's error: "no CUDA
/// device: ..." with exit code 0 (nothing to check on this machine), any
/// other error with exit code 1.
pub fn report_error(e: &GpuError, out: &mut dyn Write) -> i32 {
    let _ = writeln!(out, "{e}");
    match e {
        GpuError::NoDevice(_) => 0,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_variants_are_followed_by_good_ones() {
        let v = variants(&SmokeOptions::default());
        assert_eq!(v.len(), SmokeOptions::default().configs.len() + 3);
        for (i, x) in v.iter().enumerate() {
            if x.label.starts_with("broken") {
                assert!(
                    v[i + 1..].iter().any(|y| !y.label.starts_with("broken")),
                    "{} is not followed by a good variant",
                    x.label
                );
            }
        }
    }

    #[test]
    fn good_configurations_satisfy_the_template() {
        let t = bundled_vcopy();
        for (bs, ept, vec) in SmokeOptions::default().configs {
            assert!(t.check_config(&vcopy_config(bs, ept, vec)).is_ok());
        }
    }
}
