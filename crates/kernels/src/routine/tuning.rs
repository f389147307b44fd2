//! A library routine under `hone tune`, written once: the worker extension
//! that keeps the routine's runner alive across requests and measures one
//! kernel on one problem ([`LibraryWorker`]), and the tuner's evaluator that
//! compiles variants ahead into the module cache and sends each measurement
//! to the supervised worker ([`LibraryEvaluator`]). A routine supplies what
//! is its own through [`Tunable`]: which job names it answers to, how a
//! configuration becomes a kernel and a key a problem, how its runner
//! measures, and how a kernel compiles.

use std::hash::Hash;

use hone_gpu::pool::{CompilePool, Compiled};
use hone_gpu::protocol::DEVICE_ENV;
use hone_gpu::{
    DeviceProps, ExtensionReply, Gpu, GpuError, IsolatedEvaluator, ModuleCache, TimingOptions,
    TuneStats, WorkerExtension,
};
use hone_tuner::job::ParamSpec;
use hone_tuner::{Config, Invalid, InvalidKind, JobSpec, Measurement, ProblemKey, Stop};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Compiles one kernel into the module cache on a host thread.
pub type Compiler<K> = Box<dyn Fn(&K) -> Compiled<()> + Send + Sync>;

/// What a routine supplies to be tuned.
pub trait Tunable: 'static {
    /// The worker extension's name.
    const EXTENSION: &'static str;
    /// What a job's `library` name selects (a precision and layout, say).
    type Target: Copy + Send + 'static;
    /// One kernel variant.
    type Kernel: Clone + Eq + Hash + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// What the worker keeps across requests (modules, buffers).
    type Runner: 'static;

    /// The target a job's `library` names, if it is this routine's.
    fn target(library: &str) -> Option<Self::Target>;
    /// The names this routine answers to, for error messages.
    fn names() -> Vec<String>;
    /// The space a job on `target` tunes: parameters and constraints.
    fn job_space(target: Self::Target) -> (Vec<ParamSpec>, Vec<String>);
    /// Checks the parameters (name, values) of a job that states its own
    /// space, so that a misspelt parameter stops the job before it starts.
    fn check_params(_target: Self::Target, _params: &[(String, Vec<i64>)]) -> Result<(), String> {
        Ok(())
    }
    /// The kernel a configuration stands for.
    fn kernel_of(target: Self::Target, config: &Config) -> Result<Self::Kernel, String>;
    /// The position of a key on the job's size axis, for the check limit.
    fn size_of(key: &ProblemKey) -> Option<u64>;
    /// Opens the runner on the worker's device.
    fn open(gpu: &'static Gpu) -> Result<Self::Runner, GpuError>;
    /// Compiles a kernel on a host thread into the module cache, so that
    /// the worker finds it there.
    fn compiler(
        props: &DeviceProps,
        cache: ModuleCache,
    ) -> Result<Compiler<Self::Kernel>, GpuError>;
    /// Measures (checking first when `check`) `kernel` on `key` in the
    /// worker. A variant's own failure is an invalid measurement; `Err` is
    /// the device's, and a sticky one ends the worker.
    fn measure(
        runner: &mut Self::Runner,
        kernel: &Self::Kernel,
        key: &ProblemKey,
        timing: &TimingOptions,
        check: bool,
        progress: &mut dyn FnMut(&str, u32),
    ) -> Result<Measurement, GpuError>;
}

/// Gives a job on `target` the routine's space ([`JobSpec::inherit`]), or
/// checks the parameters it states ([`Tunable::check_params`]).
pub fn inherit<T: Tunable>(spec: &mut JobSpec, target: T::Target) -> Result<(), String> {
    if spec.params.is_empty() {
        let (params, constraints) = T::job_space(target);
        spec.inherit(params, constraints);
        return Ok(());
    }
    let params = spec
        .space_spec()
        .params
        .iter()
        .map(|p| {
            let ints = p
                .values
                .iter()
                .map(|v| {
                    v.as_int()
                        .ok_or_else(|| format!("{} = `{v}` is not an integer", p.name))
                })
                .collect::<Result<Vec<i64>, String>>()?;
            Ok((p.name.clone(), ints))
        })
        .collect::<Result<Vec<_>, String>>()?;
    T::check_params(target, &params)
}

/// A library routine's evaluator, whatever the routine: what a program that
/// runs jobs needs of it besides evaluating.
pub trait LibraryJob: hone_tuner::Evaluator + Send {
    /// Starts compiling `configs` ahead, in order.
    fn precompile(&mut self, configs: &[Config]);
    fn stats(&self) -> TuneStats;
    /// Workers replaced after faults, hangs or deaths.
    fn restarts(&self) -> u32;
}

