//! GEMM on a GPU: compiling the templates (through the module cache),
//! checking a kernel against the CPU reference on fresh random operands,
//! timing it, and the library call on the caller's buffers.
//!
//! Every problem's checks draw new operands, the same for every kernel (and
//! the vendor) checked on it, so that their errors compare on the same
//! inputs; each check runs the kernel twice: with beta = 0
//! on a C poisoned with NaN (every element must be written and C must not be
//! read), and with beta != 0 on a random C. Padding rows of A, B and C
//! (between the stored rows and the leading dimension) hold NaN and must be
//! neither read nor written.

use std::collections::HashMap;
use std::rc::Rc;

use hone_gpu::launch::{DeviceBuffer, FunctionInfo, KernelArg, LaunchDims, Module};
use hone_gpu::timing::{time_runs, L2Flusher};
use hone_gpu::{nvrtc, CompileOptions, Gpu, ModuleCache, Stats, Target, TimingOptions};
use hone_tuner::Invalid;
use rayon::prelude::*;

use super::dd::{Accuracy, Dd, InputKind};
use super::reference::{
    compare, compare_dd, device_bytes, host_values, reference, CheckReport, Operands,
};
use super::template::{template, GemmKernel, Packing, SPLIT_COUNTERS, SPLIT_WORK_BYTES};
use super::{Flavor, GemmProblem};
use crate::routine::{LibError, Result};
use crate::vendor::cublas::{Cublas, DefaultStreamTimer};

/// alpha and beta of the timed runs and the second check (beta != 0).
pub const ALPHA: f64 = 1.25;
pub const BETA: f64 = 0.75;
/// Their low words in double-double runs, so that the checks see the
/// kernels use them.
pub const ALPHA_LO: f64 = 1.25 / 1152921504606846976.0; // 1.25 * 2^-60
pub const BETA_LO: f64 = -0.75 / 2305843009213693952.0; // -0.75 * 2^-61

/// alpha and beta as a problem of `flavor` takes them.
fn scalars(flavor: super::Flavor) -> (Dd, Dd) {
    if flavor.is_dd() {
        (Dd::new(ALPHA, ALPHA_LO), Dd::new(BETA, BETA_LO))
    } else {
        (Dd::from_f64(ALPHA), Dd::from_f64(BETA))
    }
}

/// A compiled and loaded kernel.
pub struct LoadedKernel {
    pub kernel: GemmKernel,
    pub module: Module,
    pub info: FunctionInfo,
    pub compile_ms: f64,
}

/// The device buffers of one problem: `copies` of A, B and C to rotate over
/// (so that timed runs do not find their operands in L2).
pub struct GemmData {
    pub problem: GemmProblem,
    a: Vec<DeviceBuffer>,
    b: Vec<DeviceBuffer>,
    c: Vec<DeviceBuffer>,
}

impl GemmData {
    pub fn copies(&self) -> usize {
        self.a.len()
    }

    pub fn ptrs(&self, copy: usize) -> (u64, u64, u64) {
        (self.a[copy].ptr(), self.b[copy].ptr(), self.c[copy].ptr())
    }
}

/// One timed measurement of a kernel or of the vendor.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timed {
    /// One entry per timing pass.
    pub times: Vec<Stats>,
    pub launch: Option<LaunchDims>,
    pub registers: Option<u32>,
    pub local_bytes: Option<u32>,
}

impl Timed {
    pub fn medians_ms(&self) -> Vec<f64> {
        self.times.iter().map(|s| s.median).collect()
    }
}

/// Compiles, loads, checks and times GEMM kernels on one GPU.
pub struct GemmRunner<'g> {
    gpu: &'g Gpu,
    cache: ModuleCache,
    target: Target,
    nvrtc_version: (u32, u32),
    kernels: HashMap<GemmKernel, std::result::Result<Rc<LoadedKernel>, Invalid>>,
    data: Option<GemmData>,
    flusher: L2Flusher,
    seed: u64,
    /// The seed of the current problem's check operands, drawn at its first
    /// check.
    check_seed: Option<u64>,
    limits: crate::symv::DeviceLimits,
    /// The split-K tile counters (zero between calls: the last slice of a
    /// tile clears its counter) and workspace of the kernels that split K.
    /// One runner's launches go to one stream, so calls never share them.
    split: SplitBuffers,
    /// The copies of the operands that packing kernels make (grown to the
    /// largest problem seen; allocated before any timed run).
    pack: Option<DeviceBuffer>,
}

