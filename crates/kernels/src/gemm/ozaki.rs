//! DGEMM emulated on the INT8 tensor cores (Ozaki scheme II): the FP64
//! matrices are scaled row by row (A) and column by column (B) by powers of
//! two and rounded to integers, those integers are reduced modulo L pairwise
//! coprime moduli of at most 256 (signed 8-bit residues), the L products of
//! residue matrices are computed exactly by cuBLAS's INT8 GEMM (32-bit
//! sums), and the Chinese remainder theorem gives back the exact integer
//! product, which is scaled back to FP64.
//!
//! The integer product is exact when every sum of |products| stays below
//! M / 2 (M the product of the moduli). Each row of op(A) and column of
//! op(B) is scaled so that its 2-norm is at most [`Crt::target`]; by
//! Cauchy-Schwarz, and counting the rounding of each element by at most
//! one half, every sum is then below M / 2 with a margin. Scaling by the
//! norm rather than by the largest element keeps more bits in every element
//! (log2 of the row's largest over its root-mean-square more: about 0.8 bits
//! for uniform entries, 3 for the lognormal spreads of the Ozaki papers).
//! What is lost is the rounding of each element to an integer: an element
//! 2^-d times its row's norm keeps about log2(target) - d bits. Inputs whose
//! rows span a wide exponent range therefore lose accuracy in their small
//! elements; the report measures it (the `phi` of the inputs) next to cuBLAS
//! DGEMM on the same inputs. K above [`MAX_K`] is refused (the 32-bit sums
//! could overflow), never computed wrongly; a row or column holding an
//! infinity or a NaN makes its row or column of C NaN.
//!
//! The reconstruction runs in FP64, exactly: each weight (M / m_l)
//! ((M / m_l)^-1 mod m_l) mod M is split into four 32-bit chunks, so every
//! residue times a chunk and every sum of L of them is an integer below
//! 2^53; the quotient by M is rounded from those sums (the margin above
//! keeps it away from a tie) and subtracted chunk by chunk, and the four
//! chunks are joined with three fused multiply-adds.

use std::fmt::Write as _;

use cudarc::cublas::sys as cb;
use hone_gpu::launch::{DeviceBuffer, Event, KernelArg, LaunchDims, Module};
use hone_gpu::{nvrtc, CompileOptions, Gpu, ModuleCache};

use super::{GemmProblem, Op};
use crate::routine::{LibError, Result};
use crate::vendor::cublas::{status, Cublas};
use crate::vendor::cublaslt::{Int8Batch, Int8Gemm};

/// Pairwise coprime moduli, largest first.
pub const MODULI: [u32; 16] = [
    256, 255, 253, 251, 247, 239, 233, 229, 227, 223, 217, 211, 199, 197, 193, 191,
];
/// K at most this keeps every 32-bit sum of products of 8-bit residues
/// (each at most 128^2 in magnitude) exact.
pub const MAX_K: usize = (1 << 17) - 1;

/// The shift that marks a row or column holding an infinity or a NaN.
pub const NOT_FINITE: i32 = i32::MAX;

/// Relative margin below M / 2 that the sums keep: the quotient of the
/// reconstruction is rounded from sums accurate to about 2^-40, so a margin
/// of 2^-16 keeps it from a tie.
const SUM_MARGIN: f64 = 1.0 / 65536.0;
/// Relative margin of the norms, which are rounded sums of K squares.
const NORM_MARGIN: f64 = 1.0 / 1048576.0;

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
    /// (M / m_l) y_l mod M: x = sum r_l w_l mod M for residues r_l of x.
    pub w_l: Vec<u128>,
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

/// The four 32-bit chunks of `v`, most significant first, as exact doubles.
fn chunks(v: u128) -> [f64; 4] {
    [96, 64, 32, 0].map(|s| ((v >> s) as u32) as f64)
}

