//! The FFT on a GPU: compiling a plan's passes (through the module cache),
//! checking a plan against the CPU oracle on fresh random inputs, timing it,
//! cuFFT on the same buffers, and the library call on the caller's buffers.
//!
//! A check uploads new random data, poisons the output with NaN (out of
//! place) and compares the whole result with the oracle; an out-of-place
//! plan must also leave its input as it was.

use std::collections::HashMap;
use std::rc::Rc;

use cudarc::driver::result as cu;
use hone_gpu::launch::{DeviceBuffer, FunctionInfo, KernelArg, LaunchDims, Module};
use hone_gpu::timing::{time_runs, L2Flusher};
use hone_gpu::{nvrtc, CompileOptions, Gpu, ModuleCache, Stats, Target, TimingOptions};
use hone_tuner::Invalid;
use rayon::prelude::*;
use rustfft::num_complex::Complex;

use super::codegen::{PassKernel, PassShape, ENTRY};
use super::cufft::CufftPlan;
use super::plan::{pass_sides, passes, BlockLimits, FftConfig, Side};
use super::reference::{self, bound, rms_relative, ExactSamples, Signal};
use super::{Direction, FftProblem, Twiddle};
use crate::precision::Precision;
use crate::routine::{need_host, LibError, Result};
use crate::vendor::cublas::DefaultStreamTimer;

/// A compiled and loaded pass, with its twiddle table on the device.
pub struct LoadedPass {
    pub kernel: PassKernel,
    pub module: Module,
    pub info: FunctionInfo,
    table: Option<DeviceBuffer>,
}

/// A plan ready to run: its configuration and its loaded passes.
#[derive(Clone)]
pub struct ReadyPlan {
    pub problem: FftProblem,
    pub config: FftConfig,
    pub passes: Vec<Rc<LoadedPass>>,
}

impl ReadyPlan {
    /// Global-memory passes (read and write of the whole data each).
    pub fn memory_passes(&self) -> usize {
        self.passes.len().max(1)
    }
}

/// The result of a check: the RMS relative error and its bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Checked {
    /// Against the most accurate reference: in single precision the
    /// double-precision oracle, in double precision the transform in
    /// double-double at sampled points ([`reference::exact_rms_relative`]).
    pub error: f64,
    /// Every output element against the double-precision oracle.
    pub oracle_error: f64,
    pub bound: f64,
    /// Whether the input of an out-of-place run came back unchanged.
    pub input_kept: bool,
}

impl Checked {
    pub fn passed(&self) -> bool {
        self.error.is_finite()
            && self.error <= self.bound
            && self.oracle_error.is_finite()
            && self.oracle_error <= self.bound
            && self.input_kept
    }

    pub fn describe(&self) -> String {
        let mut s = format!("RMS relative error {:.2e}", self.error);
        if self.oracle_error != self.error {
            s.push_str(&format!(
                " (double-double, sampled; {:.2e} against the double-precision oracle)",
                self.oracle_error
            ));
        }
        s.push_str(&format!(", bound {:.2e}", self.bound));
        if !self.input_kept {
            s.push_str("; the out-of-place input was overwritten");
        }
        s
    }
}

/// One timed measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct Timed {
    /// One entry per timing pass.
    pub times: Vec<Stats>,
}

impl Timed {
    pub fn medians_ms(&self) -> Vec<f64> {
        self.times.iter().map(|s| s.median).collect()
    }
}

/// The device buffers of one problem, `copies` of each to rotate over.
pub struct FftData {
    pub problem: FftProblem,
    input: Vec<DeviceBuffer>,
    output: Vec<DeviceBuffer>,
}

impl FftData {
    /// Input and output of copy `c` (the same buffer in place).
    pub fn ptrs(&self, c: usize) -> (u64, u64) {
        if self.problem.in_place {
            (self.output[c].ptr(), self.output[c].ptr())
        } else {
            (self.input[c].ptr(), self.output[c].ptr())
        }
    }

    pub fn copies(&self) -> usize {
        self.output.len()
    }
}

/// Compiles, loads, checks and times FFT plans on one GPU.
pub struct FftRunner<'g> {
    gpu: &'g Gpu,
    cache: ModuleCache,
    target: Target,
    nvrtc_version: (u32, u32),
    limits: BlockLimits,
    loaded: HashMap<PassKernel, std::result::Result<Rc<LoadedPass>, Invalid>>,
    data: Option<FftData>,
    vendor: Option<CufftPlan>,
    flusher: L2Flusher,
    seed: u64,
    /// The exact values of the last double-precision check's inputs, which
    /// the next check on the same inputs (cuFFT's beside a plan's) reuses.
    exact: Option<(FftProblem, u64, Rc<ExactSamples>)>,
}

