//! SYMV benchmark: hone's kernels against cuBLAS `?symv` and `?gemv`, in one
//! run, on the same buffers, every implementation checked first.
//!
//! ```text
//! symv_bench [--out DIR] [--sizes 512,1024,...] [--precision d|s|both]
//!            [--uplo L|U|both] [--reps 30] [--warmup 3] [--runs 2]
//!            [--no-flush] [--no-sweep] [--cache DIR]
//!            [--pick-from REPORT.json] [--check-sizes 1000,2053,...]
//! ```
//!
//! By default every candidate and its hill-climbing neighbours are measured
//! at each size. `--pick-from` measures instead only the fastest kernel of
//! each size of an earlier run's `symv.json`, so that the reported figures
//! are not the best of many on the same timings; `--check-sizes` then also
//! checks each of those kernels at the given sizes.
//!
//! Writes `symv.md` (summary tables), `symv.csv` (every measurement) and
//! `symv.json` (everything, with the device) to DIR, by default `$OUT` or
//! `symv_bench_out`. Without a GPU it prints `no CUDA device: ...` and exits
//! with 0. NVRTC and cuBLAS are loaded at run time: where the loader does not
//! find them, add the CUDA toolkit's lib64 directory to LD_LIBRARY_PATH.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use hone_gpu::{Gpu, GpuError, ModuleCache};
use hone_kernels::symv::bench::{
    csv, markdown, picks_from_report, run_bench, BenchOptions, BenchReport,
};
use hone_kernels::symv::cublas::Cublas;
use hone_kernels::symv::{Precision, SymvRunner, Uplo};

struct Args {
    out: PathBuf,
    cache: Option<PathBuf>,
    options: BenchOptions,
}

const USAGE: &str = "usage: symv_bench [--out DIR] [--sizes 512,1024,...] [--precision d|s|both] \
                     [--uplo L|U|both] [--reps N] [--warmup N] [--runs N] [--no-flush] \
                     [--no-sweep] [--cache DIR] [--pick-from REPORT.json] \
                     [--check-sizes N,N,...]";

fn sizes(flag: &str, v: &str) -> Result<Vec<usize>, String> {
    let sizes: Vec<usize> = v
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<usize>()
                .map_err(|e| format!("{flag} {s}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    if sizes.contains(&0) {
        return Err(format!("{flag}: every size must be positive"));
    }
    Ok(sizes)
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        out: std::env::var_os("OUT")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("symv_bench_out")),
        cache: None,
        options: BenchOptions::default(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        let number = |s: String| s.parse::<u32>().map_err(|e| format!("{a} {s}: {e}"));
        let o = &mut args.options;
        match a.as_str() {
            "--out" => args.out = PathBuf::from(value()?),
            "--cache" => args.cache = Some(PathBuf::from(value()?)),
            "--sizes" => o.sizes = sizes("--sizes", &value()?)?,
            "--check-sizes" => o.check_sizes = sizes("--check-sizes", &value()?)?,
            "--pick-from" => {
                let path = value()?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                let earlier: BenchReport =
                    serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
                o.picks = Some(picks_from_report(&earlier).map_err(|e| format!("{path}: {e}"))?);
            }
            "--precision" => {
                let v = value()?;
                o.precisions = if v == "both" {
                    Precision::ALL.to_vec()
                } else {
                    vec![v.parse()?]
                };
            }
            "--uplo" => {
                let v = value()?;
                o.uplos = if v == "both" {
                    Uplo::ALL.to_vec()
                } else {
                    vec![v.parse()?]
                };
            }
            "--reps" => o.run.timing.reps = number(value()?)?.max(1),
            "--warmup" => o.run.timing.warmup = number(value()?)?,
            "--runs" => o.run.timed_runs = number(value()?)?.max(1),
            "--no-flush" => o.run.timing.flush_l2 = false,
            "--no-sweep" => o.sweep = false,
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let gpu = match Gpu::open(0) {
        Ok(g) => g,
        Err(e @ GpuError::NoDevice(_)) => {
            println!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    println!("{}", gpu.props());
    match bench(&gpu, &args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn bench(gpu: &Gpu, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let cache = match &args.cache {
        Some(dir) => ModuleCache::new(dir),
        None => ModuleCache::open_default(),
    };
    let mut runner = SymvRunner::new(gpu, cache)?;
    let cublas = Cublas::new(gpu)?;
    println!(
        "{}",
        hone_kernels::symv::bench::tools_line(&runner, &cublas)
    );
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let start = Instant::now();
    let mut log_file = std::fs::File::create(args.out.join("symv.log"))?;
    let mut log = |line: &str| {
        println!("[{:7.1} s] {line}", start.elapsed().as_secs_f64());
        let _ = writeln!(log_file, "{line}");
        let _ = std::io::stdout().flush();
    };
    let report = run_bench(&mut runner, &cublas, &args.options, &mut log)?;
    let command: Vec<String> = std::env::args().collect();
    let md = format!(
        "{}\nCommand: `{}` ({:.0} s).\n",
        markdown(&report),
        command.join(" "),
        start.elapsed().as_secs_f64()
    );
    let write = |name: &str, text: &str| {
        let path = args.out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    write("symv.md", &md)?;
    write("symv.csv", &csv(&report))?;
    write("symv.json", &serde_json::to_string_pretty(&report)?)?;
    println!("\n{md}");
    Ok(())
}