impl<T: Tunable> LibraryJob for LibraryEvaluator<T> {
    fn precompile(&mut self, configs: &[Config]) {
        LibraryEvaluator::precompile(self, configs)
    }

    fn stats(&self) -> TuneStats {
        LibraryEvaluator::stats(self)
    }

    fn restarts(&self) -> u32 {
        LibraryEvaluator::restarts(self)
    }
}

/// Opens `T`'s evaluator for a job on `target` over `worker`; the device's
/// properties with it.
pub fn open_job<T: Tunable>(
    target: T::Target,
    worker: IsolatedEvaluator,
    options: TuneOptions,
    cache: ModuleCache,
) -> hone_gpu::Result<(Box<dyn LibraryJob>, DeviceProps)> {
    let mut eval = LibraryEvaluator::<T>::new(target, worker, options);
    let props = eval.connect(cache)?;
    Ok((Box::new(eval), props))
}

/// One request to the worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request<K> {
    pub kernel: K,
    pub key: ProblemKey,
    pub timing: TimingOptions,
    pub check: bool,
}

/// The worker side of a routine: the device and the runner, opened on the
/// first request and kept.
pub struct LibraryWorker<T: Tunable> {
    runner: Option<T::Runner>,
}

impl<T: Tunable> Default for LibraryWorker<T> {
    fn default() -> Self {
        LibraryWorker { runner: None }
    }
}

impl<T: Tunable> LibraryWorker<T> {
    pub fn new() -> Self {
        Self::default()
    }

    fn runner(&mut self) -> Result<&mut T::Runner, GpuError> {
        if self.runner.is_none() {
            let ordinal = std::env::var(DEVICE_ENV)
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            // The worker process holds one device until it exits; the runner
            // borrows it for that long.
            let gpu: &'static Gpu = Box::leak(Box::new(Gpu::open(ordinal)?));
            self.runner = Some(T::open(gpu)?);
        }
        Ok(self.runner.as_mut().expect("opened above"))
    }
}

impl<T: Tunable> WorkerExtension for LibraryWorker<T> {
    fn name(&self) -> &str {
        T::EXTENSION
    }

    fn handle(
        &mut self,
        payload: serde_json::Value,
        progress: &mut dyn FnMut(&str, u32),
    ) -> Result<(serde_json::Value, bool), GpuError> {
        let request: Request<T::Kernel> = serde_json::from_value(payload)
            .map_err(|e| GpuError::Worker(format!("unreadable {} request: {e}", T::EXTENSION)))?;
        progress("compile", 0);
        let runner = self.runner()?;
        let (outcome, fatal) = match T::measure(
            runner,
            &request.kernel,
            &request.key,
            &request.timing,
            request.check,
            progress,
        ) {
            Ok(m) => (m, false),
            Err(e @ GpuError::NoDevice(_)) => return Err(e),
            Err(e) if e.is_sticky() => (Invalid::runtime(format!("fault: {e}")).into(), true),
            Err(e) => (Invalid::runtime(e.to_string()).into(), false),
        };
        let value = serde_json::to_value(&outcome)
            .map_err(|e| GpuError::Worker(format!("cannot encode an outcome: {e}")))?;
        Ok((value, fatal))
    }
}

/// How a routine's evaluations run.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneOptions {
    pub timing: TimingOptions,
    /// Check against the reference only up to this size on the job's axis.
    pub check_max: Option<u64>,
    /// Threads compiling variants ahead of the worker.
    pub compile_threads: usize,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            timing: TimingOptions::default(),
            check_max: Some(4096),
            compile_threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
        }
    }
}

/// The tuner's side: compiles ahead on a pool and measures in the worker.
pub struct LibraryEvaluator<T: Tunable> {
    target: T::Target,
    worker: IsolatedEvaluator,
    options: TuneOptions,
    pool: Option<CompilePool<T::Kernel, ()>>,
    stats: TuneStats,
}

impl<T: Tunable> LibraryEvaluator<T> {
    pub fn new(target: T::Target, worker: IsolatedEvaluator, options: TuneOptions) -> Self {
        LibraryEvaluator {
            target,
            worker,
            options,
            pool: None,
            stats: TuneStats::new(),
        }
    }

