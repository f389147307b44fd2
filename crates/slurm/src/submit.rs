//! Writing a run's directory, and (re-)submitting it: the shards that are
//! neither finished nor queued go into a new array, and a new merge job
//! waits for them and for the tasks of earlier submissions still queued. An
//! earlier merge job still waiting is cancelled (the new one replaces it).

use std::path::PathBuf;

use serde::Serialize;

use crate::error::{io, SlurmError};
use crate::layout::Layout;
use crate::manifest::{Manifest, Submission};
use crate::queue::Queue;
use crate::script::{array_spec, merge_script, shards_script};
use crate::settings::{Resources, TuneCommand};
use crate::status::{MergeState, ShardState, Status};

/// What [`write_run`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub layout: Layout,
    pub shards_script: PathBuf,
    pub merge_script: PathBuf,
    /// The scripts were there already, as these settings write them.
    pub unchanged: bool,
}

/// Writes the scripts and the manifest of a run into `dir` (created if
/// missing). Scripts already there are kept when they are what these
/// settings write, and refused when they differ (a user's edits are never
/// overwritten); a run's shard count cannot change once shards have data.
pub fn write_run(
    dir: &std::path::Path,
    cmd: &TuneCommand,
    res: &Resources,
) -> Result<Written, SlurmError> {
    res.check()?;
    cmd.check()?;
    let layout = Layout::new(dir).absolute().map_err(io(dir))?;
    let shards = shards_script(&layout, cmd, res)?;
    let merge = merge_script(&layout, cmd, res)?;
    let old = match layout.manifest().is_file() {
        true => Some(Manifest::load(&layout)?),
        false => None,
    };
    if let Some(m) = &old {
        if m.job != cmd.job_name {
            return Err(SlurmError::Conflict {
                path: layout.manifest(),
                message: format!(
                    "this directory holds a run of job `{}`, not `{}`; choose another directory",
                    m.job, cmd.job_name
                ),
            });
        }
        let started = (0..m.shards).any(|i| layout.shard_db(i).exists());
        if m.shards != res.shards && started {
            return Err(SlurmError::Conflict {
                path: layout.manifest(),
                message: format!(
                    "this run has {} shards with data; give --shards {} (or choose another directory)",
                    m.shards, m.shards
                ),
            });
        }
    }
    for dir in [layout.dir.clone(), layout.logs(), layout.shards_dir()] {
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    }
    let mut unchanged = true;
    for (path, text) in [
        (layout.shards_script(), &shards),
        (layout.merge_script(), &merge),
    ] {
        match std::fs::read_to_string(&path) {
            Ok(existing) if &existing == text => {}
            Ok(_) => {
                return Err(SlurmError::Conflict {
                    path,
                    message: format!(
                        "exists and differs from what these options write (edited?); remove it \
                         to write it anew, or submit the scripts as they are with \
                         `hone tune --slurm {} --submit`",
                        layout.dir.display()
                    ),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::write(&path, text).map_err(io(&path))?;
                unchanged = false;
            }
            Err(e) => return Err(io(&path)(e)),
        }
    }
    Manifest {
        job: cmd.job_name.clone(),
        job_file: cmd.job_file.clone(),
        shards: res.shards,
        has_sampling: cmd.has_sampling,
        max_parallel: res.max_parallel,
        submissions: old.map(|m| m.submissions).unwrap_or_default(),
    }
    .save(&layout)?;
    Ok(Written {
        shards_script: layout.shards_script(),
        merge_script: layout.merge_script(),
        layout,
        unchanged,
    })
}

/// What a submission sends, decided from the run's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubmitPlan {
    /// Shards to run in a new array.
    pub shards: Vec<u32>,
    /// Queued tasks of earlier submissions the new merge waits for too.
    pub after: Vec<String>,
    /// Earlier merge jobs still queued, which the new one replaces.
    pub cancel: Vec<String>,
    /// Whether a merge job is submitted.
    pub merge: bool,
    /// Why nothing is submitted, when nothing is.
    pub nothing: Option<String>,
}

/// Decides what to submit. A running merge job refuses a submission: its
/// results would race the new one's.
pub fn plan_submission(status: &Status) -> Result<SubmitPlan, SlurmError> {
    if status.merge == MergeState::Running {
        return Err(SlurmError::Conflict {
            path: status.dir.clone(),
            message: format!(
                "the merge job {} is running; wait for it (hone tune --status {})",
                status.merge_job.as_deref().unwrap_or("?"),
                status.dir.display()
            ),
        });
    }
    let shards: Vec<u32> = status
        .shards
        .iter()
        .filter(|s| matches!(s.state, ShardState::NotSubmitted | ShardState::Stopped))
        .map(|s| s.index)
        .collect();
    let after: Vec<String> = status
        .shards
        .iter()
        .filter(|s| matches!(s.state, ShardState::Queued | ShardState::Running))
        .filter_map(|s| s.queued.as_ref().map(|t| t.id.clone()))
        .collect();
    let nothing = if status.complete() {
        Some(format!(
            "the run is finished; its results are in {}",
            status.dir.display()
        ))
    } else if shards.is_empty() && status.merge == MergeState::Waiting {
        Some(format!(
            "every shard is finished or queued and the merge job {} waits for them",
            status.merge_job.as_deref().unwrap_or("?")
        ))
    } else {
        None
    };
    if let Some(reason) = nothing {
        return Ok(SubmitPlan {
            shards: Vec::new(),
            after: Vec::new(),
            cancel: Vec::new(),
            merge: false,
            nothing: Some(reason),
        });
    }
    let cancel = match (&status.merge_queued, status.merge) {
        (Some(t), MergeState::Waiting | MergeState::NeverStarts) => vec![t.id.clone()],
        _ => Vec::new(),
    };
    Ok(SubmitPlan {
        shards,
        after,
        cancel,
        merge: true,
        nothing: None,
    })
}

/// Submits what the run in `dir` is missing; the plan, and the submission
/// made (none when there was nothing to do).
pub fn submit(
    dir: &std::path::Path,
    queue: &mut dyn Queue,
) -> Result<(SubmitPlan, Option<Submission>), SlurmError> {
    let layout = Layout::new(dir).absolute().map_err(io(dir))?;
    let mut manifest = Manifest::load(&layout)?;
    let status = Status::read(&layout, queue)?;
    if let Some(e) = &status.queue_error {
        // Without the queue, tasks still running would be submitted twice.
        return Err(SlurmError::Command {
            command: "squeue".into(),
            message: format!("{e}; the queue must be readable to submit"),
        });
    }
    let plan = plan_submission(&status)?;
    if !plan.merge {
        return Ok((plan, None));
    }
    for id in &plan.cancel {
        queue.cancel(id)?;
    }
    let array = if plan.shards.is_empty() {
        None
    } else {
        let mut spec = array_spec(&plan.shards);
        if let Some(k) = manifest.max_parallel {
            spec.push_str(&format!("%{k}"));
        }
        Some(queue.sbatch(&[format!("--array={spec}")], &layout.shards_script())?)
    };
    let deps: Vec<String> = array.iter().cloned().chain(plan.after.clone()).collect();
    let options = if deps.is_empty() {
        Vec::new()
    } else {
        vec![format!("--dependency=afterok:{}", deps.join(":"))]
    };
    let merge = match queue.sbatch(&options, &layout.merge_script()) {
        Ok(id) => id,
        Err(e) => {
            // The array is queued: say so, so that it is not submitted again.
            return Err(SlurmError::Command {
                command: "sbatch merge.sbatch".into(),
                message: format!(
                    "{e}; the shards' array {} is queued: submit merge.sbatch by hand with {}",
                    array.as_deref().unwrap_or("-"),
                    options.join(" ")
                ),
            });
        }
    };
    let submission = Submission {
        submitted: hone_tuner::db::rfc3339(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0),
        ),
        array,
        shards: plan.shards.clone(),
        after: plan.after.clone(),
        merge,
    };
    manifest.submissions.push(submission.clone());
    manifest.save(&layout)?;
    Ok((plan, Some(submission)))
}
