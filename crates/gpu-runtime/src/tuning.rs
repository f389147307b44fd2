//! The tuner's view of the GPU: a [`hone_tuner::Evaluator`] that checks and
//! times one template variant at one size in the isolated worker, with the
//! variants compiled ahead on a [`CompilePool`] while the worker times others.
//!
//! Machinery failures (the device vanished, the worker cannot start) are not
//! properties of a variant: [`TemplateEvaluator`] ends the run with them
//! ([`hone_tuner::Stop`]) instead of recording the rest of the space as
//! missing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hone_tuner::{
    Invalid, InvalidKind, JobReport, JobSpec, Measurement as TunerMeasurement, ProblemKey, Stop,
    Timing, TuningDb,
};

use crate::cache::{CachedModule, ModuleCache};
use crate::device::DeviceProps;
use crate::error::{GpuError, Result};
use crate::evaluate::{EvalOptions, EvalRequest, ModuleSource, Outcome};
use crate::isolated::IsolatedEvaluator;
use crate::nvrtc::{self, ImageKind, Target};
use crate::pool::{CompilePool, Compiled};
use crate::protocol::Simulate;
use crate::template::{Config, KernelTemplate};
use crate::timing::{CopyBandwidth, TimingOptions};

/// How the tuner's evaluations run.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneOptions {
    /// Timing, checking and input options of every evaluation.
    pub eval: EvalOptions,
    /// Check against the reference only up to this size; larger sizes are
    /// timed unchecked (with inputs filled on the device when
    /// `eval.fill_on_device`). `None` checks every size.
    pub check_max_n: Option<u64>,
    /// Threads compiling variants ahead of the timing loop.
    pub compile_threads: usize,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            eval: EvalOptions::default(),
            check_max_n: None,
            compile_threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
                .clamp(1, 8),
        }
    }
}

/// Counts of what the evaluator did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TuneStats {
    pub evaluations: usize,
    pub valid: usize,
    /// Valid evaluations that were checked against the reference.
    pub checked: usize,
    /// Invalid evaluations by kind, in [`InvalidKind::ALL`] order.
    pub invalid: Vec<(InvalidKind, usize)>,
    /// Variants compiled (or found in the module cache) by the pool.
    pub compiled: usize,
    pub cache_hits: usize,
}

impl TuneStats {
    /// No evaluations yet, every invalid kind at zero.
    pub fn new() -> Self {
        TuneStats {
            invalid: InvalidKind::ALL.iter().map(|&k| (k, 0)).collect(),
            ..TuneStats::default()
        }
    }

    pub fn invalid_of(&self, kind: InvalidKind) -> usize {
        self.invalid.iter().find(|e| e.0 == kind).map_or(0, |e| e.1)
    }

    /// Counts one evaluation; `checked`: a valid one was checked against the
    /// reference.
    pub fn record(&mut self, m: &TunerMeasurement, checked: bool) {
        self.evaluations += 1;
        match m {
            TunerMeasurement::Ok(_) => {
                self.valid += 1;
                self.checked += usize::from(checked);
            }
            TunerMeasurement::Invalid { kind, .. } => {
                if let Some(e) = self.invalid.iter_mut().find(|e| e.0 == *kind) {
                    e.1 += 1;
                }
            }
        }
    }
}

/// The tuner's device description from the runtime's.
pub fn device_info(props: &DeviceProps) -> hone_tuner::DeviceInfo {
    let p = props.constraint_props();
    let version = |v: (u32, u32)| format!("{}.{}", v.0, v.1);
    hone_tuner::DeviceInfo {
        name: props.name.clone(),
        uuid: props.uuid.clone(),
        clock_mhz: props.clock_khz.map(|k| k as f64 / 1e3),
        mem_clock_mhz: props.memory_clock_khz.map(|k| k as f64 / 1e3),
        driver: Some(version(props.driver_version)),
        nvrtc_version: props.nvrtc_version.map(version),
        props: p,
    }
}

/// The runtime's configuration (integer parameters by name) from the tuner's.
pub fn runtime_config(config: &hone_tuner::Config) -> std::result::Result<Config, String> {
    config
        .entries()
        .iter()
        .map(|(name, value)| match value.as_int() {
            Some(v) => Ok((name.clone(), v)),
            None => Err(format!(
                "parameter `{name}` = `{value}` is not an integer; templates take -D integers"
            )),
        })
        .collect()
}

/// The tuner's timing from a runtime measurement (milliseconds to seconds).
pub fn timing_of(m: &crate::evaluate::Measurement) -> Timing {
    let s = |ms: f64| ms * 1e-3;
    let t = &m.time_ms;
    Timing {
        median_s: s(t.median),
        q1_s: s(t.q1),
        q3_s: s(t.q3),
        min_s: s(t.min),
        max_s: s(t.max),
        samples: t.count as u32,
        times_s: Vec::new(),
        gbps: (m.bytes > 0.0).then_some(m.gbps),
        gflops: (m.flops > 0.0).then_some(m.gflops),
    }
}

