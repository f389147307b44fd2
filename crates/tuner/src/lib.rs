//! hone-tuner: the auto-tuning engine for kernel templates.
//!
//! It generalises the SYMV tuning method of Imamura et al. (IPSJ HPC-138,
//! 2013) to any template:
//!
//! 1. [`space`]: parameters with value lists and constraints over parameters
//!    and device properties ([`expr`] parses them), enumerated by a pruning
//!    backtracking solver into a [`ValidSpace`].
//! 2. [`key`]: problems as named dimensions ([`ProblemKey`]) and the
//!    one-dimensional [`Family`] the size axis of d-splines and rules runs
//!    along. [`measure`]: the [`Evaluator`] trait a backend implements (the
//!    GPU runtime; [`replay`] of a recorded run; a [`synthetic`] model); it
//!    measures a configuration on a key, and its `Err` ([`Stop`]) ends a run.
//! 3. [`strategy`]: exhaustive, random, the paper's champion sieve, and
//!    Bayesian optimisation.
//! 4. [`dspline`]: d-splines over problem size with GCV-chosen smoothing.
//! 5. [`sampling`]: the surviving kernels sampled over size, on a fixed grid or
//!    by sequential addition of sizes.
//! 6. [`rule`]: the best kernel per size range, emitted as JSON, Rust and C.
//! 7. [`db`]: the SQLite tuning database (resume, exports, shard merging).
//! 8. [`job`]: job files and the runner tying it together.
//! 9. [`plot`]: SVG figures of the curves and the rule.
//! 10. [`progress`]: how far stored jobs and shards have got.

pub mod config;
pub mod db;
pub mod dspline;
pub mod expr;
pub mod job;
pub mod key;
pub mod measure;
pub mod plan;
pub mod plot;
pub mod progress;
pub mod refit;
pub mod replay;
pub mod rule;
pub mod sampling;
pub mod space;
pub mod strategy;
pub mod synthetic;

pub use config::{Config, ParamValue};
pub use db::{DbError, DeviceInfo, DeviceModel, DeviceShare, TuningDb};
pub use dspline::{DSpline, Grid};
pub use job::{run_job, run_whole_job, JobError, JobReport, JobSpec, Phase, Progress};
pub use key::{Family, FamilyDim, KeyError, KeyValue, ProblemKey};
pub use measure::{
    run_tasks, Evaluator, Invalid, InvalidKind, Measurement, OnDevice, Sink, Stop, StopAt, Taken,
    Task, Timing,
};
pub use plan::{Plan, Plans};
pub use plot::{render_svg, PlotOptions, YAxis};
pub use progress::{job_progress, JobProgress, ProgressError};
pub use replay::{Recording, ReplayEvaluator};
pub use rule::{Interval, Rule, RuleKernel};
pub use sampling::{
    sample_fixed, sample_sequential, Curves, SamplingError, SamplingResult, SequentialConfig,
};
pub use space::{DeviceProps, Param, Space, SpaceError, SpaceSpec, ValidSpace};
pub use strategy::{BayesOpt, ChampionSieve, Exhaustive, Outcome, RandomSearch, Strategy};
pub use synthetic::{SyntheticEvaluator, SyntheticModel};