impl<'g> FftRunner<'g> {
    pub fn new(gpu: &'g Gpu, cache: ModuleCache) -> Result<FftRunner<'g>> {
        Ok(FftRunner {
            gpu,
            cache,
            target: nvrtc::target_for(gpu.props().compute_capability)?,
            nvrtc_version: nvrtc::version()?,
            limits: BlockLimits::from_props(gpu.props()),
            loaded: HashMap::new(),
            data: None,
            vendor: None,
            flusher: L2Flusher::new(gpu)?,
            seed: rand::random(),
            exact: None,
        })
    }

    pub fn gpu(&self) -> &'g Gpu {
        self.gpu
    }

    /// The problem whose buffers are allocated.
    pub fn problem(&self) -> Option<FftProblem> {
        self.data.as_ref().map(|d| d.problem)
    }

    /// Input and output of copy `c` of the allocated problem.
    pub fn ptrs(&self, c: usize) -> Option<(u64, u64)> {
        self.data.as_ref().map(|d| d.ptrs(c))
    }

    /// The loaded pass, compiling it first if needed; `None` when it does
    /// not build or cannot launch.
    pub fn loaded_pass(&mut self, k: &PassKernel) -> Result<Option<Rc<LoadedPass>>> {
        self.prepare(std::slice::from_ref(k))?;
        Ok(self.loaded[k].as_ref().ok().cloned())
    }

    pub fn limits(&self) -> BlockLimits {
        self.limits
    }

    /// Compiles (on all cores, through the module cache) and loads every
    /// pass not loaded yet; one that does not build is remembered with why.
    pub fn prepare(&mut self, kernels: &[PassKernel]) -> Result<()> {
        let mut todo: Vec<&PassKernel> = kernels
            .iter()
            .filter(|k| !self.loaded.contains_key(*k))
            .collect();
        todo.dedup();
        let (cache, target, version) = (&self.cache, &self.target, self.nvrtc_version);
        let compiled: Vec<_> = todo
            .par_iter()
            .map(|k| {
                cache
                    .compile(
                        &k.source(),
                        "hone_fft.cu",
                        &CompileOptions::default(),
                        target,
                        version,
                    )
                    .map_err(|e| Invalid::compile(e.to_string()))
            })
            .collect();
        for (k, c) in todo.into_iter().zip(compiled) {
            let loaded = c.and_then(|cached| {
                let module = Module::load(self.gpu, &cached.module.image, cached.module.kind)
                    .map_err(|e| Invalid::runtime(format!("loading the module: {e}")))?;
                let f = module
                    .function(ENTRY)
                    .map_err(|e| Invalid::runtime(e.to_string()))?;
                let info = f.info().map_err(|e| Invalid::runtime(e.to_string()))?;
                f.prepare(self.gpu, &dims(k)?)
                    .map_err(|e| Invalid::constraint(e.to_string()))?;
                let table = match k.twiddle {
                    Twiddle::Table
                    | Twiddle::Powers
                    | Twiddle::WidePowers
                    | Twiddle::CorrectedPowers => {
                        let t: Vec<f64> = k.table().iter().flat_map(|&(c, s)| [c, s]).collect();
                        let t = if t.is_empty() { vec![0.0, 0.0] } else { t };
                        let bytes = k.table_precision().to_bytes(&t);
                        Some(
                            DeviceBuffer::with_data(self.gpu, &bytes)
                                .map_err(|e| Invalid::runtime(e.to_string()))?,
                        )
                    }
                    Twiddle::Computed => None,
                };
                Ok(Rc::new(LoadedPass {
                    kernel: k.clone(),
                    module,
                    info,
                    table,
                }))
            });
            self.loaded.insert(k.clone(), loaded);
        }
        Ok(())
    }

