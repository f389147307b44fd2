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
//! ((M / m_l)^-1 mod m_l) mod M is split into 32-bit chunks (four for up to
//! 16 moduli, eight for 34), so every residue times a chunk and every sum of
//! L of them is an integer below 2^53; the quotient by M is rounded from
//! those sums (the margin above keeps it away from a tie) and subtracted
//! chunk by chunk, and the chunks are joined with fused multiply-adds (FP64)
//! or in double-double. With alpha = 0, C becomes beta C without reading
//! the products (BLAS semantics: NaNs in A or B do not reach C).

use std::fmt::Write as _;

use cudarc::cublas::sys as cb;
use dashu_int::ops::BitTest;
use dashu_int::{IBig, UBig};
use hone_gpu::launch::{DeviceBuffer, Event, KernelArg, LaunchDims, Module};
use hone_gpu::{nvrtc, CompileOptions, Gpu, ModuleCache};

use super::dd::Dd;
use super::{Flavor, GemmProblem, Op};
use crate::routine::{LibError, Result};
use crate::vendor::cublas::{status, Cublas};
use crate::vendor::cublaslt::{Int8Batch, Int8Gemm};

/// Pairwise coprime moduli, largest first: the composites 256, 255, 253,
/// 247 and 217 and primes that divide none of them. 34 keep M below
/// 2^256 (eight 32-bit chunks) and every scaled element below 2^126 (the
/// five 26-bit pieces of the slicing).
pub const MODULI: [u32; 34] = [
    256, 255, 253, 251, 247, 239, 233, 229, 227, 223, 217, 211, 199, 197, 193, 191, 181, 179, 173,
    167, 163, 157, 151, 149, 139, 137, 131, 127, 113, 109, 107, 103, 101, 97,
];
/// The most moduli an FP64 product takes: all of them. Up to 16 keep every
/// scaled element below 2^63 (about 2^62.02 at most) and the slicing splits
/// it in two 26-bit pieces; more (for inputs whose exponent range needs
/// them, see [`super::ozaki_fit`]) take the double-double slicing's five.
pub const MAX_FP64_MODULI: usize = MODULI.len();
/// The most moduli the FP64 slicing's two-piece split serves.
const TWO_PIECE_MODULI: usize = 16;
/// K at most this keeps every 32-bit sum of products of 8-bit residues
/// (each at most 128^2 in magnitude) exact.
pub const MAX_K: usize = (1 << 17) - 1;

/// The shift that marks a row or column holding an infinity or a NaN.
pub const NOT_FINITE: i32 = i32::MAX;

/// Relative margin below M / 2 that the sums keep: the quotient of the
/// reconstruction is rounded from sums accurate to about 2^-40, so a margin
/// of 2^-16 keeps it from a tie.
const SUM_MARGIN: f64 = 1.0 / 65536.0;
/// Relative margin of the norms, which are rounded sums of K squares (and,
/// for double-double elements, leave out the low words).
const NORM_MARGIN: f64 = 1.0 / 1048576.0;

/// The Chinese-remainder constants of the first `count` moduli.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crt {
    pub moduli: Vec<u32>,
    /// Their product.
    pub m: UBig,
    /// (M / m_l)^-1 mod m_l.
    pub y_l: Vec<u32>,
    /// (M / m_l) y_l, below M: x = sum r_l w_l mod M for residues r_l of x.
    pub w_l: Vec<UBig>,
    /// 32-bit chunks that hold M.
    pub chunks: usize,
}

fn inverse_mod(a: &UBig, m: u32) -> u32 {
    let a = u32::try_from(&(a % UBig::from(m))).expect("below m") as i64;
    let (mut t, mut new_t, mut r, mut new_r) = (0i64, 1i64, m as i64, a);
    while new_r != 0 {
        let q = r / new_r;
        (t, new_t) = (new_t, t - q * new_t);
        (r, new_r) = (new_r, r - q * new_r);
    }
    t.rem_euclid(m as i64) as u32
}

/// The `n` 32-bit chunks of `v`, most significant first, as exact doubles.
fn chunks(v: &UBig, n: usize) -> Vec<f64> {
    let mask = UBig::from(u32::MAX);
    (0..n)
        .rev()
        .map(|c| u32::try_from(&((v >> (32 * c)) & &mask)).expect("masked") as f64)
        .collect()
}

fn to_f64(v: &UBig) -> f64 {
    v.to_f64().value()
}

const MAGIC: f64 = 6755399441055744.0; // 1.5 * 2^52: adding it rounds to an integer
const TWO32: f64 = 4294967296.0;

