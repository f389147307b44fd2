//! Evaluating one variant of a template at one size, in this process:
//! compile (or load), check against the reference, time.
//!
//! A kernel fault poisons the CUDA context, so tuning runs this inside a
//! worker process ([`crate::worker`]) and treats a fatal outcome as the end
//! of that process.

use std::path::PathBuf;

use hone_tuner::{Invalid, InvalidKind};
use serde::{Deserialize, Serialize};

use crate::cache::ModuleCache;
use crate::device::{DeviceProps, Gpu};
use crate::error::{GpuError, Result};
use crate::host::{self, ElemType, HostData, POISON_BYTE};
use crate::launch::{DeviceBuffer, FunctionInfo, KernelArg, LaunchDims, Module};
use crate::nvrtc::{self, ImageKind, Target};
use crate::stats::Stats;
use crate::template::{
    size_env, ArgSpec, Config, Init, KernelTemplate, ReferenceLaunch, ScalarValue,
};
use crate::timing::{self, CopyBandwidth, L2Flusher, TimingOptions};
use hone_ir::Arith;

/// Where the module of a variant comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "from", rename_all = "lowercase")]
pub enum ModuleSource {
    /// Compile the template here, through the module cache.
    Compile,
    /// An image compiled elsewhere (the compile-ahead pool).
    File { path: PathBuf, kind: ImageKind },
}

/// Options of one evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EvalOptions {
    pub timing: TimingOptions,
    /// Compare the outputs with the reference before timing.
    pub check: bool,
    /// Seed of the random inputs; `None` draws a fresh one.
    pub seed: Option<u64>,
    /// In an unchecked run, fill floating-point `random` inputs on the device
    /// with a fixed non-zero pattern ([`DEVICE_FILL_BYTE`]) instead of making
    /// and uploading random host data: at 2^28 elements the host data costs
    /// seconds per evaluation, the timing milliseconds. Only for kernels whose
    /// speed does not depend on the values; integer inputs (which may be
    /// indices) always get host data.
    pub fill_on_device: bool,
}

/// The byte unchecked floating-point inputs are filled with under
/// [`EvalOptions::fill_on_device`]: 0.747 as f32, 4.8e-4 as f64, both normal
/// numbers, so no kernel sees zeros or denormals.
pub const DEVICE_FILL_BYTE: u8 = 0x3F;

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            timing: TimingOptions::default(),
            check: true,
            seed: None,
            fill_on_device: false,
        }
    }
}

/// One variant at one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalRequest {
    pub template: KernelTemplate,
    pub config: Config,
    pub n: i64,
    pub module: ModuleSource,
    #[serde(default)]
    pub options: EvalOptions,
}

/// What a valid variant measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Kernel time in milliseconds.
    pub time_ms: Stats,
    /// Template-declared bytes / median time.
    pub gbps: f64,
    /// Template-declared flops / median time.
    pub gflops: f64,
    pub bytes: f64,
    pub flops: f64,
    pub dims: LaunchDims,
    pub function: FunctionInfo,
    /// Copies of the buffers the timing rotated over.
    pub copies: u32,
    pub flushed_l2: bool,
    /// Largest relative error against the reference; `None` when unchecked.
    pub max_rel_err: Option<f64>,
}

/// The verdict on one variant at one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Outcome {
    Valid(Measurement),
    /// Faulted, hung, failed to compile, broke a limit or answered wrong.
    Invalid {
        kind: InvalidKind,
        reason: String,
    },
}

impl From<Invalid> for Outcome {
    fn from(i: Invalid) -> Outcome {
        Outcome::Invalid {
            kind: i.kind,
            reason: i.reason,
        }
    }
}

impl Outcome {
    pub fn invalid(kind: InvalidKind, reason: impl Into<String>) -> Outcome {
        Invalid::new(kind, reason).into()
    }

    pub fn measurement(&self) -> Option<&Measurement> {
        match self {
            Outcome::Valid(m) => Some(m),
            Outcome::Invalid { .. } => None,
        }
    }
}

/// A stage of an evaluation, announced before it starts so that a supervisor
/// can set a deadline: `launches` kernel runs, or host work when 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phase {
    pub name: &'static str,
    pub launches: u32,
}

/// An open device with what evaluations share: the module cache, the
/// compile target and the L2-flush buffer.
pub struct GpuSession {
    gpu: Gpu,
    cache: ModuleCache,
    target: Option<Target>,
    flusher: Option<L2Flusher>,
}

