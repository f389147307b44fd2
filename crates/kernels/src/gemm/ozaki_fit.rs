//! The number of moduli an emulated product needs, measured from its
//! inputs: `moduli=fit` of the INT8 emulations ([`super::ozaki`]).
//!
//! A fixed number of moduli bounds each entry's error against the norms
//! of its row of op(A) and column of op(B). Entries that are small against
//! those norms (inputs whose exponents spread widely, so that large
//! elements of one operand meet small ones of the other) lose relative
//! accuracy. The fit bounds the error of every entry against
//! (|op(A)| |op(B)|)_ij instead, the quantity FP64 GEMM's own error is
//! measured by, and takes the fewest moduli for which
//!
//! |error_ij| <= sqrt(k) u (|op(A)| |op(B)|)_ij
//!
//! holds for every entry (u = 2^-53, or 2^-104 for double-double), besides
//! the rounding of the result itself. Where no count up to 34 reaches it,
//! the product is refused with the target it would need; it is never
//! computed with too few.
//!
//! Why the bound holds: a row scaled by 2^s and rounded moves each element
//! by at most one half, so the error of entry (i, j) is at most
//! (2^-t ||a_i||_1 + 2^-s ||b_j||_1) / 2 + k 2^-(s+t) / 4; the shifts make
//! 2^-s < 2 ||a_i||_2 / T (T the target of the count), so it is below
//! P_ij (|A| |B|)_ij (1 / T + k / (2 T^2)) with
//! P_ij = (||a_i||_1 ||b_j||_2 + ||a_i||_2 ||b_j||_1) / (|A| |B|)_ij.
//! The GPU measures the largest P_ij: the norms in FP64, and a lower bound
//! of |A| |B| from one BF16 tensor-core product of the magnitudes, each
//! scaled so that its row's or column's largest is just below 2^50, and
//! rounded toward zero (the FP32 sums of non-negative terms, at most
//! k 2^100, err by less than (k + 8) 2^-22 of themselves). Non-zero
//! magnitudes below 2^-63 are raised to 2^-63, so that a product of two
//! non-zero elements never vanishes in FP32: a zero in the lower bound
//! means that no pair of non-zero elements meets, and the emulation
//! computes that entry exactly. The raise adds less than k 2^-12 to a sum
//! whose terms reach 2^100, which is taken off again.

use std::collections::HashMap;

use cudarc::cublas::sys as cb;
use hone_gpu::launch::{DeviceBuffer, KernelArg, LaunchDims, Module};
use hone_gpu::{nvrtc, CompileOptions, Gpu, ModuleCache};

use super::dd::Dd;
use super::ozaki::{
    cdiv, per_row, source, statistics, tiles, Crt, Operand, OzakiGemm, Stats, MAX_K, MODULI,
    STAT_CHUNK,
};
use super::{Flavor, GemmProblem};
use crate::routine::{LibError, Result};
use crate::vendor::cublas::{status, Cublas};

/// Relative slack on the measured norms and ratio: their FP64 sums of at
/// most 2^17 terms err by far less.
const SLACK: f64 = 1.0 / 1048576.0;

/// The error bound's factor for target `t` at inner dimension `k`:
/// |error_ij| < ratio (|A| |B|)_ij (1 / t + k / (2 t^2)).
fn factor(t: f64, k: usize) -> f64 {
    1.0 / t + k as f64 / (2.0 * t * t)
}

/// The fewest moduli (at most `max`) that bound every entry's error by
/// sqrt(k) `unit` (|op(A)| |op(B)|)_ij, for inputs whose largest P_ij is
/// `ratio`; `None` when `max` moduli do not (or the ratio is infinite).
pub fn fewest_for(k: usize, unit: f64, ratio: f64, max: usize) -> Option<usize> {
    if !ratio.is_finite() {
        return None;
    }
    let goal = (k as f64).sqrt() * unit;
    (1..=max.min(MODULI.len())).find(|&l| {
        Crt::new(l)
            .ok()
            .and_then(|c| c.target(k).ok())
            .is_some_and(|t| ratio * (1.0 + SLACK) * factor(t, k) <= goal)
    })
}

/// The target (2-norm of a scaled row) that inputs of `ratio` need, as a
/// power of two, for messages.
pub fn needed_log2_target(k: usize, unit: f64, ratio: f64) -> f64 {
    (ratio / ((k as f64).sqrt() * unit)).log2()
}

