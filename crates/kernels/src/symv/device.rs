//! Compiling, launching, checking and timing the SYMV kernels on a GPU.
//!
//! [`SymvRunner`] owns what stays from one measurement to the next (the
//! module cache, the loaded kernels, the L2 flusher, the last problem's
//! buffers); [`run_symv`] checks and times one kernel at one size, the call a
//! tuner makes for each (configuration, size) pair.
//!
//! Every check draws a fresh seed for the matrix and fresh x, y, alpha and
//! beta, then runs the kernel twice: with beta = 0 on a y poisoned with NaN
//! (every element must be written, y must not be read), and with beta != 0 on
//! a random y. The matrix's unstored triangle and padding rows hold NaN, so a
//! kernel that reads them fails. See [`reference`](mod@super::reference) for the
//! error bound.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::time::Instant;

use hone_gpu::cache::CachedModule;
use hone_gpu::launch::{DeviceBuffer, Function, FunctionInfo, KernelArg, LaunchDims, Module};
use hone_gpu::pool::{CompilePool, Compiled};
use hone_gpu::timing::{time_runs, L2Flusher};
use hone_gpu::{nvrtc, CompileOptions, Gpu, GpuError, ModuleCache, Stats, Target, TimingOptions};
use hone_tuner::{Invalid, InvalidKind};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::geometry::{atomic_launch, fill_launch, lu_launch, scale_launch};
use super::reference::{compare, hash_product, ErrorReport};
use super::space::{symv_template, util_source, DeviceLimits};
use super::traffic::{gbps, symv_bytes};
use super::{Algorithm, Precision, Result, SymvError, SymvKernel, Uplo};

/// How to measure.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunOptions {
    pub timing: TimingOptions,
    /// Timing runs of `timing.reps` each; the spread between their medians
    /// shows the noise.
    pub timed_runs: u32,
    /// Check against the CPU reference before timing.
    pub check: bool,
    /// The leading dimension is n rounded up to a multiple of this.
    pub lda_multiple: usize,
    /// alpha and beta of the timed runs.
    pub alpha: f64,
    pub beta: f64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            timing: TimingOptions::default(),
            timed_runs: 2,
            check: true,
            lda_multiple: 32,
            alpha: 1.0,
            beta: 0.5,
        }
    }
}

impl RunOptions {
    pub fn lda(&self, n: usize) -> usize {
        n.max(1).div_ceil(self.lda_multiple.max(1)) * self.lda_multiple.max(1)
    }
}

/// The two checks of one kernel on one fresh problem.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckReport {
    pub seed: u64,
    pub alpha: f64,
    pub beta: f64,
    /// beta = 0 on a NaN-poisoned y.
    pub zero_beta: ErrorReport,
    /// beta != 0 on a random y.
    pub with_beta: ErrorReport,
}

impl CheckReport {
    pub fn passed(&self) -> bool {
        self.zero_beta.passed() && self.with_beta.passed()
    }

    /// The larger relative error of the two checks.
    pub fn relative(&self) -> f64 {
        self.zero_beta.relative.max(self.with_beta.relative)
    }

    pub fn describe(&self) -> String {
        format!(
            "seed {:#x}: beta=0 on poisoned y: {}; beta={}: {}",
            self.seed,
            self.zero_beta.describe(),
            self.beta,
            self.with_beta.describe()
        )
    }
}

/// A kernel compiled and loaded, with what the compiler chose.
pub struct LoadedKernel {
    pub kernel: SymvKernel,
    pub entry: &'static str,
    pub info: FunctionInfo,
    pub compile_ms: f64,
    pub cache_hit: bool,
    pub log: String,
    shared_need: i64,
    module: Module,
}

/// A problem's device buffers: `copies` sets of (A, x, y) to rotate through
/// when timing, and the zeroed words the atomic kernel synchronises its
/// blocks with (four counters, then the SYNC=1 kernels' mutexes).
pub struct SymvData {
    pub precision: Precision,
    pub uplo: Uplo,
    pub n: usize,
    pub lda: usize,
    a: Vec<DeviceBuffer>,
    x: Vec<DeviceBuffer>,
    y: Vec<DeviceBuffer>,
    sync: DeviceBuffer,
}

impl SymvData {
    pub fn copies(&self) -> usize {
        self.a.len()
    }

    /// Device memory held by the matrix and vector copies.
    pub fn bytes(&self) -> usize {
        self.copies() * (self.lda * self.n + 2 * self.n) * self.precision.size()
    }

