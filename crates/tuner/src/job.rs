//! Tuning jobs: a description (TOML or JSON) of a kernel template's space,
//! sizes, strategy and sampling, and a runner that carries it out against any
//! [`Evaluator`], writing every measurement to the tuning database as it goes.
//!
//! A job can run as shard `i/n` (a deterministic slice of the valid space); the
//! shards' databases are merged ([`TuningDb::merge_from`]) and the unsharded
//! job is then run on the merged database, which resumes from every shard's
//! measurements and goes on to the sampling phase.

use crate::config::{Config, ParamValue};
use crate::db::{DbError, DeviceInfo, DeviceModel, TuningDb};
use crate::dspline::Grid;
use crate::key::{Family, ProblemKey};
use crate::measure::{Evaluator, Measurement, OnDevice, Sink, Stop, Taken, Task};
use crate::plan::Plans;
use crate::rule::{Rule, RuleError, RuleKernel};
use crate::sampling::{self, SamplingError, SamplingResult, SequentialConfig};
use crate::space::{DeviceProps, Param, Space, SpaceError, SpaceSpec};
use crate::strategy::{BayesOpt, ChampionSieve, Exhaustive, Outcome, RandomSearch, Strategy};
use crate::synthetic::fnv1a;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The kernel template being tuned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelSpec {
    pub name: String,
    /// Path of the template source, relative to the job file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<PathBuf>,
    /// A kernel of hone's library instead of a template (e.g. `dsymv_lower`):
    /// the library evaluates it with its own checks and launches. `template`
    /// then names its source, for the database's source hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
    /// Further files the kernel is built from (headers, sources the template
    /// names), relative to the job file: hashed with the template, so that a
    /// changed kernel is a new kernel in the database.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<PathBuf>,
}

/// A parameter: explicit values or an integer range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamSpec {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ParamValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<RangeSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeSpec {
    pub start: i64,
    /// Inclusive.
    pub end: i64,
    #[serde(default = "one")]
    pub step: i64,
}

fn one() -> i64 {
    1
}

/// A named derived value (an expression) that constraints may use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DerivedSpec {
    pub name: String,
    pub expr: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spacing {
    #[default]
    Log,
    Linear,
}

/// Problem sizes: a list, or `count` sizes over `[lo, hi]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SizeSpec {
    List(Vec<u64>),
    Range {
        lo: u64,
        hi: u64,
        count: usize,
        #[serde(default)]
        spacing: Spacing,
    },
}

impl SizeSpec {
    pub fn sizes(&self) -> Vec<u64> {
        match self {
            SizeSpec::List(v) => v.clone(),
            SizeSpec::Range {
                lo,
                hi,
                count,
                spacing: Spacing::Log,
            } => sampling::log_spaced(*lo, *hi, *count),
            SizeSpec::Range {
                lo,
                hi,
                count,
                spacing: Spacing::Linear,
            } => sampling::linear_spaced(*lo, *hi, *count),
        }
    }
}

/// The search strategy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StrategySpec {
    Exhaustive,
    Random {
        #[serde(default)]
        budget: Option<usize>,
        #[serde(default)]
        seed: u64,
    },
    Champion {
        #[serde(default)]
        top_k: Option<usize>,
        #[serde(default = "depth25")]
        depth: usize,
        /// Also keep each sieve size's fastest configuration.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        size_winners: bool,
    },
    Bayes {
        #[serde(default)]
        budget: Option<usize>,
        #[serde(default)]
        seed: u64,
        #[serde(default = "ten")]
        initial: usize,
        #[serde(default)]
        categorical: Vec<String>,
    },
}

impl StrategySpec {
    /// The champion sieve this strategy names (`top_k` where it names none).
    fn sieve(&self, top_k: usize) -> Option<ChampionSieve> {
        match self {
            StrategySpec::Champion {
                top_k: k,
                depth,
                size_winners,
            } => Some(ChampionSieve {
                top_k: k.unwrap_or(top_k),
                depth: *depth,
                size_winners: *size_winners,
            }),
            _ => None,
        }
    }
}

/// "Rank k" for the champion in place `place`, or "Best at n=4096" for a
/// size winner that the points did not rank (kept with `size_winners`).
fn champion_label(search: &Outcome, sizes: &[ProblemKey], index: usize, place: usize) -> String {
    let ranked = search
        .ranking
        .iter()
        .position(|r| r.index == index)
        .is_some_and(|p| p == place);
    match search.size_winners.iter().position(|&w| w == index) {
        Some(s) if !ranked && s < sizes.len() => format!("Best at {}", sizes[s]),
        _ => format!("Rank {}", place + 1),
    }
}

fn depth25() -> usize {
    25
}

fn ten() -> usize {
    10
}

/// How the surviving kernels are sampled over size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum SamplingMode {
    /// A fixed set of sizes (the paper: 48 points from 100 to 10000).
    Fixed {
        #[serde(default = "forty_eight")]
        count: usize,
        #[serde(default = "linear")]
        spacing: Spacing,
    },
    /// Sequential addition of sizes until the rule is stable.
    Sequential {
        #[serde(default = "five")]
        initial: usize,
        #[serde(default = "forty_eight")]
        max_sizes: usize,
        #[serde(default = "three")]
        patience: usize,
    },
}

fn forty_eight() -> usize {
    48
}
fn five() -> usize {
    5
}
fn three() -> usize {
    3
}
fn linear() -> Spacing {
    Spacing::Linear
}

/// A kernel sampled besides the champions (e.g. the paper's L+U kernel, "Rank 0").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraKernel {
    pub label: String,
    pub config: Config,
}

/// The second phase: dense sampling over size, d-splines and the rule.
// `mode` is flattened in, which serde cannot combine with deny_unknown_fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplingSpec {
    pub lo: u64,
    pub hi: u64,
    /// Grid step of the d-splines (1: every integer size, as in the paper).
    #[serde(default = "one_u64")]
    pub step: u64,
    #[serde(flatten)]
    pub mode: SamplingMode,
    #[serde(default = "tolerance")]
    pub tolerance: f64,
    #[serde(default)]
    pub extra: Vec<ExtraKernel>,
    /// Partial configurations (e.g. `{ ALG = 1 }`): the searched
    /// configuration matching each that the strategy ranked highest joins the
    /// sampling, so that a family the
    /// champions may all miss (an algorithm for small sizes) is still in the
    /// rule's choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_best: Vec<Config>,
}

fn one_u64() -> u64 {
    1
}
fn tolerance() -> f64 {
    0.01
}