/// The largest P_ij of op(A) (m x k) and op(B) (k x n), given row-major
/// as closures, computed exactly enough on the CPU (for tests). Zero rows
/// or columns, rows holding a NaN or an infinity, and entries of |A| |B|
/// that are zero do not count.
pub fn ratio_cpu(
    m: usize,
    n: usize,
    k: usize,
    a: impl Fn(usize, usize) -> f64,
    b: impl Fn(usize, usize) -> f64,
) -> f64 {
    let norms = |x: Vec<f64>| {
        let amax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if !amax.is_finite() || x.iter().any(|v| v.is_nan()) || amax == 0.0 {
            return None;
        }
        let l1: f64 = x.iter().map(|v| v.abs() / amax).sum();
        let l2: f64 = x.iter().map(|v| (v / amax).powi(2)).sum::<f64>().sqrt();
        Some((l1, l2, amax))
    };
    let ra: Vec<_> = (0..m)
        .map(|i| norms((0..k).map(|q| a(i, q)).collect()))
        .collect();
    let cb: Vec<_> = (0..n)
        .map(|j| norms((0..k).map(|q| b(q, j)).collect()))
        .collect();
    let mut worst = 0.0f64;
    for (i, ra) in ra.iter().enumerate() {
        for (j, cb) in cb.iter().enumerate() {
            let (Some((a1, a2, am)), Some((b1, b2, bm))) = (ra, cb) else {
                continue;
            };
            let abs: f64 = (0..k).map(|q| (a(i, q) / am * b(q, j) / bm).abs()).sum();
            // A pair of non-zero elements whose scaled product underflows
            // leaves the entry unbounded, as on the GPU.
            let meets = (0..k).any(|q| a(i, q) != 0.0 && b(q, j) != 0.0);
            if abs > 0.0 {
                worst = worst.max((a1 * b2 + a2 * b1) / abs);
            } else if meets {
                worst = f64::INFINITY;
            }
        }
    }
    worst
}

const FIT_KERNELS: &str = r#"
// sum over the chunks of the statistics' partial sums of row r: its 2-norm
// (root) or 1-norm, in units of 2^e (e the exponent of the row's largest).
extern "C" __global__ void ozaki_fit_norm(const double* partial, int rows, int chunks, int root,
                                          double* out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  double sum = 0.0;
  for (int c = 0; c < chunks; ++c) sum += partial[(size_t)c * rows + r];
  out[r] = root ? sqrt(sum) : sum;
}

// out[r][q] (q contiguous, padded to Rp x Kp with zeros) = the BF16 bits of
// |op(X)(r, q)| 2^(50 - e) rounded toward zero, e the exponent of the row's
// largest; non-zero magnitudes below 2^-63 become 2^-63 (bits 0x2000), rows
// holding an infinity or a NaN become zero.
extern "C" __global__ void __launch_bounds__(256) ozaki_fit_magnitudes(
    const double* X, int ld, int rows, int inner, int contig, const unsigned long long* amax,
    unsigned short* out, int Kp, int Rp) {
  __shared__ unsigned short tile[32][33];
  const int r0 = blockIdx.x * 32, q0 = blockIdx.y * 32;
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int y = ty; y < 32; y += 8) {
    int r = contig ? r0 + y : r0 + tx;
    int q = contig ? q0 + tx : q0 + y;
    unsigned short bits = 0;
    if (r < rows && q < inner) {
      const double a = __longlong_as_double((long long)amax[r]);
      if (isfinite(a) && a != 0.0) {
        int e;
        frexp(a, &e);
        // Raised by whether x is zero, not v: v underflows for elements
        // over 2^1100 below their row's largest.
        const double x = fabs(ozaki_at(X, ld, r, q, contig));
        const double v = ldexp(x, 50 - e);
        bits = (unsigned short)(__float_as_uint(__double2float_rz(v)) >> 16);
        if (x > 0.0 && bits < 0x2000) bits = 0x2000;
      }
    }
    if (contig) tile[y][tx] = bits;
    else tile[tx][y] = bits;
  }
  __syncthreads();
  for (int y = ty; y < 32; y += 8) {
    int r = r0 + y, q = q0 + tx;
    if (r < Rp && q < Kp) out[(size_t)r * Kp + q] = tile[y][tx];
  }
}