    pub fn matrix_ptr(&self, copy: usize) -> u64 {
        self.a[copy].ptr()
    }

    pub fn x_ptr(&self, copy: usize) -> u64 {
        self.x[copy].ptr()
    }

    pub fn y_ptr(&self, copy: usize) -> u64 {
        self.y[copy].ptr()
    }
}

/// A measured kernel at one size.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SymvMeasurement {
    pub kernel: SymvKernel,
    pub n: usize,
    pub lda: usize,
    pub check: Option<CheckReport>,
    /// One entry per timing run.
    pub times: Vec<Stats>,
    /// Median of the first timing run, milliseconds.
    pub median_ms: f64,
    /// [`symv_bytes`] over `median_ms`.
    pub gbps: f64,
    pub registers: u32,
    pub local_bytes: u32,
    pub launch: LaunchDims,
}

/// The outcome of one (kernel, size) evaluation.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum SymvOutcome {
    Valid(Box<SymvMeasurement>),
    /// The variant cannot run or is wrong: a constraint, a compile error, a
    /// launch the device refuses, a failed check.
    Invalid {
        kind: InvalidKind,
        reason: String,
    },
}

impl From<Invalid> for SymvOutcome {
    fn from(i: Invalid) -> SymvOutcome {
        SymvOutcome::Invalid {
            kind: i.kind,
            reason: i.reason,
        }
    }
}

impl SymvOutcome {
    pub fn measurement(&self) -> Option<&SymvMeasurement> {
        match self {
            SymvOutcome::Valid(m) => Some(m),
            SymvOutcome::Invalid { .. } => None,
        }
    }
}

/// Ints the atomic kernel synchronises with at size n: four counters and a
/// mutex per 32 rows (the smallest BLOCK_SIZE).
pub fn sync_words(n: usize) -> usize {
    4 + n / 32 + 1
}

/// Kernel arguments of a scalar in the element type.
fn scalar(precision: Precision, v: f64) -> KernelArg {
    match precision {
        Precision::Double => KernelArg::F64(v),
        Precision::Single => KernelArg::F32(v as f32),
    }
}

/// `v` rounded to the element type (what the device will hold).
pub fn round_to(precision: Precision, v: f64) -> f64 {
    match precision {
        Precision::Double => v,
        Precision::Single => v as f32 as f64,
    }
}

/// Device pointers of one launch.
#[derive(Clone, Copy)]
struct Operands {
    a: u64,
    x: u64,
    y: u64,
    sync: u64,
}

impl SymvData {
    fn operands(&self, copy: usize) -> Operands {
        Operands {
            a: self.a[copy].ptr(),
            x: self.x[copy].ptr(),
            y: self.y[copy].ptr(),
            sync: self.sync.ptr(),
        }
    }
}

/// A kernel's functions resolved and prepared for one problem.
struct Prepared<'a> {
    precision: Precision,
    algorithm: Algorithm,
    n: usize,
    lda: usize,
    main: Function<'a>,
    main_dims: LaunchDims,
    scale: Function<'a>,
    scale_dims: LaunchDims,
}

impl Prepared<'_> {
    /// Enqueues y = alpha A x + beta y on the GPU's stream.
    ///
    /// # Safety
    /// The pointers must hold the problem's buffers.
    unsafe fn enqueue(&self, gpu: &Gpu, ops: Operands, alpha: f64, beta: f64) -> Result<()> {
        let Operands { a, x, y, sync } = ops;
        let p = self.precision;
        let n = KernelArg::I32(self.n as i32);
        let scale_args = [n, scalar(p, beta), KernelArg::Ptr(y)];
        if alpha == 0.0 {
            // BLAS: A and x are not referenced.
            return Ok(self.scale.launch(gpu, &self.scale_dims, &scale_args)?);
        }
        match self.algorithm {
            Algorithm::Atomic => {
                self.main.launch(
                    gpu,
                    &self.main_dims,
                    &[
                        n,
                        scalar(p, alpha),
                        KernelArg::Ptr(a),
                        KernelArg::I64(self.lda as i64),
                        KernelArg::Ptr(x),
                        scalar(p, beta),
                        KernelArg::Ptr(y),
                        KernelArg::Ptr(sync),
                    ],
                )?;
            }
            Algorithm::LowerUpper => {
                self.main.launch(
                    gpu,
                    &self.main_dims,
                    &[
                        n,
                        scalar(p, alpha),
                        KernelArg::Ptr(a),
                        KernelArg::I64(self.lda as i64),
                        KernelArg::Ptr(x),
                        scalar(p, beta),
                        KernelArg::Ptr(y),
                    ],
                )?;
            }
        }
        Ok(())
    }
}