const MAGIC: f64 = 6755399441055744.0; // 1.5 * 2^52: adding it rounds to an integer
const TWO32: f64 = 4294967296.0;

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
        let y_l: Vec<u32> = moduli
            .iter()
            .zip(&m_l)
            .map(|(&x, &ml)| inverse_mod(ml, x))
            .collect();
        // m_l y_l < M 256 < 2^128.
        let w_l = m_l
            .iter()
            .zip(&y_l)
            .map(|(&ml, &y)| ml * y as u128 % m)
            .collect();
        Ok(Crt {
            moduli,
            m,
            m_l,
            y_l,
            w_l,
        })
    }

    /// The largest 2-norm a scaled row of op(A) or column of op(B) may
    /// have for inner dimension `k`: with every element rounded by at most
    /// one half, (target + sqrt(k) / 2)^2 <= (M / 2)(1 - 2^-16), so every
    /// sum of |products| stays below M / 2 with that margin. An error when
    /// K is out of range or the target is below one (too few moduli).
    pub fn target(&self, k: usize) -> std::result::Result<f64, String> {
        if k == 0 || k > MAX_K {
            return Err(format!(
                "k = {k}: the INT8 emulation takes 1 <= k <= {MAX_K} (its 32-bit sums)"
            ));
        }
        let half = self.m as f64 / 2.0;
        let t =
            ((half * (1.0 - SUM_MARGIN)).sqrt() - (k as f64).sqrt() / 2.0) * (1.0 - NORM_MARGIN);
        if t < 1.0 {
            return Err(format!(
                "{} moduli leave no bit per element at k = {k}",
                self.moduli.len()
            ));
        }
        Ok(t)
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

    /// The value whose residues are the 32-bit sums `c` (|x| below
    /// (M / 2)(1 - 2^-16)), in FP64, step for step as the GPU's
    /// reconstruction computes it.
    pub fn reconstruct_f64(&self, c: &[i32]) -> f64 {
        let mut s = [0.0f64; 4];
        for ((&md, &w), &cl) in self.moduli.iter().zip(&self.w_l).zip(c) {
            let cl = cl as f64;
            let q = cl.mul_add(1.0 / md as f64, MAGIC) - MAGIC;
            let r = (-q).mul_add(md as f64, cl);
            for (acc, chunk) in s.iter_mut().zip(chunks(w)) {
                *acc = r.mul_add(chunk, *acc);
            }
        }
        let mf = self.m as f64;
        let f = [96, 64, 32, 0].map(|e| 2f64.powi(e) / mf);
        let q = s[0]
            .mul_add(f[0], s[1].mul_add(f[1], s[2].mul_add(f[2], s[3] * f[3])))
            .round_ties_even();
        let mc = chunks(self.m);
        let x: Vec<f64> = (0..4).map(|c| (-q).mul_add(mc[c], s[c])).collect();
        x[0].mul_add(TWO32, x[1])
            .mul_add(TWO32, x[2])
            .mul_add(TWO32, x[3])
    }
}

/// x 2^e without overflowing the power of two on the way (CUDA's ldexp).
pub fn ldexp(mut x: f64, mut e: i32) -> f64 {
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e)
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

/// The shift s that brings a row of 2-norm `norm` to at most `target`:
/// the largest with norm 2^s <= target; 0 for a zero row and
/// [`NOT_FINITE`] for a row that holds an infinity or a NaN.
pub fn shift(norm: f64, target: f64) -> i32 {
    if !norm.is_finite() {
        return NOT_FINITE;
    }
    if norm == 0.0 {
        return 0;
    }
    let mut s = target.log2().floor() as i32 - norm.log2().floor() as i32;
    while ldexp(norm, s) > target {
        s -= 1;
    }
    while ldexp(norm, s + 1) <= target {
        s += 1;
    }
    s
}

/// The 2-norm of `x` the way the GPU computes it (which sums in another
/// order): the largest magnitude's
/// exponent e first, then the squares of x 2^-e (each at most 1), summed in
/// order, so that neither overflows nor the sum underflows.
pub fn norm(x: impl Iterator<Item = f64> + Clone) -> f64 {
    let amax = x.clone().fold(0.0f64, |m, v| {
        if v.abs() > m || v.is_nan() {
            v.abs()
        } else {
            m
        }
    });
    if !amax.is_finite() {
        return amax;
    }
    if amax == 0.0 {
        return 0.0;
    }
    let e = amax.log2().floor() as i32 + 1;
    let sum: f64 = x.map(|v| ldexp(v, -e).powi(2)).sum();
    ldexp(sum.sqrt(), e)
}

/// x 2^s, rounded to the nearest integer (ties to even).
pub fn scaled(x: f64, s: i32) -> i64 {
    if s == NOT_FINITE {
        return 0;
    }
    ldexp(x, s).round_ties_even() as i64
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
    let target = crt.target(k)?;
    let sa: Vec<i32> = (0..m)
        .map(|i| shift(norm((0..k).map(|q| a(i, q))), target))
        .collect();
    let sb: Vec<i32> = (0..n)
        .map(|j| shift(norm((0..k).map(|q| b(q, j))), target))
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
            if sa[i] == NOT_FINITE || sb[j] == NOT_FINITE {
                c[i + j * m] = f64::NAN;
                continue;
            }
            let sums: Vec<i32> = crt
                .moduli
                .iter()
                .map(|&md| {
                    (0..k)
                        .map(|q| {
                            residue(ai[i * k + q], md) as i32 * residue(bi[j * k + q], md) as i32
                        })
                        .sum::<i32>()
                })
                .collect();
            let exact = crt.reconstruct_f64(&sums);
            c[i + j * m] = ldexp(exact, -(sa[i] + sb[j]));
        }
    }
    Ok(c)
}