// The largest P_ij = (a1_i b2_j + a2_i b1_j) / lower bound of (|A||B|)_ij
// over the m x n entries, into *worst (atomicMax on the bits of a
// non-negative double). S is the BF16 product (FP32, column-major, Mp
// rows) in units of 2^-100 of the norms'; entries whose row or column is
// zero or not finite, or whose S is zero, do not count.
extern "C" __global__ void __launch_bounds__(256) ozaki_fit_ratio(
    const float* S, int Mp, int M, int N, int K, const double* a1, const double* a2,
    const double* b1, const double* b2, unsigned long long* worst) {
  __shared__ double red[8];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double w = 0.0;
  if (i < M) {
    const double x1 = a1[i], x2 = a2[i];
    const bool row = x1 > 0.0 && x1 <= 1e300;
    for (int j = blockIdx.y; row && j < N; j += gridDim.y) {
      const double y1 = b1[j], y2 = b2[j];
      if (!(y1 > 0.0 && y1 <= 1e300)) continue;
      const double s = S[(size_t)j * Mp + i];
      if (s == 0.0) continue;
      const double lower = s * (1.0 - (K + 8.0) * 0x1p-22) - K * 0x1p-12;
      const double p = lower > 0.0 ? (x1 * y2 + x2 * y1) * 0x1p100 / lower
                                   : __longlong_as_double(0x7ff0000000000000ll);
      w = p > w ? p : w;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    const double v = __shfl_xor_sync(0xffffffffu, w, o);
    w = v > w ? v : w;
  }
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = w;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 1; k < 8; ++k) w = red[k] > w ? red[k] : w;
    atomicMax(worst, (unsigned long long)__double_as_longlong(w));
  }
}
"#;

/// The CUDA of the fit: the statistics kernel of the emulation and the
/// fit's own, for FP64 or (`dd`) double-double inputs.
pub fn fit_source(dd: bool) -> String {
    let crt = Crt::new(1).expect("one modulus");
    format!("{}{FIT_KERNELS}", source(&crt, dd))
}

/// Scratch of one padded shape.
struct FitWorkspace {
    key: (usize, usize, usize),
    /// The statistics of op(A) and op(B), which the emulation reuses.
    amax: [DeviceBuffer; 2],
    partial: [DeviceBuffer; 2],
    l1: DeviceBuffer,
    /// 1- and 2-norms of the rows of op(A) and columns of op(B).
    norms: [DeviceBuffer; 4],
    a16: DeviceBuffer,
    b16: DeviceBuffer,
    s32: DeviceBuffer,
    worst: DeviceBuffer,
}

/// Measures the largest P_ij of a product's inputs on the GPU.
pub struct OzakiFit<'g> {
    gpu: &'g Gpu,
    dd: bool,
    module: Module,
    cublas: Cublas,
    work: Option<FitWorkspace>,
}