/// Owns the state that survives from one SYMV measurement to the next.
pub struct SymvRunner<'g> {
    gpu: &'g Gpu,
    limits: DeviceLimits,
    cache: ModuleCache,
    target: Target,
    nvrtc_version: (u32, u32),
    vector_atomics: bool,
    util: BTreeMap<Precision, Module>,
    kernels: HashMap<SymvKernel, std::result::Result<Rc<LoadedKernel>, Invalid>>,
    flusher: L2Flusher,
    data: Option<SymvData>,
    /// Earlier problems kept for reuse, oldest first: a tuner evaluates each
    /// configuration at several sizes in turn, and refilling gigabytes for
    /// every one would cost more than the timing.
    parked: Vec<SymvData>,
    /// The sync words of launches on the caller's buffers ([`SymvRunner::enqueue`]),
    /// grown to the largest n seen; it holds no matrix or vector copies.
    workspace: Option<SymvData>,
    rng: StdRng,
}

/// Problems kept besides the current one, and the device memory they may hold.
const PARKED_PROBLEMS: usize = 8;
const PARKED_BYTES: usize = 24 << 30;

impl<'g> SymvRunner<'g> {
    /// Prepares to run SYMV kernels on `gpu`, compiling into `cache`.
    pub fn new(gpu: &'g Gpu, cache: ModuleCache) -> Result<SymvRunner<'g>> {
        let target = nvrtc::target_for(gpu.props().compute_capability)?;
        let nvrtc_version = nvrtc::version()?;
        let vector_atomics = probe_vector_atomics(&target);
        Ok(SymvRunner {
            gpu,
            limits: DeviceLimits::from_props(gpu.props()),
            cache,
            target,
            nvrtc_version,
            vector_atomics,
            util: BTreeMap::new(),
            kernels: HashMap::new(),
            flusher: L2Flusher::new(gpu)?,
            data: None,
            parked: Vec::new(),
            workspace: None,
            rng: StdRng::from_entropy(),
        })
    }

    pub fn gpu(&self) -> &'g Gpu {
        self.gpu
    }

    pub fn limits(&self) -> &DeviceLimits {
        &self.limits
    }

    /// Whether float2/float4 atomicAdd compiled (used by single-precision
    /// kernels with VEC = 2 or 4).
    pub fn vector_atomics(&self) -> bool {
        self.vector_atomics
    }

    /// Compiles (through the cache, on all cores) and loads every kernel not
    /// loaded yet. Failures are remembered as the kernel's invalid reason.
    pub fn prepare_kernels(&mut self, kernels: &[SymvKernel]) -> Result<()> {
        let mut todo: Vec<SymvKernel> = Vec::new();
        for k in kernels {
            if !self.kernels.contains_key(k) && !todo.contains(k) {
                todo.push(k.clone());
            }
        }
        if todo.is_empty() {
            return Ok(());
        }
        let mut pool = CompilePool::new(compiler(
            self.limits,
            self.vector_atomics,
            self.cache.clone(),
            self.target,
            self.nvrtc_version,
        ));
        let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
        pool.queue(todo.iter().cloned(), threads.min(todo.len()));
        for kernel in todo {
            let loaded = match pool.wait(&kernel) {
                Ok((cached, ms)) => self.load(kernel.clone(), cached, ms),
                Err(invalid) => Err(invalid),
            };
            self.kernels.insert(kernel, loaded.map(Rc::new));
        }
        Ok(())
    }

    fn load(
        &self,
        kernel: SymvKernel,
        cached: CachedModule,
        compile_ms: f64,
    ) -> std::result::Result<LoadedKernel, Invalid> {
        let t = symv_template(kernel.precision, kernel.uplo, kernel.algorithm);
        let module = Module::load(self.gpu, &cached.module.image, cached.module.kind)
            .map_err(|e| Invalid::runtime(format!("loading the module: {e}")))?;
        let info = module
            .function(t.entry)
            .and_then(|f| f.info())
            .map_err(|e| Invalid::runtime(e.to_string()))?;
        Ok(LoadedKernel {
            shared_need: t.shared_need(&kernel.config),
            entry: t.entry,
            info,
            compile_ms,
            cache_hit: cached.hit,
            log: cached.module.log,
            kernel,
            module,
        })
    }

