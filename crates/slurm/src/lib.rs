//! hone-slurm: tuning a job on a Slurm cluster.
//!
//! A job's search space is split into shards (`hone tune --shard i/n`); on a
//! cluster each shard is one task of a Slurm job array, on its own GPU, with
//! its own tuning database. A second job, dependent on the array
//! (`--dependency=afterok`), merges the shard databases, finishes the job on
//! the merged one (the sampling over size and the d-splines) and writes the
//! rule, the run's JSON and the plots.
//!
//! - [`settings`]: what the scripts ask Slurm for and how they call `hone`.
//! - [`layout`]: where everything lives in the run's directory.
//! - [`script`]: the two batch scripts, commented for the cluster's users.
//! - [`queue`]: `sbatch`, `squeue` and `scancel`, and the parsing of what
//!   they print.
//! - [`manifest`]: the run's record of its submissions (`slurm.json`).
//! - [`status`]: progress across shards, from their databases and the queue.
//! - [`submit`]: what a (re-)submission sends: only the shards that are
//!   neither finished nor still queued, and the merge after them.
//!
//! Nothing here needs a GPU: the scripts run `hone`, which finds the GPU
//! Slurm gives each task.

pub mod error;
pub mod layout;
pub mod manifest;
pub mod queue;
pub mod script;
pub mod settings;
pub mod status;
pub mod submit;

pub use error::SlurmError;
pub use layout::Layout;
pub use manifest::{Manifest, Submission};
pub use queue::{Queue, QueuedTask, Slurm};
pub use settings::{Resources, TuneCommand};
pub use status::{MergeState, ShardState, ShardStatus, Status};
pub use submit::{plan_submission, submit, write_run, SubmitPlan, Written};