/// Compiles one variant of `template` through `cache`, or says why it
/// cannot be: a configuration outside the template, a compile error.
pub fn compile_variant(
    template: &KernelTemplate,
    cache: &ModuleCache,
    target: Target,
    nvrtc_version: (u32, u32),
    config: &Config,
) -> Compiled<CachedModule> {
    if let Err(e) = template.check_config(config) {
        return Compiled {
            result: Err(Invalid::constraint(format!("invalid configuration: {e}"))),
            cache_hit: Some(false),
        };
    }
    let name = format!("{}.cu", template.spec.name);
    match cache.compile(
        &template.source_text,
        &name,
        &template.compile_options(config),
        &target,
        nvrtc_version,
    ) {
        Ok(m) => Compiled {
            cache_hit: Some(m.hit),
            result: Ok(m),
        },
        Err(e @ GpuError::Compile { .. }) => Compiled {
            result: Err(Invalid::compile(format!("compile error: {e}"))),
            cache_hit: Some(false),
        },
        Err(e) => Compiled {
            result: Err(Invalid::runtime(e.to_string())),
            cache_hit: Some(false),
        },
    }
}

type SimulateFn = Box<dyn Fn(&Config, u64) -> Option<Simulate> + Send>;

/// Evaluates variants of one template on the GPU for the tuner.
pub struct TemplateEvaluator {
    template: Arc<KernelTemplate>,
    worker: IsolatedEvaluator,
    options: TuneOptions,
    compiler: Option<CompilePool<Config, (PathBuf, ImageKind)>>,
    /// What the compiler compiles for.
    target: Option<Target>,
    simulate: Option<SimulateFn>,
    stats: TuneStats,
}

impl TemplateEvaluator {
    /// An evaluator over `worker`; call [`TemplateEvaluator::connect`] before
    /// evaluating on a real device.
    pub fn new(template: KernelTemplate, worker: IsolatedEvaluator, options: TuneOptions) -> Self {
        TemplateEvaluator {
            template: Arc::new(template),
            worker,
            options,
            compiler: None,
            target: None,
            simulate: None,
            stats: TuneStats::new(),
        }
    }

    /// Opens the device in the worker, and NVRTC here for the device's
    /// architecture; returns the device's properties. Fails with
    /// [`GpuError::NoDevice`] on a machine without a usable GPU.
    pub fn connect(&mut self, cache: ModuleCache) -> Result<DeviceProps> {
        let props = self.worker.device()?;
        let target = nvrtc::target_for(props.compute_capability)?;
        let nvrtc_version = nvrtc::version()?;
        let template = Arc::clone(&self.template);
        self.compiler = Some(CompilePool::new(move |config: &Config| {
            let c = compile_variant(&template, &cache, target, nvrtc_version, config);
            Compiled {
                result: c.result.map(|m| (m.path, m.module.kind)),
                cache_hit: c.cache_hit,
            }
        }));
        self.target = Some(target);
        Ok(props)
    }

    /// Has the worker report `props` instead of opening a device: with
    /// [`TemplateEvaluator::simulate`], for testing the tuning of several
    /// devices without one. Nothing is compiled.
    pub fn connect_simulated(&mut self, props: DeviceProps) -> Result<DeviceProps> {
        self.worker.device_as(Some(props))
    }

    /// Compiles on `other`'s pool from now on when both compile for one
    /// architecture (the devices of one machine, alike), so that each variant
    /// is compiled once; returns whether it does.
    pub fn share_compiler(&mut self, other: &TemplateEvaluator) -> bool {
        match (&other.compiler, other.target, self.target) {
            (Some(pool), Some(theirs), Some(ours)) if theirs == ours => {
                self.compiler = Some(pool.clone());
                true
            }
            _ => false,
        }
    }

    /// Has the worker act out `simulate(config, size)` instead of using the
    /// GPU (where it returns `Some`): for testing the tuning loop without a
    /// device. Variants are then not compiled.
    pub fn simulate(
        mut self,
        simulate: impl Fn(&Config, u64) -> Option<Simulate> + Send + 'static,
    ) -> Self {
        self.simulate = Some(Box::new(simulate));
        self
    }

    /// Starts compiling `configs` on the pool (after [`TemplateEvaluator::connect`]);
    /// configurations that are not the template's are skipped here and
    /// reported invalid when evaluated.
    pub fn precompile(&mut self, configs: &[hone_tuner::Config]) {
        let threads = self.options.compile_threads;
        if let Some(c) = self.compiler.as_mut() {
            c.queue(
                configs.iter().filter_map(|c| runtime_config(c).ok()),
                threads,
            );
        }
    }