    /// The loaded kernel, or why it cannot run.
    pub fn kernel(
        &mut self,
        kernel: &SymvKernel,
    ) -> Result<std::result::Result<Rc<LoadedKernel>, String>> {
        Ok(self.loaded(kernel)?.map_err(|i| i.reason))
    }

    fn loaded(
        &mut self,
        kernel: &SymvKernel,
    ) -> Result<std::result::Result<Rc<LoadedKernel>, Invalid>> {
        if !self.kernels.contains_key(kernel) {
            self.prepare_kernels(std::slice::from_ref(kernel))?;
        }
        Ok(self.kernels[kernel].clone())
    }

    fn util_module(&mut self, precision: Precision) -> Result<()> {
        if self.util.contains_key(&precision) {
            return Ok(());
        }
        let options = CompileOptions::with_defines([("PREC", precision.define())]);
        let cached = self.cache.compile(
            &util_source(),
            "symv_util.cu",
            &options,
            &self.target,
            self.nvrtc_version,
        )?;
        let module = Module::load(self.gpu, &cached.module.image, cached.module.kind)?;
        self.util.insert(precision, module);
        Ok(())
    }

    /// Allocates a problem's buffers (reusing the last problem's when it is
    /// the same), with as many copies as the timing options ask for.
    pub fn data(
        &mut self,
        precision: Precision,
        uplo: Uplo,
        n: usize,
        options: &RunOptions,
    ) -> Result<&SymvData> {
        if n == 0 || n > i32::MAX as usize {
            return Err(SymvError::Problem(format!("n = {n} is out of range")));
        }
        let lda = options.lda(n);
        let same =
            |d: &SymvData| d.precision == precision && d.uplo == uplo && d.n == n && d.lda == lda;
        let reuse = self.data.as_ref().is_some_and(same);
        if !reuse {
            if let Some(current) = self.data.take() {
                self.parked.push(current);
            }
            if let Some(i) = self.parked.iter().position(same) {
                self.data = Some(self.parked.remove(i));
                return Ok(self.data.as_ref().expect("set above"));
            }
            let (free, _) = self.gpu.memory_info()?;
            let budget = PARKED_BYTES.min(free / 4);
            while self.parked.len() > PARKED_PROBLEMS
                || self.parked.iter().map(SymvData::bytes).sum::<usize>() > budget
            {
                self.parked.remove(0);
            }
            let elem = precision.size();
            let footprint = (lda * n + 2 * n) * elem;
            let (free, _) = self.gpu.memory_info()?;
            let copies = options
                .timing
                .copies_for(footprint, self.gpu.props().l2_cache_bytes, free)
                as usize;
            let alloc = |len: usize| DeviceBuffer::alloc(self.gpu, len * elem);
            let mut data = SymvData {
                precision,
                uplo,
                n,
                lda,
                a: Vec::new(),
                x: Vec::new(),
                y: Vec::new(),
                sync: DeviceBuffer::alloc(self.gpu, 4 * sync_words(n))?,
            };
            for _ in 0..copies {
                data.a.push(alloc(lda * n)?);
                data.x.push(alloc(n)?);
                data.y.push(alloc(n)?);
            }
            data.sync.fill_async(self.gpu, 0)?;
            self.data = Some(data);
            self.fill_all(false)?;
        }
        Ok(self.data.as_ref().expect("set above"))
    }

    /// Fills every copy of the current problem with a random matrix (the
    /// stored triangle only, or the full symmetric matrix for GEMV) and random
    /// vectors.
    pub fn fill_all(&mut self, full: bool) -> Result<()> {
        let (precision, copies) = match &self.data {
            Some(d) => (d.precision, d.copies()),
            None => return Ok(()),
        };
        self.util_module(precision)?;
        for c in 0..copies {
            let seed = self.rng.gen();
            self.fill_matrix(c, seed, full)?;
            let d = self.data.as_ref().expect("checked");
            let x = random_vector(&mut self.rng, precision, d.n);
            let y = random_vector(&mut self.rng, precision, d.n);
            d.x[c].upload(self.gpu, &precision.to_bytes(&x))?;
            d.y[c].upload(self.gpu, &precision.to_bytes(&y))?;
        }
        self.gpu.synchronize()?;
        Ok(())
    }

