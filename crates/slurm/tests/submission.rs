//! A run's directory, its status and its (re-)submissions against a queue
//! that records what it is asked and answers as Slurm would: which shards a
//! re-submission sends after a failed task, what the merge waits for, and
//! that finished work is never submitted again.

use std::path::{Path, PathBuf};

use hone_slurm::queue::QueuedTask;
use hone_slurm::{
    submit, write_run, Layout, MergeState, Queue, Resources, ShardState, SlurmError, Status,
    TuneCommand,
};
use hone_tuner::{
    run_job, Config, DeviceInfo, DeviceProps, Evaluator, JobSpec, Measurement, ProblemKey, Stop,
    SyntheticEvaluator, SyntheticModel, TuningDb,
};

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

[sampling]
lo = 1000
hi = 8000
step = 100
mode = "fixed"
count = 6
spacing = "linear"
"#;

/// A queue that holds what the test puts in it and records submissions.
#[derive(Default)]
struct FakeQueue {
    next: u32,
    held: Vec<QueuedTask>,
    submitted: Vec<(Vec<String>, PathBuf)>,
    cancelled: Vec<String>,
}

fn task(job: &str, index: Option<u32>, state: &str, reason: &str) -> QueuedTask {
    QueuedTask {
        job: job.into(),
        task: index,
        id: match index {
            Some(i) => format!("{job}_{i}"),
            None => job.into(),
        },
        state: state.into(),
        reason: reason.into(),
    }
}

impl Queue for FakeQueue {
    fn sbatch(&mut self, options: &[String], script: &Path) -> Result<String, SlurmError> {
        self.next += 1;
        self.submitted
            .push((options.to_vec(), script.to_path_buf()));
        Ok((100 + self.next).to_string())
    }

    fn queued(&mut self) -> Result<Vec<QueuedTask>, SlurmError> {
        Ok(self.held.clone())
    }

    fn cancel(&mut self, id: &str) -> Result<(), SlurmError> {
        self.cancelled.push(id.to_string());
        self.held.retain(|t| t.id != id);
        Ok(())
    }
}

fn setup(shards: u32) -> (tempfile::TempDir, Layout, TuneCommand) {
    let tmp = tempfile::tempdir().unwrap();
    let job_file = tmp.path().join("small.toml");
    std::fs::write(&job_file, JOB).unwrap();
    let cmd = TuneCommand {
        hone: PathBuf::from("/usr/bin/hone"),
        job_file,
        job_name: "small".into(),
        tune_args: Vec::new(),
        has_sampling: true,
    };
    let res = Resources {
        shards,
        gpus_per_task: 0,
        ..Resources::default()
    };
    let w = write_run(&tmp.path().join("run"), &cmd, &res).unwrap();
    assert!(!w.unchanged);
    (tmp, w.layout, cmd)
}

/// Runs shard `i` of `n` into its database, all of it or up to `limit`
/// measurements (a task killed part-way).
fn run_shard(layout: &Layout, i: u32, n: u32, limit: Option<usize>) {
    let spec = JobSpec::from_toml(JOB, "small.toml").unwrap();
    let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
    let db = TuningDb::open(layout.shard_db(i)).unwrap();
    let mut eval = Killed {
        model: SyntheticEvaluator::new(SyntheticModel::Generic, 3),
        left: limit.unwrap_or(usize::MAX),
    };
    let r = run_job(
        &spec,
        Path::new("."),
        &device,
        &db,
        &mut eval,
        (i, n),
        &mut |_| {},
    );
    assert_eq!(r.is_ok(), limit.is_none());
}

/// The synthetic model, stopping after `left` measurements.
struct Killed {
    model: SyntheticEvaluator,
    left: usize,
}

impl Evaluator for Killed {
    fn evaluate(&mut self, c: &Config, k: &ProblemKey) -> Result<Measurement, Stop> {
        if self.left == 0 {
            return Err(Stop::Limit(0));
        }
        self.left -= 1;
        self.model.evaluate(c, k)
    }
}

fn states(s: &Status) -> Vec<ShardState> {
    s.shards.iter().map(|s| s.state).collect()
}

#[test]
fn a_first_submission_sends_every_shard_and_a_dependent_merge() {
    let (_tmp, layout, _) = setup(3);
    let mut q = FakeQueue::default();
    let status = Status::read(&layout, &mut q).unwrap();
    assert_eq!(states(&status), vec![ShardState::NotSubmitted; 3]);
    assert_eq!(status.merge, MergeState::NotSubmitted);
    let (plan, sub) = submit(&layout.dir, &mut q).unwrap();
    assert_eq!(plan.shards, [0, 1, 2]);
    let sub = sub.unwrap();
    assert_eq!(
        (sub.array.as_deref(), sub.merge.as_str()),
        (Some("101"), "102")
    );
    assert_eq!(q.submitted[0].0, ["--array=0-2"]);
    assert_eq!(q.submitted[0].1, layout.shards_script());
    assert_eq!(q.submitted[1].0, ["--dependency=afterok:101"]);
    assert_eq!(q.submitted[1].1, layout.merge_script());
    // Submitted again while all of it is queued: nothing new.
    q.held = (0..3)
        .map(|i| task("101", Some(i), "PENDING", "Resources"))
        .chain([task("102", None, "PENDING", "Dependency")])
        .collect();
    let status = Status::read(&layout, &mut q).unwrap();
    assert_eq!(states(&status), vec![ShardState::Queued; 3]);
    assert_eq!(status.merge, MergeState::Waiting);
    let (plan, sub) = submit(&layout.dir, &mut q).unwrap();
    assert!(sub.is_none());
    assert!(
        plan.nothing.unwrap().contains("merge job 102 waits"),
        "{:?}",
        q.submitted
    );
    assert_eq!(q.submitted.len(), 2);
}