/// A tuning job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobSpec {
    pub name: String,
    pub kernel: KernelSpec,
    /// Left out by a job that names a library routine: it tunes the
    /// routine's space ([`JobSpec::inherit`]).
    #[serde(default, alias = "param")]
    pub params: Vec<ParamSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub derived: Vec<DerivedSpec>,
    #[serde(default)]
    pub constraints: Vec<String>,
    /// Device properties added to (or overriding) the evaluator's device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<DeviceProps>,
    /// The problems the sizes stand for (`m=*,n=*,k=*,layout=NN`); `n=*`
    /// when absent.
    #[serde(default, skip_serializing_if = "Family::is_default")]
    pub family: Family,
    /// Representative sizes of the search phase, along `family`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<SizeSpec>,
    /// Instead of sizes, the exact problems to tune for: each gets the
    /// configuration that measured fastest on it ([`Plans`]), with no
    /// interpolation between them (an FFT's `nx,ny,nz,precision,batch`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<ProblemKey>,
    pub strategy: StrategySpec,
    /// Evaluation budget (configurations) for `random` and `bayes` when the
    /// strategy does not give one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<usize>,
    /// How many configurations survive into the sampling phase.
    #[serde(default = "ten")]
    pub top_k: usize,
    /// d-spline smoothing; chosen by GCV when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingSpec>,
    /// How the evaluator measures (repetitions, warm-up, checks), set by the
    /// program that runs the job: it is stored with the job, so a resumed job
    /// must measure as the interrupted one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measurement: Option<serde_json::Value>,
}

/// Errors of jobs.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error("{path}: {message}")]
    Spec { path: String, message: String },
    #[error("job `{job}`: {source}")]
    Space { job: String, source: SpaceError },
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The evaluator ended the run; what was measured is stored.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

impl From<SamplingError> for JobError {
    fn from(e: SamplingError) -> JobError {
        match e {
            SamplingError::Rule(e) => JobError::Rule(e),
            SamplingError::Stopped(s) => JobError::Stopped(s),
        }
    }
}

/// Values one parameter may take (the space indexes them in 16 bits).
pub const MAX_PARAM_VALUES: usize = u16::MAX as usize;
/// Problem sizes a job's `sizes` or its sampling may ask for.
pub const MAX_SIZES: usize = 100_000;
/// Sizes on a sampling grid: the d-splines are fitted over all of them.
pub const MAX_GRID_POINTS: u64 = 1 << 22;

impl JobSpec {
    /// Reads a `.toml` or `.json` job file.
    pub fn load(path: impl AsRef<Path>) -> Result<JobSpec, JobError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| JobError::Spec {
            path: name.clone(),
            message: e.to_string(),
        })?;
        match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => JobSpec::from_toml(&text, &name),
            Some("json") => JobSpec::from_json(&text, &name),
            _ => Err(JobError::Spec {
                path: name,
                message: "expected a .toml or .json job file".into(),
            }),
        }
    }

    pub fn from_toml(text: &str, origin: &str) -> Result<JobSpec, JobError> {
        let spec: JobSpec = toml::from_str(text).map_err(|e| JobError::Spec {
            path: origin.to_string(),
            message: e.to_string().trim_end().to_string(),
        })?;
        spec.check(origin)?;
        Ok(spec)
    }

    pub fn from_json(text: &str, origin: &str) -> Result<JobSpec, JobError> {
        let spec: JobSpec = serde_json::from_str(text).map_err(|e| JobError::Spec {
            path: origin.to_string(),
            message: format!("line {}, column {}: {e}", e.line(), e.column()),
        })?;
        spec.check(origin)?;
        Ok(spec)
    }

    fn check(&self, origin: &str) -> Result<(), JobError> {
        let err = |message: String| JobError::Spec {
            path: origin.to_string(),
            message,
        };
        for p in &self.params {
            match (&p.range, p.values.is_empty()) {
                (Some(_), false) => {
                    return Err(err(format!(
                        "parameter `{}` gives both `values` and `range`",
                        p.name
                    )))
                }
                (None, true) => {
                    return Err(err(format!(
                        "parameter `{}` needs `values` or `range`",
                        p.name
                    )))
                }
                (Some(r), _) if r.step <= 0 || r.end < r.start => {
                    return Err(err(format!(
                        "parameter `{}`: range needs start <= end and a positive step",
                        p.name
                    )))
                }
                (Some(r), _) => {
                    // In i128: the span of two i64s does not fit an i64.
                    let n = (r.end as i128 - r.start as i128) / r.step as i128 + 1;
                    if n > MAX_PARAM_VALUES as i128 {
                        return Err(err(format!(
                            "parameter `{}`: range has {n} values, more than {MAX_PARAM_VALUES}",
                            p.name
                        )));
                    }
                }
                (None, false) if p.values.len() > MAX_PARAM_VALUES => {
                    return Err(err(format!(
                        "parameter `{}` has {} values, more than {MAX_PARAM_VALUES}",
                        p.name,
                        p.values.len()
                    )))
                }
                _ => {}
            }
        }
        if self.params.is_empty() && self.kernel.library.is_none() {
            return Err(err(
                "no parameters: give `[[param]]`s, or name a library routine (`library` under [kernel])"
                    .into(),
            ));
        }
        if let Some(SizeSpec::Range { count, .. }) = &self.sizes {
            if *count > MAX_SIZES {
                return Err(err(format!(
                    "`sizes` asks for {count} sizes, more than {MAX_SIZES}"
                )));
            }
        }
        match (&self.sizes, self.problems.is_empty()) {
            (Some(_), false) => {
                return Err(err(
                    "give `sizes` along the family or exact `problems`, not both".into(),
                ))
            }
            (None, true) => return Err(err("give `sizes` (or exact `problems`)".into())),
            (Some(s), true) if s.sizes().is_empty() => return Err(err("`sizes` is empty".into())),
            _ => {}
        }
        if !self.problems.is_empty() && self.sampling.is_some() {
            return Err(err(
                "sampling over size needs `sizes` along a family; exact `problems` get plans"
                    .into(),
            ));
        }
        match &self.strategy {
            StrategySpec::Random { budget, .. } | StrategySpec::Bayes { budget, .. }
                if budget.or(self.budget).is_none() =>
            {
                return Err(err("this strategy needs a `budget`".into()))
            }
            _ => {}
        }
        if let Some(s) = &self.sampling {
            if s.lo == 0 || s.hi <= s.lo || s.step == 0 {
                return Err(err("sampling needs 0 < lo < hi and a positive step".into()));
            }
            let points = (s.hi - s.lo) / s.step + 1;
            if points > MAX_GRID_POINTS {
                return Err(err(format!(
                    "sampling: the grid from lo to hi by step has {points} sizes, more than {MAX_GRID_POINTS} (take a larger `step`)"
                )));
            }
            let (SamplingMode::Fixed { count: n, .. }
            | SamplingMode::Sequential { max_sizes: n, .. }) = s.mode;
            if n > MAX_SIZES {
                return Err(err(format!(
                    "sampling asks for {n} sizes, more than {MAX_SIZES}"
                )));
            }
        }
        Ok(())
    }

    /// Takes the space of the library routine the job names, when the job
    /// gives no parameters of its own; its own constraints come after the
    /// routine's. Stored with the job as if written out, so a job resumes
    /// and replays the same whether it states the space or inherits it.
    pub fn inherit(&mut self, params: Vec<ParamSpec>, constraints: Vec<String>) {
        if self.params.is_empty() {
            self.params = params;
            let own = std::mem::take(&mut self.constraints);
            self.constraints = constraints.into_iter().chain(own).collect();
        }
    }

    pub fn space_spec(&self) -> SpaceSpec {
        SpaceSpec {
            params: self
                .params
                .iter()
                .map(|p| match &p.range {
                    Some(r) => Param::range(&p.name, r.start, r.end, r.step),
                    None => Param {
                        name: p.name.clone(),
                        values: p.values.clone(),
                    },
                })
                .collect(),
            derived: self
                .derived
                .iter()
                .map(|d| (d.name.clone(), d.expr.clone()))
                .collect(),
            constraints: self.constraints.clone(),
        }
    }

    /// The search evaluations shard `shard` of the job plans on `device`,
    /// when its strategy knows them in advance (what a progress view counts
    /// towards).
    pub fn planned_search(
        &self,
        device: &DeviceInfo,
        shard: (u32, u32),
    ) -> Result<Option<usize>, JobError> {
        let space_error = |source| JobError::Space {
            job: self.name.clone(),
            source,
        };
        let valid = Space::new(self.space_spec(), self.device_props(device))
            .map_err(space_error)?
            .enumerate();
        let candidates = valid
            .shard(shard.0 as usize, shard.1 as usize)
            .map_err(space_error)?;
        let sizes = match &self.sizes {
            Some(s) => s.sizes().len(),
            None => self.problems.len(),
        };
        Ok(self.strategy().planned_evaluations(candidates.len(), sizes))
    }

    /// The device properties constraints see: the device's, then the job's.
    pub fn device_props(&self, device: &DeviceInfo) -> DeviceProps {
        let mut props = device.props.clone();
        if let Some(extra) = &self.device {
            for (k, v) in &extra.0 {
                props.set(k, *v);
            }
        }
        props
    }

    fn strategy(&self) -> Box<dyn Strategy> {
        match &self.strategy {
            StrategySpec::Exhaustive => Box::new(Exhaustive),
            StrategySpec::Random { budget, seed } => Box::new(RandomSearch {
                budget: budget.or(self.budget).unwrap_or(0),
                seed: *seed,
            }),
            StrategySpec::Champion { .. } => Box::new(
                self.strategy
                    .sieve(self.top_k)
                    .expect("a champion strategy"),
            ),
            StrategySpec::Bayes {
                budget,
                seed,
                initial,
                categorical,
            } => {
                let mut b = BayesOpt::new(budget.or(self.budget).unwrap_or(0), *seed);
                b.initial = *initial;
                b.categorical = categorical.clone();
                Box::new(b)
            }
        }
    }
}

