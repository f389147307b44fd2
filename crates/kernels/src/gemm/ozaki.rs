//! DGEMM emulated on the INT8 tensor cores (Ozaki scheme II): the FP64
//! matrices are scaled row by row (A) and column by column (B) to integers
//! of at most `bits` bits, those integers are reduced modulo L pairwise
//! coprime moduli of at most 256 (signed 8-bit residues), the L products of
//! residue matrices are computed exactly by cuBLAS's INT8 GEMM (32-bit
//! sums), and the Chinese remainder theorem gives back the exact integer
//! product, which is scaled back to FP64.
//!
//! The integer product is exact when K 2^(2 bits) < M / 2 (M the product of
//! the moduli), so `bits` follows from L and K ([`Crt::bits`]). What is lost
//! is the truncation of each element to `bits` bits below its row's (or
//! column's) largest: an element 2^-d times its row's largest keeps
//! `bits - d` bits. Inputs whose rows span a wide exponent range therefore
//! lose accuracy in their small elements; the report measures it (the
//! `phi` of the inputs) next to cuBLAS DGEMM on the same inputs. K above
//! [`MAX_K`] is refused (the 32-bit sums could overflow), never computed
//! wrongly.

use std::fmt::Write as _;

use cudarc::cublas::sys as cb;
use hone_gpu::launch::{DeviceBuffer, KernelArg, LaunchDims, Module};
use hone_gpu::{nvrtc, CompileOptions, Gpu, ModuleCache};

use super::{GemmProblem, Op};
use crate::routine::{LibError, Result};
use crate::vendor::cublas::{status, Cublas};

/// Pairwise coprime moduli, largest first.
pub const MODULI: [u32; 16] = [
    256, 255, 253, 251, 247, 239, 233, 229, 227, 223, 217, 211, 199, 197, 193, 191,
];
/// K at most this keeps every 32-bit sum of products of 8-bit residues
/// (each at most 128^2 in magnitude) exact.
pub const MAX_K: usize = (1 << 17) - 1;

/// The Chinese-remainder constants of the first `count` moduli.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crt {
    pub moduli: Vec<u32>,
    /// Their product.
    pub m: u128,
    /// M / m_l.
    pub m_l: Vec<u128>,
    /// (M / m_l)^-1 mod m_l.
    pub y_l: Vec<u32>,
}

fn inverse_mod(a: u128, m: u32) -> u32 {
    let a = (a % m as u128) as i64;
    let (mut t, mut new_t, mut r, mut new_r) = (0i64, 1i64, m as i64, a);
    while new_r != 0 {
        let q = r / new_r;
        (t, new_t) = (new_t, t - q * new_t);
        (r, new_r) = (new_r, r - q * new_r);
    }
    t.rem_euclid(m as i64) as u32
}

impl Crt {
    /// The constants of `count` moduli (1 to 16; 16 keep 2 M below 2^128).
    pub fn new(count: usize) -> std::result::Result<Crt, String> {
        if !(1..=MODULI.len()).contains(&count) {
            return Err(format!(
                "{count} moduli: the emulation takes 1 to {}",
                MODULI.len()
            ));
        }
        let moduli = MODULI[..count].to_vec();
        let m: u128 = moduli.iter().map(|&x| x as u128).product();
        let m_l: Vec<u128> = moduli.iter().map(|&x| m / x as u128).collect();
        let y_l = moduli
            .iter()
            .zip(&m_l)
            .map(|(&x, &ml)| inverse_mod(ml, x))
            .collect();
        Ok(Crt {
            moduli,
            m,
            m_l,
            y_l,
        })
    }

    /// The bits each scaled element keeps for inner dimension `k`: the
    /// largest b with k 2^(2b) < M / 2, so that the integer product is
    /// exact; an error when K is out of range or fewer than one bit is left.
    pub fn bits(&self, k: usize) -> std::result::Result<i32, String> {
        if k == 0 || k > MAX_K {
            return Err(format!(
                "k = {k}: the INT8 emulation takes 1 <= k <= {MAX_K} (its 32-bit sums)"
            ));
        }
        let half = self.m / 2;
        let fits = |b: i32| (k as u128) << (2 * b) < half;
        let mut b = 0;
        while b < 62 && fits(b + 1) {
            b += 1;
        }
        if b < 1 {
            return Err(format!(
                "{} moduli leave no bit per element at k = {k}",
                self.moduli.len()
            ));
        }
        Ok(b)
    }