    fn fill_matrix(&mut self, copy: usize, seed: u64, full: bool) -> Result<()> {
        let d = self.data.as_ref().expect("a problem is allocated");
        self.util_module(d.precision)?;
        let d = self.data.as_ref().expect("a problem is allocated");
        let f = self.util[&d.precision].function("symv_fill")?;
        let dims = fill_launch(d.n, d.lda)?;
        // SAFETY: the buffer holds lda x n elements of the precision.
        unsafe {
            f.launch(
                self.gpu,
                &dims,
                &[
                    KernelArg::Ptr(d.a[copy].ptr()),
                    KernelArg::I32(d.n as i32),
                    KernelArg::I64(d.lda as i64),
                    KernelArg::U64(seed),
                    KernelArg::I32(d.uplo.define() as i32),
                    KernelArg::I32(i32::from(full)),
                ],
            )?;
        }
        Ok(())
    }

    /// Checks any SYMV implementation against the CPU reference on a fresh
    /// problem in copy 0 of the current buffers. `run(alpha, beta)` must
    /// enqueue y = alpha A x + beta y on copy 0 (on any stream); `full` fills
    /// the whole symmetric matrix (for GEMV).
    pub fn check_with(
        &mut self,
        full: bool,
        mut run: impl FnMut(&SymvData, f64, f64) -> Result<()>,
    ) -> Result<CheckReport> {
        let (precision, n) = {
            let d = self
                .data
                .as_ref()
                .ok_or_else(|| SymvError::Problem("no problem allocated".into()))?;
            (d.precision, d.n)
        };
        let seed: u64 = self.rng.gen();
        self.fill_matrix(0, seed, full)?;
        let x = random_vector(&mut self.rng, precision, n);
        let y0 = random_vector(&mut self.rng, precision, n);
        let sign = |r: &mut StdRng| if r.gen_bool(0.5) { 1.0 } else { -1.0 };
        let alpha = round_to(
            precision,
            sign(&mut self.rng) * self.rng.gen_range(0.5..2.0),
        );
        let beta = round_to(
            precision,
            sign(&mut self.rng) * self.rng.gen_range(0.5..2.0),
        );
        let d = self.data.as_ref().expect("checked");
        d.x[0].upload(self.gpu, &precision.to_bytes(&x))?;
        // The reference runs on the CPU while nothing else waits for it.
        let product = hash_product(precision, seed, &x);

        d.y[0].fill_async(self.gpu, hone_gpu::host::POISON_BYTE)?;
        self.gpu.synchronize()?;
        run(d, alpha, 0.0)?;
        let got = self.download_y(d)?;
        let zero_beta = compare(precision, &got, &product, alpha, 0.0, None);

        d.y[0].upload(self.gpu, &precision.to_bytes(&y0))?;
        run(d, alpha, beta)?;
        let got = self.download_y(d)?;
        let with_beta = compare(precision, &got, &product, alpha, beta, Some(&y0));
        Ok(CheckReport {
            seed,
            alpha,
            beta,
            zero_beta,
            with_beta,
        })
    }

    fn download_y(&self, d: &SymvData) -> Result<Vec<f64>> {
        super::cublas::synchronize_device()?;
        self.gpu.synchronize()?;
        let mut bytes = vec![0u8; d.n * d.precision.size()];
        d.y[0].download(self.gpu, &mut bytes)?;
        Ok(d.precision.from_bytes(&bytes))
    }

