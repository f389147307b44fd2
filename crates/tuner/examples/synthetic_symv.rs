//! Runs the whole pipeline on the synthetic SYMV backend: champion sieve over
//! the paper's space, sequential sampling of the top 10 plus the L+U kernel,
//! d-splines, the rule, and its JSON, Rust, C and SVG forms.
//!
//! `cargo run --release -p hone-tuner --example synthetic_symv -- OUT_DIR`

use hone_tuner::job::{run_whole_job, JobSpec};
use hone_tuner::plot::{render_svg, PlotOptions, YAxis};
use hone_tuner::{DeviceInfo, DeviceProps, SyntheticEvaluator, SyntheticModel, TuningDb};
use std::path::PathBuf;

const JOB: &str = r#"
name = "symv-synthetic"
sizes = { lo = 1000, hi = 10000, count = 4 }
strategy = { kind = "champion", top_k = 10, depth = 25 }
constraints = ["MULTIPLICITY * 8 * (UX + max(BLOCK_SIZE * UX, UX * UX)) <= unified_l1_smem_per_sm"]

[kernel]
name = "symv"

[[param]]
name = "BLOCK_SIZE"
range = { start = 32, end = 256, step = 32 }

[[param]]
name = "UX"
range = { start = 8, end = 32 }

[[param]]
name = "MULTIPLICITY"
range = { start = 1, end = 8 }

[[param]]
name = "MX"
range = { start = 0, end = 9 }

[sampling]
lo = 100
hi = 10000
mode = "sequential"
extra = [{ label = "Rank 0", config = { ALGO = "lu" } }]
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "symv-out".into()));
    std::fs::create_dir_all(&out)?;
    let spec = JobSpec::from_toml(JOB, "synthetic_symv.toml")?;
    let db = TuningDb::open(out.join("tuning.db"))?;
    let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
    let mut eval = SyntheticEvaluator::new(SyntheticModel::symv_k20(), 1);
    let start = std::time::Instant::now();
    let report = run_whole_job(&spec, ".".as_ref(), &device, &db, &mut eval)?;
    let rule = report.rule.as_ref().ok_or("the job has a sampling phase")?;
    let sampling = report
        .sampling
        .as_ref()
        .ok_or("the job has a sampling phase")?;
    println!(
        "{} valid configurations; {} measured, {} reused; {} sizes sampled; {:?}",
        report.valid_configs,
        report.measured,
        report.reused,
        sampling.sizes.len(),
        start.elapsed()
    );
    print!("{}", rule.to_table());
    rule.save(out.join("rule.json"))?;
    std::fs::write(out.join("rule.rs"), rule.to_rust())?;
    std::fs::write(out.join("rule.h"), rule.to_c_header())?;
    let opts = PlotOptions {
        title: "SYMV (synthetic K20): d-splines of the top kernels and the rule".into(),
        y: YAxis::rate("2 * N * N", 1e9, "GFLOP/s")?,
        ..Default::default()
    };
    std::fs::write(
        out.join("symv.svg"),
        render_svg(&sampling.curves, rule, &opts),
    )?;
    db.export_t4(report.job_id, None)
        .map(|v| std::fs::write(out.join("t4.json"), v.to_string()))??;
    Ok(())
}
