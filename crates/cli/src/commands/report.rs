//! `hone report`: SVG plots of a tuned job's top kernels against problem
//! size, with their d-splines and the selection rule as bands (after figures
//! 2-5 of the SYMV paper), and exports of its measurements.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use hone_tuner::plot::{render_svg, PlotOptions, YAxis};
use hone_tuner::{Curves, DSpline, Grid};
use serde_json::json;

use super::refit::{open_existing, refit, select_job};
use crate::exit;

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
}

/// The part of `curves` over `[lo, hi]` (grid points nearest to them): the
/// same fits, cut, with only the samples inside.
pub fn window(curves: &Curves, lo: u64, hi: u64) -> Option<Curves> {
    let g = curves.grid;
    let (i0, i1) = (g.index_of(lo.max(g.lo))?, g.index_of(hi.min(g.hi))?);
    if i1 < i0 + 2 {
        return None;
    }
    let grid = Grid {
        lo: g.point(i0),
        hi: g.point(i1),
        step: g.step,
    };
    let splines = curves
        .splines
        .iter()
        .map(|s| {
            s.as_ref().map(|s| DSpline {
                grid,
                values: s.values[i0..=i1].to_vec(),
                ..s.clone()
            })
        })
        .collect();
    let samples = curves
        .samples
        .iter()
        .map(|ks| {
            ks.iter()
                .copied()
                .filter(|(n, _)| (grid.lo..=grid.hi).contains(n))
                .collect()
        })
        .collect();
    Some(Curves {
        grid,
        kernels: curves.kernels.clone(),
        samples,
        splines,
    })
}

/// Windows equal on a log scale when the range spans more than three
/// decades (a linear axis then squeezes the small sizes into one pixel).
fn zoom_windows(lo: u64, hi: u64) -> Vec<(u64, u64)> {
    let (a, b) = (lo.max(1) as f64, hi as f64);
    if b / a < 1e3 {
        return Vec::new();
    }
    let parts = ((b / a).log10() / 2.0).ceil().clamp(2.0, 5.0) as usize;
    (0..parts)
        .map(|i| {
            let at = |t: f64| (a.ln() + t * (b.ln() - a.ln())).exp().round() as u64;
            (
                at(i as f64 / parts as f64),
                at((i + 1) as f64 / parts as f64),
            )
        })
        .collect()
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
    let job = select_job(&db, args.kernel.as_deref(), args.job.as_deref())?;
    let f = refit(&db, job, args.alpha, args.tolerance)?;
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
        if let Some(w) = window(curves, lo, hi) {
            let t = format!("{title}, {} <= N <= {}", w.grid.lo, w.grid.hi);
            plot(format!("{base}-zoom{}.svg", i + 1), &w, y.clone(), t)?;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_windows_split_wide_ranges_evenly_in_log() {
        assert!(zoom_windows(100, 10_000).is_empty());
        let w = zoom_windows(1 << 10, 1 << 28);
        assert_eq!(w.len(), 3);
        assert_eq!(w[0].0, 1 << 10);
        assert_eq!(w[2].1, 1 << 28);
        assert_eq!(w[0].1, 1 << 16);
        assert_eq!(w[1], (1 << 16, 1 << 22));
    }
}