    /// The integer whose residues are `r` (|x| < M / 2).
    pub fn reconstruct(&self, r: &[i64]) -> i128 {
        let mut acc: u128 = 0;
        for (((&x, &ml), &y), &res) in self.moduli.iter().zip(&self.m_l).zip(&self.y_l).zip(r) {
            let t = (res.rem_euclid(x as i64) as u64 * y as u64) % x as u64;
            acc += t as u128 * ml;
            if acc >= self.m {
                acc -= self.m;
            }
        }
        if acc > self.m / 2 {
            -((self.m - acc) as i128)
        } else {
            acc as i128
        }
    }
}

/// The signed 8-bit residue of v modulo m: in [-m/2, m/2).
pub fn residue(v: i64, m: u32) -> i8 {
    let mut r = v % m as i64;
    if r >= (m as i64 + 1) / 2 {
        r -= m as i64;
    }
    if r < -(m as i64 / 2) {
        r += m as i64;
    }
    r as i8
}

/// The shift 2^s that brings a row whose largest magnitude is `amax` below
/// 2^bits.
pub fn shift(amax: f64, bits: i32) -> i32 {
    if amax == 0.0 || !amax.is_finite() {
        return 0;
    }
    // amax = f 2^e with f in [0.5, 1): amax 2^(bits - e) < 2^bits.
    let e = amax.abs().log2().floor() as i32 + 1;
    bits - e
}

/// x 2^s, truncated toward zero.
pub fn scaled(x: f64, s: i32) -> i64 {
    (x * 2f64.powi(s)).trunc() as i64
}

/// The whole emulation on the CPU, step for step as the GPU does it, for
/// tests: op(A) (m x k) and op(B) (k x n) given row-major as closures.
pub fn emulate(
    crt: &Crt,
    m: usize,
    n: usize,
    k: usize,
    a: impl Fn(usize, usize) -> f64,
    b: impl Fn(usize, usize) -> f64,
) -> std::result::Result<Vec<f64>, String> {
    let bits = crt.bits(k)?;
    let sa: Vec<i32> = (0..m)
        .map(|i| shift((0..k).map(|q| a(i, q).abs()).fold(0.0, f64::max), bits))
        .collect();
    let sb: Vec<i32> = (0..n)
        .map(|j| shift((0..k).map(|q| b(q, j).abs()).fold(0.0, f64::max), bits))
        .collect();
    let ai: Vec<i64> = (0..m * k)
        .map(|e| scaled(a(e / k, e % k), sa[e / k]))
        .collect();
    let bi: Vec<i64> = (0..k * n)
        .map(|e| scaled(b(e % k, e / k), sb[e / k]))
        .collect();
    let mut c = vec![0.0; m * n];
    for j in 0..n {
        for i in 0..m {
            let residues: Vec<i64> = crt
                .moduli
                .iter()
                .map(|&md| {
                    (0..k)
                        .map(|q| {
                            residue(ai[i * k + q], md) as i32 * residue(bi[j * k + q], md) as i32
                        })
                        .sum::<i32>() as i64
                })
                .collect();
            let exact = crt.reconstruct(&residues);
            c[i + j * m] = (exact as f64) * 2f64.powi(-(sa[i] + sb[j]));
        }
    }
    Ok(c)
}

/// The CUDA of the scaling, slicing and reconstruction kernels for `crt`.
pub fn source(crt: &Crt) -> String {
    let l = crt.moduli.len();
    let list = |v: Vec<String>| v.join(", ");
    let mut s = String::new();
    let _ = writeln!(s, "#define L {l}");
    let _ = writeln!(
        s,
        "__device__ constexpr int MOD[L] = {{{}}};",
        list(crt.moduli.iter().map(|m| m.to_string()).collect())
    );
    let _ = writeln!(
        s,
        "__device__ constexpr int YINV[L] = {{{}}};",
        list(crt.y_l.iter().map(|m| m.to_string()).collect())
    );
    let _ = writeln!(
        s,
        "__device__ constexpr unsigned long long ML_HI[L] = {{{}}};",
        list(
            crt.m_l
                .iter()
                .map(|m| format!("{}ull", (m >> 64) as u64))
                .collect()
        )
    );
    let _ = writeln!(
        s,
        "__device__ constexpr unsigned long long ML_LO[L] = {{{}}};",
        list(
            crt.m_l
                .iter()
                .map(|m| format!("{}ull", *m as u64))
                .collect()
        )
    );
    let _ = writeln!(
        s,
        "#define M_HI {}ull\n#define M_LO {}ull",
        (crt.m >> 64) as u64,
        crt.m as u64
    );
    s.push_str(KERNELS);
    s
}