/// Which phase a progress report belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Search,
    Sampling,
}

/// One step of progress, reported after every evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub phase: Phase,
    /// Evaluations done in this phase (measured or taken from the database).
    pub done: usize,
    /// Planned evaluations of this phase, when known.
    pub total: Option<usize>,
    /// Whether this one came from the database (a resumed job).
    pub cached: bool,
    /// The configuration's key.
    pub key: String,
    pub problem: ProblemKey,
    pub status: &'static str,
}

/// What a job run did.
#[derive(Debug, Clone)]
pub struct JobReport {
    pub job_id: i64,
    pub resumed: bool,
    pub shard: (u32, u32),
    pub valid_configs: usize,
    pub candidates: usize,
    pub search: Outcome,
    /// The configurations carried into the sampling phase, best first.
    pub champions: Vec<Config>,
    pub sampling: Option<SamplingResult>,
    pub rule: Option<Rule>,
    /// The best configuration per problem, for a job of exact `problems`.
    pub plans: Option<Plans>,
    /// Evaluations that reached the backend.
    pub measured: usize,
    /// Evaluations answered from the database.
    pub reused: usize,
}

/// A whole job in this process, with no progress reports.
pub fn run_whole_job(
    spec: &JobSpec,
    base_dir: &Path,
    device: &DeviceInfo,
    db: &TuningDb,
    eval: &mut dyn Evaluator,
) -> Result<JobReport, JobError> {
    run_job(spec, base_dir, device, db, eval, (0, 1), &mut |_| {})
}