impl<'g> GemmRunner<'g> {
    pub fn new(gpu: &'g Gpu, cache: ModuleCache) -> Result<GemmRunner<'g>> {
        let target = nvrtc::target_for(gpu.props().compute_capability)?;
        let split = SplitBuffers {
            counters: DeviceBuffer::with_data(gpu, &vec![0u8; 4 * SPLIT_COUNTERS])?,
            work: DeviceBuffer::alloc(gpu, SPLIT_WORK_BYTES)?,
        };
        Ok(GemmRunner {
            gpu,
            cache,
            target,
            nvrtc_version: nvrtc::version()?,
            kernels: HashMap::new(),
            data: None,
            flusher: L2Flusher::new(gpu)?,
            seed: rand::random(),
            check_seed: None,
            limits: crate::symv::DeviceLimits::from_props(gpu.props()),
            split,
            pack: None,
        })
    }

    /// The device limits that the templates' constraints name.
    pub fn limit(&self, name: &str) -> Option<i64> {
        self.limits.get(name)
    }

    /// The rule's kernel for the current problem, or its element-load
    /// variant where the buffers' leading dimensions call for it.
    pub fn fitting(&self, kernel: GemmKernel) -> GemmKernel {
        match &self.data {
            Some(d) => {
                let (a, b, _) = d.ptrs(0);
                super::template::fitting(kernel, &d.problem, a, b, &|n| self.limit(n))
            }
            None => kernel,
        }
    }

    pub fn gpu(&self) -> &'g Gpu {
        self.gpu
    }

    /// Compiles (on all cores, through the module cache) and loads every
    /// kernel not loaded yet; one that does not build is remembered with why.
    pub fn prepare_kernels(&mut self, kernels: &[GemmKernel]) -> Result<()> {
        let todo: Vec<&GemmKernel> = kernels
            .iter()
            .filter(|k| !self.kernels.contains_key(*k))
            .collect();
        let (cache, target, nvrtc_version) = (&self.cache, &self.target, self.nvrtc_version);
        let compiled: Vec<_> = todo
            .par_iter()
            .map(|k| {
                let t = template(k.flavor);
                let start = std::time::Instant::now();
                let options = CompileOptions::with_defines(t.defines(k));
                let target = t.target(k, target).map_err(Invalid::compile)?;
                cache
                    .compile(&t.source(), t.file, &options, &target, nvrtc_version)
                    .map(|m| (m, start.elapsed().as_secs_f64() * 1e3))
                    .map_err(|e| Invalid::compile(e.to_string()))
            })
            .collect();
        for (k, c) in todo.into_iter().zip(compiled) {
            let loaded = c.and_then(|(cached, ms)| {
                let module = Module::load(self.gpu, &cached.module.image, cached.module.kind)
                    .map_err(|e| Invalid::runtime(format!("loading the module: {e}")))?;
                let info = module
                    .function(&template(k.flavor).entry)
                    .and_then(|f| f.info())
                    .map_err(|e| Invalid::runtime(e.to_string()))?;
                Ok(Rc::new(LoadedKernel {
                    kernel: k.clone(),
                    module,
                    info,
                    compile_ms: ms,
                }))
            });
            self.kernels.insert(k.clone(), loaded);
        }
        Ok(())
    }

    /// The packing of `p` by `kernel` with its workspace, grown to fit
    /// (`None` for kernels that read the operands as they are).
    fn pack_space(&mut self, kernel: &GemmKernel, p: &GemmProblem) -> Result<Option<PackRun>> {
        let Some(packing) = kernel.packing(p) else {
            return Ok(None);
        };
        let bytes = packing.elements() * p.flavor.element_bytes();
        if bytes == 0 {
            // TN: the kernel reads the operands where they are.
            return Ok(Some(PackRun { packing, ws: 0 }));
        }
        if self.pack.as_ref().is_none_or(|b| b.bytes() < bytes) {
            // Free the old copy first: the two need not fit side by side.
            // Freeing waits for the device, once for each larger problem.
            self.pack = None;
            self.pack = Some(DeviceBuffer::alloc(self.gpu, bytes)?);
        }
        let ws = self.pack.as_ref().expect("just allocated").ptr();
        Ok(Some(PackRun { packing, ws }))
    }

