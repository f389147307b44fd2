//! The routine-independent half of the kernel library.
//!
//! Every tuned routine (SYMV today; GEMM, the FFT and stencils next) needs
//! the same machinery around its kernels: selection rules that pick a kernel
//! per problem, a checked and timed run against the vendor library on the
//! same buffers, a benchmark over many sizes with tables, CSV, JSON and
//! charts, and a command line. This module holds that machinery once. A
//! routine supplies only what is its own, through [`Routine`] and
//! [`Session`]: its variants and problem shapes, its kernels and their
//! checks, its vendor baselines and how its work is counted.
//!
//! Adding a routine is its own folder under `src/` plus one line in
//! [`registry`].
//!
//! - [`problem`]: [`Problem`] (a variant and named dimensions) and the
//!   `key=value` words that describe one on the command line;
//! - [`rules`]: [`RuleSet`], the selection rules of a routine's variants,
//!   built in or loaded from a directory;
//! - [`compare`]: [`Row`] and [`Comparison`], one problem measured;
//! - [`bench`](mod@bench): the benchmark over sizes and its [`BenchReport`];
//! - [`report`]: markdown, CSV and JSON of a report;
//! - [`chart`]: SVG rate-against-size charts.

pub mod bench;
pub mod chart;
pub mod compare;
pub mod device_rules;
pub mod problem;
pub mod registry;
pub mod report;
pub mod rules;
pub mod tuning;

use std::path::Path;

use hone_gpu::Gpu;
use serde::{Deserialize, Serialize};

pub use bench::{run_bench, BenchOptions, BenchReport};
pub use compare::{Comparison, LaunchInfo, MeasureOptions, Row};

pub use problem::{parse_words, Problem};
pub use registry::{find, routines};
pub use rules::{RuleSet, Selection};

/// What a routine's rate counts: bytes moved (memory-bound routines such as
/// SYMV) or floating-point operations (GEMM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WorkUnit {
    Bytes,
    Flops,
}

impl WorkUnit {
    /// `GB/s` or `GFLOP/s`.
    pub fn rate_label(self) -> &'static str {
        match self {
            WorkUnit::Bytes => "GB/s",
            WorkUnit::Flops => "GFLOP/s",
        }
    }

    /// `work` units in `ms` milliseconds, in 10^9 units per second.
    pub fn rate(self, work: f64, ms: f64) -> f64 {
        work / (ms * 1e-3) / 1e9
    }
}

/// The measured ceiling drawn on charts and printed beside the tables: the
/// device's copy rate for memory-bound routines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Roof {
    pub label: String,
    pub rate: f64,
}

impl Roof {
    /// The device-to-device copy rate (bytes read and written per second)
    /// of 1 GiB on `gpu`, L2 flushed before each timed copy: the ceiling of
    /// memory-bound routines. `None` when it cannot be measured.
    pub fn copy(gpu: &Gpu, timing: &hone_gpu::TimingOptions) -> Option<Roof> {
        let mut flusher = hone_gpu::timing::L2Flusher::new(gpu).ok()?;
        hone_gpu::timing::memcpy_bandwidth(gpu, 1 << 30, timing, Some(&mut flusher))
            .ok()
            .map(|c| Roof {
                label: "device-to-device copy (read + write)".to_string(),
                rate: c.gbps,
            })
    }
}

/// Where a benchmark's sizes come from by default.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultSizes {
    /// The sizes of the headline tables.
    pub table: Vec<u64>,
    /// The range over which extra log-spaced sizes draw the charts' curves.
    pub chart: (u64, u64),
}