/// Runs a job's phases against `eval`, storing measurements in `db`.
/// `base_dir` resolves the kernel template path.
pub fn run_job(
    spec: &JobSpec,
    base_dir: &Path,
    device: &DeviceInfo,
    db: &TuningDb,
    eval: &mut dyn Evaluator,
    shard: (u32, u32),
    progress: &mut dyn FnMut(&Progress),
) -> Result<JobReport, JobError> {
    // Checked before the search, which may take long.
    for filter in spec.sampling.iter().flat_map(|s| &s.also_best) {
        if let Some((k, _)) = filter
            .entries()
            .iter()
            .find(|(k, _)| !spec.params.iter().any(|p| &p.name == k))
        {
            return Err(JobError::Spec {
                path: spec.name.clone(),
                message: format!(
                    "sampling.also_best names `{k}`, which is not a parameter of the job"
                ),
            });
        }
    }
    let space = Space::new(spec.space_spec(), spec.device_props(device)).map_err(|source| {
        JobError::Space {
            job: spec.name.clone(),
            source,
        }
    })?;
    let valid = space.enumerate();
    let candidates = valid
        .shard(shard.0 as usize, shard.1 as usize)
        .map_err(|source| JobError::Space {
            job: spec.name.clone(),
            source,
        })?;
    let files: Vec<&PathBuf> = spec
        .kernel
        .template
        .iter()
        .chain(&spec.kernel.sources)
        .collect();
    let source_hash = if files.is_empty() {
        "none".to_string()
    } else {
        let mut all = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let path = base_dir.join(f);
            let text = std::fs::read(&path).map_err(|e| JobError::Spec {
                path: path.display().to_string(),
                message: format!(
                    "kernel {}: {e}",
                    if i == 0 && spec.kernel.template.is_some() {
                        "template"
                    } else {
                        "source"
                    }
                ),
            })?;
            // A template alone hashes as it always has (databases made before
            // `sources` existed keep resuming); with several files, each
            // length keeps ("ab", "c") and ("a", "bc") apart.
            if files.len() > 1 {
                all.extend_from_slice(&(text.len() as u64).to_le_bytes());
            }
            all.extend_from_slice(&text);
        }
        format!("{:016x}", fnv1a(&all))
    };
    let device_id = db.upsert_device(device)?;
    let kernel_id = db.upsert_kernel(&spec.kernel.name, &source_hash)?;
    let spec_json = serde_json::to_string(spec).map_err(DbError::from)?;
    let (job_id, resumed) = db.open_job(&spec.name, kernel_id, device_id, shard, &spec_json)?;
    // A rule is fitted from one device model's measurements only.
    let model = device.model();
    if let Some(other) = db
        .job_devices(job_id)?
        .into_iter()
        .find(|d| d.device.model() != model)
    {
        return Err(JobError::Spec {
            path: spec.name.clone(),
            message: format!(
                "this database holds measurements of the job taken on {} (GPU {}), but this run is on {model}; a rule is fitted from one device model's measurements: use another database, or another job name",
                other.device.model(),
                other.device.uuid
            ),
        });
    }
    let sizes = match &spec.sizes {
        Some(s) => spec.family.keys(&s.sizes()),
        None => spec.problems.clone(),
    };
    let mut strategy = spec.strategy();
    let mut rec = Recorder {
        inner: eval,
        book: Book {
            db,
            job_id,
            kernel_id,
            model,
            device_ids: HashMap::new(),
            family: &spec.family,
            cache: db.measured(job_id)?,
            config_ids: HashMap::new(),
            progress,
            phase: Phase::Search,
            done: 0,
            total: strategy.planned_evaluations(candidates.len(), sizes.len()),
            measured: 0,
            reused: 0,
        },
    };
    let search = strategy.run(&valid, &candidates, &sizes, &mut rec)?;
    let champion_idx: Vec<usize> = match spec.strategy.sieve(spec.top_k) {
        Some(sieve) => sieve.champions(&search),
        None => search
            .ranking
            .iter()
            .filter(|r| r.objective.is_some())
            .take(spec.top_k)
            .map(|r| r.index)
            .collect(),
    };
    let champions: Vec<Config> = champion_idx.iter().map(|&i| valid.config(i)).collect();
    let mut sampling_result = None;
    let mut rule = None;
    if let (Some(s), 1) = (&spec.sampling, shard.1) {
        let mut kernels: Vec<RuleKernel> = s
            .extra
            .iter()
            .map(|e| RuleKernel {
                label: e.label.clone(),
                config: e.config.clone(),
            })
            .collect();
        kernels.extend(
            champion_idx
                .iter()
                .zip(&champions)
                .enumerate()
                .map(|(i, (&index, c))| RuleKernel {
                    label: champion_label(&search, &sizes, index, i),
                    config: c.clone(),
                }),
        );
        for filter in &s.also_best {
            let best = search
                .ranking
                .iter()
                .filter(|r| r.objective.is_some())
                .map(|r| valid.config(r.index))
                .find(|c| filter.entries().iter().all(|(k, v)| c.get(k) == Some(v)));
            if let Some(c) = best.filter(|c| !kernels.iter().any(|k| &k.config == c)) {
                kernels.push(RuleKernel {
                    label: format!("Best {}", filter.key()),
                    config: c,
                });
            }
        }
        let grid = Grid {
            lo: s.lo,
            hi: s.hi,
            step: s.step,
        };
        rec.book.phase = Phase::Sampling;
        rec.book.done = 0;
        let mut result = match &s.mode {
            SamplingMode::Fixed { count, spacing } => {
                let sizes = SizeSpec::Range {
                    lo: s.lo,
                    hi: s.hi,
                    count: *count,
                    spacing: *spacing,
                }
                .sizes();
                rec.book.total = Some(sizes.len() * kernels.len());
                sampling::sample_fixed(
                    &spec.name,
                    kernels,
                    &spec.family,
                    &sizes,
                    grid,
                    spec.alpha,
                    s.tolerance,
                    &mut rec,
                )?
            }
            SamplingMode::Sequential {
                initial,
                max_sizes,
                patience,
            } => {
                let mut cfg = SequentialConfig::new(grid);
                cfg.initial = *initial;
                cfg.max_sizes = *max_sizes;
                cfg.patience = *patience;
                cfg.tolerance = s.tolerance;
                cfg.alpha = spec.alpha;
                rec.book.total = Some(max_sizes * kernels.len());
                sampling::sample_sequential(&spec.name, kernels, &spec.family, &cfg, &mut rec)?
            }
        };
        // The search's sizes, where every candidate was measured; at the
        // sizes only the sampling measured, the curves' smoothing already
        // weighed the measurements.
        let searched: Vec<u64> = sizes
            .iter()
            .filter_map(|k| spec.family.size_of(k))
            .collect();
        let points = measured_points(db, job_id, &result.rule, &spec.family, &searched)?;
        result.rule = result.rule.with_measured_points(&points);
        rule = Some(result.rule.clone());
        sampling_result = Some(result);
    }
    let plans = match (spec.problems.is_empty(), shard.1) {
        (false, 1) => {
            let mut plans = Plans::from_job(db, job_id, &spec.name)?;
            plans.plans.retain(|p| spec.problems.contains(&p.key));
            Some(plans)
        }
        _ => None,
    };
    db.finish_job(job_id)?;
    Ok(JobReport {
        plans,
        job_id,
        resumed,
        shard,
        valid_configs: valid.len(),
        candidates: candidates.len(),
        search,
        champions,
        sampling: sampling_result,
        rule,
        measured: rec.book.measured,
        reused: rec.book.reused,
    })
}

/// Every rule kernel's measured median time at each of `sizes` (`None`
/// where the kernel was not measured there or could not run), for
/// [`Rule::with_measured_points`].
fn measured_points(
    db: &TuningDb,
    job_id: i64,
    rule: &Rule,
    family: &Family,
    sizes: &[u64],
) -> Result<Vec<crate::rule::MeasuredPoint>, JobError> {
    let measured = db.measured(job_id)?;
    let keys: Vec<String> = rule.kernels.iter().map(|k| k.config.key()).collect();
    Ok(sizes
        .iter()
        .map(|&n| {
            let problem = family.key(n);
            let times = keys
                .iter()
                .map(|c| match measured.get(&(c.clone(), problem.clone())) {
                    Some(Measurement::Ok(t)) => Some(t.median_s),
                    _ => None,
                })
                .collect();
            (n, times)
        })
        .collect())
}