/// The CUDA of the scaling, slicing and reconstruction kernels for `crt`.
pub fn source(crt: &Crt) -> String {
    let l = crt.moduli.len();
    let num = |v: f64| format!("{v:e}");
    let list = |v: Vec<String>| v.join(", ");
    let mut s = String::new();
    let _ = writeln!(s, "#define L {l}");
    let _ = writeln!(s, "#define NOT_FINITE {NOT_FINITE}");
    let _ = writeln!(
        s,
        "__device__ constexpr int MOD[L] = {{{}}};",
        list(crt.moduli.iter().map(|m| m.to_string()).collect())
    );
    let _ = writeln!(
        s,
        "__device__ constexpr double INV_MOD[L] = {{{}}};",
        list(crt.moduli.iter().map(|&m| num(1.0 / m as f64)).collect())
    );
    // 2^26 mod m as a signed residue, for the slicing.
    let _ = writeln!(
        s,
        "__device__ constexpr double P26[L] = {{{}}};",
        list(
            crt.moduli
                .iter()
                .map(|&m| (residue(1 << 26, m) as i32).to_string())
                .collect()
        )
    );
    for c in 0..4 {
        let _ = writeln!(
            s,
            "__device__ constexpr double W{c}[L] = {{{}}};",
            list(crt.w_l.iter().map(|&w| num(chunks(w)[c])).collect())
        );
    }
    let mf = crt.m as f64;
    let mc = chunks(crt.m);
    for (c, chunk) in mc.into_iter().enumerate() {
        let _ = writeln!(s, "#define MC{c} {}", num(chunk));
        let _ = writeln!(
            s,
            "#define F{c} {}",
            num(2f64.powi(96 - 32 * c as i32) / mf)
        );
    }
    s.push_str(KERNELS);
    s
}

/// Rows of the statistics kernels' blocks and the inner-index chunk each
/// block reduces.
const STAT_ROWS: usize = 32;
const STAT_CHUNK: usize = 1024;

const KERNELS: &str = r#"
#define MAGIC 6755399441055744.0
#define TWO32 4294967296.0
#define STAT_ROWS 32
#define STAT_CHUNK 1024

// Element (r, q) of op(X): q is the inner index; `contig` says whether it is
// the contiguous one in storage.
__device__ __forceinline__ double ozaki_at(const double* X, long long ld, int r, int q, int contig) {
  return contig ? X[(long long)r * ld + q] : X[(long long)q * ld + r];
}

// The statistics of rows r0..r0+31 over the inner chunk q0..q0+STAT_CHUNK-1,
// loads coalesced either way: with the rows contiguous, lanes walk rows and
// the 8 warps split the chunk; else each warp takes 4 rows and its lanes
// walk the chunk. pass 0 reduces max |x| (atomicMax on the bits, which order
// non-negative doubles and put NaN above infinity); pass 1 sums the squares
// of x 2^-e, e the exponent of the row's largest, into partial[chunk][row]
// (summed in order later, so that the shifts do not vary between runs).
extern "C" __global__ void __launch_bounds__(256) ozaki_stats(const double* X, int ld, int rows,
                                                              int inner, int contig, int pass,
                                                              unsigned long long* amax,
                                                              double* partial) {
  __shared__ double red[8][33];
  const int r0 = blockIdx.x * STAT_ROWS, q0 = blockIdx.y * STAT_CHUNK;
  const int q1 = min(inner, q0 + STAT_CHUNK);
  const int tx = threadIdx.x, ty = threadIdx.y;
  if (!contig) {
    const int r = r0 + tx;
    double acc = 0.0;
    if (r < rows) {
      int e = 0;
      if (pass) frexp(__longlong_as_double((long long)amax[r]), &e);
      for (int q = q0 + ty; q < q1; q += 8) {
        double v = fabs(ozaki_at(X, ld, r, q, 0));
        acc = pass ? fma(ldexp(v, -e), ldexp(v, -e), acc) : (v > acc || v != v ? v : acc);
      }
    }
    red[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && r < rows) {
      for (int y = 1; y < 8; ++y) {
        double o = red[y][tx];
        acc = pass ? acc + o : (o > acc || o != o ? o : acc);
      }
      if (pass) partial[(size_t)blockIdx.y * rows + r] = acc;
      else atomicMax(&amax[r], (unsigned long long)__double_as_longlong(acc));
    }
  } else {
    for (int y = ty; y < STAT_ROWS; y += 8) {
      const int r = r0 + y;
      if (r >= rows) break;
      int e = 0;
      if (pass) frexp(__longlong_as_double((long long)amax[r]), &e);
      double acc = 0.0;
      for (int q = q0 + tx; q < q1; q += 32) {
        double v = fabs(ozaki_at(X, ld, r, q, 1));
        acc = pass ? fma(ldexp(v, -e), ldexp(v, -e), acc) : (v > acc || v != v ? v : acc);
      }
      for (int o = 16; o > 0; o >>= 1) {
        double w = __shfl_xor_sync(0xffffffffu, acc, o);
        acc = pass ? acc + w : (w > acc || w != w ? w : acc);
      }
      if (tx == 0) {
        if (pass) partial[(size_t)blockIdx.y * rows + r] = acc;
        else atomicMax(&amax[r], (unsigned long long)__double_as_longlong(acc));
      }
    }
  }
}