impl GpuSession {
    pub fn open(ordinal: u32, cache: ModuleCache) -> Result<GpuSession> {
        Ok(GpuSession {
            gpu: Gpu::open(ordinal)?,
            cache,
            target: None,
            flusher: None,
        })
    }

    pub fn props(&self) -> &DeviceProps {
        self.gpu.props()
    }

    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The NVRTC target for this device.
    pub fn target(&mut self) -> Result<Target> {
        if let Some(t) = self.target {
            return Ok(t);
        }
        let t = nvrtc::target_for(self.props().compute_capability)?;
        self.target = Some(t);
        Ok(t)
    }

    fn ensure_flusher(&mut self) -> Result<()> {
        if self.flusher.is_none() {
            self.flusher = Some(L2Flusher::new(&self.gpu)?);
        }
        Ok(())
    }

    /// Device-to-device copy bandwidth for `bytes`-byte copies.
    pub fn memcpy_bandwidth(
        &mut self,
        bytes: usize,
        options: &TimingOptions,
    ) -> Result<CopyBandwidth> {
        if options.flush_l2 {
            self.ensure_flusher()?;
        }
        let flusher = if options.flush_l2 {
            self.flusher.as_mut()
        } else {
            None
        };
        timing::memcpy_bandwidth(&self.gpu, bytes, options, flusher)
    }

    /// Evaluates one variant. `Err` only when the device itself is missing;
    /// every failure of the variant is an `Invalid` outcome. The flag is true
    /// when the failure poisoned the context: the caller must not use this
    /// session again.
    pub fn evaluate(
        &mut self,
        req: &EvalRequest,
        progress: &mut dyn FnMut(Phase),
    ) -> Result<(Outcome, bool)> {
        match self.evaluate_inner(req, progress) {
            Ok(m) => Ok((Outcome::Valid(m), false)),
            Err(Failure::Invalid(i)) => Ok((i.into(), false)),
            Err(Failure::Gpu(e @ GpuError::NoDevice(_))) => Err(e),
            Err(Failure::Gpu(e)) => {
                let fatal = e.is_sticky();
                let invalid = match &e {
                    GpuError::Compile { .. } => Invalid::compile(format!("compile error: {e}")),
                    GpuError::Driver { sticky: true, .. } => {
                        Invalid::runtime(format!("fault: {e}"))
                    }
                    _ => Invalid::runtime(e.to_string()),
                };
                Ok((invalid.into(), fatal))
            }
        }
    }

