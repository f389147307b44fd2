//! Progress across the shards of a run: each shard's database (finished or
//! not, measurements against the search's plan) and what Slurm still holds
//! of the run's jobs; then the merge and its results.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::error::SlurmError;
use crate::layout::Layout;
use crate::manifest::Manifest;
use crate::queue::{Queue, QueuedTask};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShardState {
    /// No submission has included it yet.
    NotSubmitted,
    /// Waiting in the queue.
    Queued,
    Running,
    /// Submitted, no longer queued, and not finished: it failed, ran out of
    /// time or was cancelled; a re-submission runs it again, resuming.
    Stopped,
    Finished,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShardStatus {
    pub index: u32,
    pub state: ShardState,
    /// Measurements in its database (none before it started).
    pub measurements: Option<usize>,
    /// Evaluations its search plans.
    pub planned: Option<usize>,
    /// Its task in the queue.
    pub queued: Option<QueuedTask>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MergeState {
    NotSubmitted,
    /// Queued behind the shards.
    Waiting,
    /// Queued, but a task it depends on failed: it will never start.
    NeverStarts,
    Running,
    /// Submitted, gone from the queue, and no finished job in the merged
    /// database: see its log.
    Stopped,
    Finished,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    pub job: String,
    pub dir: PathBuf,
    pub shards: Vec<ShardStatus>,
    pub merge: MergeState,
    /// The latest merge job in the queue.
    pub merge_queued: Option<QueuedTask>,
    /// The latest merge job's id.
    pub merge_job: Option<String>,
    /// Results the merge job wrote (rule, run, plots).
    pub results: Vec<PathBuf>,
    /// Why the queue could not be read, when it could not (the databases
    /// still tell what is finished).
    pub queue_error: Option<String>,
}

fn database_error(path: PathBuf) -> impl FnOnce(hone_tuner::ProgressError) -> SlurmError {
    move |source| SlurmError::Database {
        path,
        source: Box::new(source),
    }
}

/// The progress of job `name` shard `shard` stored at `path`, if the file
/// exists: (finished, measurements, planned).
fn shard_progress(
    path: &std::path::Path,
    name: &str,
    shard: (u32, u32),
) -> Result<Option<(bool, usize, Option<usize>)>, SlurmError> {
    if !path.is_file() {
        return Ok(None);
    }
    let db = hone_tuner::TuningDb::open(path)
        .map_err(|e| database_error(path.to_path_buf())(e.into()))?;
    let progress = hone_tuner::job_progress(&db).map_err(database_error(path.to_path_buf()))?;
    Ok(progress
        .into_iter()
        .find(|p| p.name == name && p.shard == shard)
        .map(|p| (p.finished, p.measurements, p.planned_search)))
}

impl Status {
    /// Reads the run in `layout` (its manifest, databases and the queue).
    pub fn read(layout: &Layout, queue: &mut dyn Queue) -> Result<Status, SlurmError> {
        let manifest = Manifest::load(layout)?;
        let (queued, queue_error) = match queue.queued() {
            Ok(q) => (q, None),
            Err(e) => (Vec::new(), Some(e.to_string())),
        };
        let arrays: Vec<&str> = manifest.arrays().collect();
        let mut shards = Vec::new();
        for i in 0..manifest.shards {
            let progress =
                shard_progress(&layout.shard_db(i), &manifest.job, (i, manifest.shards))?;
            let task = queued
                .iter()
                .find(|t| t.task == Some(i) && arrays.contains(&t.job.as_str()))
                .cloned();
            let submitted = manifest.submissions.iter().any(|s| s.shards.contains(&i));
            let state = match (&progress, &task) {
                (Some((true, _, _)), _) => ShardState::Finished,
                (_, Some(t)) if t.state == "RUNNING" || t.state == "COMPLETING" => {
                    ShardState::Running
                }
                (_, Some(_)) => ShardState::Queued,
                _ if submitted => ShardState::Stopped,
                _ => ShardState::NotSubmitted,
            };
            shards.push(ShardStatus {
                index: i,
                state,
                measurements: progress.map(|p| p.1),
                planned: progress.and_then(|p| p.2),
                queued: task,
            });
        }
        let merge_job = manifest.submissions.last().map(|s| s.merge.clone());
        let merge_queued = merge_job
            .as_ref()
            .and_then(|id| queued.iter().find(|t| &t.job == id && t.task.is_none()))
            .cloned();
        let merged = shard_progress(&layout.merged_db(), &manifest.job, (0, 1))?;
        let mut results: Vec<PathBuf> = [
            layout.tune_json(),
            layout.rule_json(),
            layout.rule_rust(),
            layout.rule_c(),
            layout.report(),
        ]
        .into_iter()
        .filter(|p| p.exists())
        .collect();
        let done = merged.is_some_and(|m| m.0)
            && layout.tune_json().is_file()
            && (!manifest.has_sampling || layout.rule_json().is_file());
        let merge = match (&merge_queued, &merge_job) {
            (Some(t), _) if t.state == "RUNNING" || t.state == "COMPLETING" => MergeState::Running,
            (Some(t), _) if t.never_starts() => MergeState::NeverStarts,
            (Some(_), _) => MergeState::Waiting,
            _ if done => MergeState::Finished,
            (None, Some(_)) => MergeState::Stopped,
            (None, None) => MergeState::NotSubmitted,
        };
        if merge != MergeState::Finished {
            results.clear();
        }
        Ok(Status {
            job: manifest.job,
            dir: layout.dir.clone(),
            shards,
            merge,
            merge_queued,
            merge_job,
            results,
            queue_error,
        })
    }

    /// Whether every shard finished and the merge wrote its results.
    pub fn complete(&self) -> bool {
        self.merge == MergeState::Finished
            && self.shards.iter().all(|s| s.state == ShardState::Finished)
    }

    /// The status as `hone tune --status` prints it.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "job `{}`: {} shard(s) in {}",
            self.job,
            self.shards.len(),
            self.dir.display()
        );
        if let Some(e) = &self.queue_error {
            let _ = writeln!(s, "queue not read ({e}); states are from the databases");
        }
        let _ = writeln!(
            s,
            "{:<6} {:<14} {:>21}  queue",
            "shard", "state", "measurements"
        );
        for sh in &self.shards {
            let measured = match (sh.measurements, sh.planned) {
                (Some(m), Some(p)) => {
                    format!("{m}/{p} ({:.0}%)", 100.0 * m as f64 / p.max(1) as f64)
                }
                (Some(m), None) => m.to_string(),
                (None, _) => "-".into(),
            };
            let queue = sh
                .queued
                .as_ref()
                .map(|t| format!("{} {} ({})", t.id, t.state, t.reason))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "{:<6} {:<14} {:>21}  {}",
                sh.index,
                state_name(sh.state),
                measured,
                queue
            );
        }
        let finished = self
            .shards
            .iter()
            .filter(|s| s.state == ShardState::Finished)
            .count();
        let measured: usize = self.shards.iter().filter_map(|s| s.measurements).sum();
        let planned: Option<usize> = self.shards.iter().map(|s| s.planned).sum();
        let _ = writeln!(
            s,
            "search: {finished} of {} shard(s) finished, {measured}{} measurement(s)",
            self.shards.len(),
            match planned {
                Some(p) if finished < self.shards.len() => format!(" of {p} planned"),
                _ => String::new(),
            }
        );
        let job = self
            .merge_queued
            .as_ref()
            .map(|t| format!(" (job {}: {} {})", t.id, t.state, t.reason))
            .or_else(|| self.merge_job.as_ref().map(|j| format!(" (job {j})")))
            .unwrap_or_default();
        let _ = writeln!(s, "merge and fit: {}{job}", merge_name(self.merge));
        if !self.results.is_empty() {
            let _ = writeln!(
                s,
                "results: {}",
                self.results
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if self.shards.iter().any(|s| s.state == ShardState::Stopped)
            || matches!(self.merge, MergeState::NeverStarts | MergeState::Stopped)
        {
            let _ = writeln!(
                s,
                "to run what is missing: hone tune --slurm {} --submit",
                self.dir.display()
            );
        }
        s
    }
}

fn state_name(s: ShardState) -> &'static str {
    match s {
        ShardState::NotSubmitted => "not submitted",
        ShardState::Queued => "queued",
        ShardState::Running => "running",
        ShardState::Stopped => "stopped",
        ShardState::Finished => "finished",
    }
}

fn merge_name(s: MergeState) -> &'static str {
    match s {
        MergeState::NotSubmitted => "not submitted",
        MergeState::Waiting => "waiting for the shards",
        MergeState::NeverStarts => "will never start (a shard task failed)",
        MergeState::Running => "running",
        MergeState::Stopped => "stopped without results (see logs/merge-*.out)",
        MergeState::Finished => "finished",
    }
}