    /// The plan of `p` under `config`, compiled and loaded, or why it
    /// cannot run.
    pub fn plan(
        &mut self,
        p: &FftProblem,
        config: &FftConfig,
    ) -> Result<std::result::Result<ReadyPlan, Invalid>> {
        let kernels = match passes(p, config, &self.limits) {
            Ok(k) => k,
            Err(why) => return Ok(Err(Invalid::constraint(why))),
        };
        self.prepare(&kernels)?;
        let mut loaded = Vec::new();
        for k in &kernels {
            match &self.loaded[k] {
                Ok(l) => loaded.push(l.clone()),
                Err(why) => return Ok(Err(why.clone())),
            }
        }
        Ok(Ok(ReadyPlan {
            problem: *p,
            config: *config,
            passes: loaded,
        }))
    }

    /// Allocates the buffers of `p` (reusing the last problem's when it is
    /// the same) with as many copies as `timing` asks for.
    pub fn data(&mut self, p: &FftProblem, timing: &TimingOptions) -> Result<&FftData> {
        p.validate().map_err(LibError::Usage)?;
        if self.data.as_ref().is_some_and(|d| d.problem == *p) {
            return Ok(self.data.as_ref().expect("checked"));
        }
        self.data = None;
        self.vendor = None;
        let (in_bytes, out_bytes) = p.io_bytes();
        let (in_bytes, out_bytes) = (in_bytes as usize, out_bytes as usize);
        let per_copy = if p.in_place {
            out_bytes
        } else {
            in_bytes + out_bytes
        };
        let (free, _) = self.gpu.memory_info()?;
        // The check's NaN poison and cuFFT's work area need room too.
        if 2 * per_copy > free {
            return Err(LibError::Usage(format!(
                "{p} needs about {} bytes of device memory, {free} are free",
                2 * per_copy
            )));
        }
        // The random data are made on the host in double precision.
        need_host(p, host_elements(p) * 40, "filling the buffers")?;
        let copies = timing
            .copies_for(per_copy, self.gpu.props().l2_cache_bytes, free / 2)
            .max(1) as usize;
        let alloc = |n: usize, bytes: usize| -> Result<Vec<DeviceBuffer>> {
            (0..n)
                .map(|_| Ok(DeviceBuffer::alloc(self.gpu, bytes)?))
                .collect()
        };
        let d = FftData {
            problem: *p,
            input: if p.in_place {
                Vec::new()
            } else {
                alloc(copies, in_bytes)?
            },
            output: alloc(copies, out_bytes)?,
        };
        let (raw, _) = input_of(p, self.seed ^ 0x5eed);
        for b in &d.input {
            b.upload(self.gpu, &raw)?;
        }
        for b in &d.output {
            if b.bytes() == raw.len() {
                b.upload(self.gpu, &raw)?;
            } else {
                b.fill_async(self.gpu, 0)?;
            }
        }
        self.data = Some(d);
        Ok(self.data.as_ref().expect("just set"))
    }

    /// Runs `call(input, output)` on copy 0 with fresh random data and
    /// compares the result with the oracle.
    pub fn check_with(&mut self, mut call: impl FnMut(u64, u64) -> Result<()>) -> Result<Checked> {
        let d = self
            .data
            .as_ref()
            .ok_or_else(|| LibError::Routine("no problem allocated".into()))?;
        let p = d.problem;
        // Input, its copy as held, the oracle's result and scratch, the
        // result read back: five double-precision complex arrays and bytes;
        // in double precision a complex-to-real check adds the whole
        // spectrum, and the exact measure its sums.
        let exact = match p.precision {
            Precision::Single => 0,
            Precision::Double => {
                reference::exact_host_bytes(&p) + if p.real { host_elements(&p) * 16 } else { 0 }
            }
        };
        need_host(
            p,
            host_elements(&p) * 96 + exact,
            "checking against the CPU oracle",
        )?;
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let (raw, held) = input_of(&p, self.seed);
        let (input, output) = d.ptrs(0);
        if p.in_place {
            d.output[0].upload(self.gpu, &raw)?;
        } else {
            d.input[0].upload(self.gpu, &raw)?;
            d.output[0].fill_async(self.gpu, 0xFF)?;
        }
        call(input, output)?;
        crate::vendor::cublas::synchronize_device()?;
        let mut got = vec![0u8; d.output[0].bytes()];
        d.output[0].download(self.gpu, &mut got)?;
        // A complex-to-real transform overwrites its input, as cuFFT's does.
        let input_kept = if p.in_place || (p.real && p.direction == Direction::Inverse) {
            true
        } else {
            let mut back = vec![0u8; raw.len()];
            d.input[0].download(self.gpu, &mut back)?;
            back == raw
        };
        // The oracle transforms the input as the device holds it.
        let (want, got) = match &held {
            Held::Complex(x) if p.real => (
                reference::as_complex(&reference::real_inverse(&p, x)),
                reference::as_complex(&p.precision.from_bytes(&got)),
            ),
            Held::Complex(x) => (reference::transform(&p, x), complex_of(p.precision, &got)),
            Held::Real(x) => (
                reference::real_forward(&p, x),
                complex_of(p.precision, &got),
            ),
        };
        let oracle_error = rms_relative(&got, &want);
        drop(want);
        // The double-precision oracle errs as much as a double-precision
        // transform: such errors are measured in double-double.
        let error = match p.precision {
            Precision::Single => oracle_error,
            Precision::Double => self.exact_samples(&p, &held).rms_relative(&got),
        };
        Ok(Checked {
            error,
            oracle_error,
            bound: bound(&p),
            input_kept,
        })
    }