/// The evaluator the strategies see: answers from the database what a previous
/// (interrupted) run already measured, and stores every new measurement before
/// handing it on.
struct Recorder<'a> {
    inner: &'a mut dyn Evaluator,
    book: Book<'a>,
}

/// The recorder's state besides its backend.
struct Book<'a> {
    db: &'a TuningDb,
    job_id: i64,
    kernel_id: i64,
    /// The job's device model: every measurement must be of it.
    model: DeviceModel,
    /// Rows of `devices` of the devices measurements came from, by UUID.
    device_ids: HashMap<String, i64>,
    family: &'a Family,
    cache: HashMap<(String, ProblemKey), Measurement>,
    config_ids: HashMap<String, i64>,
    progress: &'a mut dyn FnMut(&Progress),
    phase: Phase,
    done: usize,
    total: Option<usize>,
    measured: usize,
    reused: usize,
}

impl Book<'_> {
    fn report(&mut self, key: String, problem: &ProblemKey, cached: bool, m: &Measurement) {
        self.done += 1;
        (self.progress)(&Progress {
            phase: self.phase,
            done: self.done,
            total: self.total,
            cached,
            key,
            problem: problem.clone(),
            status: m.status(),
        });
    }

    fn store(
        &mut self,
        config: &Config,
        key: &str,
        problem: &ProblemKey,
        m: &Measurement,
        on: Option<&OnDevice>,
    ) -> Result<(), DbError> {
        let cid = match self.config_ids.get(key) {
            Some(&id) => id,
            None => {
                let id = self.db.config_id(self.kernel_id, config)?;
                self.config_ids.insert(key.to_string(), id);
                id
            }
        };
        // Problems off the family (exact-key plans) have no size on it.
        let size = self.family.size_of(problem).unwrap_or(0);
        match on {
            None => {
                self.db.record(self.job_id, cid, problem, size, m)?;
            }
            Some(on) => {
                if on.info.model() != self.model {
                    return Err(DbError::Conflict(format!(
                        "a measurement of GPU {} ({}) offered to a job on {}: a rule is fitted from one device model's measurements",
                        on.ordinal,
                        on.info.model(),
                        self.model
                    )));
                }
                let device_id = match self.device_ids.get(&on.info.uuid) {
                    Some(&id) => id,
                    None => {
                        let id = self.db.upsert_device(&on.info)?;
                        self.device_ids.insert(on.info.uuid.clone(), id);
                        id
                    }
                };
                self.db.record_on(
                    self.job_id,
                    cid,
                    problem,
                    size,
                    m,
                    device_id,
                    Some(on.ordinal),
                )?;
            }
        }
        Ok(())
    }
}