impl<'g> OzakiFit<'g> {
    /// For FP64 inputs, or (`dd`) double-double ones (their high words).
    pub fn new(gpu: &'g Gpu, dd: bool) -> Result<OzakiFit<'g>> {
        let text = fit_source(dd);
        let target = nvrtc::target_for(gpu.props().compute_capability)?;
        let cached = ModuleCache::open_default().compile(
            &text,
            "ozaki_fit.cu",
            &CompileOptions::default(),
            &target,
            nvrtc::version()?,
        )?;
        let module = Module::load(gpu, &cached.module.image, cached.module.kind)?;
        Ok(OzakiFit {
            gpu,
            dd,
            module,
            cublas: Cublas::on_stream_of(gpu)?,
            work: None,
        })
    }

    /// Device bytes of the scratch for `p`.
    pub fn workspace_bytes(p: &GemmProblem) -> usize {
        let (mp, np, kp) = OzakiGemm::padded(p);
        let rows = mp.max(np);
        8 * (mp + np) * (1 + cdiv(kp, STAT_CHUNK))
            + 8 * rows * cdiv(kp, STAT_CHUNK)
            + 16 * (mp + np)
            + 2 * kp * (mp + np)
            + 4 * mp * np
    }

    fn workspace(&mut self, p: &GemmProblem) -> Result<()> {
        let (mp, np, kp) = OzakiGemm::padded(p);
        if self.work.as_ref().is_some_and(|w| w.key == (mp, np, kp)) {
            return Ok(());
        }
        self.work = None;
        let need = OzakiFit::workspace_bytes(p);
        let (free, _) = self.gpu.memory_info()?;
        if need > free {
            return Err(LibError::Usage(format!(
                "{p}: fitting the moduli needs {need} bytes of device scratch, {free} are free"
            )));
        }
        let rows = mp.max(np);
        let alloc = |bytes: usize| DeviceBuffer::alloc(self.gpu, bytes.max(8));
        self.work = Some(FitWorkspace {
            key: (mp, np, kp),
            amax: [alloc(8 * mp)?, alloc(8 * np)?],
            partial: [
                alloc(8 * mp * cdiv(kp, STAT_CHUNK))?,
                alloc(8 * np * cdiv(kp, STAT_CHUNK))?,
            ],
            l1: alloc(8 * rows * cdiv(kp, STAT_CHUNK))?,
            norms: [
                alloc(8 * mp)?,
                alloc(8 * mp)?,
                alloc(8 * np)?,
                alloc(8 * np)?,
            ],
            a16: alloc(2 * kp * mp)?,
            b16: alloc(2 * kp * np)?,
            s32: alloc(4 * mp * np)?,
            worst: alloc(8)?,
        });
        Ok(())
    }

    /// The largest P_ij of `p`'s stored matrices `a` and `b` (see the
    /// module's comment); 0 when no entry counts. Waits for the GPU.
    ///
    /// # Safety
    /// `a` and `b` must hold `p`'s stored matrices on this GPU.
    pub unsafe fn ratio(&mut self, p: &GemmProblem, a: u64, b: u64) -> Result<f64> {
        p.validate().map_err(LibError::Usage)?;
        let want = if self.dd {
            Flavor::Ddgemm
        } else {
            Flavor::Dgemm
        };
        if p.flavor != want || p.k > MAX_K {
            return Err(LibError::Usage(format!(
                "{p}: the fit takes {want:?} problems with k <= {MAX_K}"
            )));
        }
        self.workspace(p)?;
        let w = self.work.as_ref().expect("just made");
        let (mp, np, kp) = OzakiGemm::padded(p);
        let gpu = self.gpu;
        let norm = self.module.function("ozaki_fit_norm")?;
        let chunks = cdiv(p.k, STAT_CHUNK);
        let [op_a, op_b] = Operand::pair(p, a, b);
        for (side, x, out, rp) in [(0, op_a, &w.a16, mp), (1, op_b, &w.b16, np)] {
            let st = Stats {
                amax: &w.amax[side],
                partial: &w.partial[side],
                l1: Some(&w.l1),
            };
            // SAFETY: the statistics buffers hold `rows` maxima and `rows`
            // x `chunks` partial sums.
            unsafe { statistics(&self.module, gpu, x, p.k, st) }?;
            // The 1- and 2-norms of op(A)'s rows, then of op(B)'s columns.
            for (root, sums) in [(0, &w.l1), (1, &w.partial[side])] {
                let args = [
                    KernelArg::Ptr(sums.ptr()),
                    KernelArg::I32(x.rows as i32),
                    KernelArg::I32(chunks as i32),
                    KernelArg::I32(root),
                    KernelArg::Ptr(w.norms[2 * side + root as usize].ptr()),
                ];
                // SAFETY: reads the partial sums, writes `rows` norms.
                unsafe { norm.launch(gpu, &per_row(x.rows), &args) }?;
            }
            // SAFETY: writes rp x kp BF16 values, the buffer's size.
            unsafe {
                tiles(
                    &self.module,
                    gpu,
                    "ozaki_fit_magnitudes",
                    x,
                    p.k,
                    w.amax[side].ptr(),
                    out.ptr(),
                    kp,
                    rp,
                )
            }?;
        }
        let (one, zero) = (1.0f32, 0.0f32);
        // SAFETY: the magnitudes are kp x mp and kp x np BF16 values, the
        // product mp x np FP32 values, all on this GPU.
        status("cublasGemmEx", unsafe {
            cb::cublasGemmEx(
                self.cublas.handle(),
                cb::cublasOperation_t::CUBLAS_OP_T,
                cb::cublasOperation_t::CUBLAS_OP_N,
                mp as i32,
                np as i32,
                kp as i32,
                &one as *const f32 as *const _,
                w.a16.ptr() as *const _,
                cb::cudaDataType::CUDA_R_16BF,
                kp as i32,
                w.b16.ptr() as *const _,
                cb::cudaDataType::CUDA_R_16BF,
                kp as i32,
                &zero as *const f32 as *const _,
                w.s32.ptr() as *mut _,
                cb::cudaDataType::CUDA_R_32F,
                mp as i32,
                cb::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                cb::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        })?;
        w.worst.fill_async(gpu, 0)?;
        let dims = LaunchDims {
            grid: (cdiv(p.m, 256) as u32, p.n.min(4096) as u32, 1),
            block: (256, 1, 1),
            shared_mem: 0,
        };
        let args = [
            KernelArg::Ptr(w.s32.ptr()),
            KernelArg::I32(mp as i32),
            KernelArg::I32(p.m as i32),
            KernelArg::I32(p.n as i32),
            KernelArg::I32(p.k as i32),
            KernelArg::Ptr(w.norms[0].ptr()),
            KernelArg::Ptr(w.norms[1].ptr()),
            KernelArg::Ptr(w.norms[2].ptr()),
            KernelArg::Ptr(w.norms[3].ptr()),
            KernelArg::Ptr(w.worst.ptr()),
        ];
        // SAFETY: reads the product and norms above, writes one double.
        unsafe {
            self.module
                .function("ozaki_fit_ratio")?
                .launch(gpu, &dims, &args)
        }?;
        gpu.synchronize()?;
        let mut raw = [0u8; 8];
        w.worst.download(gpu, &mut raw)?;
        Ok(f64::from_le_bytes(raw))
    }
}

/// What the last fitted product took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitted {
    pub moduli: usize,
    /// The inputs' largest P_ij.
    pub ratio: f64,
}

impl Fitted {
    /// The inputs' ratio in words, for labels.
    pub fn describe(&self) -> String {
        if self.ratio > 0.0 {
            format!("inputs' ratio 2^{:.1}", self.ratio.log2())
        } else {
            "no pair of non-zero elements meets".to_string()
        }
    }
}

/// The emulated product with its moduli fitted to each call's inputs.
pub struct FittedGemm<'g> {
    gpu: &'g Gpu,
    dd: bool,
    fit: OzakiFit<'g>,
    by_count: HashMap<usize, OzakiGemm<'g>>,
    last: Option<Fitted>,
}

