//! `hone report`: SVG plots of a tuned job's top kernels against problem
//! size, with their d-splines and the selection rule as bands (after figures
//! 2-5 of the SYMV paper), and exports of its measurements.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use hone_tuner::plot::{render_svg, PlotOptions, YAxis};
use hone_tuner::Curves;
use serde_json::json;

use super::refit::open_existing;
use crate::exit;
use hone_tuner::plot::zoom_windows;
use hone_tuner::refit::{refit, select_job};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Export {
    /// One row per measurement, one column per parameter
    Csv,
    /// The measurements as a JSON recording (replayable with `hone tune --replay`)
    Json,
    /// Kernel Tuner's T4 results format
    T4,
}

#[derive(Args)]
pub struct ReportArgs {
    /// The tuning database
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Where the plots and exports go (created if missing)
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// The tuned kernel (needed when the database holds several)
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// The job name (needed when several jobs tuned the kernel)
    #[arg(long, value_name = "NAME")]
    pub job: Option<String>,
    /// d-spline smoothing; by GCV when absent
    #[arg(long, value_name = "ALPHA")]
    pub alpha: Option<f64>,
    /// Merge tolerance of the rule (default: the job's)
    #[arg(long, value_name = "FRACTION")]
    pub tolerance: Option<f64>,
    /// Work per run as an expression in N (e.g. `8 * N` bytes): plot work per
    /// second instead of time
    #[arg(long, value_name = "EXPR")]
    pub work: Option<String>,
    /// Unit of the work rate
    #[arg(long, value_name = "UNIT", default_value = "GB/s")]
    pub unit: String,
    /// Divisor of work per second for the unit (1e9 for GB/s)
    #[arg(long, value_name = "SCALE", default_value_t = 1e9)]
    pub scale: f64,
    /// Also export the measurements (repeatable, or comma-separated)
    #[arg(long, value_enum, value_delimiter = ',')]
    pub export: Vec<Export>,
    /// List what was written as JSON
    #[arg(long)]
    pub json: bool,
    /// Also write the run as one self-contained HTML page (the plots inline,
    /// the rule, and a sortable table of every measurement)
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn write(path: &Path, text: String) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

pub fn run(args: ReportArgs) -> Result<u8> {
    if !(args.scale.is_finite() && args.scale > 0.0) {
        bail!("--scale must be a positive number");
    }
    let y = match &args.work {
        Some(w) => YAxis::rate(w, args.scale, &args.unit)
            .map_err(|e| anyhow!("--work `{w}`: {}", e.message))?,
        None => YAxis::Time,
    };
    let db = open_existing(&args.db)?;
    let in_db = || args.db.display().to_string();
    let job = select_job(&db, args.kernel.as_deref(), args.job.as_deref()).with_context(in_db)?;
    let f = refit(&db, job, args.alpha, args.tolerance).with_context(in_db)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let base = safe_name(&f.job.name);
    let curves = &f.sampling.curves;
    let title = format!(
        "{} on {}: top {} kernels, d-splines and rule",
        f.job.kernel,
        f.device.name,
        curves.kernels.len()
    );
    let mut written: Vec<PathBuf> = Vec::new();
    let mut plot = |name: String, c: &Curves, y: YAxis, title: String| -> Result<()> {
        let path = args.out.join(name);
        let opts = PlotOptions {
            title,
            y,
            ..PlotOptions::default()
        };
        write(&path, render_svg(c, &f.rule, &opts))?;
        written.push(path);
        Ok(())
    };
    plot(format!("{base}.svg"), curves, y.clone(), title.clone())?;
    plot(
        format!("{base}-relative.svg"),
        curves,
        YAxis::Relative,
        format!("{title} (time over the fastest)"),
    )?;
    for (i, (lo, hi)) in zoom_windows(curves.grid.lo, curves.grid.hi)
        .into_iter()
        .enumerate()
    {
        if let Some(w) = curves.window(lo, hi) {
            let t = format!("{title}, {} <= N <= {}", w.grid.lo, w.grid.hi);
            plot(format!("{base}-zoom{}.svg", i + 1), &w, y.clone(), t)?;
        }
    }
    if let Some(path) = &args.html {
        let recording = db.recording(f.job.id).with_context(in_db)?;
        write(path, hone_report::tuning_page(&f, &recording))?;
        written.push(path.clone());
    }
    for e in &args.export {
        let path = match e {
            Export::Csv => {
                let p = args.out.join(format!("{base}.csv"));
                db.export_csv(f.job.id, &p)?;
                p
            }
            Export::Json => {
                let p = args.out.join(format!("{base}.json"));
                db.export_json(f.job.id, &p)?;
                p
            }
            Export::T4 => {
                let p = args.out.join(format!("{base}.t4.json"));
                let v = db.export_t4(f.job.id, None)?;
                write(&p, serde_json::to_string_pretty(&v)?)?;
                p
            }
        };
        written.push(path);
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "job": f.job.name,
                "files": written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                "intervals": f.rule.intervals.len(),
            }))?
        );
    } else {
        for p in &written {
            println!("{}", p.display());
        }
    }
    Ok(exit::OK)
}