impl Crt {
    /// The constants of `count` moduli (1 to 34).
    pub fn new(count: usize) -> std::result::Result<Crt, String> {
        if !(1..=MODULI.len()).contains(&count) {
            return Err(format!(
                "{count} moduli: the emulation takes 1 to {}",
                MODULI.len()
            ));
        }
        let moduli = MODULI[..count].to_vec();
        let m: UBig = moduli.iter().map(|&x| UBig::from(x)).product();
        let mut y_l = Vec::new();
        let mut w_l = Vec::new();
        for &x in &moduli {
            let ml = &m / UBig::from(x);
            let y = inverse_mod(&ml, x);
            y_l.push(y);
            // (M / m_l) y_l < (M / m_l) m_l = M.
            w_l.push(ml * UBig::from(y));
        }
        let chunks = m.bit_len().div_ceil(32);
        Ok(Crt {
            moduli,
            m,
            y_l,
            w_l,
            chunks,
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
        let half = to_f64(&self.m) / 2.0;
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

    /// The fewest moduli (at most `max`) for which every entry's error is
    /// at most about sqrt(k) `unit` ||row of op(A)|| ||column of op(B)||
    /// (2-norms), the size of the rounding errors of a floating-point dot
    /// product of length k in that unit: each scaled element is rounded by
    /// at most one half, at most ||row|| / target in its own units, so the
    /// error is at most 2 sqrt(k) ||row|| ||column|| / target (and a
    /// smaller second-order term). `None` when `max` moduli do not reach it.
    pub fn fewest(k: usize, unit: f64, max: usize) -> Option<usize> {
        (1..=max.min(MODULI.len())).find(|&l| {
            Crt::new(l)
                .ok()
                .and_then(|c| c.target(k).ok())
                .is_some_and(|t| 2.0 / t <= unit)
        })
    }

    /// The integer whose residues are `r` (|x| < M / 2), exactly.
    pub fn reconstruct(&self, r: &[i64]) -> IBig {
        let mut acc = UBig::ZERO;
        for ((&x, w), &res) in self.moduli.iter().zip(&self.w_l).zip(r) {
            acc += w * UBig::from(res.rem_euclid(x as i64) as u64);
        }
        let acc = acc % &self.m;
        if acc > &self.m >> 1 {
            IBig::from(acc) - IBig::from(self.m.clone())
        } else {
            IBig::from(acc)
        }
    }

    /// The chunk sums, the rounded quotient and the chunks of x = S - q M
    /// for the 32-bit sums `c`, step for step as the GPU's reconstruction
    /// computes them (each an exact integer).
    fn chunked(&self, c: &[i32]) -> Vec<f64> {
        let n = self.chunks;
        let mut s = vec![0.0f64; n];
        for ((&md, w), &cl) in self.moduli.iter().zip(&self.w_l).zip(c) {
            let cl = cl as f64;
            let q = cl.mul_add(1.0 / md as f64, MAGIC) - MAGIC;
            let r = (-q).mul_add(md as f64, cl);
            for (acc, chunk) in s.iter_mut().zip(chunks(w, n)) {
                *acc = r.mul_add(chunk, *acc);
            }
        }
        let mf = to_f64(&self.m);
        let q = (0..n)
            .rev()
            .fold(0.0, |acc, c| {
                s[c].mul_add(2f64.powi(32 * (n - 1 - c) as i32) / mf, acc)
            })
            .round_ties_even();
        chunks(&self.m, n)
            .iter()
            .zip(&s)
            .map(|(mc, sc)| (-q).mul_add(*mc, *sc))
            .collect()
    }

    /// The value whose residues are the 32-bit sums `c` (|x| below
    /// (M / 2)(1 - 2^-16)), in FP64, step for step as the GPU's
    /// reconstruction computes it.
    pub fn reconstruct_f64(&self, c: &[i32]) -> f64 {
        let (hi, lo) = self.reconstruct_dd(c);
        hi + lo
    }

    /// As [`Crt::reconstruct_f64`], to a double-double (hi, lo).
    pub fn reconstruct_dd(&self, c: &[i32]) -> (f64, f64) {
        let x = self.chunked(c);
        x[1..].iter().fold((x[0], 0.0), |(hi, lo), &xc| {
            let (s, e) = super::dd::two_sum(hi * TWO32, xc);
            quick_two_sum(s, e + lo * TWO32)
        })
    }
}

fn quick_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
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
pub fn residue(v: i128, m: u32) -> i8 {
    let m = m as i128;
    let mut r = v % m;
    if r >= (m + 1) / 2 {
        r -= m;
    }
    if r < -(m / 2) {
        r += m;
    }
    r as i8
}

/// The shift of a row the way the GPU computes it: the largest s with
/// ||x|| 2^s <= target, the norm kept as sqrt(sum) 2^e so that it may
/// exceed the largest double; 0 for a zero row, [`NOT_FINITE`] for one
/// holding an infinity or a NaN.
pub fn row_shift(x: impl Iterator<Item = f64> + Clone, target: f64) -> i32 {
    let amax = x.clone().fold(0.0f64, |m, v| {
        if v.abs() > m || v.is_nan() {
            v.abs()
        } else {
            m
        }
    });
    if !amax.is_finite() {
        return NOT_FINITE;
    }
    if amax == 0.0 {
        return 0;
    }
    let e = amax.log2().floor() as i32 + 1;
    let root = x.map(|v| ldexp(v, -e).powi(2)).sum::<f64>().sqrt();
    let mut s = target.log2().floor() as i32 - root.log2().floor() as i32 - e;
    while ldexp(root, s + e) > target {
        s -= 1;
    }
    while ldexp(root, s + e + 1) <= target {
        s += 1;
    }
    s
}

/// x 2^s, rounded to the nearest integer (ties to even).
pub fn scaled(x: f64, s: i32) -> i128 {
    if s == NOT_FINITE {
        return 0;
    }
    ldexp(x, s).round_ties_even() as i128
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
        .map(|i| row_shift((0..k).map(|q| a(i, q)), target))
        .collect();
    let sb: Vec<i32> = (0..n)
        .map(|j| row_shift((0..k).map(|q| b(q, j)), target))
        .collect();
    let ai: Vec<i128> = (0..m * k)
        .map(|e| scaled(a(e / k, e % k), sa[e / k]))
        .collect();
    let bi: Vec<i128> = (0..k * n)
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

/// The CUDA of the scaling, slicing and reconstruction kernels for `crt`,
/// for FP64 matrices or (`dd`) double-double ones stored as (hi, lo)
/// pairs.
pub fn source(crt: &Crt, dd: bool) -> String {
    let l = crt.moduli.len();
    let n = crt.chunks;
    let num = |v: f64| format!("{v:e}");
    let list = |v: Vec<String>| v.join(", ");
    let mut s = String::new();
    let _ = writeln!(
        s,
        "#define L {l}\n#define NCH {n}\n#define DD {}\n#define FIVE_PIECES {}",
        dd as i32,
        (dd || l > TWO_PIECE_MODULI) as i32
    );
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
    // 2^(26 p) mod m as signed residues, for the slicing's pieces.
    for p in 1..=4 {
        let _ = writeln!(
            s,
            "__device__ constexpr double P{}[L] = {{{}}};",
            26 * p,
            list(
                crt.moduli
                    .iter()
                    .map(|&m| {
                        let r = UBig::from(2u32).pow(26 * p) % UBig::from(m);
                        let r = u32::try_from(&r).expect("below m") as i64;
                        (residue(r as i128, m) as i32).to_string()
                    })
                    .collect()
            )
        );
    }
    let w: Vec<Vec<f64>> = crt.w_l.iter().map(|w| chunks(w, n)).collect();
    let rows: Vec<String> = (0..n)
        .map(|c| format!("{{{}}}", list(w.iter().map(|wl| num(wl[c])).collect())))
        .collect();
    let _ = writeln!(
        s,
        "__device__ constexpr double W[NCH][L] = {{{}}};",
        rows.join(", ")
    );
    let mf = to_f64(&crt.m);
    let _ = writeln!(
        s,
        "__device__ constexpr double MCH[NCH] = {{{}}};",
        list(chunks(&crt.m, n).into_iter().map(num).collect())
    );
    let _ = writeln!(
        s,
        "__device__ constexpr double FCH[NCH] = {{{}}};",
        list(
            (0..n)
                .map(|c| num(2f64.powi(32 * (n - 1 - c) as i32) / mf))
                .collect()
        )
    );
    s.push_str(KERNELS);
    s
}

/// Rows of the statistics kernels' blocks and the inner-index chunk each
/// block reduces.
const STAT_ROWS: usize = 32;
pub(super) const STAT_CHUNK: usize = 1024;

const KERNELS: &str = r#"
#define MAGIC 6755399441055744.0
#define TWO32 4294967296.0
#define STAT_ROWS 32
#define STAT_CHUNK 1024
#define WORDS (DD ? 2 : 1)

// Where element (r, q) of op(X) is stored, in elements: q is the inner
// index; `contig` says whether it is the contiguous one in storage.
__device__ __forceinline__ long long ozaki_index(long long ld, int r, int q, int contig) {
  return contig ? (long long)r * ld + q : (long long)q * ld + r;
}

// Element (r, q) of op(X), its high word for double-double.
__device__ __forceinline__ double ozaki_at(const double* X, long long ld, int r, int q, int contig) {
  return X[ozaki_index(ld, r, q, contig) * WORDS];
}

// The statistics of rows r0..r0+31 over the inner chunk q0..q0+STAT_CHUNK-1,
// loads coalesced either way: with the rows contiguous, lanes walk rows and
// the 8 warps split the chunk; else each warp takes 4 rows and its lanes
// walk the chunk. pass 0 reduces max |x| (atomicMax on the bits, which order
// non-negative doubles and put NaN above infinity); pass 1 sums the squares
// of x 2^-e, e the exponent of the row's largest, into partial[chunk][row]
// (summed in order later, so that the shifts do not vary between runs)
// and, where l1 is given, the sums of |x| 2^-e into l1 the same way (for
// the fit of the moduli).
// One element |x| = v into the statistics: the largest (pass 0), or the
// squares and magnitudes of x 2^-e.
__device__ __forceinline__ void ozaki_stat_step(int pass, double v, int e, double& acc,
                                                double& acc1) {
  if (pass) {
    const double x = ldexp(v, -e);
    acc = fma(x, x, acc);
    acc1 += x;
  } else {
    acc = v > acc || v != v ? v : acc;
  }
}

extern "C" __global__ void __launch_bounds__(256) ozaki_stats(const double* X, int ld, int rows,
                                                              int inner, int contig, int pass,
                                                              unsigned long long* amax,
                                                              double* partial, double* l1) {
  __shared__ double red[8][33], red1[8][33];
  const int r0 = blockIdx.x * STAT_ROWS, q0 = blockIdx.y * STAT_CHUNK;
  const int q1 = min(inner, q0 + STAT_CHUNK);
  const int tx = threadIdx.x, ty = threadIdx.y;
  if (!contig) {
    const int r = r0 + tx;
    double acc = 0.0, acc1 = 0.0;
    if (r < rows) {
      int e = 0;
      if (pass) frexp(__longlong_as_double((long long)amax[r]), &e);
      for (int q = q0 + ty; q < q1; q += 8) {
        const double v = fabs(ozaki_at(X, ld, r, q, 0));
        ozaki_stat_step(pass, v, e, acc, acc1);
      }
    }
    red[ty][tx] = acc;
    red1[ty][tx] = acc1;
    __syncthreads();
    if (ty == 0 && r < rows) {
      for (int y = 1; y < 8; ++y) {
        const double o = red[y][tx];
        acc = pass ? acc + o : (o > acc || o != o ? o : acc);
        acc1 += red1[y][tx];
      }
      if (pass) {
        partial[(size_t)blockIdx.y * rows + r] = acc;
        if (l1) l1[(size_t)blockIdx.y * rows + r] = acc1;
      } else {
        atomicMax(&amax[r], (unsigned long long)__double_as_longlong(acc));
      }
    }
  } else {
    for (int y = ty; y < STAT_ROWS; y += 8) {
      const int r = r0 + y;
      if (r >= rows) break;
      int e = 0;
      if (pass) frexp(__longlong_as_double((long long)amax[r]), &e);
      double acc = 0.0, acc1 = 0.0;
      for (int q = q0 + tx; q < q1; q += 32) {
        const double v = fabs(ozaki_at(X, ld, r, q, 1));
        ozaki_stat_step(pass, v, e, acc, acc1);
      }
      for (int o = 16; o > 0; o >>= 1) {
        const double w = __shfl_xor_sync(0xffffffffu, acc, o);
        acc = pass ? acc + w : (w > acc || w != w ? w : acc);
        acc1 += __shfl_xor_sync(0xffffffffu, acc1, o);
      }
      if (tx == 0) {
        if (pass) {
          partial[(size_t)blockIdx.y * rows + r] = acc;
          if (l1) l1[(size_t)blockIdx.y * rows + r] = acc1;
        } else {
          atomicMax(&amax[r], (unsigned long long)__double_as_longlong(acc));
        }
      }
    }
  }
}

// shift[r]: the largest s with norm(r) 2^s <= target; 0 for a zero row,
// NOT_FINITE for a row holding an infinity or a NaN. (The root of the
// scaled sum of squares is at most sqrt(k), so s + e stays small.)
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
  // norm = root 2^e, kept apart: it may exceed the largest double.
  const double root = sqrt(sum);
  int s = ilogb(target) - ilogb(root) - e;
  while (ldexp(root, s + e) > target) --s;
  while (ldexp(root, s + e + 1) <= target) ++s;
  shift[r] = s;
}

// x rounded to an integer, for |x| < 2^51.
__device__ __forceinline__ double ozaki_rint(double x) { return (x + MAGIC) - MAGIC; }

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

// The integer x (an exact double, |x| < 2^129) as sum_k p[k] 2^(26 k), each
// |p[k]| <= 2^25 (2^26 for the top one): every step is exact.
__device__ __forceinline__ void ozaki_pieces(double x, double* p) {
  p[4] = ozaki_rint(x * 0x1p-104); x = fma(-p[4], 0x1p104, x);
  p[3] = ozaki_rint(x * 0x1p-78); x = fma(-p[3], 0x1p78, x);
  p[2] = ozaki_rint(x * 0x1p-52); x = fma(-p[2], 0x1p52, x);
  p[1] = ozaki_rint(x * 0x1p-26); p[0] = fma(-p[1], 0x1p26, x);
}

// The residues of the integer hi + tl (double-double elements; both exact
// integers): their pieces added (each sum below 2^27), then t = sum p[k]
// (2^(26 k) mod m) below 2^36 and congruent, reduced as above.
__device__ __forceinline__ void ozaki_residues_dd(double hi, double tl, signed char* out,
                                                  size_t stride) {
  double a[5], b[5];
  ozaki_pieces(hi, a);
  ozaki_pieces(tl, b);
#pragma unroll
  for (int k = 0; k < 5; ++k) a[k] += b[k];
#pragma unroll
  for (int l = 0; l < L; ++l) {
    if (MOD[l] == 256) {
      out[l * stride] = (signed char)__double2loint(a[0] + MAGIC);
    } else {
      const double t = fma(a[4], P104[l], fma(a[3], P78[l], fma(a[2], P52[l], fma(a[1], P26[l], a[0]))));
      const double q = fma(t, INV_MOD[l], MAGIC) - MAGIC;
      out[l * stride] = (signed char)__double2loint(fma(-q, (double)MOD[l], t) + MAGIC);
    }
  }
}

// out[l][r][q] (q contiguous, rows padded to Rp, inner to Kp) = the residue
// modulo MOD[l] of rint(op(X)(r, q) 2^shift[r]) (for double-double, of the
// rounded high word plus the rounded rest). 32 x 32 tiles through shared
// memory so that reads and writes both coalesce.
extern "C" __global__ void __launch_bounds__(256) ozaki_slice(const double* X, int ld, int rows,
                                                              int inner, int contig,
                                                              const int* shift, signed char* out,
                                                              int Kp, int Rp) {
  __shared__ double tile[32][33];
#if DD
  __shared__ double tail[32][33];
#endif
  // Row tiles on grid.x, which is not capped at 65535.
  const int r0 = blockIdx.x * 32, q0 = blockIdx.y * 32;
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int y = ty; y < 32; y += 8) {
    // Contiguous inner index: lanes walk q; else lanes walk r.
    int r = contig ? r0 + y : r0 + tx;
    int q = contig ? q0 + tx : q0 + y;
    double v = 0.0, w = 0.0;
    if (r < rows && q < inner && shift[r] != NOT_FINITE) {
      const long long at = ozaki_index(ld, r, q, contig) * WORDS;
      const double h = ldexp(X[at], shift[r]);
      v = rint(h);
#if DD
      w = rint((h - v) + ldexp(X[at + 1], shift[r]));
#endif
    }
    if (contig) tile[y][tx] = v;
    else tile[tx][y] = v;
#if DD
    if (contig) tail[y][tx] = w;
    else tail[tx][y] = w;
#endif
  }
  __syncthreads();
  const size_t plane = (size_t)Kp * Rp;
  for (int y = ty; y < 32; y += 8) {
    int r = r0 + y, q = q0 + tx;
    if (r >= Rp || q >= Kp) continue;
#if DD
    ozaki_residues_dd(tile[y][tx], tail[y][tx], out + (size_t)r * Kp + q, plane);
#elif FIVE_PIECES
    ozaki_residues_dd(tile[y][tx], 0.0, out + (size_t)r * Kp + q, plane);
#else
    ozaki_residues(tile[y][tx], out + (size_t)r * Kp + q, plane);
#endif
  }
}

__device__ __forceinline__ void ozaki_dd_add(double ah, double al, double bh, double bl, double& h,
                                             double& l) {
  const double s = ah + bh, bb = s - ah;
  double e = (ah - (s - bb)) + (bh - bb) + (al + bl);
  h = s + e;
  l = e - (h - s);
}

__device__ __forceinline__ void ozaki_dd_mul(double ah, double al, double bh, double bl, double& h,
                                             double& l) {
  const double p = ah * bh;
  const double e = fma(ah, bl, fma(al, bh, fma(ah, bh, -p)));
  h = p + e;
  l = e - (h - p);
}

// C = alpha 2^-(sa[i] + sb[j]) CRT(Cl[.][i][j]) + beta C, in FP64 (see the
// module's comment for why every step before joining the chunks is exact);
// double-double C joins the chunks in double-double.
extern "C" __global__ void __launch_bounds__(256) ozaki_reconstruct(
    const int* Cl, int Mp, int Np, int M, int N, const int* sa, const int* sb, double alpha_hi,
    double alpha_lo, double beta_hi, double beta_lo, double* C, int ldc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M) return;
  const size_t plane = (size_t)Mp * Np;
  const bool scale_only = alpha_hi == 0.0 && alpha_lo == 0.0;
  const int si = scale_only ? 0 : sa[i];
  // grid.y is capped at 65535: columns beyond it loop.
  for (int j = blockIdx.y; j < N; j += gridDim.y) {
    const size_t at = (size_t)j * Mp + i;
    double* c = C + ((size_t)j * ldc + i) * WORDS;
    if (scale_only) {
      // BLAS: alpha = 0 leaves C = beta C, whatever A and B hold.
#if DD
      double h = 0.0, l = 0.0;
      if (beta_hi != 0.0 || beta_lo != 0.0) ozaki_dd_mul(beta_hi, beta_lo, c[0], c[1], h, l);
      c[0] = h;
      c[1] = l;
#else
      *c = beta_hi == 0.0 ? 0.0 : beta_hi * *c;
#endif
      continue;
    }
    const int sj = sb[j];
    if (si == NOT_FINITE || sj == NOT_FINITE) {
      const double nan = __longlong_as_double(0x7ff8000000000000ll);
      c[0] = nan;
#if DD
      c[1] = nan;
#endif
      continue;
    }
    double S[NCH];
#pragma unroll
    for (int k = 0; k < NCH; ++k) S[k] = 0.0;
#pragma unroll
    for (int l = 0; l < L; ++l) {
      // The 32-bit sum as a double: 2^52 + 2^31 + c, less 2^52 + 2^31.
      const double cl = __hiloint2double(0x43300000, Cl[l * plane + at] ^ 0x80000000) -
                        4503601774854144.0;
      const double q = fma(cl, INV_MOD[l], MAGIC) - MAGIC;
      const double r = fma(-q, (double)MOD[l], cl);
#pragma unroll
      for (int k = 0; k < NCH; ++k) S[k] = fma(r, W[k][l], S[k]);
    }
    double q = 0.0;
#pragma unroll
    for (int k = NCH - 1; k >= 0; --k) q = fma(S[k], FCH[k], q);
    q = rint(q);
    double X[NCH];
#pragma unroll
    for (int k = 0; k < NCH; ++k) X[k] = fma(-q, MCH[k], S[k]);
    // The chunks joined in double-double, so that an FP64 result is rounded
    // once.
    double hi = X[0], lo = 0.0;
#pragma unroll
    for (int k = 1; k < NCH; ++k) {
      const double a = hi * TWO32, s = a + X[k], bb = s - a;
      const double e = (a - (s - bb)) + (X[k] - bb) + lo * TWO32;
      hi = s + e;
      lo = e - (hi - s);
    }
#if DD
    hi = ldexp(hi, -(si + sj));
    lo = ldexp(lo, -(si + sj));
    double h, l;
    ozaki_dd_mul(alpha_hi, alpha_lo, hi, lo, h, l);
    if (beta_hi != 0.0 || beta_lo != 0.0) {
      double bh, bl;
      ozaki_dd_mul(beta_hi, beta_lo, c[0], c[1], bh, bl);
      ozaki_dd_add(h, l, bh, bl, h, l);
    }
    c[0] = h;
    c[1] = l;
#else
    const double v = ldexp(hi + lo, -(si + sj));
    *c = beta_hi == 0.0 ? alpha_hi * v : alpha_hi * v + beta_hi * *c;
#endif
  }
}
"#;

pub(super) fn cdiv(a: usize, b: usize) -> usize {
    a.div_ceil(b)
}

/// op(X) as the scaling kernels read it: its stored matrix, leading
/// dimension, rows, and whether the inner index is the contiguous one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Operand {
    pub ptr: u64,
    pub ld: usize,
    pub rows: usize,
    pub contig: bool,
}