    /// Checks (when asked) and times `kernel` on the current buffers.
    pub fn measure(&mut self, kernel: &SymvKernel, options: &RunOptions) -> Result<SymvOutcome> {
        let loaded = match self.loaded(kernel)? {
            Ok(l) => l,
            Err(invalid) => return Ok(invalid.into()),
        };
        let Some(d) = self.data.as_ref() else {
            return Err(SymvError::Problem("no problem allocated".into()));
        };
        if (d.precision, d.uplo) != (kernel.precision, kernel.uplo) {
            return Err(SymvError::Problem(format!(
                "the buffers hold a {} {} problem, the kernel is {} {}",
                d.precision, d.uplo, kernel.precision, kernel.uplo
            )));
        }
        let (gpu, limits) = (self.gpu, self.limits);
        if let Err(reason) = prepared(gpu, &limits, &loaded, d) {
            return Ok(Invalid::runtime(reason).into());
        }
        // A kernel that went wrong before may have left its counters and
        // mutexes set; every measurement starts from zeroed words.
        d.sync.fill_async(gpu, 0)?;

        let check = if options.check {
            let report = self.check_with(false, |d, alpha, beta| {
                let p = prepared(gpu, &limits, &loaded, d).map_err(SymvError::Config)?;
                // SAFETY: copy 0 of the problem's buffers.
                unsafe { p.enqueue(gpu, d.operands(0), alpha, beta) }
            });
            match report {
                Ok(r) if r.passed() => Some(r),
                Ok(r) => {
                    return Ok(
                        Invalid::wrong_answer(format!("wrong result: {}", r.describe())).into(),
                    )
                }
                Err(e) => return launch_failure(e),
            }
        } else {
            None
        };

        let d = self.data.as_ref().expect("checked");
        let prep = match prepared(gpu, &limits, &loaded, d) {
            Ok(p) => p,
            Err(reason) => return Ok(Invalid::runtime(reason).into()),
        };
        let mut flusher = options.timing.flush_l2.then_some(&mut self.flusher);
        let mut times = Vec::new();
        for _ in 0..options.timed_runs.max(1) {
            let samples = time_runs(
                gpu,
                &options.timing,
                d.copies() as u32,
                flusher.as_deref_mut(),
                |c| {
                    // SAFETY: copy c of the problem's buffers.
                    unsafe { prep.enqueue(gpu, d.operands(c), options.alpha, options.beta) }
                        .map_err(|e| match e {
                            SymvError::Gpu(g) => g,
                            other => GpuError::Launch(other.to_string()),
                        })
                },
            );
            match samples {
                Ok(s) => times
                    .push(Stats::from_samples(&s).ok_or_else(|| {
                        SymvError::Problem("timings were not finite".to_string())
                    })?),
                Err(e) => return launch_failure(SymvError::Gpu(e)),
            }
        }
        let median_ms = times[0].median;
        Ok(SymvOutcome::Valid(Box::new(SymvMeasurement {
            kernel: kernel.clone(),
            n: d.n,
            lda: d.lda,
            check,
            median_ms,
            gbps: gbps(symv_bytes(d.n, d.precision.size()), median_ms),
            times,
            registers: loaded.info.registers,
            local_bytes: loaded.info.local_bytes,
            launch: prep.main_dims,
        })))
    }

    /// The current problem's buffers.
    pub fn data_ref(&self) -> Option<&SymvData> {
        self.data.as_ref()
    }

    /// Enqueues y = alpha A x + beta y with `kernel` on buffers the caller
    /// owns, on the GPU's stream, and returns without waiting (a kernel
    /// fault surfaces at the next [`Gpu::synchronize`]). The kernel is
    /// compiled and loaded on first use. A is `kernel.uplo`'s triangle of an
    /// n x n symmetric matrix, column-major with leading dimension `lda`; the
    /// other triangle is never read, and neither are A and x when alpha = 0.
    ///
    /// The atomic kernels synchronise their blocks through words in device
    /// memory that each launch leaves zeroed (the last block out resets the
    /// counters, every mutex is released): one runner-owned set serves every
    /// launch, as launches on one stream run in order.
    ///
    /// # Safety
    /// `a` must point to `lda * n` elements of `kernel.precision` (at least
    /// every element of the stored triangle), `x` and `y` to n each, all
    /// allocated in this GPU's context and alive until the launch completes;
    /// `y` must not overlap `a` or `x`. (Pointers not aligned to the
    /// kernel's load width, `VEC` elements, are refused with an error.)
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn enqueue(
        &mut self,
        kernel: &SymvKernel,
        n: usize,
        alpha: f64,
        a: u64,
        lda: usize,
        x: u64,
        beta: f64,
        y: u64,
    ) -> Result<()> {
        if n == 0 || n > i32::MAX as usize {
            return Err(SymvError::Problem(format!(
                "n = {n} is out of range (1 to {})",
                i32::MAX
            )));
        }
        if lda < n {
            return Err(SymvError::Problem(format!(
                "lda = {lda} is smaller than n = {n}"
            )));
        }
        if a == 0 || x == 0 || y == 0 {
            return Err(SymvError::Problem("a null device pointer".to_string()));
        }
        // Wide loads (and float2/float4 atomics on y) fault on a pointer that
        // is not aligned to their width, which would poison the context.
        let width = kernel.config.get("VEC").copied().unwrap_or(1).max(1) as u64
            * kernel.precision.size() as u64;
        if let Some((name, p)) = [("a", a), ("x", x), ("y", y)]
            .into_iter()
            .find(|(_, p)| p % width != 0)
        {
            return Err(SymvError::Problem(format!(
                "{name} = {p:#x} is not aligned to {width} bytes, which {} needs",
                kernel.label()
            )));
        }
        let loaded = self
            .kernel(kernel)?
            .map_err(|reason| SymvError::Config(format!("{}: {reason}", kernel.label())))?;
        let words = sync_words(n);
        if self
            .workspace
            .as_ref()
            .is_none_or(|w| w.sync.bytes() < 4 * words)
        {
            if self.workspace.is_some() {
                // Launches in flight may still use the words being replaced.
                self.gpu.synchronize()?;
            }
            let sync = DeviceBuffer::alloc(self.gpu, 4 * words)?;
            sync.fill_async(self.gpu, 0)?;
            self.workspace = Some(SymvData {
                precision: kernel.precision,
                uplo: kernel.uplo,
                n,
                lda,
                a: Vec::new(),
                x: Vec::new(),
                y: Vec::new(),
                sync,
            });
        }
        let ws = self.workspace.as_mut().expect("allocated above");
        ws.precision = kernel.precision;
        ws.uplo = kernel.uplo;
        ws.n = n;
        ws.lda = lda;
        let ws = &*ws;
        let prep = prepared(self.gpu, &self.limits, &loaded, ws).map_err(|reason| {
            SymvError::Problem(format!(
                "{} cannot run at n = {n}, lda = {lda}: {reason}",
                kernel.label()
            ))
        })?;
        let ops = Operands {
            a,
            x,
            y,
            sync: ws.sync.ptr(),
        };
        // SAFETY: the caller vouches for a, x and y; the sync words hold
        // sync_words(n) zeroed ints.
        unsafe { prep.enqueue(self.gpu, ops, alpha, beta) }
    }
}

