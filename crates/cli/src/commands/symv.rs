//! `hone symv`: hone's SYMV (y = alpha A x + beta y, A symmetric with one
//! triangle stored) with the kernel that the tuner's selection rules pick for
//! each size, checked against the CPU reference and measured against cuBLAS
//! on the same GPU, in the same run.
//!
//! `run` measures one size; `bench` measures many and writes the tables
//! (`symv.md`), every row (`symv.csv`), everything (`symv.json`) and a GB/s
//! chart per precision and storage.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use hone_gpu::{Gpu, ModuleCache};
use hone_kernels::symv::bench::{
    compare_kernel, markdown, run_bench, summary_table, write_reports, BenchOptions, BenchReport,
    BenchRow,
};
use hone_kernels::symv::cublas::Cublas;
use hone_kernels::symv::reference::tolerance;
use hone_kernels::symv::tuning::library_name;
use hone_kernels::symv::{plot, Precision, RunOptions, SymvRules, SymvRunner, Uplo};
use hone_tuner::sampling::log_spaced;
use serde_json::json;

use crate::exit;

/// The sizes of the headline table.
const TABLE_SIZES: [usize; 7] = [512, 1024, 2048, 4096, 8192, 16384, 32768];
/// The range of the extra sizes that draw the charts' curves.
const PLOT_RANGE: (usize, usize) = (64, 32768);

#[derive(Args)]
pub struct SymvArgs {
    #[command(subcommand)]
    pub command: SymvCommand,
}

#[derive(Subcommand)]
pub enum SymvCommand {
    /// Check and time the rule's kernel at one size, with cuBLAS ?symv and ?gemv on the same problem
    Run(RunArgs),
    /// Measure the rules' kernels against cuBLAS ?symv and ?gemv over many sizes: tables, CSV, JSON and SVG charts
    Bench(BenchArgs),
}

/// What both subcommands share.
#[derive(Args)]
pub struct Common {
    /// A directory holding dsymv_lower.json, dsymv_upper.json, ssymv_lower.json and
    /// ssymv_upper.json (as `hone rule --out-json` writes them); default: the rules
    /// built into hone
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Timed runs per measurement (the median is kept)
    #[arg(long, value_name = "R", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub reps: u32,
    /// Timing passes per implementation (the report shows the second median
    /// in parentheses as a measure of noise)
    #[arg(long, value_name = "COUNT", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// The CUDA device ordinal
    #[arg(long, default_value_t = 0)]
    pub device: u32,
}

#[derive(Args)]
pub struct RunArgs {
    /// The matrix size
    #[arg(long, value_name = "N")]
    pub n: usize,
    /// double (d) or single (s)
    #[arg(long, default_value_t = Precision::Double)]
    pub precision: Precision,
    /// The stored triangle: lower (L) or upper (U)
    #[arg(long, default_value_t = Uplo::Lower)]
    pub uplo: Uplo,
    #[command(flatten)]
    pub common: Common,
    /// Print the outcome as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Where the reports go (created if missing)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The sizes of the tables
    #[arg(long, value_name = "N,N,...", value_delimiter = ',', default_values_t = TABLE_SIZES)]
    pub sizes: Vec<usize>,
    /// Precisions: d, s (or double, single)
    #[arg(long, value_name = "P,P", value_delimiter = ',', default_values_t = Precision::ALL)]
    pub precisions: Vec<Precision>,
    /// Stored triangles: lower, upper
    #[arg(long, value_name = "U,U", value_delimiter = ',', default_values_t = Uplo::ALL)]
    pub uplos: Vec<Uplo>,
    /// Also measure COUNT log-spaced sizes from 64 to 32768, so that the charts have a curve
    #[arg(long, value_name = "COUNT", default_value_t = 24)]
    pub plot_sizes: usize,
    #[command(flatten)]
    pub common: Common,
}

pub fn run(args: SymvArgs) -> Result<u8> {
    match args.command {
        SymvCommand::Run(a) => run_one(a),
        SymvCommand::Bench(a) => bench(a),
    }
}