    /// [`GemmRunner::pack_space`] for a check or a timed run, where a
    /// workspace that cannot be had makes the kernel one that cannot run.
    fn run_space(
        &mut self,
        kernel: &GemmKernel,
        p: &GemmProblem,
    ) -> std::result::Result<Option<PackRun>, Invalid> {
        self.pack_space(kernel, p)
            .map_err(|e| Invalid::runtime(format!("the packing workspace: {e}")))
    }

    /// The loaded kernel, or why it cannot run.
    pub fn kernel(
        &mut self,
        k: &GemmKernel,
    ) -> Result<std::result::Result<Rc<LoadedKernel>, Invalid>> {
        if !self.kernels.contains_key(k) {
            self.prepare_kernels(std::slice::from_ref(k))?;
        }
        Ok(self.kernels[k].clone())
    }

    /// Allocates the buffers of `p` (reusing the last problem's when it is
    /// the same) with as many copies as `timing` asks for.
    pub fn data(&mut self, p: &GemmProblem, timing: &TimingOptions) -> Result<&GemmData> {
        p.validate().map_err(LibError::Usage)?;
        if self.data.as_ref().is_some_and(|d| d.problem == *p) {
            return Ok(self.data.as_ref().expect("checked"));
        }
        self.data = None;
        self.check_seed = None;
        let elem = p.flavor.element_bytes();
        let (ea, eb, ec) = p.elements();
        // The operands as f64 words and as device bytes.
        let host = (ea + eb + ec) as u64 * p.flavor.words() as u64 * 16;
        crate::routine::need_host(p, host, "filling the buffers")?;
        let footprint = (ea + eb + ec) * elem;
        let (free, _) = self.gpu.memory_info()?;
        let copies = timing.copies_for(footprint, self.gpu.props().l2_cache_bytes, free);
        if footprint > free {
            return Err(LibError::Usage(format!(
                "{p} needs {footprint} bytes of device memory, {free} are free"
            )));
        }
        let alloc = |e: usize| -> Result<Vec<DeviceBuffer>> {
            (0..copies)
                .map(|_| Ok(DeviceBuffer::alloc(self.gpu, e * elem)?))
                .collect()
        };
        let d = GemmData {
            problem: *p,
            a: alloc(ea)?,
            b: alloc(eb)?,
            c: alloc(ec)?,
        };
        // Timed runs read whatever the copies hold: random operands, so that
        // the arithmetic is the ordinary kind (no denormals, no zeros).
        let ops = Operands::random(p, self.seed ^ 0x7173);
        let f = p.flavor;
        for i in 0..copies as usize {
            d.a[i].upload(self.gpu, &device_bytes(f, &ops.a))?;
            d.b[i].upload(self.gpu, &device_bytes(f, &ops.b))?;
            d.c[i].upload(self.gpu, &device_bytes(f, &ops.c))?;
        }
        self.data = Some(d);
        Ok(self.data.as_ref().expect("just set"))
    }

    /// Runs `call(alpha, a, b, beta, c)` on copy 0 of the current problem's
    /// buffers with its check operands (drawn afresh for each problem, the
    /// same for every call checked on it), twice (beta = 0 on a NaN-poisoned
    /// C, then beta != 0), and compares with the reference; the worse of the
    /// two.
    pub fn check_with(
        &mut self,
        call: impl FnMut(Dd, u64, u64, Dd, u64) -> Result<()>,
    ) -> Result<CheckReport> {
        self.check_inputs(None, call).map(|(report, _)| report)
    }