const KERNELS: &str = r#"
typedef unsigned __int128 u128;

// Element (r, q) of op(X): q is the inner index; `contig` says whether it is
// the contiguous one in storage.
__device__ __forceinline__ double ozaki_at(const double* X, long long ld, int r, int q, int contig) {
  return contig ? X[(long long)r * ld + q] : X[(long long)q * ld + r];
}

// shift[r] = bits - e with max_q |op(X)(r, q)| = f 2^e, f in [0.5, 1); one
// warp per row (inner index contiguous) or one thread per row (rows
// contiguous), so that loads coalesce either way.
extern "C" __global__ void ozaki_shift(const double* X, int ld, int rows, int inner, int contig,
                                       int bits, int* shift) {
  double amax = 0.0;
  int r;
  if (contig) {
    r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (r < rows)
      for (int q = lane; q < inner; q += 32) amax = fmax(amax, fabs(ozaki_at(X, ld, r, q, 1)));
    for (int o = 16; o > 0; o >>= 1) amax = fmax(amax, __shfl_xor_sync(0xffffffffu, amax, o));
    if (lane != 0) return;
  } else {
    r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows)
      for (int q = 0; q < inner; ++q) amax = fmax(amax, fabs(ozaki_at(X, ld, r, q, 0)));
  }
  if (r >= rows) return;
  int e;
  frexp(amax, &e);
  shift[r] = amax == 0.0 ? 0 : bits - e;
}

__device__ __forceinline__ signed char ozaki_residue(long long v, int m) {
  int r = (int)(v % m);
  if (r >= (m + 1) / 2) r -= m;
  if (r < -(m / 2)) r += m;
  return (signed char)r;
}

// out[l][r][q] (q contiguous, rows padded to Rp, inner to Kp) = the residue
// modulo MOD[l] of trunc(op(X)(r, q) 2^shift[r]). 32 x 32 tiles through
// shared memory so that reads and writes both coalesce.
extern "C" __global__ void __launch_bounds__(256) ozaki_slice(const double* X, int ld, int rows,
                                                              int inner, int contig,
                                                              const int* shift, signed char* out,
                                                              int Kp, int Rp) {
  __shared__ long long tile[32][33];
  const int r0 = blockIdx.y * 32, q0 = blockIdx.x * 32;
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int y = ty; y < 32; y += 8) {
    // Contiguous inner index: lanes walk q; else lanes walk r.
    int r = contig ? r0 + y : r0 + tx;
    int q = contig ? q0 + tx : q0 + y;
    long long v = 0;
    if (r < rows && q < inner) v = (long long)trunc(ldexp(ozaki_at(X, ld, r, q, contig), shift[r]));
    if (contig) tile[y][tx] = v;
    else tile[tx][y] = v;
  }
  __syncthreads();
  for (int y = ty; y < 32; y += 8) {
    int r = r0 + y, q = q0 + tx;
    if (r >= Rp || q >= Kp) continue;
    long long v = tile[y][tx];
    size_t at = (size_t)r * Kp + q;
#pragma unroll
    for (int l = 0; l < L; ++l) out[(size_t)l * Kp * Rp + at] = ozaki_residue(v, MOD[l]);
  }
}