    /// Times one pass alone, in place on copy 0's output (with an L2 flush
    /// before each run when `timing` asks); `None` when it cannot run.
    pub fn time_pass(&mut self, k: &PassKernel, timing: &TimingOptions) -> Result<Option<f64>> {
        let Some(p) = self.problem() else {
            return Err(LibError::Routine("no problem allocated".into()));
        };
        let Some(pass) = self.loaded_pass(k)? else {
            return Ok(None);
        };
        let (input, output) = self.ptrs(0).expect("allocated");
        // A complex pass runs in place on the complex data; a real pass
        // between the real and the complex buffers.
        let complex = if p.real && p.direction == Direction::Inverse {
            input
        } else {
            output
        };
        let (src, out) = match k.shape {
            PassShape::Real(_) => (input, output),
            _ => (complex, complex),
        };
        // One pass from `src` to `out`, as `run` gives a first pass.
        let plan = ReadyPlan {
            problem: FftProblem {
                real: false,
                in_place: src == out,
                ..p
            },
            config: FftConfig::default(),
            passes: vec![pass],
        };
        let gpu = self.gpu;
        let bytes = p.bytes() as usize;
        let flusher = timing.flush_l2.then_some(&mut self.flusher);
        let samples = time_runs(gpu, timing, 1, flusher, |_| {
            // SAFETY: the buffers hold the problem's data.
            unsafe { run(gpu, &plan, src, out, bytes) }
                .map_err(|e| hone_gpu::GpuError::Launch(e.to_string()))
        });
        match samples {
            Ok(s) => Ok(Stats::from_samples(&s).map(|s| s.median)),
            Err(e) if e.is_sticky() => Err(e.into()),
            Err(_) => Ok(None),
        }
    }

    /// Checks `plan` on the current problem.
    pub fn check(&mut self, plan: &ReadyPlan) -> Result<Checked> {
        let gpu = self.gpu;
        let bytes = plan.problem.bytes() as usize;
        self.check_with(|i, o| unsafe { run(gpu, plan, i, o, bytes) })
    }

    /// Times `plan` on the current problem (`timed_runs` passes).
    pub fn time(
        &mut self,
        plan: &ReadyPlan,
        timing: &TimingOptions,
        timed_runs: u32,
    ) -> Result<std::result::Result<Timed, Invalid>> {
        let gpu = self.gpu;
        let d = self
            .data
            .as_ref()
            .ok_or_else(|| LibError::Routine("no problem allocated".into()))?;
        let bytes = d.problem.bytes() as usize;
        let mut flusher = timing.flush_l2.then_some(&mut self.flusher);
        let mut times = Vec::new();
        for _ in 0..timed_runs.max(1) {
            let samples = time_runs(
                gpu,
                timing,
                d.copies() as u32,
                flusher.as_deref_mut(),
                |c| {
                    let (i, o) = d.ptrs(c);
                    // SAFETY: copy c of the problem's buffers.
                    unsafe { run(gpu, plan, i, o, bytes) }
                        .map_err(|e| hone_gpu::GpuError::Launch(e.to_string()))
                },
            );
            match samples {
                Ok(s) => times.push(
                    Stats::from_samples(&s)
                        .ok_or_else(|| LibError::Routine("timings were not finite".into()))?,
                ),
                Err(e) if e.is_sticky() => return Err(e.into()),
                Err(e) => return Ok(Err(Invalid::runtime(format!("launch failed: {e}")))),
            }
        }
        Ok(Ok(Timed { times }))
    }