    /// As [`GemmRunner::check_with`], with double-double operands of `kind`
    /// (the default kind when `None`); for double-double problems also the
    /// normwise and elementwise errors of the product (the beta = 0 run)
    /// against the exact one.
    pub fn check_inputs(
        &mut self,
        kind: Option<InputKind>,
        mut call: impl FnMut(Dd, u64, u64, Dd, u64) -> Result<()>,
    ) -> Result<(CheckReport, Option<Accuracy>)> {
        let d = self
            .data
            .as_ref()
            .ok_or_else(|| LibError::Routine("no problem allocated".into()))?;
        let p = d.problem;
        let f = p.flavor;
        let (ea, eb, ec) = p.elements();
        // Operands, C before and after, and the device bytes of each.
        let host = (ea + eb + 3 * ec) as u64 * f.words() as u64 * 16;
        crate::routine::need_host(p, host, "checking against the CPU reference")?;
        let seed = match self.check_seed {
            Some(seed) => seed,
            None => {
                self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
                *self.check_seed.insert(self.seed)
            }
        };
        let ops = match kind {
            Some(k) if f.is_dd() => Operands::dd(&p, k, seed),
            _ => Operands::random(&p, seed),
        };
        let (a, b, c) = d.ptrs(0);
        d.a[0].upload(self.gpu, &device_bytes(f, &ops.a))?;
        d.b[0].upload(self.gpu, &device_bytes(f, &ops.b))?;
        let (alpha, beta_run) = scalars(f);
        let mut worst: Option<CheckReport> = None;
        let mut accuracy = None;
        for beta in [Dd::ZERO, beta_run] {
            let before = if beta == Dd::ZERO {
                vec![f64::NAN; ops.c.len()]
            } else {
                ops.c.clone()
            };
            d.c[0].upload(self.gpu, &device_bytes(f, &before))?;
            call(alpha, a, b, beta, c)?;
            crate::vendor::cublas::synchronize_device()?;
            let mut raw = vec![0u8; before.len() * f.precision().size()];
            d.c[0].download(self.gpu, &mut raw)?;
            let got = host_values(f, &raw);
            let rep = if f.is_dd() {
                let (rep, acc) = compare_dd(&p, &ops, alpha, beta, &got, &before, seed);
                if beta == Dd::ZERO {
                    accuracy = Some(acc);
                }
                rep
            } else {
                let r = reference(&p, &ops, alpha.hi, beta.hi, seed);
                compare(&p, &r, &got, &before)
            };
            let worse = match &worst {
                None => true,
                Some(w) => (!rep.passed() && w.passed()) || rep.max_error > w.max_error,
            };
            if worse {
                worst = Some(rep);
            }
        }
        Ok((worst.expect("two checks ran"), accuracy))
    }

    /// The launch of `loaded` on `p`, prepared on the device, or why it
    /// cannot run there.
    fn dims_for(
        &self,
        loaded: &LoadedKernel,
        p: &GemmProblem,
    ) -> std::result::Result<LaunchDims, Invalid> {
        let t = template(loaded.kernel.flavor);
        t.accepts(&loaded.kernel, p).map_err(Invalid::constraint)?;
        let dims = t.launch(&loaded.kernel, p);
        let f = loaded
            .module
            .function(&t.entry)
            .map_err(|e| Invalid::runtime(e.to_string()))?;
        f.prepare(self.gpu, &dims)
            .map_err(|e| Invalid::constraint(e.to_string()))?;
        Ok(dims)
    }

    /// The launch of `loaded` on the current problem.
    fn launch_dims(&self, loaded: &LoadedKernel) -> std::result::Result<LaunchDims, Invalid> {
        let d = self
            .data
            .as_ref()
            .ok_or_else(|| Invalid::runtime("no problem allocated"))?;
        self.dims_for(loaded, &d.problem)
    }

    /// Checks `kernel` on the current problem: `Ok(Err(why))` when it cannot
    /// run there or computes a wrong C.
    pub fn check(
        &mut self,
        kernel: &GemmKernel,
    ) -> Result<std::result::Result<CheckReport, Invalid>> {
        Ok(self.check_kind(kernel, None)?.map(|(report, _)| report))
    }

