//! What `hone rule` and `hone report` share: finding a job in a tuning
//! database and fitting its curves and rule again from the stored
//! measurements.
//!
//! The fit is a replay of the job against its own measurements: the same
//! strategy picks the same champions from the same search data, and the
//! sampling phase fits d-splines to the same samples, so the rule is the one
//! `hone tune` derived unless the smoothing or merge tolerance is overridden.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use hone_tuner::db::JobRow;
use hone_tuner::{run_job, DeviceInfo, JobSpec, ReplayEvaluator, Rule, SamplingResult, TuningDb};

/// Opens a tuning database that must already exist (opening creates one).
pub fn open_existing(path: &Path) -> Result<TuningDb> {
    if !path.is_file() {
        bail!("{}: no such tuning database", path.display());
    }
    TuningDb::open(path).with_context(|| format!("opening {}", path.display()))
}

/// The job of `db` for `kernel` and/or `job` name. Without either, the
/// database must hold one job name. The unsharded job is preferred over shards.
pub fn select_job(db: &TuningDb, kernel: Option<&str>, job: Option<&str>) -> Result<JobRow> {
    let jobs = db.jobs()?;
    let matching: Vec<&JobRow> = jobs
        .iter()
        .filter(|j| kernel.is_none_or(|k| j.kernel == k) && job.is_none_or(|n| j.name == n))
        .collect();
    let mut names: Vec<&str> = matching.iter().map(|j| j.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let describe = |js: &[JobRow]| {
        js.iter()
            .map(|j| format!("`{}` (kernel `{}`)", j.name, j.kernel))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match names.len() {
        0 if jobs.is_empty() => bail!("the tuning database holds no job"),
        0 => bail!(
            "no job matches{}{}; the database holds {}",
            kernel.map(|k| format!(" kernel `{k}`")).unwrap_or_default(),
            job.map(|n| format!(" job `{n}`")).unwrap_or_default(),
            describe(&jobs)
        ),
        1 => {}
        _ => bail!(
            "several jobs match: {}; choose one with --job",
            names.join(", ")
        ),
    }
    let best = matching
        .into_iter()
        .min_by_key(|j| (j.shard_count, j.shard_index, j.id))
        .expect("one name matched");
    Ok(best.clone())
}

/// A job, its device, and the curves and rule fitted from its measurements.
pub struct Fitted {
    pub job: JobRow,
    pub device: DeviceInfo,
    pub sampling: SamplingResult,
    pub rule: Rule,
    /// Points the fit asked for that the database does not hold.
    pub misses: usize,
}

/// Fits the curves and the rule of `job` again, with `alpha` and `tolerance`
/// overriding the job's own settings where given.
pub fn refit(
    db: &TuningDb,
    job: JobRow,
    alpha: Option<f64>,
    tolerance: Option<f64>,
) -> Result<Fitted> {
    if let Some(a) = alpha {
        if !a.is_finite() || a < 0.0 {
            bail!("--alpha must be a finite number >= 0, got {a}");
        }
    }
    if let Some(t) = tolerance {
        if !t.is_finite() || t < 0.0 {
            bail!("--tolerance must be a finite number >= 0, got {t}");
        }
    }
    let origin = format!("job `{}` in the database", job.name);
    let mut spec = JobSpec::from_json(&job.spec_json, &origin).map_err(|e| anyhow!("{e}"))?;
    let device = db
        .device(&job.device_uuid)?
        .ok_or_else(|| anyhow!("{origin} names a device the database does not hold"))?;
    let Some(sampling) = spec.sampling.as_mut() else {
        bail!("{origin} has no sampling phase: there are no curves to fit");
    };
    if let Some(t) = tolerance {
        sampling.tolerance = t;
    }
    if alpha.is_some() {
        spec.alpha = alpha;
    }
    // The template file is needed only to identify the source of a new
    // measurement; this fit measures nothing.
    spec.kernel.template = None;
    let recording = db.recording(job.id)?;
    let mut replay = ReplayEvaluator::new(&recording);
    let scratch = TuningDb::open_in_memory()?;
    let report = run_job(
        &spec,
        Path::new("."),
        &device,
        &scratch,
        &mut replay,
        (0, 1),
        &mut |_| {},
    )
    .map_err(|e| anyhow!("{e}"))?;
    let sampling = report
        .sampling
        .clone()
        .ok_or_else(|| anyhow!("{origin}: the sampling phase did not run"))?;
    if sampling.curves.splines.iter().all(Option::is_none) {
        bail!(
            "{origin}: no kernel has valid measurements at three or more sizes of the sampling \
             range ({} point(s) missing); run `hone tune` on this database to finish the job \
             (after merging its shards)",
            replay.misses
        );
    }
    let rule = report
        .rule
        .clone()
        .ok_or_else(|| anyhow!("{origin}: no rule was derived"))?;
    Ok(Fitted {
        job,
        device,
        sampling,
        rule,
        misses: replay.misses,
    })
}