    fn vendor_plan(&mut self) -> Result<&CufftPlan> {
        let p = self
            .data
            .as_ref()
            .map(|d| d.problem)
            .ok_or_else(|| LibError::Routine("no problem allocated".into()))?;
        if self.vendor.as_ref().map(|v| *v.problem()) != Some(p) {
            self.vendor = None;
            self.vendor = Some(CufftPlan::new(&p)?);
        }
        Ok(self.vendor.as_ref().expect("just planned"))
    }

    /// Where the next check's random inputs (and, in double precision,
    /// its sampled outputs) come from; [`FftRunner::rewind_inputs`] with it
    /// gives a later check the same ones.
    pub fn input_state(&self) -> u64 {
        self.seed
    }

    /// The next check takes the inputs of the check made at `state`.
    pub fn rewind_inputs(&mut self, state: u64) {
        self.seed = state;
    }

    /// Checks `plan` and cuFFT on the same fresh inputs; cuFFT's check is
    /// `None` when cuFFT cannot run the problem.
    pub fn check_beside_vendor(&mut self, plan: &ReadyPlan) -> Result<(Checked, Option<Checked>)> {
        let seed = self.input_state();
        let ours = self.check(plan)?;
        let after = self.seed;
        self.rewind_inputs(seed);
        let vendor = match self.check_vendor() {
            Ok(v) => Some(v),
            Err(LibError::Gpu(e)) if e.is_sticky() => return Err(e.into()),
            // cuFFT reports faults as its own errors: a poisoned context
            // shows on the next driver call.
            Err(_) => {
                self.gpu.synchronize()?;
                None
            }
        };
        self.seed = after;
        Ok((ours, vendor))
    }

    /// Checks cuFFT on the current problem.
    pub fn check_vendor(&mut self) -> Result<Checked> {
        self.vendor_plan()?;
        let plan = self.vendor.take().expect("planned");
        let r = self.check_with(|i, o| Ok(unsafe { plan.exec(i, o) }?));
        self.vendor = Some(plan);
        r
    }

    /// Times cuFFT on the current problem, on the default stream.
    pub fn time_vendor(
        &mut self,
        timer: &mut DefaultStreamTimer,
        timing: &TimingOptions,
        timed_runs: u32,
    ) -> Result<Timed> {
        self.vendor_plan()?;
        let plan = self.vendor.as_ref().expect("planned");
        let d = self.data.as_ref().expect("vendor_plan checked");
        let mut times = Vec::new();
        for _ in 0..timed_runs.max(1) {
            let samples = timer.time(timing, d.copies(), |c| {
                let (i, o) = d.ptrs(c);
                // SAFETY: copy c of the problem's buffers.
                unsafe { plan.exec(i, o) }
            })?;
            times.push(
                Stats::from_samples(&samples)
                    .ok_or_else(|| LibError::Routine("timings were not finite".into()))?,
            );
        }
        Ok(Timed { times })
    }

    /// Enqueues the transform of `input` into `output` (equal for in place,
    /// as `plan.problem` says) on the GPU's stream, without waiting.
    ///
    /// A complex-to-real transform overwrites its input, as cuFFT's does.
    ///
    /// # Safety
    /// Both pointers must hold the problem's data on this GPU and stay
    /// alive until the work completes; out of place, they must not overlap.
    pub unsafe fn enqueue(&self, plan: &ReadyPlan, input: u64, output: u64) -> Result<()> {
        let p = &plan.problem;
        if input == 0 || output == 0 {
            return Err(LibError::Usage("a null data pointer".into()));
        }
        if p.in_place != (input == output) {
            return Err(LibError::Usage(format!(
                "{p}: the input and output pointers must be {}",
                if p.in_place { "equal" } else { "different" }
            )));
        }
        let align = 2 * p.precision.size() as u64;
        if !input.is_multiple_of(align) || !output.is_multiple_of(align) {
            return Err(LibError::Usage(format!(
                "data must be aligned to {align} bytes (one complex number)"
            )));
        }
        // SAFETY: the caller's guarantees.
        unsafe { run(self.gpu, plan, input, output, p.bytes() as usize) }
    }
}

/// The launch of one pass.
fn dims(k: &PassKernel) -> std::result::Result<LaunchDims, Invalid> {
    let grid = k.grid();
    if grid > i32::MAX as u64 {
        return Err(Invalid::constraint(format!(
            "{grid} blocks exceed the grid"
        )));
    }
    Ok(LaunchDims {
        grid: (grid as u32, 1, 1),
        block: (k.block(), 1, 1),
        shared_mem: k.shared_bytes() as u32,
    })
}