// C = alpha * 2^-(sa[i] + sb[j]) * CRT(Cl[.][i][j]) + beta C.
extern "C" __global__ void __launch_bounds__(256) ozaki_reconstruct(const int* Cl, int Mp, int Np,
                                                                    int M, int N,
                                                                    const int* sa, const int* sb,
                                                                    double alpha, double beta,
                                                                    double* C, int ldc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M) return;
  const u128 m = ((u128)M_HI << 64) | M_LO;
  const size_t plane = (size_t)Mp * Np;
  // grid.y is capped at 65535: columns beyond it loop.
  for (int j = blockIdx.y; j < N; j += gridDim.y) {
    const size_t at = (size_t)j * Mp + i;
    u128 acc = 0;
#pragma unroll
    for (int l = 0; l < L; ++l) {
      int r = Cl[l * plane + at] % MOD[l];
      if (r < 0) r += MOD[l];
      r = (r * YINV[l]) % MOD[l];
      acc += (u128)(unsigned)r * (((u128)ML_HI[l] << 64) | ML_LO[l]);
      if (acc >= m) acc -= m;
    }
    bool neg = acc > (m >> 1);
    u128 mag = neg ? m - acc : acc;
    double v = (double)(unsigned long long)(mag >> 64) * 18446744073709551616.0 +
               (double)(unsigned long long)mag;
    if (neg) v = -v;
    v = ldexp(v, -(sa[i] + sb[j]));
    double* c = C + (size_t)j * ldc + i;
    *c = beta == 0.0 ? alpha * v : alpha * v + beta * *c;
  }
}
"#;

fn cdiv(a: usize, b: usize) -> usize {
    a.div_ceil(b)
}

/// Scratch of one problem shape: shifts, residue slices and the INT32
/// products.
struct Workspace {
    key: (usize, usize, usize),
    sa: DeviceBuffer,
    sb: DeviceBuffer,
    a8: DeviceBuffer,
    b8: DeviceBuffer,
    c32: DeviceBuffer,
}

/// The emulated DGEMM on one GPU, for a number of moduli.
pub struct OzakiGemm<'g> {
    gpu: &'g Gpu,
    crt: Crt,
    module: Module,
    cublas: Cublas,
    work: Option<Workspace>,
}