/// The error as its message alone: the library's errors already carry
/// their causes in their text (the file, the OS error), which a chained
/// report would print twice.
fn message(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("{e}")
}

fn load_rules(dir: Option<&Path>) -> Result<(SymvRules, String)> {
    match dir {
        Some(d) => Ok((
            SymvRules::load_dir(d).map_err(message)?,
            format!("the selection rules in {}", d.display()),
        )),
        None => Ok((
            SymvRules::bundled(),
            "the selection rules built into hone, from kernels/symv/rules".to_string(),
        )),
    }
}

fn check_size(n: usize) -> Result<()> {
    if n == 0 || n > i32::MAX as usize {
        bail!("N = {n} is out of range (1 to {})", i32::MAX);
    }
    Ok(())
}

fn run_options(common: &Common) -> RunOptions {
    let mut run = RunOptions {
        timed_runs: common.runs,
        ..RunOptions::default()
    };
    run.timing.reps = common.reps;
    run
}

/// The GPU, a runner compiling into the default cache, and cuBLAS. Without a
/// device this is the `no CUDA device: ...` error.
fn open(device: u32) -> Result<Gpu> {
    Gpu::open(device).map_err(message)
}

fn tools(gpu: &Gpu) -> Result<(SymvRunner<'_>, Cublas)> {
    let runner = SymvRunner::new(gpu, ModuleCache::open_default()).map_err(message)?;
    let cublas = Cublas::new(gpu).map_err(message)?;
    Ok((runner, cublas))
}

fn times(r: &BenchRow) -> String {
    match r.medians_ms.as_slice() {
        [a, b, ..] => format!("{a:.4} ms ({b:.4})"),
        [a] => format!("{a:.4} ms"),
        [] => "-".to_string(),
    }
}

fn rate(r: &BenchRow) -> String {
    r.gbps
        .map(|g| format!("{g:.0} GB/s"))
        .unwrap_or_else(|| "-".to_string())
}

fn row_json(r: Option<&BenchRow>) -> serde_json::Value {
    match r {
        Some(r) => json!({
            "status": r.status,
            "medians_ms": r.medians_ms,
            "gbps": r.gbps,
            "relative_error": r.relative_error,
        }),
        None => serde_json::Value::Null,
    }
}