    /// Device-to-device copy bandwidth for copies of `bytes` bytes, timed as
    /// the evaluations are.
    pub fn memcpy_bandwidth(&mut self, bytes: usize) -> Result<CopyBandwidth> {
        let timing: TimingOptions = self.options.eval.timing.clone();
        self.worker.memcpy_bandwidth(bytes, &timing)
    }

    pub fn stats(&self) -> TuneStats {
        let mut s = self.stats.clone();
        if let Some(c) = &self.compiler {
            (s.compiled, s.cache_hits) = c.counts();
        }
        s
    }

    /// Worker processes replaced after faults, hangs or deaths.
    pub fn restarts(&self) -> u32 {
        self.worker.restarts()
    }

    pub fn template(&self) -> &KernelTemplate {
        &self.template
    }

    /// One evaluation, and whether a valid one was checked against the
    /// reference; `Err` when the machinery failed.
    fn evaluate_inner(
        &mut self,
        config: &hone_tuner::Config,
        size: u64,
    ) -> Result<(TunerMeasurement, bool)> {
        let cfg = match runtime_config(config) {
            Ok(c) => c,
            Err(e) => return Ok((TunerMeasurement::invalid(InvalidKind::Constraint, e), false)),
        };
        let Ok(n) = i64::try_from(size) else {
            return Ok((
                TunerMeasurement::invalid(InvalidKind::Constraint, "size does not fit in i64"),
                false,
            ));
        };
        let simulate = self.simulate.as_ref().and_then(|f| f(&cfg, size));
        let module = match (&self.compiler, simulate) {
            (_, Some(_)) | (None, None) => ModuleSource::Compile,
            (Some(c), None) => match c.wait(&cfg) {
                Ok((path, kind)) => ModuleSource::File { path, kind },
                Err(invalid) => return Ok((invalid.into(), false)),
            },
        };
        let mut options = self.options.eval.clone();
        options.check = options.check && self.options.check_max_n.is_none_or(|max| size <= max);
        let checked = options.check;
        let request = EvalRequest {
            template: (*self.template).clone(),
            config: cfg,
            n,
            module,
            options,
        };
        let m = match self.worker.evaluate_as(&request, simulate)? {
            Outcome::Valid(m) => TunerMeasurement::Ok(timing_of(&m)),
            Outcome::Invalid { kind, reason } => TunerMeasurement::invalid(kind, reason),
        };
        Ok((m, checked))
    }
}

/// The kernel template a job names, relative to the job file's folder,
/// checked to have the job's parameters.
pub fn job_template(spec: &JobSpec, job_dir: &Path) -> std::result::Result<KernelTemplate, String> {
    let rel = spec.kernel.template.as_ref().ok_or_else(|| {
        format!(
            "job `{}` names no kernel template (`template` under [kernel]); give one, or use --replay",
            spec.name
        )
    })?;
    let path = job_dir.join(rel);
    let template = KernelTemplate::load(&path).map_err(|e| e.to_string())?;
    let job_params: Vec<&str> = spec.params.iter().map(|p| p.name.as_str()).collect();
    let mut sorted = job_params.clone();
    sorted.sort_unstable();
    let template_params: Vec<&str> = template.spec.params.keys().map(String::as_str).collect();
    if sorted != template_params {
        return Err(format!(
            "job `{}` tunes {:?} but the template {} has the parameters {:?}",
            spec.name,
            job_params,
            path.display(),
            template_params
        ));
    }
    Ok(template)
}

/// One size of the comparison of a rule's kernels with the copy engine.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyRow {
    pub size: u64,
    /// The rule's kernel at this size: its label and configuration key.
    pub kernel: String,
    pub key: String,
    pub rule_gbps: Option<f64>,
    /// The best of the rule's kernels measured at this size.
    pub best_gbps: Option<f64>,
    pub memcpy_gbps: f64,
}

