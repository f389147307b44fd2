//! `hone run`, `hone bench` and `hone routines`: the tuned routines of the
//! kernel library (`hone_kernels::routine`), each with the kernel its
//! selection rules pick, checked and measured against the vendor library on
//! the same GPU in the same run. Every routine goes through the same code.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use hone_gpu::Gpu;
use hone_kernels::routine::report::{table, write_reports};
use hone_kernels::routine::{
    find, open_on_device, parse_words, routines, run_bench, BenchOptions, BenchReport,
    MeasureOptions, Row,
};

use crate::exit;

/// What `run` and `bench` share.
#[derive(Args)]
pub struct Common {
    /// A directory holding the routine's rules (VARIANT.json, as `hone rule
    /// --out-json` writes them); default: the rules `hone retune` tuned on
    /// this GPU model, else the rules built into hone
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Timed runs per measurement (the median is kept)
    #[arg(long, value_name = "R", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub reps: u32,
    /// Timing passes per implementation (the report shows the second median
    /// in parentheses as a measure of noise)
    #[arg(long, value_name = "COUNT", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// How L2 is emptied before each timed run: `read` (a kernel reads twice
    /// the L2 size, leaving it clean) or `overwrite` (a memset, leaving it
    /// full of dirty lines whose write-back the timed run pays for)
    #[arg(long, value_name = "HOW", default_value = "read")]
    pub l2_flush: hone_gpu::timing::L2Flush,
    /// The CUDA device ordinal
    #[arg(long, default_value_t = 0)]
    pub device: u32,
}

impl Common {
    pub fn measure(&self) -> MeasureOptions {
        let mut m = MeasureOptions {
            timed_runs: self.runs,
            ..MeasureOptions::default()
        };
        m.timing.reps = self.reps;
        m.timing.l2_flush = self.l2_flush;
        m
    }
}

/// Which variants and sizes of a routine's families `bench` and `plan` take.
#[derive(Args)]
pub struct Family {
    /// The variants (default: all)
    #[arg(long, value_name = "V,V", value_delimiter = ',')]
    pub variants: Vec<String>,
    /// The sizes along each variant's family (default: the routine's table
    /// sizes)
    #[arg(long, value_name = "N,N,...", value_delimiter = ',')]
    pub sizes: Vec<u64>,
}