    fn evaluate_inner(
        &mut self,
        req: &EvalRequest,
        progress: &mut dyn FnMut(Phase),
    ) -> Result<Measurement, Failure> {
        let t = &req.template;
        // A template that arrived over the protocol was deserialised, not
        // built by `KernelTemplate::new`: validate it before trusting its names.
        KernelTemplate::new(t.spec.clone(), String::new())
            .map_err(|e| Failure::Invalid(Invalid::runtime(format!("invalid template: {e}"))))?;
        let resolved = t.resolve(&req.config, req.n).map_err(|e| {
            Failure::Invalid(Invalid::constraint(format!("invalid configuration: {e}")))
        })?;
        let scalars = t
            .scalar_args(&req.config, req.n)
            .map_err(|e| Failure::Invalid(Invalid::runtime(e)))?;

        let (image, kind) = match &req.module {
            ModuleSource::File { path, kind } => {
                let image = std::fs::read(path).map_err(|e| GpuError::io(path, e))?;
                (image, *kind)
            }
            ModuleSource::Compile => {
                progress(Phase {
                    name: "compile",
                    launches: 0,
                });
                let target = self.target()?;
                let nvrtc_version = nvrtc::version()?;
                let name = format!("{}.cu", t.spec.name);
                let m = self.cache.compile(
                    &t.source_text,
                    &name,
                    &t.compile_options(&req.config),
                    &target,
                    nvrtc_version,
                )?;
                (m.module.image, m.module.kind)
            }
        };

        progress(Phase {
            name: "setup",
            launches: 0,
        });
        let gpu = &self.gpu;
        let module = Module::load(gpu, &image, kind)?;
        let func = module.function(&t.spec.kernel)?;
        let dims = LaunchDims {
            grid: resolved.grid,
            block: resolved.block,
            shared_mem: resolved.shared_mem,
        };
        func.prepare(gpu, &dims)
            .map_err(|e| Failure::Invalid(Invalid::runtime(e.to_string())))?;
        let info = func.info()?;

        let (free, _) = gpu.memory_info()?;
        let footprint = resolved.buffer_bytes();
        if footprint > free {
            return Err(Failure::Invalid(Invalid::runtime(format!(
                "needs {footprint} bytes of device memory, {free} free"
            ))));
        }
        let copies = req
            .options
            .timing
            .copies_for(footprint, self.props().l2_cache_bytes, free);
        let sets = (0..copies)
            .map(|_| {
                resolved
                    .buffers
                    .iter()
                    .map(|b| DeviceBuffer::alloc(gpu, b.len * b.ty.size()))
                    .collect::<Result<Vec<_>>>()
            })
            .collect::<Result<Vec<_>>>()?;

        let seed = req.options.seed.unwrap_or_else(fresh_seed);
        let mut host_inputs: Vec<Option<HostData>> = Vec::new();
        let fill_on_device = req.options.fill_on_device && !req.options.check;
        for (i, b) in resolved.buffers.iter().enumerate() {
            if fill_on_device
                && b.init == Init::Random
                && matches!(b.ty, ElemType::F32 | ElemType::F64)
            {
                for set in &sets {
                    set[i].fill_async(gpu, DEVICE_FILL_BYTE)?;
                }
                host_inputs.push(None);
                continue;
            }
            let data = match b.init {
                Init::Random => Some(HostData::random(
                    b.ty,
                    b.len,
                    seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                )),
                Init::Zero => Some(HostData::zeros(b.ty, b.len)),
                Init::Output => None,
            };
            match &data {
                Some(d) => {
                    sets[0][i].upload(gpu, d.as_bytes())?;
                    for set in &sets[1..] {
                        set[i].copy_from_async(gpu, &sets[0][i])?;
                    }
                }
                None => {
                    for set in &sets {
                        set[i].fill_async(gpu, POISON_BYTE)?;
                    }
                }
            }
            host_inputs.push(data);
        }
        gpu.synchronize()?;

        let args_for = |set: &[DeviceBuffer]| -> Vec<KernelArg> {
            t.spec
                .args
                .iter()
                .zip(&scalars)
                .map(|(a, s)| match (a, s) {
                    (ArgSpec::Buffer(name), _) => {
                        let i = resolved
                            .buffers
                            .iter()
                            .position(|b| &b.name == name)
                            .expect("validated template");
                        KernelArg::Ptr(set[i].ptr())
                    }
                    (_, Some((ty, v))) => scalar_arg(*ty, *v),
                    (_, None) => unreachable!("scalar_args gives a value for every scalar"),
                })
                .collect()
        };
        let reference = t
            .reference_launch(&req.config, req.n)
            .map_err(|e| Failure::Invalid(Invalid::constraint(format!("reference: {e}"))))?;
        let arg_sets: Vec<Vec<KernelArg>> = sets.iter().map(|s| args_for(s)).collect();

        let mut max_rel_err = None;
        if req.options.check {
            progress(Phase {
                name: "check",
                launches: 1,
            });
            // The reference first, on inputs no variant has run on: a variant
            // that writes where it should not cannot change what it is
            // compared with.
            let want = match reference.as_ref() {
                Some(r) => {
                    self.reference_kernel_outputs(req, &module, r, &resolved.buffers, &sets[0])?
                }
                None => builtin_outputs(req, &resolved.buffers, &host_inputs)?,
            };
            let gpu = &self.gpu;
            // SAFETY: the arguments follow the template, whose buffers have
            // the lengths its expressions give; a kernel that reaches past
            // them faults in its own context, which the caller discards.
            unsafe { func.launch(gpu, &dims, &arg_sets[0]) }?;
            gpu.synchronize()?;
            progress(Phase {
                name: "verify",
                launches: 0,
            });
            max_rel_err =
                Some(self.verify(req, reference.as_ref(), &resolved.buffers, &sets[0], &want)?);
        }

        let timing = &req.options.timing;
        progress(Phase {
            name: "time",
            launches: timing.warmup + timing.reps.max(1),
        });
        let flushed_l2 = timing.flush_l2;
        if flushed_l2 {
            self.ensure_flusher()?;
        }
        let flusher = if flushed_l2 {
            self.flusher.as_mut()
        } else {
            None
        };
        let gpu = &self.gpu;
        let samples = timing::time_runs(gpu, timing, copies, flusher, |i| {
            // SAFETY: as for the checked launch above.
            unsafe { func.launch(gpu, &dims, &arg_sets[i]) }
        })?;
        let time_ms = Stats::from_samples(&samples).ok_or_else(|| {
            Failure::Invalid(Invalid::runtime("the kernel timings were not finite"))
        })?;
        Ok(Measurement {
            gbps: timing::gbps(resolved.bytes, time_ms.median),
            gflops: timing::gbps(resolved.flops, time_ms.median),
            time_ms,
            bytes: resolved.bytes,
            flops: resolved.flops,
            dims,
            function: info,
            copies,
            flushed_l2,
            max_rel_err,
        })
    }