impl Operand {
    /// op(A) (rows of A's product) and op(B) (its columns) of `p` at `a`
    /// and `b`.
    pub(super) fn pair(p: &GemmProblem, a: u64, b: u64) -> [Operand; 2] {
        [
            Operand {
                ptr: a,
                ld: p.lda,
                rows: p.m,
                contig: p.layout.a == Op::T,
            },
            Operand {
                ptr: b,
                ld: p.ldb,
                rows: p.n,
                contig: p.layout.b == Op::N,
            },
        ]
    }
}

/// One thread per row, in blocks of 256.
pub(super) fn per_row(rows: usize) -> LaunchDims {
    LaunchDims {
        grid: (cdiv(rows, 256) as u32, 1, 1),
        block: (256, 1, 1),
        shared_mem: 0,
    }
}

/// Where the statistics of one operand go: its rows' largest magnitudes,
/// and per chunk of the inner index the sums of their scaled squares and
/// (where `l1` is not 0) of their scaled magnitudes.
#[derive(Clone, Copy)]
pub(super) struct Stats<'a> {
    pub amax: &'a DeviceBuffer,
    pub partial: &'a DeviceBuffer,
    pub l1: Option<&'a DeviceBuffer>,
}

/// Both passes of `ozaki_stats` over `x`'s rows of `k` elements: the
/// largest magnitudes, then the sums.
///
/// # Safety
/// `x` must hold its matrix; `amax` at least `rows` 64-bit words,
/// `partial` (and `l1`) `rows` x ceil(k / STAT_CHUNK) doubles.
pub(super) unsafe fn statistics(
    module: &Module,
    gpu: &Gpu,
    x: Operand,
    k: usize,
    at: Stats<'_>,
) -> Result<()> {
    at.amax.fill_async(gpu, 0)?;
    for pass in 0..2 {
        // SAFETY: as the caller promised.
        unsafe { stats_pass(module, gpu, x, k, pass, at) }?;
    }
    Ok(())
}