impl<'g> FittedGemm<'g> {
    /// FP64 (`dd` false) or double-double products.
    pub fn new(gpu: &'g Gpu, dd: bool) -> Result<FittedGemm<'g>> {
        Ok(FittedGemm {
            gpu,
            dd,
            fit: OzakiFit::new(gpu, dd)?,
            by_count: HashMap::new(),
            last: None,
        })
    }

    /// The unit roundoff the fit aims at.
    pub fn unit(dd: bool) -> f64 {
        if dd {
            2f64.powi(-104)
        } else {
            f64::EPSILON / 2.0
        }
    }

    /// What the last product took.
    pub fn last(&self) -> Option<Fitted> {
        self.last
    }

    /// The emulation with `moduli`, built on first use.
    pub fn emulation(&mut self, moduli: usize) -> Result<&mut OzakiGemm<'g>> {
        if !self.by_count.contains_key(&moduli) {
            let e = if self.dd {
                OzakiGemm::new_dd(self.gpu, moduli)?
            } else {
                OzakiGemm::new(self.gpu, moduli)?
            };
            self.by_count.insert(moduli, e);
        }
        Ok(self.by_count.get_mut(&moduli).expect("just made"))
    }

    /// The moduli `p`'s inputs need, or the refusal naming what they would
    /// need. Waits for the GPU.
    ///
    /// # Safety
    /// As [`OzakiFit::ratio`].
    pub unsafe fn choose(&mut self, p: &GemmProblem, a: u64, b: u64) -> Result<Fitted> {
        // SAFETY: as the caller promised.
        let ratio = unsafe { self.fit.ratio(p, a, b) }?;
        let unit = FittedGemm::unit(self.dd);
        let max = MODULI.len();
        match fewest_for(p.k, unit, ratio, max) {
            Some(moduli) => Ok(Fitted { moduli, ratio }),
            None => {
                self.last = None;
                let most = Crt::new(max)
                    .ok()
                    .and_then(|c| c.target(p.k).ok())
                    .map(|t| format!("{:.1}", t.log2()))
                    .unwrap_or_else(|| "-".into());
                Err(LibError::Refused(format!(
                    "{p}: the inputs' exponent range is too wide for the INT8 emulation: bounding \
                     every entry's error by sqrt(k) {unit:e} (|A| |B|)_ij needs scaled rows of \
                     2-norm 2^{:.1}, and {max} moduli give 2^{most}; refused. Use the native \
                     routine, or name a count (moduli={max} bounds each entry's error by about \
                     sqrt(k) {unit:e} ||row of op(A)|| ||column of op(B)|| instead)",
                    needed_log2_target(p.k, unit, ratio)
                )))
            }
        }
    }