    /// [`GemmRunner::check`] on double-double operands of `kind` (see
    /// [`GemmRunner::check_inputs`]), with the product's errors.
    pub fn check_kind(
        &mut self,
        kernel: &GemmKernel,
        kind: Option<InputKind>,
    ) -> Result<std::result::Result<(CheckReport, Option<Accuracy>), Invalid>> {
        let loaded = match self.kernel(kernel)? {
            Ok(l) => l,
            Err(why) => return Ok(Err(why)),
        };
        let dims = match self.launch_dims(&loaded) {
            Ok(d) => d,
            Err(why) => return Ok(Err(why)),
        };
        let p = self.data.as_ref().expect("launch_dims checked").problem;
        let pack = match self.run_space(kernel, &p) {
            Ok(pack) => pack,
            Err(why) => return Ok(Err(why)),
        };
        if let (Some(run), Some(ws)) = (&pack, &self.pack) {
            if run.ws != 0 {
                // NaN (all bits set) in the padding past K, whatever an
                // earlier problem's copies left there: a kernel that reads
                // it fails the check.
                ws.fill_async(self.gpu, 0xFF)?;
            }
        }
        let (gpu, split) = (self.gpu, self.split.ptrs());
        let (rep, accuracy) = self.check_inputs(kind, |alpha, a, b, beta, c| {
            // SAFETY: the buffers hold the problem's matrices.
            unsafe { launch(gpu, &loaded, &dims, &p, alpha, a, b, beta, c, split, pack) }
        })?;
        Ok(if rep.passed() {
            Ok((rep, accuracy))
        } else {
            Err(Invalid::wrong_answer(format!(
                "wrong result: {}",
                rep.describe()
            )))
        })
    }

    /// Times `kernel` on the current problem (`timed_runs` passes).
    pub fn time(
        &mut self,
        kernel: &GemmKernel,
        timing: &TimingOptions,
        timed_runs: u32,
    ) -> Result<std::result::Result<Timed, Invalid>> {
        let loaded = match self.kernel(kernel)? {
            Ok(l) => l,
            Err(why) => return Ok(Err(why)),
        };
        let dims = match self.launch_dims(&loaded) {
            Ok(d) => d,
            Err(why) => return Ok(Err(why)),
        };
        let p = self.data.as_ref().expect("launch_dims checked").problem;
        let pack = match self.run_space(kernel, &p) {
            Ok(pack) => pack,
            Err(why) => return Ok(Err(why)),
        };
        let (gpu, split) = (self.gpu, self.split.ptrs());
        let d = self.data.as_ref().expect("launch_dims checked");
        let mut flusher = timing.flush_l2.then_some(&mut self.flusher);
        let (alpha, beta) = scalars(p.flavor);
        let mut times = Vec::new();
        for _ in 0..timed_runs.max(1) {
            let samples = time_runs(
                gpu,
                timing,
                d.copies() as u32,
                flusher.as_deref_mut(),
                |c| {
                    let (a, b, cc) = d.ptrs(c);
                    // SAFETY: copy c of the problem's buffers.
                    unsafe { launch(gpu, &loaded, &dims, &p, alpha, a, b, beta, cc, split, pack) }
                        .map_err(|e| hone_gpu::GpuError::Launch(e.to_string()))
                },
            );
            match samples {
                Ok(s) => times.push(
                    Stats::from_samples(&s)
                        .ok_or_else(|| LibError::Routine("timings were not finite".to_string()))?,
                ),
                Err(e) if e.is_sticky() => return Err(e.into()),
                Err(e) => return Ok(Err(Invalid::runtime(format!("launch failed: {e}")))),
            }
        }
        Ok(Ok(Timed {
            times,
            launch: Some(dims),
            registers: Some(loaded.info.registers),
            local_bytes: Some(loaded.info.local_bytes),
        }))
    }

    /// Checks cuBLAS on the current problem.
    pub fn check_vendor(&mut self, cublas: &Cublas) -> Result<CheckReport> {
        let p = self.data.as_ref().map(|d| d.problem);
        let p = p.ok_or_else(|| LibError::Routine("no problem allocated".into()))?;
        self.check_with(|alpha, a, b, beta, c| {
            // SAFETY: the buffers hold the problem's matrices.
            Ok(unsafe { cublas.gemm(&p, alpha.hi, a, b, beta.hi, c) }?)
        })
    }

    /// Times cuBLAS on the current problem, on the default stream.
    pub fn time_vendor(
        &mut self,
        cublas: &Cublas,
        timer: &mut DefaultStreamTimer,
        timing: &TimingOptions,
        timed_runs: u32,
    ) -> Result<Timed> {
        let d = self
            .data
            .as_ref()
            .ok_or_else(|| LibError::Routine("no problem allocated".into()))?;
        let p = d.problem;
        let mut times = Vec::new();
        for _ in 0..timed_runs.max(1) {
            let samples = timer.time(timing, d.copies(), |c| {
                let (a, b, cc) = d.ptrs(c);
                // SAFETY: copy c of the problem's buffers.
                unsafe { cublas.gemm(&p, ALPHA, a, b, BETA, cc) }
            })?;
            times.push(
                Stats::from_samples(&samples)
                    .ok_or_else(|| LibError::Routine("timings were not finite".to_string()))?,
            );
        }
        Ok(Timed {
            times,
            launch: None,
            registers: None,
            local_bytes: None,
        })
    }

