//! Resuming after a crash, and merging sharded runs.
//!
//! The crash is real: the test binary starts itself as a child process that
//! runs the job and aborts in the middle of an evaluation. Measurements
//! committed before the abort must survive, and the resumed run must measure
//! exactly what is missing.

use hone_tuner::config::Config;
use hone_tuner::db::{DeviceInfo, TuningDb};
use hone_tuner::job::{run_job, JobSpec};
use hone_tuner::key::ProblemKey;
use hone_tuner::measure::{Counting, Evaluator, Measurement, Stop};
use hone_tuner::space::DeviceProps;
use hone_tuner::synthetic::{SyntheticEvaluator, SyntheticModel};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const JOB: &str = r#"
name = "symv-resume"
sizes = [1000, 4000]
strategy = { kind = "exhaustive" }
constraints = ["MULTIPLICITY * 8 * (UX + max(BLOCK_SIZE * UX, UX * UX)) <= unified_l1_smem_per_sm"]

[kernel]
name = "symv"

[[param]]
name = "BLOCK_SIZE"
values = [64, 128, 256]

[[param]]
name = "UX"
range = { start = 8, end = 24, step = 4 }

[[param]]
name = "MULTIPLICITY"
range = { start = 1, end = 8 }
"#;

const CRASH_DB: &str = "HONE_TUNER_TEST_CRASH_DB";
const CRASH_AFTER: usize = 37;

fn spec() -> JobSpec {
    JobSpec::from_toml(JOB, "resume.toml").unwrap()
}

fn device() -> DeviceInfo {
    DeviceInfo::synthetic("k20", DeviceProps::tesla_k20())
}

fn synthetic() -> SyntheticEvaluator {
    SyntheticEvaluator::new(SyntheticModel::symv_k20(), 7)
}

/// Aborts the process in the middle of its `limit`-th evaluation.
struct CrashAfter {
    inner: SyntheticEvaluator,
    calls: usize,
    limit: usize,
}

impl Evaluator for CrashAfter {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
        self.calls += 1;
        if self.calls == self.limit {
            std::process::abort();
        }
        self.inner.evaluate(config, key)
    }
}

/// The child half of `resume_after_a_crash_measures_only_what_is_missing`; it
/// only runs when that test starts it.
#[test]
#[ignore = "started as a child process by resume_after_a_crash_measures_only_what_is_missing"]
fn crashing_child() {
    let path =
        std::env::var(CRASH_DB).expect("run by the parent test, which sets the database path");
    let db = TuningDb::open(&path).unwrap();
    let mut eval = CrashAfter {
        inner: synthetic(),
        calls: 0,
        limit: CRASH_AFTER,
    };
    let _ = run_job(
        &spec(),
        Path::new("."),
        &device(),
        &db,
        &mut eval,
        (0, 1),
        &mut |_| {},
    );
    unreachable!("the evaluator aborts before the job ends");
}

type PointSet = BTreeMap<(String, u64), String>;

fn points(db: &TuningDb, job: i64) -> PointSet {
    db.measurements(job)
        .unwrap()
        .into_iter()
        .map(|m| ((m.config.key(), m.size), format!("{:?}", m.measurement)))
        .collect()
}

#[test]
fn resume_after_a_crash_measures_only_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tuning.db");
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "crashing_child", "--ignored", "--test-threads=1"])
        .env(CRASH_DB, &path)
        .output()
        .unwrap();
    assert!(!out.status.success(), "the child must die mid-run");

    let db = TuningDb::open(&path).unwrap();
    let job = db.job_id("symv-resume").unwrap().unwrap();
    let before = points(&db, job);
    // Every evaluation before the aborted one was committed.
    assert_eq!(before.len(), CRASH_AFTER - 1);
    assert_eq!(db.jobs().unwrap()[0].status, "running");

    let mut counting = Counting::new(synthetic());
    let report = run_job(
        &spec(),
        Path::new("."),
        &device(),
        &db,
        &mut counting,
        (0, 1),
        &mut |_| {},
    )
    .unwrap();
    assert!(report.resumed);
    let total = report.valid_configs * 2;
    assert_eq!(report.reused, CRASH_AFTER - 1);
    assert_eq!(counting.calls, total - (CRASH_AFTER - 1));
    assert_eq!(report.measured, counting.calls);

    // The same set as a run that was never interrupted.
    let fresh = TuningDb::open_in_memory().unwrap();
    let whole = run_job(
        &spec(),
        Path::new("."),
        &device(),
        &fresh,
        &mut synthetic(),
        (0, 1),
        &mut |_| {},
    )
    .unwrap();
    let after = points(&db, job);
    assert_eq!(after.len(), total);
    assert_eq!(after, points(&fresh, whole.job_id));
    assert_eq!(db.jobs().unwrap()[0].status, "finished");
}

#[test]
fn sharded_runs_merge_into_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let n = 3u32;
    let mut shard_sizes = Vec::new();
    for i in 0..n {
        let db = TuningDb::open(dir.path().join(format!("shard{i}.db"))).unwrap();
        let r = run_job(
            &spec(),
            Path::new("."),
            &device(),
            &db,
            &mut synthetic(),
            (i, n),
            &mut |_| {},
        )
        .unwrap();
        shard_sizes.push(r.candidates);
    }
    let mut merged = TuningDb::open(dir.path().join("merged.db")).unwrap();
    let mut inserted = 0;
    for i in 0..n {
        let rep = merged
            .merge_from(&dir.path().join(format!("shard{i}.db")))
            .unwrap();
        assert_eq!(rep.duplicates, 0);
        inserted += rep.inserted;
    }
    // Merging a shard twice adds nothing.
    let again = merged.merge_from(&dir.path().join("shard0.db")).unwrap();
    assert_eq!((again.inserted, again.duplicates), (0, shard_sizes[0] * 2));

    let fresh = TuningDb::open_in_memory().unwrap();
    let whole = run_job(
        &spec(),
        Path::new("."),
        &device(),
        &fresh,
        &mut synthetic(),
        (0, 1),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(shard_sizes.iter().sum::<usize>(), whole.valid_configs);
    assert_eq!(inserted, whole.valid_configs * 2);
    let job = merged.job_id("symv-resume").unwrap().unwrap();
    assert_eq!(points(&merged, job), points(&fresh, whole.job_id));

    // Finishing on the merged database measures nothing: the shards did it all.
    let mut counting = Counting::new(synthetic());
    let fin = run_job(
        &spec(),
        Path::new("."),
        &device(),
        &merged,
        &mut counting,
        (0, 1),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(counting.calls, 0);
    assert_eq!(fin.reused, whole.valid_configs * 2);
    assert_eq!(
        fin.search.best().map(|b| b.index),
        whole.search.best().map(|b| b.index)
    );

    // Exports of the merged job.
    let csv = dir.path().join("merged.csv");
    merged.export_csv(job, &csv).unwrap();
    let rec = hone_tuner::replay::Recording::load(&csv).unwrap();
    assert_eq!(rec.records.len(), whole.valid_configs * 2);
    let t4 = merged.export_t4(job, Some(4000)).unwrap();
    assert_eq!(t4["results"].as_array().unwrap().len(), whole.valid_configs);
}