/// Runs every pass of `plan`: the first from `input` to `output`, the rest
/// in place on `output`. A plan without passes (every length 1) copies.
///
/// # Safety
/// `input` and `output` must hold the problem's `bytes` on `gpu`.
pub(crate) unsafe fn run(
    gpu: &Gpu,
    plan: &ReadyPlan,
    input: u64,
    output: u64,
    bytes: usize,
) -> Result<()> {
    if plan.passes.is_empty() {
        if input != output {
            // SAFETY: both ranges hold `bytes`.
            unsafe { cu::memcpy_dtod_async(output, input, bytes, gpu.raw_stream()) }
                .map_err(|e| LibError::Routine(format!("cuMemcpyDtoDAsync: {e:?}")))?;
        }
        return Ok(());
    }
    let count = plan.passes.len();
    for (i, pass) in plan.passes.iter().enumerate() {
        let ptr = |side| match side {
            Side::Input => input,
            Side::Output => output,
        };
        let (src, dst) = pass_sides(&plan.problem, i, count);
        let (src, dst) = (ptr(src), ptr(dst));
        let f = pass.module.function(ENTRY)?;
        let d = dims(&pass.kernel).map_err(|i| LibError::Routine(i.reason))?;
        let table = pass.table.as_ref().map(|t| t.ptr()).unwrap_or(0);
        let args = [
            KernelArg::Ptr(src),
            KernelArg::Ptr(dst),
            KernelArg::Ptr(table),
        ];
        // SAFETY: the pass kernels take (in, out, table); the caller vouches
        // for the data pointers, the table is the pass's own.
        unsafe { f.launch(gpu, &d, &args) }?;
    }
    Ok(())
}

/// Complex numbers the host holds at once per array for `p`: a real
/// transform's oracle works on whole lines of `nx` complex values.
fn host_elements(p: &FftProblem) -> u64 {
    if p.real {
        p.elements().max(p.real_values())
    } else {
        p.elements()
    }
}

/// The input of a check as the oracle reads it.
enum Held {
    Complex(Vec<Complex<f64>>),
    Real(Vec<f64>),
}

impl FftRunner<'_> {
    /// The exact transform of `held`, the input of the check at the current
    /// seed, at that seed's sampled points: computed once per input.
    fn exact_samples(&mut self, p: &FftProblem, held: &Held) -> Rc<ExactSamples> {
        if let Some((q, seed, e)) = &self.exact {
            if q == p && *seed == self.seed {
                return e.clone();
            }
        }
        let e = Rc::new(match held {
            Held::Complex(x) if p.real => {
                let whole = reference::hermitian_whole(p, x);
                ExactSamples::new(p, Signal::Complex(&whole), self.seed)
            }
            Held::Complex(x) => ExactSamples::new(p, Signal::Complex(x), self.seed),
            Held::Real(x) => ExactSamples::new(p, Signal::Real(x), self.seed),
        });
        self.exact = Some((*p, self.seed, e.clone()));
        e
    }
}

/// Fresh random input of `p`: its bytes for the device, and the values
/// they hold. A complex-to-real transform gets the spectrum of random reals
/// (so that it is the spectrum of real data, as the transform assumes).
fn input_of(p: &FftProblem, seed: u64) -> (Vec<u8>, Held) {
    match (p.real, p.direction) {
        (false, _) => {
            let x = reference::random(p.elements() as usize, seed);
            let raw = p.precision.to_bytes(&reference::to_interleaved(&x));
            let held = complex_of(p.precision, &raw);
            (raw, Held::Complex(held))
        }
        (true, Direction::Forward) => {
            let x = reference::random_real(p.real_values() as usize, seed);
            let raw = p.precision.to_bytes(&x);
            let held = p.precision.from_bytes(&raw);
            (raw, Held::Real(held))
        }
        (true, Direction::Inverse) => {
            let x = reference::random_real(p.real_values() as usize, seed);
            let s = reference::real_forward(p, &x);
            let raw = p.precision.to_bytes(&reference::to_interleaved(&s));
            let held = complex_of(p.precision, &raw);
            (raw, Held::Complex(held))
        }
    }
}

/// Device bytes of a precision back to complex numbers.
fn complex_of(precision: Precision, raw: &[u8]) -> Vec<Complex<f64>> {
    reference::from_interleaved(&precision.from_bytes(raw))
}