impl Evaluator for Recorder<'_> {
    fn evaluate(&mut self, config: &Config, problem: &ProblemKey) -> Result<Measurement, Stop> {
        let key = config.key();
        let at = (key, problem.clone());
        if let Some(m) = self.book.cache.get(&at).cloned() {
            self.book.reused += 1;
            self.book.report(at.0, problem, true, &m);
            return Ok(m);
        }
        let m = self.inner.evaluate(config, problem)?;
        self.book.measured += 1;
        // Measuring on without a place to store the results would waste
        // device time.
        self.book
            .store(config, &at.0, problem, &m, None)
            .map_err(Stop::failed)?;
        self.book.cache.insert(at.clone(), m.clone());
        self.book.report(at.0, problem, false, &m);
        Ok(m)
    }

    /// Answers what the database holds, and hands the backend each task's
    /// points not yet measured (up to a stored one that ends the task); new
    /// measurements are stored as they arrive, whichever device took them.
    fn evaluate_tasks(&mut self, tasks: &[Task], sink: &mut Sink<'_>) -> Result<(), Stop> {
        // Per task sent to the backend: the batch's task and the steps of its keys.
        let mut sent: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut rest: Vec<Task> = Vec::new();
        for (i, task) in tasks.iter().enumerate() {
            let key = task.config.key();
            let mut steps = Vec::new();
            for (step, problem) in task.keys.iter().enumerate() {
                let Some(m) = self
                    .book
                    .cache
                    .get(&(key.clone(), problem.clone()))
                    .cloned()
                else {
                    steps.push(step);
                    continue;
                };
                self.book.reused += 1;
                self.book.report(key.clone(), problem, true, &m);
                sink(Taken {
                    task: i,
                    step,
                    key: problem,
                    measurement: &m,
                    device: None,
                })?;
                if task.stops_after(&m) {
                    break;
                }
            }
            if !steps.is_empty() {
                rest.push(Task::new(
                    task.config.clone(),
                    steps.iter().map(|&s| task.keys[s].clone()).collect(),
                    task.stop_at,
                ));
                sent.push((i, steps));
            }
        }
        if rest.is_empty() {
            return Ok(());
        }
        let book = &mut self.book;
        self.inner.evaluate_tasks(&rest, &mut |t: Taken<'_>| {
            let (task, steps) = &sent[t.task];
            let (task, step) = (*task, steps[t.step]);
            let config = &tasks[task].config;
            let key = config.key();
            book.measured += 1;
            book.store(config, &key, t.key, t.measurement, t.device)
                .map_err(Stop::failed)?;
            book.cache
                .insert((key.clone(), t.key.clone()), t.measurement.clone());
            book.report(key, t.key, false, t.measurement);
            sink(Taken { task, step, ..t })
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::synthetic::{SyntheticEvaluator, SyntheticModel};

    const TOML_JOB: &str = r#"
name = "symv-small"
sizes = { lo = 1000, hi = 8000, count = 3 }
strategy = { kind = "champion", top_k = 3, depth = 5 }
constraints = ["MULTIPLICITY * BLOCK_SIZE <= max_threads_per_sm", "threads % warp_size == 0"]

[kernel]
name = "symv"

[[param]]
name = "BLOCK_SIZE"
values = [64, 128, 192]

[[param]]
name = "UX"
range = { start = 12, end = 16, step = 2 }

[[param]]
name = "MULTIPLICITY"
values = [2, 4, 8]

[[derived]]
name = "threads"
expr = "BLOCK_SIZE"

[sampling]
lo = 100
hi = 4000
step = 10
mode = "fixed"
count = 12
extra = [{ label = "Rank 0", config = { ALGO = "lu" } }]
"#;

    #[test]
    fn toml_and_json_specs_agree() {
        let spec = JobSpec::from_toml(TOML_JOB, "job.toml").unwrap();
        assert_eq!(spec.params.len(), 3);
        assert_eq!(
            spec.sizes.as_ref().map(SizeSpec::sizes),
            Some(vec![1000, 2828, 8000])
        );
        assert_eq!(spec.space_spec().product_size(), 27);
        let json = serde_json::to_string_pretty(&spec).unwrap();
        assert_eq!(JobSpec::from_json(&json, "job.json").unwrap(), spec);
        assert!(matches!(
            spec.sampling.as_ref().unwrap().mode,
            SamplingMode::Fixed {
                count: 12,
                spacing: Spacing::Linear
            }
        ));
    }

    #[test]
    fn spec_errors_name_the_file_and_problem() {
        let bad = TOML_JOB.replace(
            "values = [64, 128, 192]",
            "values = [64, 128, 192]\nrange = { start = 1, end = 2 }",
        );
        let err = JobSpec::from_toml(&bad, "job.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("job.toml:") && err.contains("both `values` and `range`"),
            "{err}"
        );
        let bad = TOML_JOB.replace("kind = \"champion\"", "kind = \"annealing\"");
        let err = JobSpec::from_toml(&bad, "job.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("annealing") && err.contains("line"), "{err}");
        let bad = TOML_JOB.replace(
            "kind = \"champion\", top_k = 3, depth = 5",
            "kind = \"bayes\"",
        );
        let err = JobSpec::from_toml(&bad, "job.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("needs a `budget`"), "{err}");
        let err = JobSpec::from_json("{\"name\": 3}", "j.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("j.json: line 1"), "{err}");
    }

    #[test]
    fn a_job_runs_both_phases_and_reports_progress() {
        let spec = JobSpec::from_toml(TOML_JOB, "job.toml").unwrap();
        let db = TuningDb::open_in_memory().unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let mut eval = SyntheticEvaluator::new(SyntheticModel::symv_k20(), 1);
        let mut events: Vec<Progress> = Vec::new();
        let report = run_job(
            &spec,
            Path::new("."),
            &device,
            &db,
            &mut eval,
            (0, 1),
            &mut |p| events.push(p.clone()),
        )
        .unwrap();
        assert_eq!(report.valid_configs, 27);
        assert_eq!(report.champions.len(), 3);
        // Search: 27 configurations at 3 sizes; sampling: 4 kernels at 12 sizes.
        assert_eq!(report.measured, 27 * 3 + 4 * 12);
        let search: Vec<&Progress> = events.iter().filter(|p| p.phase == Phase::Search).collect();
        assert_eq!(search.len(), 81);
        assert!(search
            .iter()
            .enumerate()
            .all(|(i, p)| p.done == i + 1 && p.total == Some(81)));
        let rule = report.rule.unwrap();
        rule.validate().unwrap();
        // The L+U kernel wins the smallest sizes, as in the paper's Table 5.
        assert_eq!(
            rule.select(100).get("ALGO").and_then(|v| v.as_str()),
            Some("lu")
        );
        assert_eq!(db.jobs().unwrap()[0].status, "finished");
        // Running it again measures nothing new.
        let again = run_whole_job(&spec, Path::new("."), &device, &db, &mut eval).unwrap();
        assert!(again.resumed);
        assert_eq!((again.measured, again.reused), (0, 27 * 3 + 4 * 12));
        assert_eq!(again.rule.unwrap(), rule);
    }

    /// Two devices of one model taking tasks from the back of each batch,
    /// turn about: what a backend of several devices looks like to the
    /// runner (another order, each measurement naming its device).
    struct TwoDevices {
        model: SyntheticEvaluator,
        devices: [OnDevice; 2],
        turn: usize,
    }

    impl TwoDevices {
        fn new(second_name: &str) -> Self {
            let device = |ordinal: u32, name: &str| OnDevice {
                ordinal,
                info: DeviceInfo::synthetic(name, DeviceProps::tesla_k20()),
            };
            let mut second = device(1, second_name);
            second.info.uuid = "synthetic-second".into();
            TwoDevices {
                model: SyntheticEvaluator::new(SyntheticModel::symv_k20(), 1),
                devices: [device(0, "k20"), second],
                turn: 0,
            }
        }
    }

    impl Evaluator for TwoDevices {
        fn evaluate(&mut self, c: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
            self.model.evaluate(c, key)
        }

        fn evaluate_tasks(&mut self, tasks: &[Task], sink: &mut Sink<'_>) -> Result<(), Stop> {
            for (i, task) in tasks.iter().enumerate().rev() {
                self.turn += 1;
                let on = self.devices[self.turn % 2].clone();
                for (step, key) in task.keys.iter().enumerate() {
                    let m = self.model.evaluate(&task.config, key)?;
                    sink(Taken {
                        task: i,
                        step,
                        key,
                        measurement: &m,
                        device: Some(&on),
                    })?;
                    if task.stops_after(&m) {
                        break;
                    }
                }
            }
            Ok(())
        }
    }

    #[test]
    fn a_job_on_two_devices_stores_who_measured_what_and_fits_the_same_rule() {
        let spec = JobSpec::from_toml(TOML_JOB, "job.toml").unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let one = TuningDb::open_in_memory().unwrap();
        let mut eval = SyntheticEvaluator::new(SyntheticModel::symv_k20(), 1);
        let alone = run_whole_job(&spec, Path::new("."), &device, &one, &mut eval).unwrap();
        let two = TuningDb::open_in_memory().unwrap();
        let mut pair = TwoDevices::new("k20");
        let both = run_whole_job(&spec, Path::new("."), &device, &two, &mut pair).unwrap();
        assert_eq!(both.rule, alone.rule);
        assert_eq!(both.champions, alone.champions);
        assert_eq!(both.measured, alone.measured);
        let shares = two.job_devices(both.job_id).unwrap();
        assert_eq!(shares.len(), 2, "{shares:?}");
        assert_eq!(
            shares.iter().map(|s| s.measurements).sum::<usize>(),
            both.measured
        );
        assert!(shares.iter().all(|s| s.measurements > 0));
        let uuids: Vec<&str> = shares.iter().map(|s| s.device.uuid.as_str()).collect();
        assert!(uuids.contains(&"synthetic-k20") && uuids.contains(&"synthetic-second"));
        // Resuming answers everything from the database.
        let again = run_whole_job(&spec, Path::new("."), &device, &two, &mut pair).unwrap();
        assert_eq!((again.measured, again.reused), (0, both.measured));
    }

    #[test]
    fn measurements_of_another_device_model_are_refused() {
        let spec = JobSpec::from_toml(TOML_JOB, "job.toml").unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let db = TuningDb::open_in_memory().unwrap();
        let mut mixed = TwoDevices::new("k40");
        let err = run_whole_job(&spec, Path::new("."), &device, &db, &mut mixed)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("one device model") && err.contains("k40"),
            "{err}"
        );
        // The same job on identical devices goes on; then a run on another
        // model cannot resume from its measurements.
        let mut twin = TwoDevices::new("k20");
        let fine = run_whole_job(&spec, Path::new("."), &device, &db, &mut twin).unwrap();
        assert!(fine.resumed);
        let k40 = DeviceInfo {
            uuid: "synthetic-k20".into(),
            ..DeviceInfo::synthetic("k40", DeviceProps::tesla_k20())
        };
        let mut eval = SyntheticEvaluator::new(SyntheticModel::symv_k20(), 1);
        let err = run_whole_job(&spec, Path::new("."), &k40, &db, &mut eval)
            .unwrap_err()
            .to_string();
        assert!(err.contains("taken on k20"), "{err}");
    }

    /// A small job of parameter `A` over `values`, searched at `sizes` and
    /// sampled at six sizes from 1000 to 8000; `kernel` is its kernel
    /// section's body.
    pub(crate) fn small_job(name: &str, sizes: &str, values: &str, kernel: &str) -> JobSpec {
        let text = format!(
            r#"
name = "{name}"
sizes = {sizes}
strategy = {{ kind = "champion", top_k = 2, depth = 5 }}

[kernel]
{kernel}

[[param]]
name = "A"
values = {values}

[sampling]
lo = 1000
hi = 8000
step = 100
mode = "fixed"
count = 6
spacing = "linear"
"#
        );
        JobSpec::from_toml(&text, "job.toml").unwrap()
    }

    #[test]
    fn a_size_the_search_measured_keeps_the_kernel_measured_fastest_there() {
        let spec = small_job("one-size", "[1000, 2000, 4000]", "[1, 2]", "name = \"k\"");
        // A = 1 is 20% faster at every size but 2000, where A = 2 (a tile
        // that divides it, say) runs in half the time.
        let mut eval = crate::measure::FnEvaluator(|c: &Config, n: u64| {
            let per = match (c.get_int("A").unwrap(), n) {
                (1, _) => 1.0e-9,
                (_, 2000) => 0.5e-9,
                _ => 1.2e-9,
            };
            Measurement::Ok(crate::measure::Timing::single(per * n as f64))
        });
        let db = TuningDb::open_in_memory().unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let report = run_whole_job(&spec, Path::new("."), &device, &db, &mut eval).unwrap();
        let rule = report.rule.unwrap();
        rule.validate().unwrap();
        let a = |n| rule.select(n).get_int("A").unwrap();
        assert_eq!(a(2000), 2, "{}", rule.to_table());
        for n in [1000, 1999, 2001, 4000, 8000] {
            assert_eq!(a(n), 1, "{n}");
        }
        // The sampling never measured 2000: its curves alone give it A = 1.
        let sampling = report.sampling.unwrap();
        assert!(!sampling.sizes.contains(&2000));
        let fitted = sampling.curves.rule("one-size", 0.02).unwrap();
        assert_eq!(fitted.select(2000).get_int("A"), Some(1));
    }

    /// Square GEMM in the SYMV model's clothes: the model sees the size the
    /// key stands for, and refuses keys that are not of the job's family.
    struct SquareGemm(SyntheticEvaluator);

    impl Evaluator for SquareGemm {
        fn evaluate(&mut self, c: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
            let family: Family = "m=*,n=*,k=*,layout=NT".parse().unwrap();
            let n = family.size_of(key).expect("a key of the job's family");
            Ok(self.0.measure(c, n))
        }
    }

    #[test]
    fn a_job_on_a_declared_family_stores_and_resumes_by_key() {
        let text = TOML_JOB.replacen("sizes =", "family = \"m=*,n=*,k=*,layout=NT\"\nsizes =", 1);
        let spec = JobSpec::from_toml(&text, "gemm.toml").unwrap();
        let db = TuningDb::open_in_memory().unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let mut eval = SquareGemm(SyntheticEvaluator::new(SyntheticModel::symv_k20(), 1));
        let report = run_whole_job(&spec, Path::new("."), &device, &db, &mut eval).unwrap();
        let stored = db.measurements(report.job_id).unwrap();
        assert_eq!(
            stored[0].problem.to_string(),
            "m=1000,n=1000,k=1000,layout=NT"
        );
        let rule = report.rule.unwrap();
        assert_eq!(rule.family, spec.family);
        // The rule's JSON names the family; it applies to NT keys only.
        assert!(rule
            .to_json()
            .contains("\"family\": \"m=*,n=*,k=*,layout=NT\""));
        assert_eq!(Rule::from_json(&rule.to_json(), "rule.json").unwrap(), rule);
        let nt: ProblemKey = "m=150,n=150,k=150,layout=NT".parse().unwrap();
        assert_eq!(rule.select_key(&nt), Some(rule.select(150)));
        let nn: ProblemKey = "m=150,n=150,k=150,layout=NN".parse().unwrap();
        assert_eq!(rule.select_key(&nn), None);
        assert!(stored
            .iter()
            .all(|m| spec.family.size_of(&m.problem) == Some(m.size)));
        let again = run_whole_job(&spec, Path::new("."), &device, &db, &mut eval).unwrap();
        assert_eq!((again.measured, again.reused), (0, report.measured));
        // The same job over n=* is another job: its spec differs.
        let plain = JobSpec::from_toml(TOML_JOB, "job.toml").unwrap();
        assert!(run_whole_job(&plain, Path::new("."), &device, &db, &mut eval).is_err());
    }

    /// A stand-in FFT: fastest where the radix divides nx, and the larger
    /// radix the faster.
    struct Radix;

    impl Evaluator for Radix {
        fn evaluate(&mut self, c: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
            let (r, nx) = (c.get_int("R").unwrap(), key.int("nx").unwrap());
            let t = if nx % r == 0 { 1.0 / r as f64 } else { 2.0 };
            Ok(Measurement::Ok(crate::measure::Timing::single(t)))
        }
    }

    #[test]
    fn a_job_of_exact_problems_plans_each_one() {
        const FFT: &str = r#"
name = "fft"
problems = ["nx=64,precision=s", "nx=81,precision=s", "nx=125,precision=d"]
strategy = { kind = "exhaustive" }

[kernel]
name = "fft"

[[param]]
name = "R"
values = [2, 3, 5]
"#;
        let spec = JobSpec::from_toml(FFT, "fft.toml").unwrap();
        let db = TuningDb::open_in_memory().unwrap();
        let device = DeviceInfo::synthetic("t", DeviceProps::new());
        let report = run_whole_job(&spec, Path::new("."), &device, &db, &mut Radix).unwrap();
        assert!(report.rule.is_none());
        let plans = report.plans.unwrap();
        let pick = |k: &str| plans.select(&k.parse().unwrap()).map(Config::key);
        assert_eq!(pick("nx=64,precision=s").as_deref(), Some("R=2"));
        assert_eq!(pick("nx=81,precision=s").as_deref(), Some("R=3"));
        assert_eq!(pick("nx=125,precision=d").as_deref(), Some("R=5"));
        let stored = db.measurements(report.job_id).unwrap();
        assert_eq!(stored.len(), 9);
        // Sizes and problems exclude each other; exact problems have no sampling.
        let both = FFT.replacen("problems =", "sizes = [64]\nproblems =", 1);
        assert!(JobSpec::from_toml(&both, "f.toml").is_err());
        let sampled =
            format!("{FFT}\n[sampling]\nlo = 64\nhi = 128\nmode = \"fixed\"\ncount = 4\n");
        let err = JobSpec::from_toml(&sampled, "f.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("exact `problems` get plans"), "{err}");
    }

    #[test]
    fn also_best_brings_the_best_of_a_family_into_sampling() {
        // Only UX = 12 ... 16 exist; ask for the best UX = 12 configuration,
        // which the champions (top 1) may or may not include.
        let text = TOML_JOB
            .replace("top_k = 3, depth = 5", "top_k = 1, depth = 5")
            .replace(
                "extra = [{ label = \"Rank 0\", config = { ALGO = \"lu\" } }]",
                "also_best = [{ UX = 12 }, { UX = 99 }]",
            );
        let spec = JobSpec::from_toml(&text, "job.toml").unwrap();
        assert_eq!(spec.sampling.as_ref().unwrap().also_best.len(), 2);
        let db = TuningDb::open_in_memory().unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let mut eval = SyntheticEvaluator::new(SyntheticModel::symv_k20(), 1);
        let report = run_whole_job(&spec, Path::new("."), &device, &db, &mut eval).unwrap();
        let kernels = &report.sampling.unwrap().curves.kernels;
        let best_ux12 = report
            .search
            .ranking
            .iter()
            .map(|r| {
                crate::space::Space::new(spec.space_spec(), spec.device_props(&device))
                    .unwrap()
                    .enumerate()
                    .config(r.index)
            })
            .find(|c| c.get_int("UX") == Some(12))
            .unwrap();
        let champion = &report.champions[0];
        if champion.get_int("UX") == Some(12) {
            // Already sampled: not added twice.
            assert_eq!(kernels.len(), 1);
        } else {
            assert_eq!(kernels.len(), 2);
            assert_eq!(kernels[1].label, "Best UX=12");
            assert_eq!(kernels[1].config, best_ux12);
        }
        // No configuration has UX = 99: nothing is added for it.
        assert!(kernels.iter().all(|k| !k.label.contains("99")));
        // A misspelt parameter is an error, not a silent no-op.
        let typo = text.replace("{ UX = 99 }", "{ ux = 12 }");
        let spec = JobSpec::from_toml(&typo, "job.toml").unwrap();
        let db = TuningDb::open_in_memory().unwrap();
        let err = run_whole_job(&spec, Path::new("."), &device, &db, &mut eval)
            .unwrap_err()
            .to_string();
        assert!(err.contains("`ux`"), "{err}");
    }

    #[test]
    fn a_job_resumes_only_with_the_same_sources_and_measurement() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("k.cu"), "// kernel v1").unwrap();
        std::fs::write(dir.path().join("k.cuh"), "// header v1").unwrap();
        let text = TOML_JOB.replace(
            "[kernel]\nname = \"symv\"",
            "[kernel]\nname = \"symv\"\ntemplate = \"k.cu\"\nsources = [\"k.cuh\"]",
        );
        let mut spec = JobSpec::from_toml(&text, "job.toml").unwrap();
        assert_eq!(spec.kernel.sources, vec![PathBuf::from("k.cuh")]);
        spec.sampling = None;
        spec.measurement = Some(serde_json::json!({"reps": 20}));
        let db = TuningDb::open_in_memory().unwrap();
        let device = DeviceInfo::synthetic("k20", DeviceProps::tesla_k20());
        let mut eval = SyntheticEvaluator::new(SyntheticModel::symv_k20(), 1);
        let mut run = |spec: &JobSpec| run_whole_job(spec, dir.path(), &device, &db, &mut eval);
        run(&spec).unwrap();
        assert!(run(&spec).unwrap().resumed);
        // Other repetitions: not the same job.
        let mut other = spec.clone();
        other.measurement = Some(serde_json::json!({"reps": 50}));
        let err = run(&other).unwrap_err().to_string();
        assert!(err.contains("measurement options"), "{err}");
        // A changed header is a changed kernel.
        std::fs::write(dir.path().join("k.cuh"), "// header v2").unwrap();
        let err = run(&spec).unwrap_err().to_string();
        assert!(err.contains("kernel source"), "{err}");
        // A missing source names itself.
        std::fs::remove_file(dir.path().join("k.cuh")).unwrap();
        let err = run(&spec).unwrap_err().to_string();
        assert!(
            err.contains("k.cuh") && err.contains("kernel source"),
            "{err}"
        );
    }

    #[test]
    fn size_winners_the_points_did_not_rank_are_labelled_by_their_size() {
        use crate::strategy::{Outcome, Ranked};
        let ranked = |index| Ranked {
            index,
            objective: Some(0.0),
            points: Some(1.0),
        };
        let search = Outcome {
            ranking: vec![ranked(7), ranked(3), ranked(5)],
            size_winners: vec![7, 5],
            ..Outcome::default()
        };
        let sizes = [ProblemKey::n(512), ProblemKey::n(4096)];
        // Top 2 by points (7, 3), then 5, the winner at 4096 that ranked third.
        assert_eq!(champion_label(&search, &sizes, 7, 0), "Rank 1");
        assert_eq!(champion_label(&search, &sizes, 3, 1), "Rank 2");
        assert_eq!(champion_label(&search, &sizes, 5, 2), "Rank 3");
        // With top 1: 7, then 5 as a winner in second place.
        assert_eq!(champion_label(&search, &sizes, 5, 1), "Best at n=4096");
    }
}