#[derive(Args)]
pub struct RunArgs {
    /// The routine (`hone routines` lists them)
    pub routine: String,
    /// The problem as KEY=VALUE words, e.g. `n=4096 precision=d uplo=lower`
    #[arg(value_name = "KEY=VALUE")]
    pub problem: Vec<String>,
    #[command(flatten)]
    pub common: Common,
    /// Print the outcome as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// The routine (`hone routines` lists them)
    pub routine: String,
    /// Where the reports go (created if missing)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub family: Family,
    /// Also measure COUNT log-spaced sizes over the routine's chart range, so
    /// that the charts have a curve
    #[arg(long, value_name = "COUNT", default_value_t = 24)]
    pub plot_sizes: usize,
    /// Also write the report as one self-contained HTML page
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Measure nothing: write the reports of a recorded run (its ROUTINE.json)
    #[arg(long, value_name = "JSON", conflicts_with_all = ["variants", "sizes", "no_other_shapes"])]
    pub from: Option<PathBuf>,
    /// Leave out the table of the routine's other shapes (GEMM's tall-skinny
    /// and long-K problems), which takes most of a short benchmark's time
    #[arg(long)]
    pub no_other_shapes: bool,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct PlanArgs {
    /// The routine (`hone routines` lists them; routines whose problems each
    /// get a plan, such as `fft`)
    pub routine: String,
    /// One problem as KEY=VALUE words; without them, every variant's family
    /// at `--sizes`
    #[arg(value_name = "KEY=VALUE")]
    pub problem: Vec<String>,
    /// Where the plans go (read by `--rules DIR` of `run` and `bench`); each
    /// plan is stored as soon as it is measured
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub family: Family,
    /// Plan again problems that DIR already has a plan for (default: skip
    /// them, so an interrupted run resumes)
    #[arg(long)]
    pub force: bool,
    /// Timed runs per candidate (the median is kept)
    #[arg(long, value_name = "R", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub reps: u32,
    /// The CUDA device ordinal
    #[arg(long, default_value_t = 0)]
    pub device: u32,
}

/// The library's errors carry their causes in their text already.
fn message(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("{e}")
}

/// `hone routines`: each routine, its variants and problem words.
pub fn list() -> Result<u8> {
    for r in routines() {
        println!("{}: {}", r.name(), r.about());
        println!("  variants: {}", r.variants().join(", "));
        for d in r.dims() {
            println!("  {}=...  {}", d.name, d.help);
        }
    }
    Ok(exit::OK)
}

pub fn run(args: RunArgs) -> Result<u8> {
    let routine = find(&args.routine).map_err(message)?;
    let problem = routine
        .problem(&parse_words(&args.problem).map_err(message)?)
        .map_err(message)?;
    let gpu = Gpu::open(args.common.device).map_err(message)?;
    let (mut session, _) =
        open_on_device(routine, &gpu, args.common.rules.as_deref()).map_err(message)?;
    let c = session
        .compare(&problem, &args.common.measure(), &mut |_| {})
        .map_err(message)?;
    if args.json {
        let out = serde_json::json!({
            "device": gpu.props().name,
            "tools": session.tools(),
            "rules": session.rules_origin(),
            "comparison": c,
            "speedup": c.speedup(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("{}", c.text(routine.work_unit(), &gpu.props().name));
    }
    Ok(if c.hone.ok() { exit::OK } else { exit::FAULT })
}

fn write_html(path: &std::path::Path, report: &BenchReport) -> Result<()> {
    std::fs::write(path, hone_report::bench_page(report))
        .with_context(|| format!("cannot write {}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

/// `--from`: the reports of a recorded run, without a GPU.
fn rerender(args: &BenchArgs, json: &std::path::Path) -> Result<u8> {
    let text =
        std::fs::read_to_string(json).with_context(|| format!("cannot read {}", json.display()))?;
    let report: BenchReport = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a `hone bench` report", json.display()))?;
    if report.routine != find(&args.routine).map_err(message)?.name() {
        bail!(
            "{} records `{}`, not `{}`",
            json.display(),
            report.routine,
            args.routine
        );
    }
    let footer = format!("Rendered from {}.\n", json.display());
    for path in write_reports(&args.out, &report, &footer).map_err(message)? {
        println!("wrote {}", path.display());
    }
    if let Some(h) = &args.html {
        write_html(h, &report)?;
    }
    Ok(exit::OK)
}

pub fn bench(args: BenchArgs) -> Result<u8> {
    if let Some(json) = &args.from {
        return rerender(&args, json);
    }
    let routine = find(&args.routine).map_err(message)?;
    let mut options = BenchOptions::for_routine(
        routine,
        &args.family.variants,
        &args.family.sizes,
        args.plot_sizes,
        args.common.measure(),
    )
    .map_err(message)?;
    options.other_shapes = !args.no_other_shapes;
    let gpu = Gpu::open(args.common.device).map_err(message)?;
    let (mut session, _) =
        open_on_device(routine, &gpu, args.common.rules.as_deref()).map_err(message)?;
    eprintln!("{}", gpu.props());
    eprintln!("{}", session.tools());
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create directory {}", args.out.display()))?;
    let log_path = args.out.join(format!("{}.log", routine.name()));
    let mut log_file = std::fs::File::create(&log_path)
        .with_context(|| format!("cannot create {}", log_path.display()))?;
    let start = Instant::now();
    let unit = routine.work_unit().rate_label();
    let mut log = |r: &Row| {
        // The check's error on the line too, so that a run cut short still
        // shows how hone's compares with a baseline's on the same inputs.
        let error = r
            .error
            .map(|e| format!(" (error {e:.3e})"))
            .unwrap_or_default();
        let line = format!(
            "{} | {:<14} {} | {} ms | {} {unit} | {}{error}",
            r.problem,
            r.implementation,
            r.kernel,
            r.times_text(),
            r.rate
                .map(|g| format!("{g:.0}"))
                .unwrap_or_else(|| "-".into()),
            r.status
        );
        eprintln!("[{:7.1} s] {line}", start.elapsed().as_secs_f64());
        let _ = writeln!(log_file, "{line}");
    };
    let report =
        run_bench(routine, session.as_mut(), gpu.props(), &options, &mut log).map_err(message)?;
    let command: Vec<String> = std::env::args().collect();
    let footer = format!(
        "Command: `{}` ({:.0} s).\n",
        command.join(" "),
        start.elapsed().as_secs_f64()
    );
    let written = write_reports(&args.out, &report, &footer).map_err(message)?;
    for v in &report.options.variants {
        println!("## {v}\n\n{}", table(&report, v, &report.options.sizes));
    }
    for path in written.iter().chain([&log_path]) {
        println!("wrote {}", path.display());
    }
    if let Some(h) = &args.html {
        write_html(h, &report)?;
    }
    if report.all_checks_passed() {
        return Ok(exit::OK);
    }
    for c in report.comparisons.iter().filter(|c| !c.hone.ok()) {
        eprintln!("  {}: {}", c.problem, c.hone.status);
    }
    Ok(exit::FAULT)
}

/// `hone plan`: a plan per problem, measured on this GPU and stored in the
/// directory that `run` and `bench` read with `--rules`.
pub fn plan(args: PlanArgs) -> Result<u8> {
    let routine = find(&args.routine).map_err(message)?;
    if !routine.plans_per_problem() {
        bail!(
            "{} is served by interval rules: tune it with `hone tune` and `hone rule`",
            routine.name()
        );
    }
    let problems = if args.problem.is_empty() {
        let options = BenchOptions::for_routine(
            routine,
            &args.family.variants,
            &args.family.sizes,
            0,
            MeasureOptions::default(),
        )
        .map_err(message)?;
        let mut out = Vec::new();
        for v in &options.variants {
            for &n in &options.sizes {
                out.push(routine.family_problem(v, n).map_err(message)?);
            }
            // The benchmark's other shapes, unless sizes were named.
            if args.family.sizes.is_empty() {
                out.extend(routine.other_shapes(v));
            }
        }
        // One plan serves every problem of the same shape (an in-place or
        // inverse transform of a planned cube).
        let mut seen = std::collections::HashSet::new();
        out.retain(|p| seen.insert((p.variant.clone(), routine.plan_key(p))));
        out
    } else {
        vec![routine
            .problem(&parse_words(&args.problem).map_err(message)?)
            .map_err(message)?]
    };
    let mut measure = MeasureOptions::default();
    measure.timing.reps = args.reps;
    let gpu = Gpu::open(args.device).map_err(message)?;
    let mut session = routine.open(&gpu, None).map_err(message)?;
    eprintln!("{}", gpu.props());
    let start = Instant::now();
    let mut failed = 0;
    for p in &problems {
        if !args.force && routine.has_plan(&args.out, p).map_err(message)? {
            println!("{p}: planned already in {}", args.out.display());
            continue;
        }
        let mut log = |line: &str| eprintln!("[{:7.1} s] {line}", start.elapsed().as_secs_f64());
        match session.plan(p, &measure, &mut log) {
            Ok(Some(plan)) => {
                routine.save_plan(&args.out, &plan).map_err(message)?;
                println!(
                    "{p}: {} ({:.4} ms measured, {:.4} ms predicted from its parts, {} candidates)",
                    plan.label, plan.measured_ms, plan.predicted_ms, plan.candidates
                );
            }
            Ok(None) => bail!("{}: no plan was measured", routine.name()),
            Err(e) if e.is_no_device() => return Err(message(e)),
            Err(e) => {
                failed += 1;
                eprintln!("{p}: {e}");
            }
        }
    }
    println!("plans in {}", args.out.display());
    Ok(if failed == 0 { exit::OK } else { exit::FAULT })
}
