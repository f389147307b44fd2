//! `slurm.json` in the run's directory: the job, its shard count, and every
//! submission's Slurm job ids, which is how `--status` and a re-submission
//! find the run's jobs in the queue.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::{io, SlurmError};
use crate::layout::Layout;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The job's name.
    pub job: String,
    pub job_file: PathBuf,
    pub shards: u32,
    /// Whether the job samples over size (the merge then writes a rule).
    pub has_sampling: bool,
    /// The array's `%` limit, kept for re-submissions.
    #[serde(default)]
    pub max_parallel: Option<u32>,
    #[serde(default)]
    pub submissions: Vec<Submission>,
}

/// One `--submit`: the array of the shards it ran and the merge after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    /// RFC 3339, UTC.
    pub submitted: String,
    /// The array's job id; none when every shard was finished or queued.
    pub array: Option<String>,
    pub shards: Vec<u32>,
    /// Tasks of earlier submissions the merge waits for as well.
    #[serde(default)]
    pub after: Vec<String>,
    /// The merge-and-fit job's id.
    pub merge: String,
}

impl Manifest {
    pub fn load(layout: &Layout) -> Result<Manifest, SlurmError> {
        let path = layout.manifest();
        let text = std::fs::read_to_string(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                SlurmError::Manifest {
                    path: path.clone(),
                    message: format!(
                        "no Slurm run here; write one with `hone tune JOB --slurm {}`",
                        layout.dir.display()
                    ),
                }
            } else {
                SlurmError::Io {
                    path: path.clone(),
                    source: e,
                }
            }
        })?;
        serde_json::from_str(&text).map_err(|e| SlurmError::Manifest {
            path,
            message: format!("line {}, column {}: {e}", e.line(), e.column()),
        })
    }

    /// Writes the manifest whole or not at all (a crash leaves the old one).
    pub fn save(&self, layout: &Layout) -> Result<(), SlurmError> {
        let path = layout.manifest();
        let part = path.with_extension("json.part");
        let text = serde_json::to_string_pretty(self).map_err(|e| SlurmError::Manifest {
            path: path.clone(),
            message: e.to_string(),
        })?;
        std::fs::write(&part, text + "\n").map_err(io(&part))?;
        std::fs::rename(&part, &path).map_err(io(&path))
    }

    /// The Slurm job ids of every array this run submitted.
    pub fn arrays(&self) -> impl Iterator<Item = &str> {
        self.submissions.iter().filter_map(|s| s.array.as_deref())
    }
}