/// Errors of the library layer. Routines map their own errors into
/// `Routine` (with their message) and `Gpu`.
#[derive(Debug, thiserror::Error)]
pub enum LibError {
    #[error(transparent)]
    Gpu(#[from] hone_gpu::GpuError),
    /// A problem or option the routine does not accept.
    #[error("{0}")]
    Usage(String),
    /// A rule that does not parse or does not fit the routine.
    #[error("{0}")]
    Rule(String),
    /// Anything else the routine reports (vendor library, kernel set-up).
    #[error("{0}")]
    Routine(String),
    /// Inputs the routine cannot compute to its stated accuracy: nothing
    /// was computed (for example moduli fitted to inputs too wide).
    #[error("{0}")]
    Refused(String),
    #[error("{path}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

impl From<crate::vendor::cublas::VendorError> for LibError {
    fn from(e: crate::vendor::cublas::VendorError) -> LibError {
        LibError::Routine(format!("cuBLAS: {e}"))
    }
}

impl LibError {
    /// Whether there is no usable GPU, so a caller should stop quietly.
    pub fn is_no_device(&self) -> bool {
        matches!(self, LibError::Gpu(hone_gpu::GpuError::NoDevice(_)))
    }
}

pub type Result<T, E = LibError> = std::result::Result<T, E>;

/// One dimension or option a routine's problems take on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DimHelp {
    pub name: &'static str,
    pub help: &'static str,
}

/// What a tuned routine supplies to the shared layer. Implementations are
/// stateless descriptions; GPU state lives in the [`Session`] they open.
pub trait Routine: Sync {
    /// The name users type: `symv`.
    fn name(&self) -> &'static str;
    /// One line for listings.
    fn about(&self) -> &'static str;
    /// Every variant served by a rule of its own (`dsymv_lower`, ...), in
    /// report order.
    fn variants(&self) -> Vec<String>;
    /// The variants a benchmark measures when none are named: those with a
    /// rule built in.
    fn default_variants(&self) -> Vec<String> {
        self.variants()
    }
    /// The `key=value` words a problem takes, for help texts.
    fn dims(&self) -> &'static [DimHelp];
    /// The problem `words` describe (see [`parse_words`]); missing words
    /// take the routine's defaults.
    fn problem(&self, words: &[(String, String)]) -> Result<Problem>;
    /// The problem at position `size` of `variant`'s size axis: the family
    /// that its rule's intervals and the benchmark's sizes run along.
    fn family_problem(&self, variant: &str, size: u64) -> Result<Problem>;
    /// The name of the size axis on charts (`N`).
    fn size_axis(&self) -> &'static str;
    fn default_sizes(&self) -> DefaultSizes;
    /// Problems off the size axis that users of the variant bring (GEMM's
    /// tall-skinny shapes, K much larger than M and N), measured by the
    /// benchmark beside the family and shown in a table of their own.
    fn other_shapes(&self, _variant: &str) -> Vec<Problem> {
        Vec::new()
    }
    fn work_unit(&self) -> WorkUnit;
    /// Whether hone and the baselines of a problem are checked on the same
    /// inputs, so that their errors compare (the benchmark then shows hone's
    /// over each baseline's).
    fn checks_share_inputs(&self) -> bool {
        false
    }
    /// Whether each problem gets a plan of its own (`hone plan`) rather
    /// than an interval rule over the size axis.
    fn plans_per_problem(&self) -> bool {
        false
    }
    /// Stores `plan` in `dir` beside the plans there (the directory that
    /// `--rules` then reads); the files written. Routines served by interval
    /// rules have no plans.
    fn save_plan(&self, _dir: &Path, _plan: &PlanOutcome) -> Result<Vec<std::path::PathBuf>> {
        Err(LibError::Usage(format!(
            "{} is served by interval rules: tune it with `hone tune` and `hone rule`",
            self.name()
        )))
    }
    /// What a plan is stored under: problems with equal keys share one.
    fn plan_key(&self, problem: &Problem) -> String {
        problem.key()
    }
    /// Whether `dir` holds a plan for exactly `problem`.
    fn has_plan(&self, _dir: &Path, _problem: &Problem) -> Result<bool> {
        Ok(false)
    }
    /// Opens the routine on `gpu` with the rules in `rules_dir` (the built-in
    /// ones when `None`).
    fn open<'g>(&self, gpu: &'g Gpu, rules_dir: Option<&Path>) -> Result<Box<dyn Session + 'g>>;
    /// The files of the routine's tuning jobs, one job `tune/VARIANT.toml`
    /// per variant and the sources the jobs name, as paths relative to one
    /// folder: what `hone retune` writes out and runs on the user's GPU.
    /// Empty for a routine that is not retuned that way.
    fn retune_files(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
    /// Whether the rules `hone retune` tunes replace the built-in ones
    /// variant by variant (the routine's `open` without a folder merges
    /// them and its notice says which ran), rather than once every
    /// variant's rule is there.
    fn merges_retuned_rules(&self) -> bool {
        false
    }
    /// The largest size `hone retune` checks against the CPU reference
    /// (`hone tune --check-max`); `None`: the tuner's default.
    fn retune_check_max(&self) -> Option<u64> {
        None
    }
    /// The GPU models the built-in rules were tuned on, one set each; the
    /// first one's serve every other GPU.
    fn tuned_on(&self) -> &'static [&'static str] {
        &[device_rules::BUILT_IN_GPU]
    }
    /// What the user hears once when the built-in rules run on the GPU
    /// named `device_name` (`None`: they were tuned on it).
    fn built_in_notice(&self, device_name: &str) -> Option<String> {
        device_rules::built_in_notice(
            self.name(),
            self.plans_per_problem(),
            device_name,
            self.tuned_on(),
        )
    }
}

