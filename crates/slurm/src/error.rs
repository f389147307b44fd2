//! What can go wrong writing, submitting or inspecting a run on Slurm.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// A setting that would not make a valid batch script.
    #[error("{option} `{value}`: {message}")]
    Setting {
        option: &'static str,
        value: String,
        message: String,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The run's directory holds something these settings would contradict.
    #[error("{}: {message}", path.display())]
    Conflict { path: PathBuf, message: String },
    #[error("{}: {message}", path.display())]
    Manifest { path: PathBuf, message: String },
    /// A Slurm command could not be started or failed.
    #[error("`{command}` failed: {message}")]
    Command { command: String, message: String },
    /// A Slurm command printed something it should not have.
    #[error("`{command}` printed `{output}`, which is not {expected}")]
    Output {
        command: String,
        output: String,
        expected: &'static str,
    },
    #[error("{}: {source}", path.display())]
    Database {
        path: PathBuf,
        source: Box<hone_tuner::ProgressError>,
    },
}

pub(crate) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> SlurmError + '_ {
    move |source| SlurmError::Io {
        path: path.to_path_buf(),
        source,
    }
}