/// Pass `pass` of `ozaki_stats` (see [`statistics`]).
///
/// # Safety
/// As [`statistics`].
unsafe fn stats_pass(
    module: &Module,
    gpu: &Gpu,
    x: Operand,
    k: usize,
    pass: i32,
    at: Stats<'_>,
) -> Result<()> {
    let dims = LaunchDims {
        grid: (
            cdiv(x.rows, STAT_ROWS) as u32,
            cdiv(k, STAT_CHUNK) as u32,
            1,
        ),
        block: (32, 8, 1),
        shared_mem: 0,
    };
    let args = [
        KernelArg::Ptr(x.ptr),
        KernelArg::I32(x.ld as i32),
        KernelArg::I32(x.rows as i32),
        KernelArg::I32(k as i32),
        KernelArg::I32(x.contig as i32),
        KernelArg::I32(pass),
        KernelArg::Ptr(at.amax.ptr()),
        KernelArg::Ptr(at.partial.ptr()),
        KernelArg::Ptr(at.l1.map_or(0, |b| b.ptr())),
    ];
    // SAFETY: as the caller promised.
    unsafe { module.function("ozaki_stats")?.launch(gpu, &dims, &args) }?;
    Ok(())
}

/// `kernel` (`ozaki_slice` or `ozaki_fit_magnitudes`) over `x`'s 32 x 32
/// tiles, padded to rp x kp, with one value per row (`per_row`) and its
/// output.
///
/// # Safety
/// `x` must hold its matrix, `per_row` `rows` values and `out` what the
/// kernel writes for rp x kp elements.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn tiles(
    module: &Module,
    gpu: &Gpu,
    kernel: &str,
    x: Operand,
    k: usize,
    per_row: u64,
    out: u64,
    kp: usize,
    rp: usize,
) -> Result<()> {
    let dims = LaunchDims {
        grid: (cdiv(rp, 32) as u32, cdiv(kp, 32) as u32, 1),
        block: (32, 8, 1),
        shared_mem: 0,
    };
    let args = [
        KernelArg::Ptr(x.ptr),
        KernelArg::I32(x.ld as i32),
        KernelArg::I32(x.rows as i32),
        KernelArg::I32(k as i32),
        KernelArg::I32(x.contig as i32),
        KernelArg::Ptr(per_row),
        KernelArg::Ptr(out),
        KernelArg::I32(kp as i32),
        KernelArg::I32(rp as i32),
    ];
    // SAFETY: as the caller promised.
    unsafe { module.function(kernel)?.launch(gpu, &dims, &args) }?;
    Ok(())
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

/// The emulated DGEMM (or double-double GEMM) on one GPU, for a number of
/// moduli.
pub struct OzakiGemm<'g> {
    gpu: &'g Gpu,
    crt: Crt,
    /// Double-double elements as (hi, lo) pairs, else FP64.
    dd: bool,
    module: Module,
    cublas: Cublas,
    work: Option<Workspace>,
}