    /// Compares the variant's outputs in `set` with the reference's (`want`,
    /// from the reference kernel `reference` run on the GPU before the
    /// variant, or from the template's CPU built-in on the host inputs).
    fn verify(
        &self,
        req: &EvalRequest,
        reference: Option<&ReferenceLaunch>,
        buffers: &[crate::template::ResolvedBuffer],
        set: &[DeviceBuffer],
        want: &[HostData],
    ) -> Result<f64, Failure> {
        let spec = &req.template.spec;
        let against = reference.map_or_else(String::new, |r| {
            format!(" (against reference kernel `{}`)", r.kernel)
        });
        let mut worst = 0.0f64;
        for (name, want) in spec.reference.outputs.iter().zip(want) {
            let i = buffer_index(buffers, name);
            let mut got = HostData::zeros(buffers[i].ty, buffers[i].len);
            set[i].download(&self.gpu, got.as_bytes_mut())?;
            let cmp = host::compare_with_rounding(&got, want, spec.tolerance, spec.rounding_ulps);
            if !cmp.passed() {
                return Err(Failure::Invalid(Invalid::wrong_answer(format!(
                    "{}{against}",
                    cmp.describe(name, spec.tolerance)
                ))));
            }
            worst = worst.max(cmp.max_rel_err);
        }
        Ok(worst)
    }

    /// Runs the reference kernel on the inputs in `set` with fresh output
    /// buffers and returns what it wrote, in the reference's output order.
    fn reference_kernel_outputs(
        &self,
        req: &EvalRequest,
        module: &Module,
        r: &ReferenceLaunch,
        buffers: &[crate::template::ResolvedBuffer],
        set: &[DeviceBuffer],
    ) -> Result<Vec<HostData>, Failure> {
        let spec = &req.template.spec;
        let gpu = &self.gpu;
        let mut fresh: Vec<(usize, DeviceBuffer)> = Vec::new();
        for name in &spec.reference.outputs {
            let i = buffer_index(buffers, name);
            let b = DeviceBuffer::alloc(gpu, buffers[i].len * buffers[i].ty.size())?;
            // As the variant's: an output it adds into starts at zero.
            let fill = if buffers[i].init == Init::Zero {
                0
            } else {
                POISON_BYTE
            };
            b.fill_async(gpu, fill)?;
            fresh.push((i, b));
        }
        let args: Vec<KernelArg> = r
            .args
            .iter()
            .zip(&r.scalars)
            .map(|(a, s)| match (a, s) {
                (ArgSpec::Buffer(name), _) => {
                    let i = buffer_index(buffers, name);
                    let buf = fresh
                        .iter()
                        .find(|(j, _)| *j == i)
                        .map_or(&set[i], |(_, b)| b);
                    KernelArg::Ptr(buf.ptr())
                }
                (_, Some((ty, v))) => scalar_arg(*ty, *v),
                (_, None) => unreachable!("scalar values are given for every scalar"),
            })
            .collect();
        let func = module
            .function(&r.kernel)
            .map_err(|e| Failure::Invalid(Invalid::runtime(format!("reference: {e}"))))?;
        let dims = LaunchDims {
            grid: r.grid,
            block: r.block,
            shared_mem: r.shared_mem,
        };
        func.prepare(gpu, &dims)
            .map_err(|e| Failure::Invalid(Invalid::runtime(format!("reference: {e}"))))?;
        // SAFETY: the reference's arguments follow the template as the
        // variant's do, its outputs in buffers of the same lengths.
        unsafe { func.launch(gpu, &dims, &args) }?;
        gpu.synchronize()?;
        fresh
            .iter()
            .map(|(i, b)| {
                let mut want = HostData::zeros(buffers[*i].ty, buffers[*i].len);
                b.download(gpu, want.as_bytes_mut())?;
                Ok(want)
            })
            .collect()
    }
}

