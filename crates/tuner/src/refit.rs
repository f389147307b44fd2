//! Fitting a job's curves and rule again from its stored measurements (what
//! `hone rule` and `hone report` show), and finding the job in a database.
//!
//! The fit is a replay of the job against its own measurements: the same
//! strategy picks the same champions from the same search data, and the
//! sampling phase fits d-splines to the same samples, so the rule is the one
//! the tuning run derived unless the smoothing or merge tolerance is
//! overridden.

use crate::db::{DbError, DeviceInfo, JobRow, TuningDb};
use crate::job::{run_whole_job, JobError, JobSpec};
use crate::replay::ReplayEvaluator;
use crate::rule::Rule;
use crate::sampling::SamplingResult;
use std::path::Path;

/// Why no fit came out.
#[derive(Debug, thiserror::Error)]
pub enum RefitError {
    #[error("{0}")]
    Job(String),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Run(#[from] JobError),
}

fn fail<T>(message: String) -> Result<T, RefitError> {
    Err(RefitError::Job(message))
}

/// The job of `db` for `kernel` and/or `job` name. Without either, the
/// database must hold one job name. Of the jobs of that name (one per
/// device and shard), the unsharded job is preferred over shards, then a
/// finished one over one a run left unfinished (on another board), then
/// the newest.
pub fn select_job(
    db: &TuningDb,
    kernel: Option<&str>,
    job: Option<&str>,
) -> Result<JobRow, RefitError> {
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
        0 if jobs.is_empty() => return fail("the tuning database holds no job".into()),
        0 => {
            return fail(format!(
                "no job matches{}{}; the database holds {}",
                kernel.map(|k| format!(" kernel `{k}`")).unwrap_or_default(),
                job.map(|n| format!(" job `{n}`")).unwrap_or_default(),
                describe(&jobs)
            ))
        }
        1 => {}
        _ => {
            return fail(format!(
                "several jobs match: {}; choose one with --job",
                names.join(", ")
            ))
        }
    }
    let best = matching
        .into_iter()
        .min_by_key(|j| {
            (
                j.shard_count,
                j.status != "finished",
                j.shard_index,
                std::cmp::Reverse(j.id),
            )
        })
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
) -> Result<Fitted, RefitError> {
    if let Some(a) = alpha {
        if !a.is_finite() || a < 0.0 {
            return fail(format!("--alpha must be a finite number >= 0, got {a}"));
        }
    }
    if let Some(t) = tolerance {
        if !t.is_finite() || t < 0.0 {
            return fail(format!("--tolerance must be a finite number >= 0, got {t}"));
        }
    }
    let origin = format!("job `{}` in the database", job.name);
    let mut spec = JobSpec::from_json(&job.spec_json, &origin)?;
    let device = db.device(&job.device_uuid)?.ok_or_else(|| {
        RefitError::Job(format!(
            "{origin} names a device the database does not hold"
        ))
    })?;
    let Some(sampling) = spec.sampling.as_mut() else {
        return fail(format!(
            "{origin} has no sampling phase: there are no curves to fit"
        ));
    };
    if let Some(t) = tolerance {
        sampling.tolerance = t;
    }
    if alpha.is_some() {
        spec.alpha = alpha;
    }
    // The template and source files are needed only to identify the source
    // of a new measurement; this fit measures nothing, and runs from
    // anywhere (relative paths in the job need not resolve).
    spec.kernel.template = None;
    spec.kernel.sources.clear();
    let recording = db.recording(job.id)?;
    let mut replay = ReplayEvaluator::new(&recording);
    let scratch = TuningDb::open_in_memory()?;
    let report = run_whole_job(&spec, Path::new("."), &device, &scratch, &mut replay)?;
    let sampling = report
        .sampling
        .clone()
        .ok_or_else(|| RefitError::Job(format!("{origin}: the sampling phase did not run")))?;
    if sampling.curves.splines.iter().all(Option::is_none) {
        return fail(format!(
            "{origin}: no kernel has valid measurements at three or more sizes of the sampling \
             range ({} point(s) missing); run `hone tune` on this database to finish the job \
             (after merging its shards)",
            replay.misses
        ));
    }
    let rule = report
        .rule
        .clone()
        .ok_or_else(|| RefitError::Job(format!("{origin}: no rule was derived")))?;
    Ok(Fitted {
        job,
        device,
        sampling,
        rule,
        misses: replay.misses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::tests::small_job;
    use crate::space::DeviceProps;
    use crate::synthetic::{SyntheticEvaluator, SyntheticModel};

    #[test]
    fn a_job_with_sources_refits_without_its_files() {
        // The files sit beside the job, not in the working directory: a
        // refit reads none of them (it measures nothing).
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("refit-k.cu"), "// kernel").unwrap();
        std::fs::write(dir.path().join("refit-k.cuh"), "// header").unwrap();
        let spec = small_job(
            "with-sources",
            "[1000, 4000]",
            "[1, 2, 3, 4]",
            "name = \"k\"\ntemplate = \"refit-k.cu\"\nsources = [\"refit-k.cuh\"]",
        );
        let db = TuningDb::open_in_memory().unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let mut eval = SyntheticEvaluator::new(SyntheticModel::Generic, 5);
        let run = run_whole_job(&spec, dir.path(), &device, &db, &mut eval).unwrap();
        assert!(!Path::new("refit-k.cuh").exists());
        let job = select_job(&db, None, Some("with-sources")).unwrap();
        let fitted = refit(&db, job, None, None).unwrap();
        assert_eq!(Some(fitted.rule), run.rule);
    }

    #[test]
    fn a_finished_job_is_chosen_over_one_left_unfinished_on_another_device() {
        let spec = small_job("twice", "[1000, 4000]", "[1, 2, 3, 4]", "name = \"k\"");
        let db = TuningDb::open_in_memory().unwrap();
        // A run on one board stopped before its sampling phase ended.
        let first = DeviceInfo::synthetic("board-a", DeviceProps::tesla_k20());
        let device_id = db.upsert_device(&first).unwrap();
        let kernel_id = db.upsert_kernel("k", "").unwrap();
        let (left, _) = db
            .open_job("twice", kernel_id, device_id, (0, 1), "{}")
            .unwrap();
        // The same job ran to the end on another board of the same model.
        let second = DeviceInfo::synthetic("board-b", DeviceProps::tesla_k20());
        let mut eval = SyntheticEvaluator::new(SyntheticModel::Generic, 5);
        let run = run_whole_job(&spec, Path::new("."), &second, &db, &mut eval).unwrap();
        let job = select_job(&db, None, Some("twice")).unwrap();
        assert_ne!(job.id, left);
        assert_eq!(job.status, "finished");
        assert_eq!(Some(refit(&db, job, None, None).unwrap().rule), run.rule);
        // A run started later on a third board and stopped: still the finished one.
        let third = DeviceInfo::synthetic("board-c", DeviceProps::tesla_k20());
        let third_id = db.upsert_device(&third).unwrap();
        let (newest, _) = db
            .open_job("twice", kernel_id, third_id, (0, 1), "{}")
            .unwrap();
        assert!(newest > left);
        let job = select_job(&db, None, Some("twice")).unwrap();
        assert_eq!(job.status, "finished");
        assert_ne!(job.id, newest);
    }
}