    /// Opens the device in the worker and the compiler here; the device's
    /// properties.
    pub fn connect(&mut self, cache: ModuleCache) -> hone_gpu::Result<DeviceProps> {
        let props = self.worker.device()?;
        let compile = T::compiler(&props, cache)?;
        self.pool = Some(CompilePool::new(compile));
        Ok(props)
    }

    /// Starts compiling `configs` ahead, in order.
    pub fn precompile(&mut self, configs: &[Config]) {
        let (threads, target) = (self.options.compile_threads, self.target);
        if let Some(pool) = self.pool.as_mut() {
            pool.queue(
                configs.iter().filter_map(|c| T::kernel_of(target, c).ok()),
                threads,
            );
        }
    }

    pub fn stats(&self) -> TuneStats {
        let mut s = self.stats.clone();
        if let Some(p) = &self.pool {
            (s.compiled, s.cache_hits) = p.counts();
        }
        s
    }

    pub fn restarts(&self) -> u32 {
        self.worker.restarts()
    }

    fn checks(&self, key: &ProblemKey) -> bool {
        match (self.options.check_max, T::size_of(key)) {
            (None, _) => true,
            (Some(max), Some(s)) => s <= max,
            (Some(_), None) => true,
        }
    }

    fn measure(&mut self, kernel: T::Kernel, key: &ProblemKey) -> Result<Measurement, GpuError> {
        if let Some(pool) = &self.pool {
            if let Err(invalid) = pool.wait(&kernel) {
                return Ok(invalid.into());
            }
        }
        let request = Request {
            kernel,
            key: key.clone(),
            timing: self.options.timing.clone(),
            check: self.checks(key),
        };
        let payload = match serde_json::to_value(&request) {
            Ok(p) => p,
            Err(e) => return Ok(Invalid::runtime(format!("cannot encode: {e}")).into()),
        };
        let first = self.worker.limits().host;
        let reply = self.worker.extension(T::EXTENSION, payload, first)?;
        Ok(reply_measurement(reply, |payload| {
            serde_json::from_value(payload).map_err(|e| e.to_string())
        }))
    }
}

impl<T: Tunable> hone_tuner::Evaluator for LibraryEvaluator<T> {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
        let m = match T::kernel_of(self.target, config) {
            Err(e) => Measurement::invalid(InvalidKind::Constraint, e),
            Ok(kernel) => self.measure(kernel, key).map_err(Stop::failed)?,
        };
        let checked = self.checks(key);
        self.stats.record(&m, checked);
        Ok(m)
    }
}

/// The measurement a worker's reply stands for: `answer` decodes an answer
/// (an unreadable one is the variant's runtime failure); a timeout, a dead
/// worker or a failed request is the variant's invalid measurement.
pub fn reply_measurement(
    reply: ExtensionReply,
    answer: impl FnOnce(serde_json::Value) -> Result<Measurement, String>,
) -> Measurement {
    match reply {
        ExtensionReply::Answer { payload, .. } => answer(payload).unwrap_or_else(|e| {
            Invalid::runtime(format!("unreadable answer from the worker: {e}")).into()
        }),
        ExtensionReply::TimedOut { phase, seconds } => Measurement::invalid(
            InvalidKind::Timeout,
            format!("timed out after {seconds:.1} s in phase `{phase}` (worker restarted)"),
        ),
        ExtensionReply::Died { phase, reason } => Measurement::invalid(
            InvalidKind::Runtime,
            format!("worker died in phase `{phase}`: {reason}"),
        ),
        ExtensionReply::Failed { reason, fatal } => Measurement::invalid(
            InvalidKind::Runtime,
            if fatal {
                format!("{reason} (worker restarted)")
            } else {
                reason
            },
        ),
    }
}

/// The tuner's timing of one timing pass (milliseconds to seconds).
pub fn timing_of(s: &hone_gpu::Stats) -> hone_tuner::Timing {
    hone_tuner::Timing {
        median_s: s.median * 1e-3,
        q1_s: s.q1 * 1e-3,
        q3_s: s.q3 * 1e-3,
        min_s: s.min * 1e-3,
        max_s: s.max * 1e-3,
        samples: s.count as u32,
        times_s: Vec::new(),
        gbps: None,
        gflops: None,
    }
}

/// Launches one evaluation makes after its data is ready, for the
/// supervisor's deadline: two checks, then per timed run the warm-ups and
/// the timed runs with an L2 flush before each.
pub fn launches(timing: &TimingOptions) -> u32 {
    let per_run = timing.warmup.saturating_add(timing.reps.saturating_mul(2));
    2u32.saturating_add(per_run)
}