fn run_one(args: RunArgs) -> Result<u8> {
    check_size(args.n)?;
    let (rules, _) = load_rules(args.common.rules.as_deref())?;
    let (p, u, n) = (args.precision, args.uplo, args.n);
    let selection = rules.select(p, u, n).map_err(message)?;
    let gpu = open(args.common.device)?;
    let (mut runner, cublas) = tools(&gpu)?;
    let options = run_options(&args.common);
    let (rows, summary) = compare_kernel(
        &mut runner,
        &cublas,
        &options,
        &selection.kernel,
        n,
        &mut |_| {},
    )
    .map_err(message)?;
    let find = |prefix: &str| rows.iter().find(|r| r.implementation.starts_with(prefix));
    let hone = find("hone").context("the benchmark returned no row for hone's kernel")?;
    let (symv, gemv) = (find("cublas symv"), find("cublas gemv"));
    let bound = tolerance(p, n);
    let passed = hone.ok();
    let name = library_name(p, u);

    if args.json {
        let out = json!({
            "routine": name,
            "n": n,
            "lda": hone.lda,
            "device": gpu.props().name,
            "kernel": selection.kernel.label(),
            "rule_kernel": selection.label,
            "interval": { "start": selection.start, "end": selection.end },
            "check": {
                "passed": passed,
                "relative_error": hone.relative_error,
                "bound": bound,
            },
            "hone": row_json(Some(hone)),
            "cublas_symv": row_json(symv),
            "cublas_gemv": row_json(gemv),
            "speedup": summary.speedup,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        let prefix = p.blas_prefix();
        println!("{name}, N = {n} (lda {}) on {}", hone.lda, gpu.props().name);
        println!(
            "kernel        {} (rule kernel `{}`, N in {})",
            selection.kernel.label(),
            selection.label,
            selection.interval()
        );
        match (passed, hone.relative_error) {
            (true, Some(e)) => println!(
                "check         passed: relative error {e:.2e}, bound {bound:.2e} ({:.2} of it)",
                e / bound
            ),
            (true, None) => println!("check         not run"),
            (false, _) => println!("check         FAILED, {}", hone.status),
        }
        if passed {
            println!("hone          {}  {}", times(hone), rate(hone));
        }
        for (label, row) in [("symv", symv), ("gemv", gemv)] {
            match row {
                Some(r) if r.ok() => {
                    println!("cuBLAS {prefix}{label}  {}  {}", times(r), rate(r))
                }
                Some(r) => println!("cuBLAS {prefix}{label}  {}", r.status),
                None => println!("cuBLAS {prefix}{label}  not measured"),
            }
        }
        if let Some(s) = summary.speedup {
            println!("speedup       {s:.2}x over cuBLAS {prefix}symv");
        }
        println!(
            "GB/s: SYMV moves {} bytes, GEMV {} (each on its own).",
            hone_kernels::symv::traffic::SYMV_BYTES,
            hone_kernels::symv::traffic::GEMV_BYTES
        );
    }
    Ok(if passed { exit::OK } else { exit::FAULT })
}

/// The charts' extra sizes: `count` log-spaced from 64 to 32768.
fn plot_sizes(count: usize) -> Vec<usize> {
    log_spaced(PLOT_RANGE.0 as u64, PLOT_RANGE.1 as u64, count)
        .into_iter()
        .map(|n| n as usize)
        .collect()
}

/// Keeps the first of each repeated value, in order.
fn distinct<T: PartialEq + Copy>(v: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for &x in v {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

fn bench(args: BenchArgs) -> Result<u8> {
    if args.sizes.is_empty() {
        bail!("--sizes needs at least one size");
    }
    for &n in &args.sizes {
        check_size(n)?;
    }
    let table = distinct(&args.sizes);
    let precisions = distinct(&args.precisions);
    let uplos = distinct(&args.uplos);
    if precisions.is_empty() || uplos.is_empty() {
        bail!("--precisions and --uplos need at least one value each");
    }
    let mut sizes = table.clone();
    sizes.extend(plot_sizes(args.plot_sizes));
    sizes.sort_unstable();
    sizes.dedup();
    let (rules, origin) = load_rules(args.common.rules.as_deref())?;
    let picks = rules.picks(&precisions, &uplos, &sizes).map_err(message)?;
    let options = BenchOptions {
        sizes: sizes.clone(),
        precisions: precisions.clone(),
        uplos: uplos.clone(),
        run: run_options(&args.common),
        sweep: false,
        picks: Some(picks),
        check_sizes: Vec::new(),
        picks_origin: Some(origin),
    };

    let gpu = open(args.common.device)?;
    let (mut runner, cublas) = tools(&gpu)?;
    eprintln!("{}", gpu.props());
    eprintln!(
        "{}; {} sizes x {} routines",
        hone_kernels::symv::bench::tools_line(&runner, &cublas),
        sizes.len(),
        precisions.len() * uplos.len()
    );
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create directory {}", args.out.display()))?;
    let log_path = args.out.join("symv.log");
    let mut log_file = std::fs::File::create(&log_path)
        .with_context(|| format!("cannot create {}", log_path.display()))?;
    let start = Instant::now();
    let mut log = |line: &str| {
        eprintln!("[{:7.1} s] {line}", start.elapsed().as_secs_f64());
        let _ = writeln!(log_file, "{line}");
    };
    let report = run_bench(&mut runner, &cublas, &options, &mut log).map_err(message)?;

    let charts = plot::charts(&report);
    let command: Vec<String> = std::env::args().collect();
    let md = report_markdown(
        &report,
        &table,
        &charts,
        &format!(
            "Command: `{}` ({:.0} s).\n",
            command.join(" "),
            start.elapsed().as_secs_f64()
        ),
    );
    let mut written = write_reports(&args.out, &report, &md).map_err(message)?;
    for (name, svg) in &charts {
        let path = args.out.join(name);
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path);
    }
    written.push(log_path);
    println!("{}", markdown(&headline(&report, &table)));
    for path in &written {
        println!("wrote {}", path.display());
    }

    let failed: Vec<&BenchRow> = report
        .rows
        .iter()
        .filter(|r| r.implementation.starts_with("hone") && !r.ok())
        .collect();
    if failed.is_empty() {
        return Ok(exit::OK);
    }
    eprintln!(
        "{} of {} hone measurements failed:",
        failed.len(),
        report
            .rows
            .iter()
            .filter(|r| r.implementation.starts_with("hone"))
            .count()
    );
    for r in failed {
        eprintln!(
            "  {} n={} {} {}: {}",
            library_name(r.precision, r.uplo),
            r.n,
            r.implementation,
            r.config,
            r.status
        );
    }
    Ok(exit::FAULT)
}

/// The report restricted to the table's sizes.
fn headline(report: &BenchReport, table: &[usize]) -> BenchReport {
    let mut h = report.clone();
    h.summary.retain(|s| table.contains(&s.n));
    h.options.sizes = table.to_vec();
    h
}

/// `symv.md`: the tables at the table's sizes, then per precision and
/// storage the chart and (when more sizes were measured) every size.
fn report_markdown(
    report: &BenchReport,
    table: &[usize],
    charts: &[(String, String)],
    footer: &str,
) -> String {
    let mut md = markdown(&headline(report, table));
    let more = report.options.sizes.iter().any(|n| !table.contains(n));
    md.push_str(if more {
        "# Every measured size\n\n"
    } else {
        "# Charts\n\n"
    });
    for &p in &report.options.precisions {
        for &u in &report.options.uplos {
            let name = library_name(p, u);
            md.push_str(&format!(
                "## {}SYMV, {u} storage\n\n",
                p.blas_prefix().to_uppercase()
            ));
            if let Some((file, _)) = charts.iter().find(|(f, _)| *f == format!("{name}.svg")) {
                md.push_str(&format!("![{name}: GB/s against N]({file})\n\n"));
            }
            if more {
                md.push_str(&summary_table(report, p, u));
                md.push('\n');
            }
        }
    }
    md.push_str(footer);
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_sizes_span_the_range_evenly() {
        let s = plot_sizes(10);
        assert_eq!(s.len(), 10);
        assert_eq!((s[0], s[9]), (64, 32768));
        // 512^(1/9) apart, up to rounding.
        for w in s.windows(2) {
            let r = w[1] as f64 / w[0] as f64;
            assert!((r - 512f64.powf(1.0 / 9.0)).abs() < 0.02, "{w:?}");
        }
        assert_eq!(plot_sizes(1), vec![64]);
        assert!(plot_sizes(0).is_empty());
        // More points than integers: repeats are dropped.
        assert_eq!(log_spaced(4, 6, 20), vec![4, 5, 6]);
    }

    #[test]
    fn distinct_keeps_first_occurrences_in_order() {
        assert_eq!(distinct(&[3, 1, 3, 2, 1]), vec![3, 1, 2]);
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert!(check_size(0).is_err());
        assert!(check_size(1).is_ok());
        assert!(check_size(i32::MAX as usize + 1).is_err());
    }

    #[test]
    fn a_missing_rules_directory_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("hone-symv-cli-none-{}", std::process::id()));
        let e = load_rules(Some(&dir)).err().unwrap().to_string();
        assert!(e.contains(&dir.display().to_string()), "{e}");
        let (rules, origin) = load_rules(None).unwrap();
        assert!(origin.contains("built into hone"), "{origin}");
        assert_eq!(rules, SymvRules::bundled());
    }
}