/// Opens `routine` on `gpu`: with the rules in `rules_dir` when given;
/// otherwise, for a routine that `hone retune` tunes, with the rules tuned
/// on this GPU model in the user's cache when a complete set is there, and
/// else the built-in ones (telling the user once when those were tuned on
/// another GPU, for every routine). The rules' folder used, if any, comes
/// back too.
pub fn open_on_device<'g>(
    routine: &dyn Routine,
    gpu: &'g Gpu,
    rules_dir: Option<&Path>,
) -> Result<(Box<dyn Session + 'g>, Option<std::path::PathBuf>)> {
    if let Some(d) = rules_dir {
        return Ok((routine.open(gpu, Some(d))?, Some(d.to_path_buf())));
    }
    if routine.retune_files().is_empty() || routine.merges_retuned_rules() {
        if let Some(n) = routine.built_in_notice(&gpu.props().name) {
            device_rules::notify_once(&n);
        }
        return Ok((routine.open(gpu, None)?, None));
    }
    let dir = rules_for_device(routine, &gpu.props().name);
    match (routine.open(gpu, dir.as_deref()), &dir) {
        // Rules that cannot be read (a damaged file, an older format) are
        // skipped, as if none were tuned, and the user hears why.
        (Err(e @ (LibError::Rule(_) | LibError::Io { .. })), Some(d)) => {
            device_rules::notify_once(&format!(
                "hone: the rules in {} cannot be used ({e}); {} runs the built-in rules",
                d.display(),
                routine.name()
            ));
            Ok((routine.open(gpu, None)?, None))
        }
        (opened, _) => Ok((opened?, dir)),
    }
}

/// The folder of `routine`'s rules tuned on the GPU named `device_name`
/// (see [`device_rules::resolve`]); `None`: the built-in rules, of which
/// the user hears once when they were tuned on another GPU.
pub fn rules_for_device(routine: &dyn Routine, device_name: &str) -> Option<std::path::PathBuf> {
    let r = device_rules::resolve(
        routine.name(),
        &routine.variants(),
        device_name,
        routine.tuned_on(),
    );
    if let Some(n) = &r.notice {
        device_rules::notify_once(n);
    }
    r.dir
}

/// A plan found by measurement for one problem, for routines whose problems
/// each get a configuration of their own (an FFT's shapes) instead of an
/// interval rule over a size axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanOutcome {
    pub problem: Problem,
    pub config: hone_tuner::Config,
    /// The configuration as text.
    pub label: String,
    /// The sum of the plan's parts' times as they were measured one by one.
    pub predicted_ms: f64,
    /// The whole plan's median time, after its check passed.
    pub measured_ms: f64,
    /// Distinct kernels compiled and timed.
    pub candidates: usize,
}