impl<'g> OzakiGemm<'g> {
    /// The FP64 product with `moduli` moduli (1 to [`MAX_FP64_MODULI`]).
    pub fn new(gpu: &'g Gpu, moduli: usize) -> Result<OzakiGemm<'g>> {
        if moduli > MAX_FP64_MODULI {
            return Err(LibError::Usage(format!(
                "{moduli} moduli: the FP64 emulation takes 1 to {MAX_FP64_MODULI}"
            )));
        }
        OzakiGemm::build(gpu, moduli, false)
    }

    /// The double-double product ((hi, lo) pairs) with `moduli` moduli
    /// (1 to 34).
    pub fn new_dd(gpu: &'g Gpu, moduli: usize) -> Result<OzakiGemm<'g>> {
        OzakiGemm::build(gpu, moduli, true)
    }

    fn build(gpu: &'g Gpu, moduli: usize, dd: bool) -> Result<OzakiGemm<'g>> {
        let crt = Crt::new(moduli).map_err(LibError::Usage)?;
        let target = nvrtc::target_for(gpu.props().compute_capability)?;
        let cached = ModuleCache::open_default().compile(
            &source(&crt, dd),
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
            dd,
            module,
            cublas,
            work: None,
        })
    }

    pub fn crt(&self) -> &Crt {
        &self.crt
    }

    /// Frees the scratch of the last shape (the next call allocates it
    /// again), keeping the compiled kernels.
    pub fn release(&mut self) {
        self.work = None;
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
    pub(super) fn padded(p: &GemmProblem) -> (usize, usize, usize) {
        (cdiv(p.m, 16) * 16, cdiv(p.n, 16) * 16, cdiv(p.k, 16) * 16)
    }

    /// Device bytes of the scratch for `p`.
    pub fn workspace_bytes(&self, p: &GemmProblem) -> usize {
        let (mp, np, kp) = OzakiGemm::padded(p);
        let l = self.crt.moduli.len();
        let rows = mp.max(np);
        8 * rows * (1 + cdiv(kp, STAT_CHUNK))
            + 4 * (mp + np)
            + l * kp * (mp + np)
            + 4 * l * mp * np
            + crate::vendor::cublaslt::WORKSPACE
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
        // The slicing writes every element of the padded slices (zeros in
        // the padding); until then a byte pattern, so that the cuBLASLt
        // candidates are timed on operands that are not all zero (the
        // tensor cores draw less power on zeros).
        w.a8.fill_async(self.gpu, 0x5b)?;
        w.b8.fill_async(self.gpu, 0xa7)?;
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
        unsafe {
            self.run(
                p,
                Dd::from_f64(alpha),
                a,
                b,
                Dd::from_f64(beta),
                c,
                None,
                None,
            )
        }
    }

    /// Enqueues the double-double product ((hi, lo) pairs, column-major,
    /// BLAS semantics) on the GPU's stream.
    ///
    /// # Safety
    /// `a`, `b`, `c` must hold `p`'s stored double-double matrices on this
    /// GPU.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn enqueue_dd(
        &mut self,
        p: &GemmProblem,
        alpha: Dd,
        a: u64,
        b: u64,
        beta: Dd,
        c: u64,
    ) -> Result<()> {
        // SAFETY: as the caller promised.
        unsafe { self.run(p, alpha, a, b, beta, c, None, None) }
    }

    /// [`OzakiGemm::enqueue_dd`] or, for an FP64 emulation,
    /// [`OzakiGemm::enqueue`] with the high words of alpha and beta; with
    /// `measured`, the statistics of op(A) and op(B) already measured (by
    /// the fit, on the same matrices).
    ///
    /// # Safety
    /// As [`OzakiGemm::enqueue_dd`]; `measured` must hold the statistics
    /// of `a` and `b` for `p`.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn enqueue_flavor(
        &mut self,
        p: &GemmProblem,
        alpha: Dd,
        a: u64,
        b: u64,
        beta: Dd,
        c: u64,
        measured: Option<[Stats<'_>; 2]>,
    ) -> Result<()> {
        let (alpha, beta) = if self.dd {
            (alpha, beta)
        } else {
            (Dd::from_f64(alpha.hi), Dd::from_f64(beta.hi))
        };
        // SAFETY: as the caller promised.
        unsafe { self.run(p, alpha, a, b, beta, c, None, measured) }
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
            unsafe { self.run(p, Dd::from_f64(1.0), a, b, Dd::ZERO, c, Some(marks), None) }?;
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
        alpha: Dd,
        a: u64,
        b: u64,
        beta: Dd,
        c: u64,
        marks: Option<[&Event; 4]>,
        measured: Option<[Stats<'_>; 2]>,
    ) -> Result<()> {
        p.validate().map_err(LibError::Usage)?;
        let want = if self.dd {
            Flavor::Ddgemm
        } else {
            Flavor::Dgemm
        };
        if p.flavor != want {
            return Err(LibError::Usage(format!(
                "{p}: this emulation takes {} problems",
                if self.dd {
                    "double-double ((hi, lo) pairs)"
                } else {
                    "FP64"
                }
            )));
        }
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
        let shift = self.module.function("ozaki_shift")?;
        let rebuild = self.module.function("ozaki_reconstruct")?;
        let chunks = cdiv(p.k, STAT_CHUNK);
        let [op_a, op_b] = Operand::pair(p, a, b);
        // alpha = 0: C = beta C by the reconstruction alone, which then
        // reads neither the shifts nor the products.
        let scale_only = alpha.hi == 0.0 && alpha.lo == 0.0;
        let own = Stats {
            amax: &w.amax,
            partial: &w.partial,
            l1: None,
        };
        let sides = [(op_a, &w.sa, &w.a8, mp), (op_b, &w.sb, &w.b8, np)];
        for (side, (x, s, out, rp)) in sides.into_iter().enumerate() {
            if scale_only {
                break;
            }
            let st = match measured {
                Some(m) => m[side],
                None => {
                    // SAFETY: the statistics buffers hold `rows` maxima and
                    // `rows` x `chunks` partial sums.
                    unsafe { statistics(&self.module, gpu, x, p.k, own) }?;
                    own
                }
            };
            let args = [
                KernelArg::Ptr(st.amax.ptr()),
                KernelArg::Ptr(st.partial.ptr()),
                KernelArg::I32(x.rows as i32),
                KernelArg::I32(chunks as i32),
                KernelArg::F64(target),
                KernelArg::Ptr(s.ptr()),
            ];
            // SAFETY: reads the statistics above, writes `rows` shifts.
            unsafe { shift.launch(gpu, &per_row(x.rows), &args) }?;
            // SAFETY: writes L slices of rp x kp bytes, the buffer's size.
            unsafe {
                tiles(
                    &self.module,
                    gpu,
                    "ozaki_slice",
                    x,
                    p.k,
                    s.ptr(),
                    out.ptr(),
                    kp,
                    rp,
                )
            }?;
        }
        mark(1)?;
        let l = self.crt.moduli.len();
        let (one, zero) = (1i32, 0i32);
        if scale_only {
            // No products to compute.
        } else if let Some(g) = &w.products {
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
            KernelArg::F64(alpha.hi),
            KernelArg::F64(alpha.lo),
            KernelArg::F64(beta.hi),
            KernelArg::F64(beta.lo),
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
    use dashu_int::ops::UnsignedAbs;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A random integer of magnitude below 2^bits, as an IBig.
    fn random_ibig(rng: &mut StdRng, bits: usize) -> IBig {
        let mut x = UBig::ZERO;
        for _ in 0..bits.div_ceil(32) {
            x = (x << 32) + UBig::from(rng.gen::<u32>());
        }
        let x = IBig::from(x >> (bits.div_ceil(32) * 32 - bits));
        if rng.gen() {
            -x
        } else {
            x
        }
    }

    fn residues_of(x: &IBig, moduli: &[u32]) -> Vec<i64> {
        moduli
            .iter()
            .map(|&m| {
                let r = x % IBig::from(m);
                i64::try_from(&r).unwrap().rem_euclid(m as i64)
            })
            .collect()
    }

    #[test]
    fn crt_constants_invert_and_reconstruct() {
        for (a, &m) in MODULI.iter().enumerate() {
            for &n in &MODULI[a + 1..] {
                let g = (1..=m.min(n)).rev().find(|d| m % d == 0 && n % d == 0);
                assert_eq!(g, Some(1), "{m} and {n} share a factor");
            }
        }
        let mut rng = StdRng::seed_from_u64(5);
        for count in [16, 32, 34] {
            let crt = Crt::new(count).unwrap();
            for ((&m, w), &y) in crt.moduli.iter().zip(&crt.w_l).zip(&crt.y_l) {
                assert!(w < &crt.m && y < m);
                assert_eq!(u32::try_from(&(w % UBig::from(m))).unwrap(), 1, "{m}");
            }
            let bits = crt.m.bit_len() - 2;
            for _ in 0..1000 {
                let x = random_ibig(&mut rng, bits);
                assert_eq!(crt.reconstruct(&residues_of(&x, &crt.moduli)), x);
            }
        }
        assert_eq!(Crt::new(34).unwrap().chunks, 8);
        // The five-piece slicing takes scaled elements below 2^129.
        let t = Crt::new(MODULI.len()).unwrap().target(1).unwrap();
        assert!(t + 0.5 < 2f64.powi(126), "{t:e}");
        assert_eq!(Crt::new(16).unwrap().chunks, 4);
        for m in [256, 255, 191] {
            for v in [-1000i64, -129, -128, -1, 0, 1, 127, 128, 1 << 50] {
                let r = residue(v as i128, m) as i64;
                assert_eq!((v - r).rem_euclid(m as i64), 0, "{v} mod {m}");
            }
        }
        assert!(Crt::new(35).is_err() && Crt::new(0).is_err());
    }

    #[test]
    fn the_target_keeps_every_sum_below_half_the_product_of_the_moduli() {
        for count in [4, 8, 14, 16] {
            let crt = Crt::new(count).unwrap();
            for k in [1, 300, 8192, MAX_K] {
                let t = crt.target(k).unwrap();
                let bound = (t + (k as f64).sqrt() / 2.0).powi(2);
                let half = to_f64(&crt.m) / 2.0;
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

    /// Any 32-bit sums congruent to x, as the INT8 products leave them.
    fn sums_for(rng: &mut StdRng, x: &IBig, moduli: &[u32]) -> Vec<i32> {
        residues_of(x, moduli)
            .into_iter()
            .zip(moduli)
            .map(|(r, &md)| (r + rng.gen_range(-(1i64 << 22)..(1i64 << 22)) * md as i64) as i32)
            .collect()
    }

    #[test]
    fn the_fp64_reconstruction_gives_the_integer_from_unreduced_sums() {
        let mut rng = StdRng::seed_from_u64(11);
        for count in [3, 8, 14, 15, 16, 24, 32, 34] {
            let crt = Crt::new(count).unwrap();
            let limit = IBig::from(&crt.m >> 1) * IBig::from(65535) / IBig::from(65536);
            let bits = crt.m.bit_len() - 2;
            let near = [
                limit.clone(),
                -limit.clone(),
                limit.clone() - IBig::ONE,
                IBig::ZERO,
                IBig::ONE,
                -IBig::ONE,
            ];
            let random: Vec<IBig> = (0..2000)
                .map(|_| {
                    let b = rng.gen_range(1..bits);
                    random_ibig(&mut rng, b)
                })
                .collect();
            for x in near.into_iter().chain(random) {
                let c = sums_for(&mut rng, &x, &crt.moduli);
                let want = x.to_f64().value();
                // Rounded once: within half a unit.
                let got = crt.reconstruct_f64(&c);
                assert!(
                    (got - want).abs() <= want.abs() * (0.5 * f64::EPSILON + 2f64.powi(-100)),
                    "{count} moduli: {x} became {got:e}"
                );
                // Double-double: within a few units of 2^-104 of x.
                let (hi, lo) = crt.reconstruct_dd(&c);
                let err = (dd_exact(hi, lo) - x.clone()).unsigned_abs();
                let bound = (x.clone().unsigned_abs() >> 100) + UBig::ONE;
                assert!(err <= bound, "{count} moduli: {x} became ({hi:e}, {lo:e})");
                let r: Vec<i64> = c.iter().map(|&v| v as i64).collect();
                assert_eq!(crt.reconstruct(&r), x);
            }
        }
    }

    /// hi + lo exactly, for integers hi and lo.
    fn dd_exact(hi: f64, lo: f64) -> IBig {
        let sum = super::super::dd::Dd { hi, lo }.exact();
        let int = sum.to_int().value();
        assert_eq!(
            super::super::dd::Exact::from(int.clone()),
            sum,
            "{hi} + {lo}"
        );
        int
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
        let one = |v: f64, t: f64| row_shift([v, 0.0].into_iter(), t);
        assert_eq!(one(0.0, 10.0), 0);
        assert_eq!(one(f64::INFINITY, 10.0), NOT_FINITE);
        assert_eq!(one(f64::NAN, 10.0), NOT_FINITE);
        assert_eq!(one(3.0, 12.0), 2);
        assert_eq!(one(3.0, 11.99), 1);
        // Subnormal rows scale up without overflowing on the way.
        assert_eq!(scaled(5e-324, one(5e-324, 2f64.powi(61))), 1i128 << 61);
        // A row whose 2-norm exceeds the largest double still gets a shift
        // that brings it to the target.
        let big = [1.5e308, -1.5e308, 1.0];
        let t = 2f64.powi(61);
        let s = row_shift(big.into_iter(), t);
        assert_ne!(s, NOT_FINITE);
        let scaled_norm = big
            .iter()
            .map(|&v| (ldexp(v, s) / t).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(scaled_norm <= 1.0 && scaled_norm > 0.5, "{scaled_norm}");
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
            let want: Vec<i8> = MODULI.iter().map(|&m| residue(exact as i128, m)).collect();
            assert_eq!(gpu_residues(d, &MODULI), want, "{exact}");
        }
    }

    /// The double-double slicing's residues, step for step.
    fn gpu_residues_dd(hi: f64, tl: f64, moduli: &[u32]) -> Vec<i8> {
        let low = |x: f64| (x + MAGIC).to_bits() as u32 as i32;
        let rint = |x: f64| (x + MAGIC) - MAGIC;
        let pieces = |mut x: f64| {
            let mut p = [0.0; 5];
            for k in (1..5).rev() {
                let s = 2f64.powi(26 * k as i32);
                p[k] = rint(x / s);
                x = (-p[k]).mul_add(s, x);
            }
            p[0] = x;
            p
        };
        let (a, b) = (pieces(hi), pieces(tl));
        let a: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        moduli
            .iter()
            .map(|&m| {
                if m == 256 {
                    return low(a[0]) as i8;
                }
                let c = |k: u32| {
                    let r = UBig::from(2u32).pow(26 * k as usize) % UBig::from(m);
                    residue(u32::try_from(&r).unwrap() as i128, m) as f64
                };
                let t = a[4].mul_add(
                    c(4),
                    a[3].mul_add(c(3), a[2].mul_add(c(2), a[1].mul_add(c(1), a[0]))),
                );
                let q = t.mul_add(1.0 / m as f64, MAGIC) - MAGIC;
                low((-q).mul_add(m as f64, t)) as i8
            })
            .collect()
    }

    #[test]
    fn the_double_double_residues_equal_the_integer_ones() {
        let mut rng = StdRng::seed_from_u64(21);
        for _ in 0..3000 {
            // A scaled double-double element: hi an integer below 2^125,
            // the rest an integer below half an ulp of it.
            let e = rng.gen_range(0..125);
            let hi = (rng.gen::<f64>() * 2f64.powi(e)).round();
            let ulp = if hi == 0.0 {
                1.0
            } else {
                2f64.powi((hi.abs().log2().floor() as i32 - 52).max(0))
            };
            let tl = ((rng.gen::<f64>() - 0.5) * ulp).round();
            let hi = if rng.gen() { -hi } else { hi };
            let x = dd_exact(hi, tl);
            let want: Vec<i8> = residues_of(&x, &MODULI)
                .into_iter()
                .zip(MODULI)
                .map(|(r, m)| residue(r as i128, m))
                .collect();
            assert_eq!(gpu_residues_dd(hi, tl, &MODULI), want, "{hi:e} + {tl:e}");
        }
    }

    #[test]
    fn the_fewest_moduli_follow_the_unit_and_k() {
        let fp64 = Crt::fewest(8192, f64::EPSILON / 2.0, MAX_FP64_MODULI);
        let dd = Crt::fewest(8192, 2f64.powi(-104), MODULI.len());
        assert_eq!((fp64, dd), (Some(14), Some(28)));
        for (l, unit) in [(14, f64::EPSILON / 2.0), (28, 2f64.powi(-104))] {
            let t = Crt::new(l).unwrap().target(8192).unwrap();
            assert!(2.0 / t <= unit);
            let fewer = Crt::new(l - 1).unwrap().target(8192).unwrap();
            assert!(2.0 / fewer > unit);
        }
        assert_eq!(Crt::fewest(8192, 2f64.powi(-200), MODULI.len()), None);
    }

    #[test]
    fn the_kernels_are_generated_with_the_constants() {
        let crt = Crt::new(4).unwrap();
        let s = source(&crt, false);
        assert!(s.contains("#define L 4"));
        assert!(s.contains("#define DD 0"));
        assert!(source(&Crt::new(30).unwrap(), true).contains("#define NCH 8"));
        assert!(s.contains("MOD[L] = {256, 255, 253, 251}"));
        assert!(s.contains("MCH[NCH]"));
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
