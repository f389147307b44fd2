//! How far the jobs stored in a database have got: finished or not, how many
//! measurements they hold, and how many evaluations the search of each
//! (shard of a) job plans. What `hone tune --status` shows for the shards of
//! a job run on a cluster, read while the shards are still writing.

use crate::db::{DbError, TuningDb};
use crate::job::{JobError, JobSpec};
use serde::Serialize;

/// One stored job (or shard of a job).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JobProgress {
    pub name: String,
    /// `(i, n)`: shard `i` of `n`; `(0, 1)` for a whole job.
    pub shard: (u32, u32),
    /// The run reached its end (a shard: its search; a whole job: its rule).
    pub finished: bool,
    /// Measurements stored, valid or not.
    pub measurements: usize,
    /// Evaluations the search of this shard plans, when its strategy knows.
    pub planned_search: Option<usize>,
}

/// Why the progress of a database could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProgressError {
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Job(#[from] JobError),
    #[error("job `{0}` names a device the database does not hold")]
    MissingDevice(String),
}

/// The progress of every job in `db`, in the order they were created.
pub fn job_progress(db: &TuningDb) -> Result<Vec<JobProgress>, ProgressError> {
    let mut out = Vec::new();
    for job in db.jobs()? {
        let origin = format!("job `{}` in the database", job.name);
        let spec = JobSpec::from_json(&job.spec_json, &origin)?;
        let device = db
            .device(&job.device_uuid)?
            .ok_or_else(|| ProgressError::MissingDevice(job.name.clone()))?;
        let shard = (job.shard_index, job.shard_count);
        out.push(JobProgress {
            planned_search: spec.planned_search(&device, shard)?,
            measurements: db.measurement_count(job.id)?,
            finished: job.status == "finished",
            shard,
            name: job.name,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::DeviceInfo;
    use crate::job::run_job;
    use crate::measure::{Evaluator, Measurement, Stop};
    use crate::space::DeviceProps;
    use crate::synthetic::{SyntheticEvaluator, SyntheticModel};
    use crate::{Config, ProblemKey};
    use std::path::Path;

    const JOB: &str = r#"
name = "small"
sizes = [1000, 4000]
strategy = { kind = "champion", top_k = 2, depth = 5 }

[kernel]
name = "k"

[[param]]
name = "A"
values = [1, 2, 3, 4, 5]

[[param]]
name = "B"
values = [1, 2]
"#;

    /// The synthetic model, stopping the run after `left` measurements.
    struct Interrupted {
        inner: SyntheticEvaluator,
        left: usize,
    }

    impl Evaluator for Interrupted {
        fn evaluate(&mut self, c: &Config, k: &ProblemKey) -> Result<Measurement, Stop> {
            if self.left == 0 {
                return Err(Stop::Limit(0));
            }
            self.left -= 1;
            self.inner.evaluate(c, k)
        }
    }

    #[test]
    fn shards_report_their_measurements_against_their_plan() {
        let spec = JobSpec::from_toml(JOB, "job.toml").unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let db = TuningDb::open_in_memory().unwrap();
        let mut done = SyntheticEvaluator::new(SyntheticModel::Generic, 1);
        run_job(
            &spec,
            Path::new("."),
            &device,
            &db,
            &mut done,
            (0, 3),
            &mut |_| {},
        )
        .unwrap();
        let mut cut = Interrupted {
            inner: SyntheticEvaluator::new(SyntheticModel::Generic, 1),
            left: 3,
        };
        let stopped = run_job(
            &spec,
            Path::new("."),
            &device,
            &db,
            &mut cut,
            (1, 3),
            &mut |_| {},
        );
        assert!(stopped.is_err());
        let p = job_progress(&db).unwrap();
        // Ten configurations in three slices (4, 3, 3), each at two sizes.
        assert_eq!(
            p,
            vec![
                JobProgress {
                    name: "small".into(),
                    shard: (0, 3),
                    finished: true,
                    measurements: 8,
                    planned_search: Some(8),
                },
                JobProgress {
                    name: "small".into(),
                    shard: (1, 3),
                    finished: false,
                    measurements: 3,
                    planned_search: Some(6),
                },
            ]
        );
    }
}