// shift[r]: the largest s with norm(r) 2^s <= target; 0 for a zero row,
// NOT_FINITE for a row holding an infinity or a NaN.
extern "C" __global__ void ozaki_shift(const unsigned long long* amax, const double* partial,
                                       int rows, int chunks, double target, int* shift) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const double a = __longlong_as_double((long long)amax[r]);
  if (!isfinite(a)) {
    shift[r] = NOT_FINITE;
    return;
  }
  if (a == 0.0) {
    shift[r] = 0;
    return;
  }
  int e;
  frexp(a, &e);
  double sum = 0.0;
  for (int c = 0; c < chunks; ++c) sum += partial[(size_t)c * rows + r];
  const double norm = ldexp(sqrt(sum), e);
  int s = ilogb(target) - ilogb(norm);
  while (ldexp(norm, s) > target) --s;
  while (ldexp(norm, s + 1) <= target) ++s;
  shift[r] = s;
}

// The signed 8-bit residues of the integer d (an exact double, |d| < 2^63)
// modulo every MOD[l], in FP64 (64-bit integer remainders cost several
// times more): d = dh 2^26 + dl exactly, t = dh (2^26 mod m) + dl is below
// 2^45 and congruent to d, and for odd m the quotient t / m is at least
// 1 / (2m) from a tie while its rounding errs by less than 2^-15, so one
// rounded quotient leaves r = t - q m in [-(m-1)/2, (m-1)/2]. 256 takes the
// low byte of dl.
__device__ __forceinline__ void ozaki_residues(double d, signed char* out, size_t stride) {
  const double dh = fma(d, 1.0 / 67108864.0, MAGIC) - MAGIC;
  const double dl = fma(-dh, 67108864.0, d);
#pragma unroll
  for (int l = 0; l < L; ++l) {
    if (MOD[l] == 256) {
      out[l * stride] = (signed char)__double2loint(dl + MAGIC);
    } else {
      const double t = fma(dh, P26[l], dl);
      const double q = fma(t, INV_MOD[l], MAGIC) - MAGIC;
      out[l * stride] = (signed char)__double2loint(fma(-q, (double)MOD[l], t) + MAGIC);
    }
  }
}

// out[l][r][q] (q contiguous, rows padded to Rp, inner to Kp) = the residue
// modulo MOD[l] of rint(op(X)(r, q) 2^shift[r]). 32 x 32 tiles through
// shared memory so that reads and writes both coalesce.
extern "C" __global__ void __launch_bounds__(256) ozaki_slice(const double* X, int ld, int rows,
                                                              int inner, int contig,
                                                              const int* shift, signed char* out,
                                                              int Kp, int Rp) {
  __shared__ double tile[32][33];
  const int r0 = blockIdx.y * 32, q0 = blockIdx.x * 32;
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int y = ty; y < 32; y += 8) {
    // Contiguous inner index: lanes walk q; else lanes walk r.
    int r = contig ? r0 + y : r0 + tx;
    int q = contig ? q0 + tx : q0 + y;
    double v = 0.0;
    if (r < rows && q < inner && shift[r] != NOT_FINITE)
      v = rint(ldexp(ozaki_at(X, ld, r, q, contig), shift[r]));
    if (contig) tile[y][tx] = v;
    else tile[tx][y] = v;
  }
  __syncthreads();
  const size_t plane = (size_t)Kp * Rp;
  for (int y = ty; y < 32; y += 8) {
    int r = r0 + y, q = q0 + tx;
    if (r >= Rp || q >= Kp) continue;
    ozaki_residues(tile[y][tx], out + (size_t)r * Kp + q, plane);
  }
}