/// Resolves and prepares `loaded`'s functions for the problem in `d`; the
/// reason it cannot launch otherwise.
fn prepared<'k>(
    gpu: &Gpu,
    limits: &DeviceLimits,
    loaded: &'k LoadedKernel,
    d: &SymvData,
) -> std::result::Result<Prepared<'k>, String> {
    let k = &loaded.kernel;
    let main_dims = match k.algorithm {
        Algorithm::Atomic => {
            let vec = k.config.get("VEC").copied().unwrap_or(1) as usize;
            if !d.lda.is_multiple_of(vec) {
                return Err(format!(
                    "VEC={vec} needs lda ({}) divisible by {vec}",
                    d.lda
                ));
            }
            atomic_launch(k.uplo, &k.config, loaded.shared_need, d.n, limits)
        }
        Algorithm::LowerUpper => lu_launch(&k.config, d.n),
    }
    .map_err(|e| e.to_string())?;
    let main = loaded
        .module
        .function(loaded.entry)
        .map_err(|e| e.to_string())?;
    main.prepare(gpu, &main_dims).map_err(|e| e.to_string())?;
    let scale = loaded
        .module
        .function("symv_scale")
        .map_err(|e| e.to_string())?;
    Ok(Prepared {
        precision: d.precision,
        algorithm: k.algorithm,
        n: d.n,
        lda: d.lda,
        main,
        main_dims,
        scale,
        scale_dims: scale_launch(d.n),
    })
}

/// Turns an error of a launch into the variant's invalid outcome, unless the
/// device itself is gone or poisoned.
fn launch_failure(e: SymvError) -> Result<SymvOutcome> {
    match e {
        SymvError::Gpu(g) if g.is_sticky() || matches!(g, GpuError::NoDevice(_)) => {
            Err(SymvError::Gpu(g))
        }
        other => Ok(Invalid::runtime(other.to_string()).into()),
    }
}

/// What NVRTC compiles for one kernel: the runner and the tuner's
/// compile-ahead pool build it the same way, so the pool's modules are the
/// runner's cache hits.
pub(crate) struct CompileJob {
    pub source: String,
    pub name: String,
    pub options: CompileOptions,
}

/// The compile job of `kernel`, or why it cannot be compiled (a parameter
/// outside its template, a violated constraint).
pub(crate) fn compile_job(
    kernel: &SymvKernel,
    limits: &DeviceLimits,
    vector_atomics: bool,
) -> std::result::Result<CompileJob, Invalid> {
    let t = symv_template(kernel.precision, kernel.uplo, kernel.algorithm);
    let refused = |e: SymvError| Invalid::constraint(e.to_string());
    t.validate(&kernel.config).map_err(refused)?;
    let violated = t.violations(&kernel.config, limits).map_err(refused)?;
    if !violated.is_empty() {
        return Err(Invalid::constraint(format!(
            "violates {}",
            violated.join("; ")
        )));
    }
    let defines = t.defines(&kernel.config, vector_atomics).map_err(refused)?;
    Ok(CompileJob {
        source: t.source,
        name: format!("{}.cu", t.entry),
        options: CompileOptions {
            defines,
            ..Default::default()
        },
    })
}