    /// Enqueues C = alpha op(A) op(B) + beta C with the moduli the inputs
    /// need (FP64 or, for a double-double product, (hi, lo) pairs, as
    /// [`OzakiGemm::enqueue`] and [`OzakiGemm::enqueue_dd`]); returns the
    /// count. With alpha = 0 nothing is fitted (C = beta C).
    ///
    /// # Safety
    /// `a`, `b`, `c` must hold `p`'s stored matrices on this GPU.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn enqueue(
        &mut self,
        p: &GemmProblem,
        alpha: Dd,
        a: u64,
        b: u64,
        beta: Dd,
        c: u64,
    ) -> Result<usize> {
        let fitted = alpha.hi != 0.0 || alpha.lo != 0.0;
        let moduli = if fitted {
            // SAFETY: as the caller promised.
            let f = unsafe { self.choose(p, a, b) }?;
            self.last = Some(f);
            f.moduli
        } else {
            // C = beta C: any emulation scales C alone; the one in use, or
            // the fewest moduli that bound the errors against the norms.
            let unit = FittedGemm::unit(self.dd);
            match self.by_count.keys().next() {
                Some(&l) => l,
                None => Crt::fewest(p.k.min(MAX_K), unit, MODULI.len()).unwrap_or(MODULI.len()),
            }
        };
        if !self.by_count.contains_key(&moduli) {
            // One count's scratch at a time: inputs that need other counts
            // on later calls do not pile up device memory.
            for e in self.by_count.values_mut() {
                e.release();
            }
            self.emulation(moduli)?;
        }
        let emu = self.by_count.get_mut(&moduli).expect("just made");
        // The fit measured these matrices' statistics: the emulation reuses
        // them.
        let measured = match (&self.fit.work, fitted) {
            (Some(w), true) => Some([0, 1].map(|s| Stats {
                amax: &w.amax[s],
                partial: &w.partial[s],
                l1: None,
            })),
            _ => None,
        };
        // SAFETY: as the caller promised; the statistics are a's and b's
        // for p.
        unsafe { emu.enqueue_flavor(p, alpha, a, b, beta, c, measured) }?;
        Ok(moduli)
    }
}