// C = alpha * 2^-(sa[i] + sb[j]) * CRT(Cl[.][i][j]) + beta C, in FP64 (see
// the module's comment for why every step but the last three is exact).
extern "C" __global__ void __launch_bounds__(256) ozaki_reconstruct(const int* Cl, int Mp, int Np,
                                                                    int M, int N,
                                                                    const int* sa, const int* sb,
                                                                    double alpha, double beta,
                                                                    double* C, int ldc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M) return;
  const size_t plane = (size_t)Mp * Np;
  const int si = sa[i];
  // grid.y is capped at 65535: columns beyond it loop.
  for (int j = blockIdx.y; j < N; j += gridDim.y) {
    const size_t at = (size_t)j * Mp + i;
    const int sj = sb[j];
    double v;
    if (si == NOT_FINITE || sj == NOT_FINITE) {
      v = __longlong_as_double(0x7ff8000000000000ll);
    } else {
      double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
#pragma unroll
      for (int l = 0; l < L; ++l) {
        // The 32-bit sum as a double: 2^52 + 2^31 + c, less 2^52 + 2^31.
        const double c = __hiloint2double(0x43300000, Cl[l * plane + at] ^ 0x80000000) -
                          4503601774854144.0;
        const double q = fma(c, INV_MOD[l], MAGIC) - MAGIC;
        const double r = fma(-q, (double)MOD[l], c);
        s0 = fma(r, W0[l], s0);
        s1 = fma(r, W1[l], s1);
        s2 = fma(r, W2[l], s2);
        s3 = fma(r, W3[l], s3);
      }
      const double q = rint(fma(s0, F0, fma(s1, F1, fma(s2, F2, s3 * F3))));
      const double x0 = fma(-q, MC0, s0), x1 = fma(-q, MC1, s1);
      const double x2 = fma(-q, MC2, s2), x3 = fma(-q, MC3, s3);
      v = ldexp(fma(fma(fma(x0, TWO32, x1), TWO32, x2), TWO32, x3), -(si + sj));
    }
    double* c = C + (size_t)j * ldc + i;
    *c = beta == 0.0 ? alpha * v : alpha * v + beta * *c;
  }
}
"#;

fn cdiv(a: usize, b: usize) -> usize {
    a.div_ceil(b)
}

/// Scratch of one problem shape: row statistics, shifts, residue slices
/// and the INT32 products.
struct Workspace {
    key: (usize, usize, usize),
    amax: DeviceBuffer,
    partial: DeviceBuffer,
    sa: DeviceBuffer,
    sb: DeviceBuffer,
    a8: DeviceBuffer,
    b8: DeviceBuffer,
    c32: DeviceBuffer,
    /// The products on cuBLASLt with a timed algorithm; `None` runs them
    /// with cuBLAS's batched GEMM (no cuBLASLt, or none of its candidates
    /// ran).
    products: Option<Int8Gemm>,
}