/// Compiles one job through the cache.
pub(crate) fn compile_cached(
    cache: &ModuleCache,
    target: &Target,
    nvrtc_version: (u32, u32),
    job: &CompileJob,
) -> std::result::Result<hone_gpu::cache::CachedModule, Invalid> {
    cache
        .compile(&job.source, &job.name, &job.options, target, nvrtc_version)
        .map_err(|e| match e {
            GpuError::Compile { message, log } => Invalid::compile(format!(
                "compile error ({message}): {}",
                first_lines(&log, 6)
            )),
            other => Invalid::runtime(other.to_string()),
        })
}

/// Compiles SYMV kernels through `cache`, timing each: what the runner's
/// and the tuner's compile-ahead pools run, so that one's modules are the
/// other's cache hits.
pub(crate) fn compiler(
    limits: DeviceLimits,
    vector_atomics: bool,
    cache: ModuleCache,
    target: Target,
    nvrtc_version: (u32, u32),
) -> impl Fn(&SymvKernel) -> Compiled<(CachedModule, f64)> + Send + Sync + 'static {
    move |kernel: &SymvKernel| {
        let start = Instant::now();
        let compiled = compile_job(kernel, &limits, vector_atomics)
            .and_then(|job| compile_cached(&cache, &target, nvrtc_version, &job));
        Compiled {
            cache_hit: compiled.as_ref().ok().map(|m| m.hit),
            result: compiled.map(|m| (m, start.elapsed().as_secs_f64() * 1e3)),
        }
    }
}

fn first_lines(s: &str, n: usize) -> String {
    s.lines().take(n).collect::<Vec<_>>().join(" | ")
}

/// Whether NVRTC accepts float2/float4 atomicAdd for the target (sm_90 and
/// CUDA 12.1 or newer).
pub fn probe_vector_atomics(target: &Target) -> bool {
    const PROBE: &str = "extern \"C\" __global__ void probe(float4* p, float2* q) {\n\
                         atomicAdd(p, make_float4(1.f, 2.f, 3.f, 4.f));\n\
                         atomicAdd(q, make_float2(1.f, 2.f));\n}\n";
    target.arch >= 90
        && nvrtc::compile(PROBE, "probe.cu", &CompileOptions::default(), target).is_ok()
}

/// n values uniform in [-1, 1), rounded to the precision.
fn random_vector(rng: &mut StdRng, precision: Precision, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| round_to(precision, rng.gen_range(-1.0..1.0)))
        .collect()
}

/// Checks and times one kernel at size n: the tuner's evaluation of a
/// (configuration, size) pair. `Err` only when the device is unusable (none,
/// or a fault that poisoned the context); everything wrong with the variant
/// is [`SymvOutcome::Invalid`].
pub fn run_symv(
    runner: &mut SymvRunner<'_>,
    kernel: &SymvKernel,
    n: usize,
    options: &RunOptions,
) -> Result<SymvOutcome> {
    runner.data(kernel.precision, kernel.uplo, n, options)?;
    runner.measure(kernel, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_bytes_round_trip_in_both_precisions() {
        let v = vec![1.5, -0.25, 3.0e-5];
        assert_eq!(
            Precision::Double.from_bytes(&Precision::Double.to_bytes(&v)),
            v
        );
        let s = Precision::Single.from_bytes(&Precision::Single.to_bytes(&v));
        assert_eq!(s.len(), 3);
        assert_eq!(s[0], 1.5);
        assert_eq!(s[2], 3.0e-5f32 as f64);
        assert_eq!(Precision::Single.to_bytes(&v).len(), 12);
    }

    #[test]
    fn sync_words_hold_the_counters_and_every_mutex() {
        // The mutex of the segment that holds row n - 1 for the smallest
        // BLOCK_SIZE (32) sits after the four counters.
        for n in 1..300 {
            assert!(4 + (n - 1) / 32 < sync_words(n), "n={n}");
        }
    }

    #[test]
    fn leading_dimension_is_rounded_up() {
        let o = RunOptions::default();
        assert_eq!(o.lda(1000), 1024);
        assert_eq!(o.lda(1024), 1024);
        assert_eq!(
            RunOptions {
                lda_multiple: 1,
                ..o
            }
            .lda(1001),
            1001
        );
    }

    #[test]
    fn runner_without_a_device_is_an_error_not_a_panic() {
        match Gpu::open(0) {
            Ok(_) => {}
            Err(e) => assert!(matches!(e, GpuError::NoDevice(_)), "{e:?}"),
        }
    }
}