/// An emulated product: a fixed number of moduli, or fitted per call.
pub enum Emulation<'g> {
    Fixed(OzakiGemm<'g>),
    Fit(FittedGemm<'g>),
}

impl<'g> Emulation<'g> {
    /// FP64 (`dd` false) or double-double products with `moduli` moduli,
    /// or fitted to each call's inputs (`None`).
    pub fn new(gpu: &'g Gpu, dd: bool, moduli: Option<usize>) -> Result<Emulation<'g>> {
        Ok(match (moduli, dd) {
            (Some(l), true) => Emulation::Fixed(OzakiGemm::new_dd(gpu, l)?),
            (Some(l), false) => Emulation::Fixed(OzakiGemm::new(gpu, l)?),
            (None, _) => Emulation::Fit(FittedGemm::new(gpu, dd)?),
        })
    }

    /// Enqueues C = alpha op(A) op(B) + beta C (FP64 products take the high
    /// words of alpha and beta); returns the moduli it took.
    ///
    /// # Safety
    /// `a`, `b`, `c` must hold `p`'s stored matrices on this GPU.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn enqueue(
        &mut self,
        p: &GemmProblem,
        alpha: Dd,
        a: u64,
        b: u64,
        beta: Dd,
        c: u64,
    ) -> Result<usize> {
        // SAFETY: as the caller promised.
        unsafe {
            match self {
                Emulation::Fixed(e) => e
                    .enqueue_flavor(p, alpha, a, b, beta, c, None)
                    .map(|_| e.crt().moduli.len()),
                Emulation::Fit(f) => f.enqueue(p, alpha, a, b, beta, c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::dd;
    use super::super::ozaki::emulate;
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn phi_matrix(rng: &mut StdRng, len: usize, phi: f64) -> Vec<f64> {
        (0..len)
            .map(|_| super::super::dd::phi_entry(rng, phi).hi)
            .collect()
    }

    #[test]
    fn the_fitted_count_bounds_every_entry_against_the_magnitudes() {
        let mut rng = StdRng::seed_from_u64(17);
        let (m, n, k) = (6, 5, 200);
        let unit = f64::EPSILON / 2.0;
        let mut counts = Vec::new();
        for phi in [0.5, 2.0, 3.0] {
            let a = phi_matrix(&mut rng, m * k, phi);
            let b = phi_matrix(&mut rng, k * n, phi);
            let (fa, fb) = (
                |i: usize, q: usize| a[i * k + q],
                |q: usize, j: usize| b[q * n + j],
            );
            let ratio = ratio_cpu(m, n, k, fa, fb);
            let l = fewest_for(k, unit, ratio, MODULI.len()).expect("fits");
            counts.push(l);
            let crt = Crt::new(l).unwrap();
            let c = emulate(&crt, m, n, k, fa, fb).unwrap();
            let mut worst = 0.0f64;
            for j in 0..n {
                for i in 0..m {
                    let pairs = (0..k).map(|q| (Dd::from_f64(fa(i, q)), Dd::from_f64(fb(q, j))));
                    let (exact, abs) = dd::exact_entry(Dd::from_f64(1.0), pairs, Dd::ZERO, None);
                    // Less the rounding of the result to FP64.
                    let err = dd::error(Dd::from_f64(c[i + j * m]), &exact)
                        - unit * dd::to_f64(&exact).abs();
                    worst = worst.max(err / ((k as f64).sqrt() * unit * abs));
                }
            }
            assert!(worst <= 1.0, "phi {phi}, {l} moduli: {worst}");
        }
        // Wider spreads need more moduli.
        assert!(counts[0] < counts[1] && counts[1] < counts[2], "{counts:?}");
        assert!(counts[0] >= 14, "{counts:?}");
    }

    #[test]
    fn inputs_whose_range_is_too_wide_are_refused_and_zeros_are_exact() {
        let k = 2;
        // Large meets small: (|A| |B|) = 2 * 2^-90 against norms near 1.
        let a = |_: usize, q: usize| if q == 0 { 1.0 } else { 2f64.powi(-90) };
        let b = |q: usize, _: usize| if q == 0 { 2f64.powi(-90) } else { 1.0 };
        let ratio = ratio_cpu(1, 1, k, a, b);
        assert!(ratio > 2f64.powi(88), "{ratio:e}");
        assert_eq!(fewest_for(k, f64::EPSILON / 2.0, ratio, MODULI.len()), None);
        assert!(needed_log2_target(k, f64::EPSILON / 2.0, ratio) > 140.0);
        // Elements so far apart that their scaled product underflows are
        // not taken for a zero entry.
        let a = |_: usize, q: usize| if q == 0 { 1e300 } else { 1e-300 };
        let b = |q: usize, _: usize| if q == 0 { 0.0 } else { 1.0 };
        assert_eq!(ratio_cpu(1, 1, k, a, b), f64::INFINITY);
        assert_eq!(fewest_for(k, 1.0, f64::INFINITY, MODULI.len()), None);
        // Disjoint supports and zero rows do not count, and the emulation
        // computes those entries exactly with the fewest moduli.
        let a = |i: usize, q: usize| if q == 0 && i < 2 { 1.5 } else { 0.0 };
        let b = |q: usize, _: usize| if q == 0 { 0.0 } else { 1.0e-200 };
        assert_eq!(ratio_cpu(3, 2, k, a, b), 0.0);
        let l = fewest_for(k, f64::EPSILON / 2.0, 0.0, MODULI.len()).unwrap();
        let c = emulate(&Crt::new(l).unwrap(), 3, 2, k, a, b).unwrap();
        assert!(c.iter().all(|&v| v == 0.0), "{c:?}");
    }
}