    /// Enqueues C = alpha op(A) op(B) + beta C with `kernel` (or its
    /// element-load variant where the caller's leading dimensions or
    /// pointers do not suit its vector loads) on the caller's buffers, on
    /// the GPU's stream, without waiting; except that a packing kernel
    /// (`PACK = 1`) on a problem larger than any before waits for the
    /// device while its workspace grows, which then stays allocated.
    ///
    /// # Safety
    /// `a`, `b` and `c` must point to the stored matrices of `p`
    /// ([`GemmProblem::elements`] elements of its precision) on this GPU,
    /// alive until the call completes; `c` must not overlap `a` or `b`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn enqueue(
        &mut self,
        kernel: &GemmKernel,
        p: &GemmProblem,
        alpha: f64,
        a: u64,
        b: u64,
        beta: f64,
        c: u64,
    ) -> Result<GemmKernel> {
        // SAFETY: the caller's guarantees.
        unsafe { self.enqueue_dd(kernel, p, Dd::from_f64(alpha), a, b, Dd::from_f64(beta), c) }
    }

    /// [`GemmRunner::enqueue`] with double-double alpha and beta (only
    /// their hi words reach single and double kernels).
    ///
    /// # Safety
    /// As [`GemmRunner::enqueue`]; double-double matrices hold
    /// [`GemmProblem::elements`] elements of two doubles each.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn enqueue_dd(
        &mut self,
        kernel: &GemmKernel,
        p: &GemmProblem,
        alpha: Dd,
        a: u64,
        b: u64,
        beta: Dd,
        c: u64,
    ) -> Result<GemmKernel> {
        p.validate().map_err(LibError::Usage)?;
        if a == 0 || b == 0 || c == 0 {
            return Err(LibError::Usage("a null matrix pointer".to_string()));
        }
        let fitted = super::template::fitting(kernel.clone(), p, a, b, &|n| self.limit(n));
        // A BLAS caller gets an answer even where the copies do not fit in
        // device memory: from the kernel that reads the operands as they
        // are, fitted to them in turn.
        let (kernel, pack) = match self.pack_space(&fitted, p) {
            Ok(pack) => (fitted, pack),
            Err(LibError::Gpu(e)) if e.is_sticky() => return Err(LibError::Gpu(e)),
            Err(_) => {
                let k = super::template::fitting(kernel.unpacked(), p, a, b, &|n| self.limit(n));
                (k, None)
            }
        };
        let kernel = &kernel;
        let loaded = self
            .kernel(kernel)?
            .map_err(|i| LibError::Routine(i.reason))?;
        template(kernel.flavor)
            .aligned(kernel, a, b, c)
            .map_err(LibError::Usage)?;
        let dims = self
            .dims_for(&loaded, p)
            .map_err(|i| LibError::Usage(i.reason))?;
        let split = self.split.ptrs();
        // SAFETY: the caller's guarantees; the split-K buffers and the
        // packing workspace are the runner's.
        unsafe {
            launch(
                self.gpu, &loaded, &dims, p, alpha, a, b, beta, c, split, pack,
            )
        }?;
        Ok(kernel.clone())
    }
}

/// The split-K tile counters and workspace of a runner.
struct SplitBuffers {
    counters: DeviceBuffer,
    work: DeviceBuffer,
}

impl SplitBuffers {
    fn ptrs(&self) -> (u64, u64) {
        (self.counters.ptr(), self.work.ptr())
    }
}

/// A packing kernel's run on one problem: how it packs, and where.
#[derive(Debug, Clone, Copy)]
struct PackRun {
    packing: Packing,
    /// The workspace: at least [`Packing::elements`] elements.
    ws: u64,
}