/// A routine opened on one GPU: its kernels, rules and vendor baselines.
pub trait Session {
    /// What the numbers depend on besides the device (`cuBLAS 130100; ...`).
    fn tools(&self) -> String;
    /// Where the rules came from, for reports.
    fn rules_origin(&self) -> String;
    /// The kernel the rules pick for `problem`.
    fn select(&self, problem: &Problem) -> Result<Selection>;
    /// Checks, then times, the rules' kernel for `problem` and every vendor
    /// baseline on the same buffers; every row is checked against the
    /// routine's reference before it is timed. `log` sees each row as it is
    /// measured.
    fn compare(
        &mut self,
        problem: &Problem,
        options: &MeasureOptions,
        log: &mut dyn FnMut(&Row),
    ) -> Result<Comparison>;
    /// The ceiling drawn beside the rates, measured on this device.
    fn roof(&mut self, options: &MeasureOptions) -> Option<Roof>;
    /// Plans `problem` by measurement (`hone plan`); `None` for routines
    /// served by interval rules, which `hone tune` and `hone rule` make.
    fn plan(
        &mut self,
        _problem: &Problem,
        _options: &MeasureOptions,
        _log: &mut dyn FnMut(&str),
    ) -> Result<Option<PlanOutcome>> {
        Ok(None)
    }
}

/// The median of each of `passes` timing passes of `run(copy)` (events on
/// the GPU's stream, `copies` buffer copies rotated, L2 flushed before each
/// run when the options ask): the `medians_ms` of a [`Row`].
pub fn pass_medians(
    gpu: &Gpu,
    timing: &hone_gpu::TimingOptions,
    passes: u32,
    copies: u32,
    mut flusher: Option<&mut hone_gpu::timing::L2Flusher>,
    mut run: impl FnMut(usize) -> Result<()>,
) -> Result<Vec<f64>> {
    let mut medians = Vec::new();
    for _ in 0..passes.max(1) {
        let flush = if timing.flush_l2 {
            flusher.as_deref_mut()
        } else {
            None
        };
        let samples = hone_gpu::timing::time_runs(gpu, timing, copies, flush, |c| {
            run(c).map_err(|e| hone_gpu::GpuError::Launch(e.to_string()))
        })?;
        medians.push(
            hone_gpu::Stats::from_samples(&samples)
                .map(|s| s.median)
                .ok_or_else(|| LibError::Routine("timings were not finite".to_string()))?,
        );
    }
    Ok(medians)
}

/// Bytes of host memory available now (`MemAvailable`), where the system
/// says.
fn host_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuses `what` for `problem` when it needs more host memory than is
/// available, so that a large problem stops with a message instead of
/// exhausting memory.
pub fn need_host(problem: impl std::fmt::Display, bytes: u64, what: &str) -> Result<()> {
    match host_available() {
        Some(avail) if bytes > avail => Err(LibError::Usage(format!(
            "{problem}: {what} needs about {:.1} GB of host memory, {:.1} GB are available",
            bytes as f64 / 1e9,
            avail as f64 / 1e9
        ))),
        _ => Ok(()),
    }
}

/// Device properties of an H100-like GPU named `name`, for tests that need
/// a device description without a device.
#[cfg(test)]
pub(crate) fn test_props(name: &str) -> hone_gpu::DeviceProps {
    serde_json::from_value(serde_json::json!({
        "ordinal": 0, "name": name, "uuid": "GPU-0", "compute_capability": [9, 0],
        "sm_count": 132, "clock_khz": null, "memory_clock_khz": null,
        "memory_bus_width_bits": null, "theoretical_bandwidth_gbps": null,
        "total_memory_bytes": 1, "l2_cache_bytes": 1, "shared_mem_per_block": 49152,
        "shared_mem_per_block_optin": 232448, "shared_mem_per_sm": 233472,
        "registers_per_sm": 65536, "registers_per_block": 65536,
        "max_threads_per_block": 1024, "max_threads_per_sm": 2048, "warp_size": 32,
        "driver_version": [13, 0], "nvrtc_version": [13, 0]
    }))
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_beyond_the_host_memory_are_refused_with_a_message() {
        let avail = host_available().expect("Linux reports MemAvailable");
        assert!(avail > 0);
        assert!(need_host("n=64", 1, "a check").is_ok());
        let e = need_host("n=64", avail * 4, "a check")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("n=64: a check needs about") && e.contains("GB are available"),
            "{e}"
        );
    }
}