fn buffer_index(buffers: &[crate::template::ResolvedBuffer], name: &str) -> usize {
    buffers
        .iter()
        .position(|b| b.name == name)
        .expect("validated template")
}

/// The template's CPU built-in run on the host inputs: its outputs, in the
/// reference's output order.
fn builtin_outputs(
    req: &EvalRequest,
    buffers: &[crate::template::ResolvedBuffer],
    host_inputs: &[Option<HostData>],
) -> Result<Vec<HostData>, Failure> {
    let spec = &req.template.spec;
    let inputs: Vec<&HostData> = spec
        .reference
        .inputs
        .iter()
        .map(|n| {
            host_inputs[buffer_index(buffers, n)]
                .as_ref()
                .expect("reference inputs are not outputs")
        })
        .collect();
    let mut want: Vec<HostData> = spec
        .reference
        .outputs
        .iter()
        .map(|n| {
            let b = &buffers[buffer_index(buffers, n)];
            HostData::zeros(b.ty, b.len)
        })
        .collect();
    spec.reference
        .builtin
        .run(&size_env(&req.config, req.n), &inputs, &mut want)
        .map_err(|e| Failure::Invalid(Invalid::runtime(format!("reference: {e}"))))?;
    Ok(want)
}

fn scalar_arg(ty: Arith, v: ScalarValue) -> KernelArg {
    let v = match v {
        ScalarValue::Int(v) => v,
        ScalarValue::Real(x) => {
            return match ty {
                Arith::F32 => KernelArg::F32(x as f32),
                Arith::F64 => KernelArg::F64(x),
                // Validated whole.
                _ => scalar_arg(ty, ScalarValue::Int(x as i64)),
            };
        }
    };
    match ty {
        Arith::I32 => KernelArg::I32(v as i32),
        Arith::U32 => KernelArg::U32(v as u32),
        Arith::I64 => KernelArg::I64(v),
        Arith::U64 => KernelArg::U64(v as u64),
        Arith::F32 => KernelArg::F32(v as f32),
        Arith::F64 => KernelArg::F64(v as f64),
    }
}

/// A seed that differs between evaluations and processes.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

enum Failure {
    Invalid(Invalid),
    Gpu(GpuError),
}

impl From<GpuError> for Failure {
    fn from(e: GpuError) -> Self {
        Failure::Gpu(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_serialise_with_a_status_tag() {
        let o = Outcome::invalid(InvalidKind::WrongAnswer, "wrong answer: max rel err 1e0");
        let json = serde_json::to_string(&o).unwrap();
        assert!(json.contains("\"status\":\"invalid\""), "{json}");
        assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), o);
        assert!(o.measurement().is_none());
    }

    #[test]
    fn scalars_are_narrowed_to_their_declared_type() {
        let int = ScalarValue::Int;
        assert_eq!(
            scalar_arg(Arith::U64, int(1 << 40)),
            KernelArg::U64(1 << 40)
        );
        assert_eq!(scalar_arg(Arith::I32, int(-3)), KernelArg::I32(-3));
        assert_eq!(scalar_arg(Arith::F32, int(2)), KernelArg::F32(2.0));
        let real = ScalarValue::Real;
        assert_eq!(scalar_arg(Arith::F32, real(0.1)), KernelArg::F32(0.1));
        assert_eq!(scalar_arg(Arith::I32, real(-7.0)), KernelArg::I32(-7));
    }

    #[test]
    fn fresh_seeds_differ() {
        let seeds: std::collections::BTreeSet<u64> = (0..16).map(|_| fresh_seed()).collect();
        assert!(seeds.len() > 1);
    }

    #[test]
    fn opening_a_session_without_a_device_reports_no_device() {
        match GpuSession::open(0, ModuleCache::new(std::env::temp_dir())) {
            Ok(s) => assert!(s.props().sm_count > 0),
            Err(e) => assert!(matches!(e, GpuError::NoDevice(_)), "{e:?}"),
        }
    }
}