impl<'g> OzakiGemm<'g> {
    pub fn new(gpu: &'g Gpu, moduli: usize) -> Result<OzakiGemm<'g>> {
        let crt = Crt::new(moduli).map_err(LibError::Usage)?;
        let target = nvrtc::target_for(gpu.props().compute_capability)?;
        let options = CompileOptions {
            extra: vec!["--device-int128".to_string()],
            ..CompileOptions::default()
        };
        let cached = ModuleCache::open_default().compile(
            &source(&crt),
            "ozaki.cu",
            &options,
            &target,
            nvrtc::version()?,
        )?;
        let module = Module::load(gpu, &cached.module.image, cached.module.kind)?;
        // On the GPU's own stream, so that the INT8 products are ordered
        // with the kernels around them.
        let cublas = Cublas::on_stream_of(gpu)?;
        Ok(OzakiGemm {
            gpu,
            crt,
            module,
            cublas,
            work: None,
        })
    }

    pub fn crt(&self) -> &Crt {
        &self.crt
    }

    /// The padded sizes of `p`'s slices: (Mp, Np, Kp).
    fn padded(p: &GemmProblem) -> (usize, usize, usize) {
        (cdiv(p.m, 16) * 16, cdiv(p.n, 16) * 16, cdiv(p.k, 16) * 16)
    }

    /// Device bytes of the scratch for `p`.
    pub fn workspace_bytes(&self, p: &GemmProblem) -> usize {
        let (mp, np, kp) = OzakiGemm::padded(p);
        let l = self.crt.moduli.len();
        4 * (mp + np) + l * kp * (mp + np) + 4 * l * mp * np
    }

    fn workspace(&mut self, p: &GemmProblem) -> Result<()> {
        let (mp, np, kp) = OzakiGemm::padded(p);
        if self.work.as_ref().is_some_and(|w| w.key == (mp, np, kp)) {
            return Ok(());
        }
        self.work = None;
        let need = self.workspace_bytes(p);
        let (free, _) = self.gpu.memory_info()?;
        if need > free {
            return Err(LibError::Usage(format!(
                "{p}: the emulation with {} moduli needs {need} bytes of device scratch, {free} are free",
                self.crt.moduli.len()
            )));
        }
        let l = self.crt.moduli.len();
        let alloc = |bytes: usize| DeviceBuffer::alloc(self.gpu, bytes.max(4));
        let w = Workspace {
            key: (mp, np, kp),
            sa: alloc(4 * mp)?,
            sb: alloc(4 * np)?,
            a8: alloc(l * kp * mp)?,
            b8: alloc(l * kp * np)?,
            c32: alloc(4 * l * mp * np)?,
        };
        // Padding rows and columns of the slices stay zero.
        w.a8.fill_async(self.gpu, 0)?;
        w.b8.fill_async(self.gpu, 0)?;
        self.work = Some(w);
        Ok(())
    }

    /// Enqueues C = alpha op(A) op(B) + beta C (FP64, column-major, BLAS
    /// semantics) on the GPU's stream.
    ///
    /// # Safety
    /// `a`, `b`, `c` must hold `p`'s stored FP64 matrices on this GPU.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn enqueue(
        &mut self,
        p: &GemmProblem,
        alpha: f64,
        a: u64,
        b: u64,
        beta: f64,
        c: u64,
    ) -> Result<()> {
        p.validate().map_err(LibError::Usage)?;
        let bits = self.crt.bits(p.k).map_err(LibError::Usage)?;
        self.workspace(p)?;
        let w = self.work.as_ref().expect("just made");
        let (mp, np, kp) = OzakiGemm::padded(p);
        let gpu = self.gpu;
        let shift = self.module.function("ozaki_shift")?;
        let slice = self.module.function("ozaki_slice")?;
        let rebuild = self.module.function("ozaki_reconstruct")?;
        // (matrix, ld, rows, inner index contiguous, shifts, slices, padded rows)
        let sides = [
            (a, p.lda, p.m, p.layout.a == Op::T, &w.sa, &w.a8, mp),
            (b, p.ldb, p.n, p.layout.b == Op::N, &w.sb, &w.b8, np),
        ];
        for (x, ld, rows, contig, s, out, rp) in sides {
            let threads = if contig { 32 * rows } else { rows };
            let dims = LaunchDims {
                grid: (cdiv(threads, 256) as u32, 1, 1),
                block: (256, 1, 1),
                shared_mem: 0,
            };
            let args = [
                KernelArg::Ptr(x),
                KernelArg::I32(ld as i32),
                KernelArg::I32(rows as i32),
                KernelArg::I32(p.k as i32),
                KernelArg::I32(contig as i32),
                KernelArg::I32(bits),
                KernelArg::Ptr(s.ptr()),
            ];
            // SAFETY: the kernel reads op(X)'s rows x k elements and writes
            // `rows` shifts.
            unsafe { shift.launch(gpu, &dims, &args) }?;
            let dims = LaunchDims {
                grid: (cdiv(kp, 32) as u32, cdiv(rp, 32) as u32, 1),
                block: (32, 8, 1),
                shared_mem: 0,
            };
            let args = [
                KernelArg::Ptr(x),
                KernelArg::I32(ld as i32),
                KernelArg::I32(rows as i32),
                KernelArg::I32(p.k as i32),
                KernelArg::I32(contig as i32),
                KernelArg::Ptr(s.ptr()),
                KernelArg::Ptr(out.ptr()),
                KernelArg::I32(kp as i32),
                KernelArg::I32(rp as i32),
            ];
            // SAFETY: writes L slices of rp x kp bytes, the buffer's size.
            unsafe { slice.launch(gpu, &dims, &args) }?;
        }
        let l = self.crt.moduli.len();
        let (one, zero) = (1i32, 0i32);
        // SAFETY: the slices are kp x mp and kp x np bytes each, the
        // products mp x np 32-bit integers each, all on this GPU.
        status("cublasGemmStridedBatchedEx", unsafe {
            cb::cublasGemmStridedBatchedEx(
                self.cublas.handle(),
                cb::cublasOperation_t::CUBLAS_OP_T,
                cb::cublasOperation_t::CUBLAS_OP_N,
                mp as i32,
                np as i32,
                kp as i32,
                &one as *const i32 as *const _,
                w.a8.ptr() as *const _,
                cb::cudaDataType::CUDA_R_8I,
                kp as i32,
                (kp * mp) as i64,
                w.b8.ptr() as *const _,
                cb::cudaDataType::CUDA_R_8I,
                kp as i32,
                (kp * np) as i64,
                &zero as *const i32 as *const _,
                w.c32.ptr() as *mut _,
                cb::cudaDataType::CUDA_R_32I,
                mp as i32,
                (mp * np) as i64,
                l as i32,
                cb::cublasComputeType_t::CUBLAS_COMPUTE_32I,
                cb::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        })?;
        let dims = LaunchDims {
            grid: (cdiv(p.m, 256) as u32, p.n.min(65535) as u32, 1),
            block: (256, 1, 1),
            shared_mem: 0,
        };
        let args = [
            KernelArg::Ptr(w.c32.ptr()),
            KernelArg::I32(mp as i32),
            KernelArg::I32(np as i32),
            KernelArg::I32(p.m as i32),
            KernelArg::I32(p.n as i32),
            KernelArg::Ptr(w.sa.ptr()),
            KernelArg::Ptr(w.sb.ptr()),
            KernelArg::F64(alpha),
            KernelArg::F64(beta),
            KernelArg::Ptr(c),
            KernelArg::I32(p.ldc as i32),
        ];
        // SAFETY: reads the products and shifts, writes C's m x n entries.
        unsafe { rebuild.launch(gpu, &dims, &args) }?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn crt_constants_invert_and_reconstruct() {
        let crt = Crt::new(16).unwrap();
        assert!(crt.m < u128::MAX / 2, "2 M fits");
        for ((&m, &ml), &y) in crt.moduli.iter().zip(&crt.m_l).zip(&crt.y_l) {
            assert_eq!((ml % m as u128) * y as u128 % m as u128, 1);
        }
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..1000 {
            let x: i128 = rng.gen_range(-(crt.m as i128 / 2) + 1..crt.m as i128 / 2);
            let r: Vec<i64> = crt
                .moduli
                .iter()
                .map(|&m| (x.rem_euclid(m as i128)) as i64)
                .collect();
            assert_eq!(crt.reconstruct(&r), x);
        }
        for m in [256, 255, 191] {
            for v in [-1000i64, -129, -128, -1, 0, 1, 127, 128, 1 << 50] {
                let r = residue(v, m) as i64;
                assert_eq!((v - r).rem_euclid(m as i64), 0, "{v} mod {m}");
            }
        }
        assert!(Crt::new(17).is_err() && Crt::new(0).is_err());
    }

    #[test]
    fn bits_keep_the_integer_product_exact() {
        let crt = Crt::new(16).unwrap();
        let b = crt.bits(8192).unwrap();
        assert!((8192u128 << (2 * b)) < crt.m / 2);
        assert!((8192u128 << (2 * (b + 1))) >= crt.m / 2);
        assert!(b >= 53, "{b}");
        assert!(crt.bits(MAX_K + 1).unwrap_err().contains("k ="));
        assert!(Crt::new(1).unwrap().bits(1 << 16).is_err());
    }

    #[test]
    fn the_emulation_matches_dgemm_accuracy_on_the_cpu() {
        let mut rng = StdRng::seed_from_u64(9);
        let (m, n, k) = (9, 7, 300);
        let a: Vec<f64> = (0..m * k).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let b: Vec<f64> = (0..k * n).map(|_| rng.gen_range(-1.0..1.0)).collect();
        for (count, tol) in [(16, 1e-14), (12, 1e-9), (8, 1e-4)] {
            let crt = Crt::new(count).unwrap();
            let c = emulate(&crt, m, n, k, |i, q| a[i * k + q], |q, j| b[q * n + j]).unwrap();
            for j in 0..n {
                for i in 0..m {
                    let want: f64 = (0..k).map(|q| a[i * k + q] * b[q * n + j]).sum();
                    let scale: f64 = (0..k).map(|q| (a[i * k + q] * b[q * n + j]).abs()).sum();
                    let err = (c[i + j * m] - want).abs() / scale;
                    assert!(err < tol, "{count} moduli: {err:e}");
                }
            }
        }
    }

    #[test]
    fn the_kernels_are_generated_with_the_constants() {
        let crt = Crt::new(4).unwrap();
        let s = source(&crt);
        assert!(s.contains("#define L 4"));
        assert!(s.contains("MOD[L] = {256, 255, 253, 251}"));
        assert!(s.contains(&format!("#define M_LO {}ull", crt.m as u64)));
        for k in ["ozaki_shift", "ozaki_slice", "ozaki_reconstruct"] {
            assert!(s.contains(k));
        }
    }
}
