//! Double-double (DD) numbers on the host: the error-free transformations,
//! the inputs of the accuracy harness, the device layouts, and the exact
//! oracle a DD GEMM is measured against.
//!
//! A DD number is an unevaluated sum `hi + lo` of two doubles with
//! `|lo| <= ulp(hi) / 2`: about 106 significant bits. Host copies of DD
//! matrices hold the pairs interleaved (`[2e]` = hi, `[2e + 1]` = lo, as
//! QD's `dd_real` arrays and the interleaved kernels keep them); the split
//! kernels take the hi parts of the whole stored matrix followed by its lo
//! parts ([`to_device`]).
//!
//! The oracle computes each checked entry of alpha op(A) op(B) + beta C
//! exactly, with the `dashu-float` crate's binary floats at unlimited
//! precision (every product and sum of doubles is exact there), and rounds
//! only the error |computed - exact| to a double.

use dashu_float::round::mode::HalfEven;
use dashu_float::FBig;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// An exact binary float (unlimited precision).
pub type Exact = FBig<HalfEven, 2>;

/// A double-double number, (hi, lo).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Dd {
    pub hi: f64,
    pub lo: f64,
}

/// s + e = a + b exactly, s = fl(a + b).
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// p + e = a b exactly, p = fl(a b).
pub fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

impl Dd {
    pub const ZERO: Dd = Dd { hi: 0.0, lo: 0.0 };

    /// hi + lo renormalised (any two doubles).
    pub fn new(hi: f64, lo: f64) -> Dd {
        let (hi, lo) = two_sum(hi, lo);
        Dd { hi, lo }
    }

    pub fn from_f64(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    pub fn is_finite(self) -> bool {
        self.hi.is_finite() && self.lo.is_finite()
    }

    /// The value, exactly.
    pub fn exact(self) -> Exact {
        exact(self.hi) + exact(self.lo)
    }
}

impl std::ops::Mul for Dd {
    type Output = Dd;

    /// The product, rounded to double-double (the accurate FMA product).
    fn mul(self, o: Dd) -> Dd {
        let (p, e) = two_prod(self.hi, o.hi);
        let e = self.hi.mul_add(o.lo, e);
        let e = self.lo.mul_add(o.hi, e);
        Dd::new(p, e)
    }
}

/// `x` exactly (finite x).
pub fn exact(x: f64) -> Exact {
    Exact::try_from(x)
        .map(|v| v.with_precision(0).value())
        .unwrap_or(Exact::ZERO)
}

/// `x` rounded to the nearest double.
pub fn to_f64(x: &Exact) -> f64 {
    x.to_f64().value()
}

/// The kinds of input the accuracy harness draws.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum InputKind {
    /// Entries (rand - 0.5) exp(phi randn), the Ozaki papers' test
    /// matrices: phi = 0.5 spans a few binades, larger phi many.
    Phi(f64),
    /// Products with condition number about 2^bits: op(A) = [X, X + D],
    /// op(B) = [Y; -Y] with D about 2^-bits of X, so C = -D Y cancels.
    IllConditioned(u32),
}

impl InputKind {
    /// `phi=0.5`, `ill=2^40`.
    pub fn label(self) -> String {
        match self {
            InputKind::Phi(p) => format!("phi={p}"),
            InputKind::IllConditioned(b) => format!("ill=2^{b}"),
        }
    }
}