/// The packing pass of a kernel with `PACK = 1`: its module's `gemm_pack`
/// copies op(A) and op(B) K-contiguous into the workspace where they are
/// not; returns the problem and operands the main kernel runs on.
///
/// # Safety
/// As [`launch`].
unsafe fn pack_operands(
    gpu: &Gpu,
    loaded: &LoadedKernel,
    p: &GemmProblem,
    a: u64,
    b: u64,
    run: &PackRun,
) -> Result<(GemmProblem, u64, u64)> {
    let pk = &run.packing;
    if !pk.pack_a && !pk.pack_b {
        return Ok((pk.problem, a, b));
    }
    let f = loaded.module.function("gemm_pack")?;
    let elem = p.flavor.element_bytes() as u64;
    let b_copy = run.ws + pk.b_offset() as u64 * elem;
    let pass = |src: u64, rows: usize, ld: usize, dst: u64| -> Result<()> {
        let dims = LaunchDims {
            grid: (
                rows.div_ceil(32) as u32,
                p.k.div_ceil(32).min(65535) as u32,
                1,
            ),
            block: (32, 8, 1),
            shared_mem: 0,
        };
        let args = [
            KernelArg::Ptr(src),
            KernelArg::I32(rows as i32),
            KernelArg::I32(p.k as i32),
            KernelArg::I32(ld as i32),
            KernelArg::Ptr(dst),
            KernelArg::I32(pk.ld as i32),
        ];
        // SAFETY: src holds a rows x K matrix of leading dimension ld (the
        // caller's), dst the workspace of `run`.
        unsafe { f.launch(gpu, &dims, &args) }?;
        Ok(())
    };
    if pk.pack_a {
        pass(a, p.m, p.lda, run.ws)?;
    }
    if pk.pack_b {
        pass(b, p.n, p.ldb, b_copy)?;
    }
    Ok((
        pk.problem,
        if pk.pack_a { run.ws } else { a },
        if pk.pack_b { b_copy } else { b },
    ))
}

/// One launch of a loaded kernel with the BLAS argument list (after its
/// packing pass, for kernels that pack).
///
/// # Safety
/// The pointers must hold `p`'s matrices on `gpu`; `split` the split-K
/// counters ([`SPLIT_COUNTERS`] zero words) and workspace
/// ([`SPLIT_WORK_BYTES`]) where the kernel splits K; `pack` the packing
/// workspace where it packs.
#[allow(clippy::too_many_arguments)]
unsafe fn launch(
    gpu: &Gpu,
    loaded: &LoadedKernel,
    dims: &LaunchDims,
    p: &GemmProblem,
    alpha: Dd,
    a: u64,
    b: u64,
    beta: Dd,
    c: u64,
    split: (u64, u64),
    pack: Option<PackRun>,
) -> Result<()> {
    let t = template(loaded.kernel.flavor);
    let f = loaded.module.function(&t.entry)?;
    let (q, a, b) = match &pack {
        // SAFETY: the caller's guarantees.
        Some(run) => unsafe { pack_operands(gpu, loaded, p, a, b, run) }?,
        None => (*p, a, b),
    };
    let p = &q;
    // Double-double kernels take each scalar as its hi and lo words.
    let scalar = |v: Dd| match p.flavor {
        Flavor::Dgemm => vec![KernelArg::F64(v.hi)],
        Flavor::Sgemm | Flavor::Sgemm3xTf32 => vec![KernelArg::F32(v.hi as f32)],
        Flavor::Ddgemm | Flavor::DdgemmSplit => vec![KernelArg::F64(v.hi), KernelArg::F64(v.lo)],
    };
    let mut args = vec![
        KernelArg::I32(p.m as i32),
        KernelArg::I32(p.n as i32),
        KernelArg::I32(p.k as i32),
    ];
    args.extend(scalar(alpha));
    args.extend([
        KernelArg::Ptr(a),
        KernelArg::I32(p.lda as i32),
        KernelArg::Ptr(b),
        KernelArg::I32(p.ldb as i32),
    ]);
    args.extend(scalar(beta));
    args.extend([KernelArg::Ptr(c), KernelArg::I32(p.ldc as i32)]);
    if t.split_k {
        args.extend([KernelArg::Ptr(split.0), KernelArg::Ptr(split.1)]);
    }
    // SAFETY: the argument list is the templates' BLAS signature; the caller
    // vouches for the pointers.
    unsafe { f.launch(gpu, dims, &args) }?;
    Ok(())
}