/// Where an emulated product spends its time: scaling and slicing both
/// operands, the INT8 products, the reconstruction (milliseconds).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Phases {
    pub slice_ms: f64,
    pub products_ms: f64,
    pub reconstruct_ms: f64,
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
        let cached = ModuleCache::open_default().compile(
            &source(&crt),
            "ozaki.cu",
            &CompileOptions::default(),
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

    /// What ran the last shape's INT8 products.
    pub fn products_engine(&self) -> String {
        match self.work.as_ref().and_then(|w| w.products.as_ref()) {
            Some(g) => format!(
                "cuBLASLt, the fastest of {} candidates timed (number {})",
                g.candidates(),
                g.chosen()
            ),
            None => "cuBLAS strided-batched GEMM".to_string(),
        }
    }

    /// The padded sizes of `p`'s slices: (Mp, Np, Kp).
    fn padded(p: &GemmProblem) -> (usize, usize, usize) {
        (cdiv(p.m, 16) * 16, cdiv(p.n, 16) * 16, cdiv(p.k, 16) * 16)
    }

    /// Device bytes of the scratch for `p`.
    pub fn workspace_bytes(&self, p: &GemmProblem) -> usize {
        let (mp, np, kp) = OzakiGemm::padded(p);
        let l = self.crt.moduli.len();
        let rows = p.m.max(p.n);
        8 * rows * (1 + cdiv(p.k, STAT_CHUNK))
            + 4 * (mp + np)
            + l * kp * (mp + np)
            + 4 * l * mp * np
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
        // Sized for the padded shape, so that every problem of this key fits.
        let rows = mp.max(np);
        let alloc = |bytes: usize| DeviceBuffer::alloc(self.gpu, bytes.max(8));
        let w = Workspace {
            key: (mp, np, kp),
            amax: alloc(8 * rows)?,
            partial: alloc(8 * rows * cdiv(kp, STAT_CHUNK))?,
            sa: alloc(4 * mp)?,
            sb: alloc(4 * np)?,
            a8: alloc(l * kp * mp)?,
            b8: alloc(l * kp * np)?,
            c32: alloc(4 * l * mp * np)?,
            products: None,
        };
        // Padding rows and columns of the slices stay zero.
        w.a8.fill_async(self.gpu, 0)?;
        w.b8.fill_async(self.gpu, 0)?;
        let shape = Int8Batch {
            m: mp,
            n: np,
            k: kp,
            lda: kp,
            ldb: kp,
            ldc: mp,
            stride_a: kp * mp,
            stride_b: kp * np,
            stride_c: mp * np,
            batch: l,
        };
        let mut w = w;
        w.products = Int8Gemm::new(self.gpu, shape).ok().and_then(|mut g| {
            // SAFETY: the slices and products are the planned shape's.
            unsafe { g.choose(self.gpu, w.a8.ptr(), w.b8.ptr(), w.c32.ptr()) }
                .ok()
                .map(|_| g)
        });
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
        // SAFETY: as the caller promised.
        unsafe { self.run(p, alpha, a, b, beta, c, None) }
    }

    /// Runs the product `runs` times with events between its phases and
    /// returns each phase's median.
    ///
    /// # Safety
    /// As [`OzakiGemm::enqueue`].
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn phases(
        &mut self,
        p: &GemmProblem,
        a: u64,
        b: u64,
        c: u64,
        runs: usize,
    ) -> Result<Phases> {
        let events = [
            Event::new(self.gpu)?,
            Event::new(self.gpu)?,
            Event::new(self.gpu)?,
            Event::new(self.gpu)?,
        ];
        let marks = [&events[0], &events[1], &events[2], &events[3]];
        let mut times: [Vec<f64>; 3] = Default::default();
        for _ in 0..runs.max(1) {
            // SAFETY: as the caller promised.
            unsafe { self.run(p, 1.0, a, b, 0.0, c, Some(marks)) }?;
            self.gpu.synchronize()?;
            for (t, w) in times.iter_mut().zip(marks.windows(2)) {
                t.push(w[1].elapsed_since(w[0])?);
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let [s, pr, r] = &mut times;
        Ok(Phases {
            slice_ms: median(s),
            products_ms: median(pr),
            reconstruct_ms: median(r),
        })
    }

    #[allow(clippy::too_many_arguments)]
    unsafe fn run(
        &mut self,
        p: &GemmProblem,
        alpha: f64,
        a: u64,
        b: u64,
        beta: f64,
        c: u64,
        marks: Option<[&Event; 4]>,
    ) -> Result<()> {
        p.validate().map_err(LibError::Usage)?;
        let target = self.crt.target(p.k).map_err(LibError::Usage)?;
        self.workspace(p)?;
        let w = self.work.as_ref().expect("just made");
        let (mp, np, kp) = OzakiGemm::padded(p);
        let gpu = self.gpu;
        let mark = |at: usize| -> Result<()> {
            if let Some(m) = marks {
                m[at].record(gpu)?;
            }
            Ok(())
        };
        mark(0)?;
        let stats = self.module.function("ozaki_stats")?;
        let shift = self.module.function("ozaki_shift")?;
        let slice = self.module.function("ozaki_slice")?;
        let rebuild = self.module.function("ozaki_reconstruct")?;
        let chunks = cdiv(p.k, STAT_CHUNK);
        // (matrix, ld, rows, inner index contiguous, shifts, slices, padded rows)
        let sides = [
            (a, p.lda, p.m, p.layout.a == Op::T, &w.sa, &w.a8, mp),
            (b, p.ldb, p.n, p.layout.b == Op::N, &w.sb, &w.b8, np),
        ];
        for (x, ld, rows, contig, s, out, rp) in sides {
            w.amax.fill_async(gpu, 0)?;
            let dims = LaunchDims {
                grid: (cdiv(rows, STAT_ROWS) as u32, chunks as u32, 1),
                block: (32, 8, 1),
                shared_mem: 0,
            };
            for pass in 0..2 {
                let args = [
                    KernelArg::Ptr(x),
                    KernelArg::I32(ld as i32),
                    KernelArg::I32(rows as i32),
                    KernelArg::I32(p.k as i32),
                    KernelArg::I32(contig as i32),
                    KernelArg::I32(pass),
                    KernelArg::Ptr(w.amax.ptr()),
                    KernelArg::Ptr(w.partial.ptr()),
                ];
                // SAFETY: reads op(X)'s rows x k elements; writes `rows`
                // maxima and `rows` x `chunks` partial sums, the buffers'
                // sizes.
                unsafe { stats.launch(gpu, &dims, &args) }?;
            }
            let dims = LaunchDims {
                grid: (cdiv(rows, 256) as u32, 1, 1),
                block: (256, 1, 1),
                shared_mem: 0,
            };
            let args = [
                KernelArg::Ptr(w.amax.ptr()),
                KernelArg::Ptr(w.partial.ptr()),
                KernelArg::I32(rows as i32),
                KernelArg::I32(chunks as i32),
                KernelArg::F64(target),
                KernelArg::Ptr(s.ptr()),
            ];
            // SAFETY: reads the statistics above, writes `rows` shifts.
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
        mark(1)?;
        let l = self.crt.moduli.len();
        let (one, zero) = (1i32, 0i32);
        if let Some(g) = &w.products {
            // SAFETY: planned for these slices and products.
            unsafe { g.run(w.a8.ptr(), w.b8.ptr(), w.c32.ptr()) }?;
        } else {
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
        }
        mark(2)?;
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
        mark(3)?;
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
    fn the_target_keeps_every_sum_below_half_the_product_of_the_moduli() {
        for count in [4, 8, 14, 16] {
            let crt = Crt::new(count).unwrap();
            for k in [1, 300, 8192, MAX_K] {
                let t = crt.target(k).unwrap();
                let bound = (t + (k as f64).sqrt() / 2.0).powi(2);
                let half = crt.m as f64 / 2.0;
                assert!(
                    bound <= half * (1.0 - SUM_MARGIN),
                    "{count} moduli, k = {k}"
                );
                // Not much smaller than it may be.
                assert!(bound >= half * 0.999, "{count} moduli, k = {k}: {bound:e}");
            }
        }
        let crt = Crt::new(16).unwrap();
        assert!(crt.target(8192).unwrap() > 2f64.powi(61));
        assert!(crt.target(MAX_K + 1).unwrap_err().contains("k ="));
        assert!(crt.target(0).is_err());
        assert!(Crt::new(1).unwrap().target(1 << 16).is_err());
    }

    #[test]
    fn the_fp64_reconstruction_gives_the_integer_from_unreduced_sums() {
        let mut rng = StdRng::seed_from_u64(11);
        for count in [3, 8, 14, 15, 16] {
            let crt = Crt::new(count).unwrap();
            let limit = (crt.m as f64 / 2.0 * (1.0 - SUM_MARGIN)) as i128;
            let near = [
                limit,
                -limit,
                limit - 1,
                0,
                1,
                -1,
                1 << 60,
                -(1 << 90) % limit,
            ];
            let random = (0..2000).map(|_| {
                let e = rng.gen_range(0..(crt.m as f64).log2() as u32 - 1);
                let x = rng.gen_range(0..=(1i128 << e)).min(limit);
                if rng.gen() {
                    -x
                } else {
                    x
                }
            });
            for x in near
                .into_iter()
                .filter(|x| x.abs() <= limit)
                .chain(random.collect::<Vec<_>>())
            {
                // Sums as the INT8 products leave them: any 32-bit value
                // congruent to x.
                let c: Vec<i32> = crt
                    .moduli
                    .iter()
                    .map(|&md| {
                        let r = x.rem_euclid(md as i128) as i64;
                        let k = rng.gen_range(-(1i64 << 22)..(1i64 << 22));
                        (r + k * md as i64) as i32
                    })
                    .collect();
                let got = crt.reconstruct_f64(&c);
                let want = x as f64;
                assert!(
                    (got - want).abs() <= want.abs() * 4.0 * f64::EPSILON,
                    "{count} moduli: {x} became {got:e}"
                );
                let r: Vec<i64> = c.iter().map(|&v| v as i64).collect();
                assert_eq!(crt.reconstruct(&r), x);
            }
        }
    }

    #[test]
    fn sums_at_the_cauchy_schwarz_limit_stay_exact() {
        // Equal rows make the bound tight: every sum of |products| is the
        // product of the norms.
        let (m, n, k) = (3, 2, 300);
        for count in [8, 14, 16] {
            let crt = Crt::new(count).unwrap();
            let c = emulate(&crt, m, n, k, |_, _| -0.75, |_, _| 1.25).unwrap();
            for v in c {
                assert!(
                    (v + 0.75 * 1.25 * k as f64).abs() <= 1e-15 * 281.25,
                    "{count} moduli: {v}"
                );
            }
        }
    }

    #[test]
    fn a_row_with_a_nan_or_an_infinity_makes_its_row_of_c_nan() {
        let crt = Crt::new(16).unwrap();
        let (m, n, k) = (4, 3, 10);
        let a = |i: usize, q: usize| match (i, q) {
            (1, 7) => f64::NAN,
            (3, 0) => f64::INFINITY,
            _ => 0.5 + q as f64,
        };
        let c = emulate(&crt, m, n, k, a, |q, j| (q + j) as f64).unwrap();
        for j in 0..n {
            for i in 0..m {
                let v = c[i + j * m];
                if i == 1 || i == 3 {
                    assert!(v.is_nan(), "({i}, {j}): {v}");
                } else {
                    let want: f64 = (0..k).map(|q| a(i, q) * (q + j) as f64).sum();
                    assert!(
                        (v - want).abs() <= 1e-14 * want.abs(),
                        "({i}, {j}): {v} {want}"
                    );
                }
            }
        }
        assert_eq!(shift(0.0, 10.0), 0);
        assert_eq!(shift(f64::INFINITY, 10.0), NOT_FINITE);
        assert_eq!(shift(3.0, 12.0), 2);
        assert_eq!(shift(3.0, 11.99), 1);
        // Subnormal rows scale up without overflowing on the way.
        let tiny = norm([5e-324, 0.0].into_iter());
        assert_eq!(tiny, 5e-324);
        assert_eq!(scaled(5e-324, shift(tiny, 2f64.powi(61))), 1i64 << 61);
    }

    #[test]
    fn the_emulation_matches_dgemm_accuracy_on_the_cpu() {
        let mut rng = StdRng::seed_from_u64(9);
        let (m, n, k) = (9, 7, 300);
        let a: Vec<f64> = (0..m * k).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let b: Vec<f64> = (0..k * n).map(|_| rng.gen_range(-1.0..1.0)).collect();
        for (count, tol) in [(16, 1e-15), (12, 1e-10), (8, 1e-5)] {
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

    /// The slicing kernel's FP64 residues, step for step.
    fn gpu_residues(d: f64, moduli: &[u32]) -> Vec<i8> {
        let low = |x: f64| (x + MAGIC).to_bits() as u32 as i32;
        let dh = d.mul_add(1.0 / 67108864.0, MAGIC) - MAGIC;
        let dl = (-dh).mul_add(67108864.0, d);
        moduli
            .iter()
            .map(|&m| {
                if m == 256 {
                    return low(dl) as i8;
                }
                let t = dh.mul_add(residue(1 << 26, m) as f64, dl);
                let q = t.mul_add(1.0 / m as f64, MAGIC) - MAGIC;
                low((-q).mul_add(m as f64, t)) as i8
            })
            .collect()
    }

    #[test]
    fn the_fp64_residues_of_the_slicing_equal_the_integer_ones() {
        let mut rng = StdRng::seed_from_u64(3);
        let edges = [
            0i64,
            1,
            -1,
            127,
            128,
            -128,
            255,
            256,
            (1 << 62) - 1,
            -(1 << 62) + 1,
        ];
        let random = (0..20000).map(|_| {
            let e = rng.gen_range(0..63);
            let v = rng.gen_range(0..=((1u64 << e) - 1)) as i64;
            if rng.gen() {
                -v
            } else {
                v
            }
        });
        for v in edges.into_iter().chain(random.collect::<Vec<_>>()) {
            // Only integers a double holds exactly reach the slicing.
            let d = v as f64;
            let exact = d as i64;
            let want: Vec<i8> = MODULI.iter().map(|&m| residue(exact, m)).collect();
            assert_eq!(gpu_residues(d, &MODULI), want, "{exact}");
        }
    }

    #[test]
    fn the_kernels_are_generated_with_the_constants() {
        let crt = Crt::new(4).unwrap();
        let s = source(&crt);
        assert!(s.contains("#define L 4"));
        assert!(s.contains("MOD[L] = {256, 255, 253, 251}"));
        assert!(s.contains("#define MC3 "));
        for k in [
            "ozaki_stats",
            "ozaki_shift",
            "ozaki_slice",
            "ozaki_reconstruct",
        ] {
            assert!(s.contains(k));
        }
    }
}