impl TemplateEvaluator {
    /// Times device-to-device copies of the template's declared traffic at
    /// the job's sampled sizes, next to the rule's kernels measured there.
    pub fn compare_memcpy(
        &mut self,
        db: &TuningDb,
        report: &JobReport,
    ) -> std::result::Result<Vec<CopyRow>, String> {
        let (Some(rule), Some(sampling)) = (&report.rule, &report.sampling) else {
            return Err("--compare-memcpy needs a job with a [sampling] phase".into());
        };
        let measured: HashMap<(String, ProblemKey), TunerMeasurement> =
            db.measured(report.job_id).map_err(|e| e.to_string())?;
        let mut sizes = sampling.sizes.clone();
        sizes.sort_unstable();
        sizes.dedup();
        let mut rows = Vec::new();
        for n in sizes {
            let kernel = &rule.kernels[rule.select_index(n)];
            let cfg = runtime_config(&kernel.config)?;
            let at = i64::try_from(n).map_err(|e| e.to_string())?;
            let bytes = self
                .template()
                .resolve(&cfg, at)
                .map_err(|e| format!("resolving the template at N = {n}: {e}"))?
                .bytes;
            let gbps_of = |key: &str| {
                measured
                    .get(&(key.to_string(), rule.family.key(n)))
                    .and_then(|m| m.timing())
                    .and_then(|t| t.gbps)
            };
            let best_gbps = rule
                .kernels
                .iter()
                .filter_map(|k| gbps_of(&k.config.key()))
                .fold(None, |acc: Option<f64>, g| {
                    Some(acc.map_or(g, |a| a.max(g)))
                });
            // A copy of B bytes reads B and writes B: half the declared traffic.
            let copy = self
                .memcpy_bandwidth((bytes / 2.0) as usize)
                .map_err(|e| e.to_string())?;
            rows.push(CopyRow {
                size: n,
                kernel: kernel.label.clone(),
                key: kernel.config.key(),
                rule_gbps: gbps_of(&kernel.config.key()),
                best_gbps,
                memcpy_gbps: copy.gbps,
            });
        }
        Ok(rows)
    }
}

impl hone_tuner::Evaluator for TemplateEvaluator {
    /// Templates take one size: the key's single dimension (`n=N`).
    fn evaluate(
        &mut self,
        config: &hone_tuner::Config,
        key: &ProblemKey,
    ) -> std::result::Result<TunerMeasurement, Stop> {
        let Some(size) = key.single_size() else {
            return Ok(hone_tuner::measure::not_one_size(key));
        };
        let (m, checked) = self.evaluate_inner(config, size).map_err(Stop::failed)?;
        self.stats.record(&m, checked);
        Ok(m)
    }
}

impl crate::devices::Lane for TemplateEvaluator {
    fn restarts(&self) -> u32 {
        self.worker.restarts()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Stats;

    #[test]
    fn configurations_convert_and_strings_are_refused() {
        let c = hone_tuner::Config::parse_key("VEC=4,BLOCK_SIZE=256").unwrap();
        let r = runtime_config(&c).unwrap();
        assert_eq!(r["VEC"], 4);
        assert_eq!(r["BLOCK_SIZE"], 256);
        let s = hone_tuner::Config::parse_key("LAYOUT=tn").unwrap();
        let err = runtime_config(&s).unwrap_err();
        assert!(
            err.contains("`LAYOUT`") && err.contains("not an integer"),
            "{err}"
        );
    }

    #[test]
    fn device_properties_become_constraint_names() {
        let props = DeviceProps {
            uuid: "GPU-1".into(),
            nvrtc_version: Some((13, 0)),
            ..crate::device::tests::h100()
        };
        let info = device_info(&props);
        assert_eq!(info.uuid, "GPU-1");
        assert_eq!(info.clock_mhz, Some(1980.0));
        assert_eq!(info.driver.as_deref(), Some("13.0"));
        assert_eq!(info.props.get("max_threads_per_block"), Some(1024));
        assert_eq!(info.props.get("smem_per_sm"), Some(233472));
        assert_eq!(info.props.get("cc_major"), Some(9));
        assert_eq!(info.props.get("global_mem_mib"), Some(80 << 10));
        // The names are usable in the tuner's constraints.
        let spec = hone_tuner::SpaceSpec::new()
            .param(hone_tuner::Param::new("BS", [512i64, 1024, 2048]))
            .constraint("BS <= max_threads_per_block && BS % warp_size == 0");
        let space = hone_tuner::Space::new(spec, info.props).unwrap();
        assert_eq!(space.enumerate().len(), 2);
    }

    #[test]
    fn timings_convert_to_seconds_with_throughput() {
        let m = crate::evaluate::Measurement {
            time_ms: Stats::from_samples(&[1.0, 2.0, 3.0]).unwrap(),
            gbps: 4.0,
            gflops: 0.0,
            bytes: 8e6,
            flops: 0.0,
            dims: crate::launch::LaunchDims {
                grid: (1, 1, 1),
                block: (1, 1, 1),
                shared_mem: 0,
            },
            function: crate::launch::FunctionInfo {
                registers: 8,
                local_bytes: 0,
                static_shared_bytes: 0,
                max_threads_per_block: 1024,
            },
            copies: 1,
            flushed_l2: true,
            max_rel_err: Some(0.0),
        };
        let t = timing_of(&m);
        assert_eq!(t.median_s, 2e-3);
        assert_eq!((t.min_s, t.max_s, t.samples), (1e-3, 3e-3, 3));
        assert_eq!(t.gbps, Some(4.0));
        assert_eq!(t.gflops, None);
    }
}
