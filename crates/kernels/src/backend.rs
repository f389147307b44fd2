//! The GPU behind a tuning job: the evaluator a job gets for what it names
//! (a kernel template, or a routine of this library), measuring as the
//! caller's options say. Only this crate sees both kinds, so the choice is
//! made here rather than by each program that runs jobs.

use std::path::Path;
use std::time::Duration;

use hone_gpu::devices::pools_by_model;
use hone_gpu::protocol::DEVICE_ENV;
use hone_gpu::tuning::{device_info, job_template, CopyRow};
use hone_gpu::{
    DevicePool, GpuError, IsolatedEvaluator, Lane, Limits, ModuleCache, TemplateEvaluator,
    TuneOptions, TuneStats, WorkerCommand,
};
use hone_tuner::{
    Config, DeviceInfo, Evaluator, JobReport, JobSpec, Measurement, OnDevice, ProblemKey, Stop,
    TuningDb,
};
use serde_json::json;

use crate::routine::registry::{open_library_job, prepare_library_job};
use crate::routine::tuning::{LibraryJob, TuneOptions as LibraryTuneOptions};

/// How a job's measurements are taken.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureOptions {
    /// Timed runs per measurement (the median is kept).
    pub reps: u32,
    /// Untimed runs before them.
    pub warmup: u32,
    /// Empty L2 before each timed run (by reading twice its size).
    pub flush_l2: bool,
    /// Check against the reference only up to this size; `None`: every size
    /// for templates, the routine's own default for library routines.
    pub check_max: Option<u64>,
    /// How long one launch may run before the variant counts as hung.
    pub launch_timeout: Duration,
}

impl MeasureOptions {
    /// The size up to which `spec`'s measurements are checked.
    pub fn check_max(&self, spec: &JobSpec) -> Option<u64> {
        match (&spec.kernel.library, self.check_max) {
            (_, Some(max)) => Some(max),
            (Some(_), None) => LibraryTuneOptions::default().check_max,
            (None, None) => None,
        }
    }

    /// What the job is stored with: resuming with other options would mix
    /// measurements taken two ways.
    pub fn record(&self, spec: &JobSpec) -> serde_json::Value {
        let mut r = json!({
            "reps": self.reps.max(1),
            "warmup": self.warmup,
            "flush_l2": self.flush_l2,
            "check_max": self.check_max(spec),
        });
        if self.flush_l2 {
            // Jobs recorded before the flush read L2 (it was overwritten)
            // measured short runs slower: they are not resumed.
            r["l2_flush"] = hone_gpu::TimingOptions::default().l2_flush.name().into();
        }
        r
    }
}

/// Errors opening a job's GPU.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error("{0}")]
    Job(String),
}

/// Gives a job that names a library routine the routine's space; other jobs
/// are left as written.
pub fn prepare_job(spec: &mut JobSpec) -> Result<(), BackendError> {
    prepare_library_job(spec).map_err(|e| BackendError::Job(format!("job `{}`: {e}", spec.name)))
}

/// A job's evaluator on the GPU, in a supervised worker process.
pub enum JobBackend {
    Template(Box<TemplateEvaluator>),
    /// A routine of this library (`library = "dsymv_lower"` or
    /// `"dgemm_nn"` in the job), through the library layer's generic tuning
    /// extension.
    Library(Box<dyn LibraryJob>),
}

impl JobBackend {
    /// Starts the worker (`worker` runs the GPU worker, which must register
    /// the library's extensions) and opens the device; `job_dir` resolves
    /// the job's template.
    pub fn open(
        spec: &JobSpec,
        job_dir: &Path,
        worker: WorkerCommand,
        options: &MeasureOptions,
    ) -> Result<(JobBackend, DeviceInfo), BackendError> {
        if options.launch_timeout.is_zero() {
            return Err(BackendError::Job(
                "the launch timeout must be a positive number of seconds".into(),
            ));
        }
        let worker = IsolatedEvaluator::new(worker).with_limits(Limits {
            per_launch: options.launch_timeout,
            ..Limits::default()
        });
        let cache = ModuleCache::open_default();
        match &spec.kernel.library {
            Some(library) => {
                let mut o = LibraryTuneOptions::default();
                o.timing.reps = options.reps.max(1);
                o.timing.warmup = options.warmup;
                o.timing.flush_l2 = options.flush_l2;
                o.check_max = options.check_max(spec);
                let (eval, props) =
                    open_library_job(library, worker, o, cache).map_err(BackendError::Job)??;
                Ok((JobBackend::Library(eval), device_info(&props)))
            }
            None => {
                let template = job_template(spec, job_dir).map_err(BackendError::Job)?;
                let mut o = TuneOptions::default();
                o.eval.timing.reps = options.reps.max(1);
                o.eval.timing.warmup = options.warmup;
                o.eval.timing.flush_l2 = options.flush_l2;
                o.eval.fill_on_device = true;
                o.check_max_n = options.check_max;
                let mut eval = TemplateEvaluator::new(template, worker, o);
                let props = eval.connect(cache)?;
                Ok((JobBackend::Template(Box::new(eval)), device_info(&props)))
            }
        }
    }

