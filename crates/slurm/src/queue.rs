//! Slurm's commands as the run uses them: `sbatch --parsable` to submit,
//! `squeue` for what is queued or running, `scancel`. The parsing of their
//! output is separate from running them, so it is tested without a cluster.

use std::path::Path;
use std::process::Command;

use serde::Serialize;

use crate::error::SlurmError;

/// A job, or one task of a job array, that Slurm still holds (pending,
/// running, suspended, completing...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueuedTask {
    /// The job's id; for an array task, the array's.
    pub job: String,
    /// The task's index in its array.
    pub task: Option<u32>,
    /// Slurm's own name for it (`123_4`).
    pub id: String,
    /// `PENDING`, `RUNNING`, ...
    pub state: String,
    /// Why it waits (`Dependency`, `Resources`, `DependencyNeverSatisfied`).
    pub reason: String,
}

impl QueuedTask {
    /// A pending job whose dependency failed: it will never start.
    pub fn never_starts(&self) -> bool {
        self.reason == "DependencyNeverSatisfied"
    }
}

/// What the run asks of the scheduler; [`Slurm`] runs the real commands.
pub trait Queue {
    /// Submits a batch script with extra options; the job's id.
    fn sbatch(&mut self, options: &[String], script: &Path) -> Result<String, SlurmError>;
    /// The user's jobs and array tasks Slurm still holds.
    fn queued(&mut self) -> Result<Vec<QueuedTask>, SlurmError>;
    fn cancel(&mut self, id: &str) -> Result<(), SlurmError>;
}

/// The Slurm client commands on `PATH` (with the environment's `SLURM_CONF`).
#[derive(Debug, Default, Clone, Copy)]
pub struct Slurm;

/// The format of `squeue` lines [`parse_squeue`] reads: array id, task
/// index, id, state, reason.
pub const SQUEUE_FORMAT: &str = "%F|%K|%i|%T|%r";

fn run(program: &str, args: &[String]) -> Result<String, SlurmError> {
    let command = std::iter::once(program.to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| SlurmError::Command {
            command: command.clone(),
            message: if e.kind() == std::io::ErrorKind::NotFound {
                format!("`{program}` is not on PATH (are Slurm's client commands installed?)")
            } else {
                e.to_string()
            },
        })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(SlurmError::Command {
            command,
            message: format!("{} ({})", stderr.trim(), out.status),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

impl Queue for Slurm {
    fn sbatch(&mut self, options: &[String], script: &Path) -> Result<String, SlurmError> {
        let mut args = vec!["--parsable".to_string()];
        args.extend(options.iter().cloned());
        args.push(script.display().to_string());
        let out = run("sbatch", &args)?;
        parse_sbatch(&out).ok_or_else(|| SlurmError::Output {
            command: format!("sbatch {}", args.join(" ")),
            output: out.trim().to_string(),
            expected: "a job id",
        })
    }

    fn queued(&mut self) -> Result<Vec<QueuedTask>, SlurmError> {
        let args: Vec<String> = ["--noheader", "--array", "--me", "--format", SQUEUE_FORMAT]
            .map(String::from)
            .to_vec();
        let out = run("squeue", &args)?;
        parse_squeue(&out).map_err(|line| SlurmError::Output {
            command: format!("squeue {}", args.join(" ")),
            output: line,
            expected: "a line of the form ARRAY|TASK|ID|STATE|REASON",
        })
    }

    fn cancel(&mut self, id: &str) -> Result<(), SlurmError> {
        run("scancel", &[id.to_string()]).map(|_| ())
    }
}

/// The job id `sbatch --parsable` prints (`123`, or `123;cluster`).
pub fn parse_sbatch(out: &str) -> Option<String> {
    let id = out.trim().split(';').next()?.trim();
    (!id.is_empty() && id.chars().all(|c| c.is_ascii_digit())).then(|| id.to_string())
}

/// Array task indices as squeue may print them: `4`, `0-3`, `1,5-7%2`,
/// `[0-3]`; `N/A` for a job outside an array.
fn parse_indices(text: &str) -> Option<Vec<Option<u32>>> {
    if text == "N/A" {
        return Some(vec![None]);
    }
    let text = text.trim_start_matches('[').trim_end_matches(']');
    let text = text.split('%').next()?;
    let mut out = Vec::new();
    for part in text.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
                if b < a {
                    return None;
                }
                out.extend((a..=b).map(Some));
            }
            None => out.push(Some(part.parse().ok()?)),
        }
    }
    Some(out)
}

/// The lines `squeue --format` [`SQUEUE_FORMAT`] printed; the first line it
/// cannot read is the error.
pub fn parse_squeue(out: &str) -> Result<Vec<QueuedTask>, String> {
    let mut tasks = Vec::new();
    for line in out.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let fields: Vec<&str> = line.split('|').collect();
        let [job, index, id, state, reason] = fields.as_slice() else {
            return Err(line.to_string());
        };
        let indices = parse_indices(index.trim()).ok_or_else(|| line.to_string())?;
        let several = indices.len() > 1;
        for task in indices {
            tasks.push(QueuedTask {
                job: job.trim().to_string(),
                task,
                id: match task {
                    Some(t) if several => format!("{}_{t}", job.trim()),
                    _ => id.trim().to_string(),
                },
                state: state.trim().to_string(),
                reason: reason.trim().to_string(),
            });
        }
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbatch_ids_with_and_without_a_cluster() {
        assert_eq!(parse_sbatch("4242\n").as_deref(), Some("4242"));
        assert_eq!(parse_sbatch("4242;alps\n").as_deref(), Some("4242"));
        assert_eq!(parse_sbatch("Submitted batch job 4242"), None);
        assert_eq!(parse_sbatch(""), None);
    }

    #[test]
    fn squeue_lines_become_tasks() {
        // As squeue 22.05 prints an array and its dependent job.
        let out =
            "17|0|17_0|RUNNING|None\n17|3|17_3|PENDING|Resources\n18|N/A|18|PENDING|Dependency\n";
        let t = parse_squeue(out).unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(
            t[1],
            QueuedTask {
                job: "17".into(),
                task: Some(3),
                id: "17_3".into(),
                state: "PENDING".into(),
                reason: "Resources".into(),
            }
        );
        assert_eq!(t[2].task, None);
        assert!(!t[2].never_starts());
        // A pending range that was not split (squeue without --array).
        let t = parse_squeue("20|[1,4-5%2]|20_[1,4-5%2]|PENDING|JobArrayTaskLimit").unwrap();
        let ids: Vec<&str> = t.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["20_1", "20_4", "20_5"]);
        assert_eq!(parse_squeue("").unwrap(), vec![]);
        assert_eq!(
            parse_squeue("17|0|17_0|RUNNING").unwrap_err(),
            "17|0|17_0|RUNNING"
        );
        assert!(parse_squeue("17|x|17_x|RUNNING|None").is_err());
    }
}