#[test]
fn after_a_killed_task_only_the_missing_shard_is_submitted_again() {
    let (_tmp, layout, _) = setup(4);
    let mut q = FakeQueue::default();
    submit(&layout.dir, &mut q).unwrap();
    // Shards 0 and 2 finished, shard 1 was killed part-way, shard 3 still runs;
    // the merge will never start.
    run_shard(&layout, 0, 4, None);
    run_shard(&layout, 1, 4, Some(2));
    run_shard(&layout, 2, 4, None);
    run_shard(&layout, 3, 4, Some(1));
    q.held = vec![
        task("101", Some(3), "RUNNING", "None"),
        task("102", None, "PENDING", "DependencyNeverSatisfied"),
    ];
    let status = Status::read(&layout, &mut q).unwrap();
    assert_eq!(
        states(&status),
        [
            ShardState::Finished,
            ShardState::Stopped,
            ShardState::Finished,
            ShardState::Running
        ]
    );
    // Ten configurations in four slices (3, 3, 2, 2) at two sizes.
    let counts: Vec<_> = status
        .shards
        .iter()
        .map(|s| (s.measurements, s.planned))
        .collect();
    assert_eq!(
        counts,
        [
            (Some(6), Some(6)),
            (Some(2), Some(6)),
            (Some(4), Some(4)),
            (Some(1), Some(4))
        ]
    );
    assert_eq!(status.merge, MergeState::NeverStarts);
    let text = status.to_text();
    assert!(
        text.contains("search: 2 of 4 shard(s) finished, 13 of 20 planned"),
        "{text}"
    );
    assert!(text.contains("will never start"), "{text}");
    assert!(text.contains("--submit"), "{text}");

    let (plan, sub) = submit(&layout.dir, &mut q).unwrap();
    assert_eq!(plan.shards, [1]);
    assert_eq!(plan.after, ["101_3"]);
    assert_eq!(q.cancelled, ["102"]);
    let sub = sub.unwrap();
    assert_eq!(q.submitted[2].0, ["--array=1"]);
    assert_eq!(
        q.submitted[3].0,
        [format!("--dependency=afterok:{}:101_3", sub.array.unwrap())]
    );
    let manifest = hone_slurm::Manifest::load(&layout).unwrap();
    assert_eq!(manifest.submissions.len(), 2);
}

#[test]
fn with_every_shard_finished_only_the_merge_is_submitted() {
    let (_tmp, layout, _) = setup(2);
    let mut q = FakeQueue::default();
    submit(&layout.dir, &mut q).unwrap();
    run_shard(&layout, 0, 2, None);
    run_shard(&layout, 1, 2, None);
    // The merge job ran and failed: gone from the queue, no results.
    let status = Status::read(&layout, &mut q).unwrap();
    assert_eq!(status.merge, MergeState::Stopped);
    let (plan, _) = submit(&layout.dir, &mut q).unwrap();
    assert!(plan.shards.is_empty() && plan.after.is_empty() && plan.merge);
    assert!(
        q.submitted[2].0.is_empty(),
        "no dependency: {:?}",
        q.submitted
    );
    assert_eq!(q.submitted[2].1, layout.merge_script());
    // A running merge refuses another submission.
    q.held = vec![task("103", None, "RUNNING", "None")];
    let err = submit(&layout.dir, &mut q).unwrap_err().to_string();
    assert!(err.contains("the merge job 103 is running"), "{err}");
}

#[test]
fn edited_scripts_are_kept_and_a_changed_shard_count_is_refused() {
    let (_tmp, layout, cmd) = setup(2);
    let res = Resources {
        shards: 2,
        gpus_per_task: 0,
        ..Resources::default()
    };
    // The same settings again: nothing to write.
    assert!(write_run(&layout.dir, &cmd, &res).unwrap().unchanged);
    let edited = std::fs::read_to_string(layout.shards_script()).unwrap() + "# edited by hand\n";
    std::fs::write(layout.shards_script(), &edited).unwrap();
    let err = write_run(&layout.dir, &cmd, &res).unwrap_err().to_string();
    assert!(err.contains("shards.sbatch: exists and differs"), "{err}");
    assert_eq!(
        std::fs::read_to_string(layout.shards_script()).unwrap(),
        edited
    );
    run_shard(&layout, 0, 2, Some(1));
    let err = write_run(
        &layout.dir,
        &cmd,
        &Resources {
            shards: 3,
            ..res.clone()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("this run has 2 shards with data"), "{err}");
}

#[test]
fn a_directory_without_a_run_says_how_to_make_one() {
    let tmp = tempfile::tempdir().unwrap();
    let err = Status::read(&Layout::new(tmp.path()), &mut FakeQueue::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("slurm.json: no Slurm run here"), "{err}");
}