/// A standard normal deviate (Box-Muller).
fn randn(rng: &mut StdRng) -> f64 {
    let u: f64 = 1.0 - rng.gen::<f64>();
    let v: f64 = rng.gen();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A DD value of magnitude about `x` whose lo word is random too, so that
/// every one of the 106 bits matters.
fn dd_near(rng: &mut StdRng, x: f64) -> Dd {
    let lo = x * f64::EPSILON * (rng.gen::<f64>() - 0.5);
    Dd::new(x, lo)
}

/// One entry of the `Phi` kind.
pub fn phi_entry(rng: &mut StdRng, phi: f64) -> Dd {
    let x = (rng.gen::<f64>() - 0.5) * (phi * randn(rng)).exp();
    dd_near(rng, x)
}

/// A DD matrix, column-major with leading dimension `ld`, interleaved
/// (2 doubles per element); padding rows hold NaN. Columns are filled in
/// parallel, each from its own generator, so the same seed gives the same
/// matrix.
pub fn matrix(
    seed: u64,
    rows: usize,
    cols: usize,
    ld: usize,
    entry: impl Fn(&mut StdRng, usize, usize) -> Dd + Sync,
) -> Vec<f64> {
    let mut v = vec![f64::NAN; 2 * ld * cols];
    v.par_chunks_mut(2 * ld.max(1))
        .enumerate()
        .take(cols)
        .for_each(|(j, col)| {
            let mut rng =
                StdRng::seed_from_u64(seed ^ (j as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            for i in 0..rows {
                let d = entry(&mut rng, i, j);
                col[2 * i] = d.hi;
                col[2 * i + 1] = d.lo;
            }
        });
    v
}

/// Element `e` of an interleaved host matrix.
pub fn at(x: &[f64], e: usize) -> Dd {
    Dd {
        hi: x[2 * e],
        lo: x[2 * e + 1],
    }
}

/// Interleaved host values as the kernel's storage holds them: unchanged,
/// or (split) all hi parts then all lo parts.
pub fn to_device(split: bool, v: &[f64]) -> Vec<f64> {
    if !split {
        return v.to_vec();
    }
    let mut out = Vec::with_capacity(v.len());
    out.extend(v.iter().step_by(2));
    out.extend(v.iter().skip(1).step_by(2));
    out
}

/// The inverse of [`to_device`].
pub fn from_device(split: bool, v: &[f64]) -> Vec<f64> {
    if !split {
        return v.to_vec();
    }
    let n = v.len() / 2;
    (0..n).flat_map(|e| [v[e], v[n + e]]).collect()
}

/// One checked entry: alpha sum_q a_q b_q + beta c, exactly, and the scale
/// |alpha| sum |a_q b_q| + |beta c| of the error bound (in doubles).
pub fn exact_entry(
    alpha: Dd,
    pairs: impl Iterator<Item = (Dd, Dd)>,
    beta: Dd,
    c: Option<Dd>,
) -> (Exact, f64) {
    let mut dot = Exact::ZERO;
    let mut abs = 0.0f64;
    for (a, b) in pairs {
        dot += a.exact() * b.exact();
        abs += (a.hi * b.hi).abs();
    }
    let mut value = alpha.exact() * dot;
    let mut scale = alpha.hi.abs() * abs;
    if let Some(c) = c {
        value += beta.exact() * c.exact();
        scale += (beta.hi * c.hi).abs();
    }
    (value, scale)
}

/// |got - want| as a double.
pub fn error(got: Dd, want: &Exact) -> f64 {
    to_f64(&(got.exact() - want)).abs()
}

/// Errors of a computed C against the exact one on the checked entries.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Accuracy {
    /// ||C - C_exact||_F / ||C_exact||_F over the checked entries.
    pub normwise: f64,
    /// max and median of |C_ij - exact_ij| / |exact_ij|.
    pub elementwise_max: f64,
    pub elementwise_median: f64,
    pub entries: usize,
}

/// The errors of `got` against `want` (the exact values, as doubles where
/// only magnitudes matter).
pub fn accuracy(errors: &[f64], magnitudes: &[f64]) -> Accuracy {
    let num: f64 = errors.iter().map(|e| e * e).sum::<f64>().sqrt();
    let den: f64 = magnitudes.iter().map(|m| m * m).sum::<f64>().sqrt();
    let mut rel: Vec<f64> = errors
        .iter()
        .zip(magnitudes)
        .map(|(e, m)| if *m == 0.0 { *e } else { e / m.abs() })
        .collect();
    rel.sort_by(f64::total_cmp);
    Accuracy {
        normwise: if den == 0.0 { num } else { num / den },
        elementwise_max: rel.last().copied().unwrap_or(0.0),
        elementwise_median: rel.get(rel.len() / 2).copied().unwrap_or(0.0),
        entries: errors.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_free_transformations_are_exact() {
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..1000 {
            let (a, b) = (phi_entry(&mut rng, 3.0).hi, phi_entry(&mut rng, 3.0).hi);
            let (s, e) = two_sum(a, b);
            assert_eq!(exact(s) + exact(e), exact(a) + exact(b));
            let (p, e) = two_prod(a, b);
            assert_eq!(exact(p) + exact(e), exact(a) * exact(b));
            assert!(e.abs() <= p.abs() * f64::EPSILON);
        }
    }

    #[test]
    fn dd_values_are_normalised_and_carry_low_words() {
        let mut rng = StdRng::seed_from_u64(2);
        let mut nonzero_lo = 0;
        for _ in 0..1000 {
            let d = phi_entry(&mut rng, 0.5);
            assert!(d.lo.abs() <= d.hi.abs() * f64::EPSILON / 2.0 * 1.0000001);
            assert_eq!(d.hi + d.lo, d.hi);
            nonzero_lo += (d.lo != 0.0) as usize;
        }
        assert!(nonzero_lo > 990);
        // The product's error is within a few 2^-104 of the exact one.
        let (a, b) = (phi_entry(&mut rng, 1.0), phi_entry(&mut rng, 1.0));
        let want = a.exact() * b.exact();
        let rel = error(a * b, &want) / to_f64(&want).abs();
        assert!(rel < 4.0 * 2f64.powi(-104), "{rel:e}");
    }

    #[test]
    fn split_storage_round_trips() {
        let v = matrix(3, 3, 2, 4, |r, _, _| phi_entry(r, 0.5));
        assert_eq!(v.len(), 16);
        assert!(v[6].is_nan() && v[7].is_nan(), "padding row");
        let d = to_device(true, &v);
        assert_eq!(d[0], v[0]);
        assert_eq!(d[8], v[1]);
        assert_eq!(from_device(true, &d).len(), v.len());
        for (x, y) in from_device(true, &d).iter().zip(&v) {
            assert!(x.to_bits() == y.to_bits());
        }
        assert_eq!(to_device(false, &v).len(), v.len());
    }

    #[test]
    fn exact_entries_see_the_low_words_and_cancellation() {
        // (1 + 2^-80) * (1 - 2^-80) - 1 = -2^-160, invisible to doubles.
        let a = Dd {
            hi: 1.0,
            lo: 2f64.powi(-80),
        };
        let b = Dd {
            hi: 1.0,
            lo: -(2f64.powi(-80)),
        };
        let minus_one = Dd::from_f64(-1.0);
        let one = Dd::from_f64(1.0);
        let (v, scale) = exact_entry(one, [(a, b), (minus_one, one)].into_iter(), Dd::ZERO, None);
        assert_eq!(to_f64(&v), -(2f64.powi(-160)));
        assert_eq!(scale, 2.0);
        assert_eq!(error(Dd::ZERO, &v), 2f64.powi(-160));
        let acc = accuracy(&[1e-31, 0.0, 3e-31], &[1.0, 1.0, 1.0]);
        assert!((acc.normwise - (1e-62f64 + 9e-62).sqrt() / 3f64.sqrt()).abs() < 1e-40);
        assert_eq!(acc.elementwise_max, 3e-31);
        assert_eq!(acc.elementwise_median, 1e-31);
    }
}