    /// [`JobBackend::open`] on device `ordinal` (its worker opens that
    /// device), with the device as measurements name it.
    pub fn open_on(
        spec: &JobSpec,
        job_dir: &Path,
        worker: WorkerCommand,
        options: &MeasureOptions,
        ordinal: u32,
    ) -> Result<(JobBackend, OnDevice), BackendError> {
        let worker = worker.env(DEVICE_ENV, ordinal.to_string());
        let (backend, info) = JobBackend::open(spec, job_dir, worker, options)?;
        Ok((backend, OnDevice { ordinal, info }))
    }

    /// Compiles on `other`'s pool from now on where both compile for one
    /// architecture (templates; a library routine's lanes compile each on
    /// their own, through the shared module cache); returns whether it does.
    pub fn share_compiler(&mut self, other: &JobBackend) -> bool {
        match (self, other) {
            (JobBackend::Template(mine), JobBackend::Template(theirs)) => {
                mine.share_compiler(theirs)
            }
            _ => false,
        }
    }

    /// Starts compiling `configs` ahead while the worker times what is ready.
    pub fn precompile(&mut self, configs: &[Config]) {
        match self {
            JobBackend::Template(e) => e.precompile(configs),
            JobBackend::Library(e) => e.precompile(configs),
        }
    }

    pub fn stats(&self) -> TuneStats {
        match self {
            JobBackend::Template(e) => e.stats(),
            JobBackend::Library(e) => e.stats(),
        }
    }

    /// Worker processes replaced after faults, hangs or deaths.
    pub fn restarts(&self) -> u32 {
        match self {
            JobBackend::Template(e) => e.restarts(),
            JobBackend::Library(e) => e.restarts(),
        }
    }

    /// The rule's kernels against device-to-device copies of their traffic;
    /// templates only (library routines have their own benchmarks).
    pub fn compare_memcpy(
        &mut self,
        db: &TuningDb,
        report: &JobReport,
    ) -> Result<Vec<CopyRow>, BackendError> {
        match self {
            JobBackend::Template(e) => e.compare_memcpy(db, report).map_err(BackendError::Job),
            JobBackend::Library(_) => Err(BackendError::Job(
                "--compare-memcpy is for templates; library kernels have their own benchmarks (`hone bench ROUTINE`)".into(),
            )),
        }
    }
}

impl Lane for JobBackend {
    fn restarts(&self) -> u32 {
        JobBackend::restarts(self)
    }
}

/// A job's evaluators on several devices: one lane per ordinal (the same
/// ordinal twice gives two workers on that device), in pools of one device
/// model each. Devices of several models are an error unless
/// `per_device_rules`, which gives one pool (and so one job and one rule)
/// per model.
pub fn open_devices(
    spec: &JobSpec,
    job_dir: &Path,
    worker: &WorkerCommand,
    options: &MeasureOptions,
    ordinals: &[u32],
    per_device_rules: bool,
) -> Result<Vec<DevicePool<JobBackend>>, BackendError> {
    if ordinals.is_empty() {
        return Err(BackendError::Job("--devices names no device".into()));
    }
    let mut lanes: Vec<(JobBackend, OnDevice)> = Vec::new();
    for &ordinal in ordinals {
        let (mut lane, on) = JobBackend::open_on(spec, job_dir, worker.clone(), options, ordinal)
            .map_err(|e| match e {
            BackendError::Gpu(GpuError::NoDevice(m)) => {
                BackendError::Gpu(GpuError::NoDevice(format!("GPU {ordinal}: {m}")))
            }
            other => other,
        })?;
        if let Some((first, _)) = lanes
            .iter()
            .find(|(_, o)| o.info.model() == on.info.model())
        {
            lane.share_compiler(first);
        }
        lanes.push((lane, on));
    }
    Ok(pools_by_model(lanes, per_device_rules)?)
}

