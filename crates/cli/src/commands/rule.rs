//! `hone rule`: fits d-splines over size for a tuned job's top kernels (GCV
//! smoothing unless `--alpha` is given), derives the selection rule, prints
//! its intervals like table 5 of the SYMV paper, and writes it as JSON, Rust
//! and a C header.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use super::refit::open_existing;
use crate::exit;
use hone_tuner::refit::{refit, select_job, Fitted};

#[derive(Args)]
pub struct RuleArgs {
    /// The tuning database
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// The tuned kernel (needed when the database holds several)
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// The job name (needed when several jobs tuned the kernel)
    #[arg(long, value_name = "NAME")]
    pub job: Option<String>,
    /// d-spline smoothing; chosen per kernel by generalised cross-validation when absent
    #[arg(long, value_name = "ALPHA")]
    pub alpha: Option<f64>,
    /// Relative loss under which neighbouring intervals merge (default: the job's)
    #[arg(long, value_name = "FRACTION")]
    pub tolerance: Option<f64>,
    /// Write the rule as JSON (readable by `Rule::load`)
    #[arg(long, value_name = "FILE")]
    pub out_json: Option<PathBuf>,
    /// Write the rule as Rust source (`pub fn select(n: u64) -> &'static str`)
    #[arg(long, value_name = "FILE")]
    pub out_rust: Option<PathBuf>,
    /// Write the rule as a C header (an `if` chain returning the configuration)
    #[arg(long, value_name = "FILE")]
    pub out_c: Option<PathBuf>,
    /// Print the rule and the fits as JSON
    #[arg(long)]
    pub json: bool,
}

fn write(path: &PathBuf, text: String) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// The intervals with each kernel's predicted time and throughput at the
/// interval's ends, in the layout of the paper's table 5.
pub fn interval_table(f: &Fitted) -> String {
    use std::fmt::Write as _;
    let rule = &f.rule;
    let curves = &f.sampling.curves;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<8} {:>12} {:>12}  {:<44} {:>12}",
        "kernel", "from N", "to N", "configuration", "time at from"
    );
    for iv in &rule.intervals {
        let k = &rule.kernels[iv.kernel];
        let to = iv
            .end
            .map(|e| (e - 1).to_string())
            .unwrap_or_else(|| format!("{}+", rule.hi));
        let predicted = curves.splines[iv.kernel]
            .as_ref()
            .map(|sp| format!("{:.3} us", sp.at(iv.start).exp() * 1e6))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            s,
            "{:<8} {:>12} {:>12}  {:<44} {:>12}",
            k.label,
            iv.start,
            to,
            k.config.key(),
            predicted
        );
    }
    s
}

pub fn run(args: RuleArgs) -> Result<u8> {
    let db = open_existing(&args.db)?;
    let in_db = || args.db.display().to_string();
    let job = select_job(&db, args.kernel.as_deref(), args.job.as_deref()).with_context(in_db)?;
    let f = refit(&db, job, args.alpha, args.tolerance).with_context(in_db)?;
    if let Some(p) = &args.out_json {
        write(p, f.rule.to_json())?;
    }
    if let Some(p) = &args.out_rust {
        write(p, f.rule.to_rust())?;
    }
    if let Some(p) = &args.out_c {
        write(p, f.rule.to_c_header())?;
    }
    let curves = &f.sampling.curves;
    if args.json {
        let fits: Vec<_> = curves
            .kernels
            .iter()
            .zip(&curves.splines)
            .zip(&curves.samples)
            .map(|((k, sp), samples)| {
                json!({
                    "label": k.label,
                    "config": k.config.key(),
                    "samples": samples.len(),
                    "alpha": sp.as_ref().map(|s| s.alpha),
                    "gcv": sp.as_ref().map(|s| s.gcv),
                    "dof": sp.as_ref().map(|s| s.dof),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "job": f.job.name,
                "kernel": f.job.kernel,
                "device": f.device.name,
                "alpha": if args.alpha.is_some() { "given" } else { "gcv" },
                "fits": fits,
                "missing_points": f.misses,
                "rule": f.rule,
            }))?
        );
        return Ok(exit::OK);
    }
    let rule = &f.rule;
    println!(
        "rule `{}` for kernel `{}` on {}: {} <= N <= {}, grid step {}, merge tolerance {:.1}%",
        rule.name,
        f.job.kernel,
        f.device.name,
        rule.lo,
        rule.hi,
        curves.grid.step,
        100.0 * rule.tolerance
    );
    println!(
        "d-splines of ln(time) over N ({}):",
        if args.alpha.is_some() {
            "alpha given"
        } else {
            "alpha by GCV"
        }
    );
    for ((k, sp), samples) in curves
        .kernels
        .iter()
        .zip(&curves.splines)
        .zip(&curves.samples)
    {
        match sp {
            Some(s) => println!(
                "  {:<8} {} sizes, alpha {:.3e}, dof {:.1}, GCV {:.3e}  {}",
                k.label,
                samples.len(),
                s.alpha,
                s.dof,
                s.gcv,
                k.config.key()
            ),
            None => println!(
                "  {:<8} {} valid size(s): too few for a curve  {}",
                k.label,
                samples.len(),
                k.config.key()
            ),
        }
    }
    if f.misses > 0 {
        println!(
            "({} point(s) of the job are missing from the database)",
            f.misses
        );
    }
    print!("{}", interval_table(&f));
    Ok(exit::OK)
}