/// Starts compiling `configs` ahead on a pool's lanes (once per compiler).
pub fn precompile_on(pool: &mut DevicePool<JobBackend>, configs: &[Config]) {
    let mut shared = false;
    for lane in pool.lanes_mut() {
        // Lanes after the first of a template share its compiler.
        if !shared {
            lane.precompile(configs);
            shared = matches!(lane, JobBackend::Template(_));
        }
    }
}

/// What the lanes of a pool did in all: evaluations summed, compilations
/// counted once where lanes share a compiler.
pub fn pool_stats(pool: &DevicePool<JobBackend>) -> TuneStats {
    let mut all = TuneStats::new();
    for lane in pool.lanes() {
        let s = lane.stats();
        all.evaluations += s.evaluations;
        all.valid += s.valid;
        all.checked += s.checked;
        for (kind, n) in &s.invalid {
            if let Some(e) = all.invalid.iter_mut().find(|e| e.0 == *kind) {
                e.1 += n;
            }
        }
        match lane {
            JobBackend::Template(_) => {
                all.compiled = all.compiled.max(s.compiled);
                all.cache_hits = all.cache_hits.max(s.cache_hits);
            }
            JobBackend::Library(_) => {
                all.compiled += s.compiled;
                all.cache_hits += s.cache_hits;
            }
        }
    }
    all
}

impl Evaluator for JobBackend {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
        match self {
            JobBackend::Template(e) => e.evaluate(config, key),
            JobBackend::Library(e) => e.evaluate(config, key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(library: Option<&str>) -> JobSpec {
        let lib = library
            .map(|l| format!("library = \"{l}\"\n"))
            .unwrap_or_default();
        JobSpec::from_toml(
            &format!(
                "name = \"j\"\nsizes = [512]\nstrategy = {{ kind = \"exhaustive\" }}\n\
                 [kernel]\nname = \"j\"\n{lib}[[param]]\nname = \"ALG\"\nvalues = [1]\n"
            ),
            "j.toml",
        )
        .unwrap()
    }

    #[test]
    fn library_routines_check_up_to_their_own_default_unless_told() {
        let mut o = MeasureOptions {
            reps: 0,
            warmup: 2,
            flush_l2: true,
            check_max: None,
            launch_timeout: Duration::from_secs(5),
        };
        let lib = spec(Some("dsymv_lower"));
        assert_eq!(o.check_max(&lib), Some(4096));
        assert_eq!(o.check_max(&spec(None)), None);
        let r = o.record(&lib);
        assert_eq!(r["reps"], 1);
        assert_eq!(r["check_max"], 4096);
        assert_eq!(r["l2_flush"], "read");
        o.flush_l2 = false;
        assert!(o.record(&lib).get("l2_flush").is_none());
        o.flush_l2 = true;
        o.check_max = Some(100);
        assert_eq!(o.check_max(&lib), Some(100));
    }

    #[test]
    fn without_a_device_or_a_template_opening_says_why() {
        let o = MeasureOptions {
            reps: 1,
            warmup: 0,
            flush_l2: false,
            check_max: None,
            launch_timeout: Duration::ZERO,
        };
        let worker = WorkerCommand::new("/nonexistent/hone-gpu-worker");
        let e = JobBackend::open(&spec(None), Path::new("."), worker.clone(), &o)
            .err()
            .unwrap();
        assert!(e.to_string().contains("launch timeout"), "{e}");
        let o = MeasureOptions {
            launch_timeout: Duration::from_secs(1),
            ..o
        };
        let e = JobBackend::open(&spec(None), Path::new("."), worker.clone(), &o)
            .err()
            .unwrap();
        assert!(e.to_string().contains("names no kernel template"), "{e}");
        let e = JobBackend::open(&spec(Some("zsymv_lower")), Path::new("."), worker, &o)
            .err()
            .unwrap();
        assert!(e.to_string().contains("unknown library kernel"), "{e}");
    }
}
