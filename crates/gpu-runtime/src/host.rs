//! Host-side buffers: random inputs, the poison pattern, and comparison with
//! a reference.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Elements per piece of work when random data is made or compared in
/// parallel. Each piece of random data has a seed of its own derived from
/// the buffer's, so the values do not depend on the number of threads.
const PIECE: usize = 1 << 16;

fn random_vec<T: Send + Copy + Default>(
    len: usize,
    seed: u64,
    draw: impl Fn(&mut SmallRng) -> T + Sync,
) -> Vec<T> {
    let mut v = vec![T::default(); len];
    v.par_chunks_mut(PIECE).enumerate().for_each(|(p, piece)| {
        let mut rng =
            SmallRng::seed_from_u64(seed ^ (p as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
        for x in piece {
            *x = draw(&mut rng);
        }
    });
    v
}

/// Element types a template buffer can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElemType {
    F32,
    F64,
    I32,
    U32,
}

impl ElemType {
    pub fn size(self) -> usize {
        match self {
            ElemType::F32 | ElemType::I32 | ElemType::U32 => 4,
            ElemType::F64 => 8,
        }
    }
}

/// The byte every output is filled with before a checked run. All-ones is a
/// NaN for both float widths and -1 / u32::MAX for the integers, so an element
/// the kernel did not write cannot pass for a right answer.
pub const POISON_BYTE: u8 = 0xFF;

/// A typed host buffer.
#[derive(Debug, Clone, PartialEq)]
pub enum HostData {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I32(Vec<i32>),
    U32(Vec<u32>),
}

impl HostData {
    pub fn zeros(ty: ElemType, len: usize) -> HostData {
        match ty {
            ElemType::F32 => HostData::F32(vec![0.0; len]),
            ElemType::F64 => HostData::F64(vec![0.0; len]),
            ElemType::I32 => HostData::I32(vec![0; len]),
            ElemType::U32 => HostData::U32(vec![0; len]),
        }
    }

    /// Uniform random values: floats in [-1, 1), integers in [0, 2^16), so
    /// integer data may serve as small indices or counts.
    pub fn random(ty: ElemType, len: usize, seed: u64) -> HostData {
        match ty {
            ElemType::F32 => HostData::F32(random_vec(len, seed, |r| r.gen_range(-1.0f32..1.0))),
            ElemType::F64 => HostData::F64(random_vec(len, seed, |r| r.gen_range(-1.0f64..1.0))),
            ElemType::I32 => HostData::I32(random_vec(len, seed, |r| r.gen_range(0..1 << 16))),
            ElemType::U32 => HostData::U32(random_vec(len, seed, |r| r.gen_range(0..1 << 16))),
        }
    }

    pub fn elem_type(&self) -> ElemType {
        match self {
            HostData::F32(_) => ElemType::F32,
            HostData::F64(_) => ElemType::F64,
            HostData::I32(_) => ElemType::I32,
            HostData::U32(_) => ElemType::U32,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            HostData::F32(v) => v.len(),
            HostData::F64(v) => v.len(),
            HostData::I32(v) => v.len(),
            HostData::U32(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn byte_len(&self) -> usize {
        self.len() * self.elem_type().size()
    }

    /// The raw bytes, for copying to the device.
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: plain numeric slices reinterpreted as bytes; u8 has no alignment needs.
        unsafe {
            match self {
                HostData::F32(v) => std::slice::from_raw_parts(v.as_ptr().cast(), v.len() * 4),
                HostData::F64(v) => std::slice::from_raw_parts(v.as_ptr().cast(), v.len() * 8),
                HostData::I32(v) => std::slice::from_raw_parts(v.as_ptr().cast(), v.len() * 4),
                HostData::U32(v) => std::slice::from_raw_parts(v.as_ptr().cast(), v.len() * 4),
            }
        }
    }

    /// The raw bytes, for copying from the device.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: every bit pattern is a valid value of these numeric types.
        unsafe {
            match self {
                HostData::F32(v) => {
                    std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), v.len() * 4)
                }
                HostData::F64(v) => {
                    std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), v.len() * 8)
                }
                HostData::I32(v) => {
                    std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), v.len() * 4)
                }
                HostData::U32(v) => {
                    std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), v.len() * 4)
                }
            }
        }
    }

    /// Element `i` widened to f64 (exact for every supported type).
    pub fn get_f64(&self, i: usize) -> f64 {
        match self {
            HostData::F32(v) => v[i] as f64,
            HostData::F64(v) => v[i],
            HostData::I32(v) => v[i] as f64,
            HostData::U32(v) => v[i] as f64,
        }
    }
}

/// The worst element of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mismatch {
    pub index: usize,
    pub got: f64,
    pub want: f64,
    pub rel_err: f64,
}

/// Result of comparing an output with its reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Largest |got - want| / max(|want|, floor) over all elements, where the
    /// floor ([`floor_fraction`] of the largest reference magnitude) keeps
    /// elements near zero from dominating. Infinite where an element is NaN
    /// or differs in NaN-ness or infinity.
    pub max_rel_err: f64,
    pub worst: Option<Mismatch>,
    /// Elements that still hold the poison pattern (never written).
    pub unwritten: usize,
    /// Elements over the tolerance.
    pub failing: usize,
}

impl Comparison {
    pub fn passed(&self) -> bool {
        self.failing == 0 && self.unwritten == 0
    }

    /// The reason an output is wrong, for an `Invalid` outcome.
    pub fn describe(&self, buffer: &str, tolerance: f64) -> String {
        let mut s = format!(
            "wrong answer: max rel err {:.3e} > tolerance {tolerance:.1e} in `{buffer}` ({} element(s) over",
            self.max_rel_err, self.failing
        );
        if self.unwritten > 0 {
            s.push_str(&format!(", {} never written", self.unwritten));
        }
        s.push(')');
        if let Some(w) = &self.worst {
            s.push_str(&format!(
                "; worst at [{}]: got {} want {}",
                w.index, w.got, w.want
            ));
        }
        s
    }
}

/// Compares `got` with `want` element by element, elements near zero
/// against a floor of 1e-6 of the largest reference magnitude.
pub fn compare(got: &HostData, want: &HostData, tolerance: f64) -> Comparison {
    compare_with_rounding(got, want, tolerance, 0.0)
}

/// As [`compare`], and an element may also differ by `rounding_ulps` units
/// in the last place of the largest reference magnitude (see
/// [`floor_fraction`]).
pub fn compare_with_rounding(
    got: &HostData,
    want: &HostData,
    tolerance: f64,
    rounding_ulps: f64,
) -> Comparison {
    let n = got.len().min(want.len());
    let scale = (0..want.len())
        .into_par_iter()
        .map(|i| want.get_f64(i).abs())
        .filter(|v| v.is_finite())
        .reduce(|| 0.0f64, f64::max);
    let floor =
        (scale * floor_fraction(want.elem_type(), tolerance, rounding_ulps)).max(f64::MIN_POSITIVE);
    // Each piece as the sequential walk would see it; pieces combine in
    // index order, so the worst element is the first of the largest errors.
    let piece = |p: usize| {
        let mut cmp = Comparison {
            max_rel_err: 0.0,
            worst: None,
            unwritten: 0,
            failing: 0,
        };
        for i in p * PIECE..n.min((p + 1) * PIECE) {
            let (g, w) = (got.get_f64(i), want.get_f64(i));
            if is_poison(got, i) && !is_poison(want, i) {
                cmp.unwritten += 1;
            }
            // Poison in both: an element neither the kernel nor a reference
            // kernel writes.
            let err = if g == w
                || (g.is_nan() && w.is_nan() && (!is_poison(got, i) || is_poison(want, i)))
            {
                0.0
            } else if g.is_finite() && w.is_finite() {
                (g - w).abs() / w.abs().max(floor)
            } else {
                f64::INFINITY
            };
            if err > tolerance {
                cmp.failing += 1;
            }
            if err > cmp.max_rel_err || (cmp.worst.is_none() && err > tolerance) {
                cmp.max_rel_err = err;
                cmp.worst = Some(Mismatch {
                    index: i,
                    got: g,
                    want: w,
                    rel_err: err,
                });
            }
        }
        cmp
    };
    let pieces: Vec<Comparison> = (0..n.div_ceil(PIECE)).into_par_iter().map(piece).collect();
    let mut cmp = Comparison {
        max_rel_err: 0.0,
        worst: None,
        unwritten: 0,
        failing: got.len().abs_diff(want.len()),
    };
    for c in pieces {
        cmp.unwritten += c.unwritten;
        cmp.failing += c.failing;
        if let Some(w) = c.worst {
            if c.max_rel_err > cmp.max_rel_err || cmp.worst.is_none() {
                cmp.max_rel_err = c.max_rel_err;
                cmp.worst = Some(w);
            }
        }
    }
    if cmp.failing > 0 && cmp.worst.is_none() {
        cmp.max_rel_err = f64::INFINITY;
    }
    cmp
}

/// The floor of the relative error's denominator, as a fraction of the
/// largest reference magnitude: 1e-6, or, with `rounding_ulps` > 0, enough
/// that an element below it may differ by that many units in the last place
/// (of the element type) of the largest magnitude. That is the rounding a
/// result keeps where terms of the output's size cancel (a stencil summed in
/// another order), which no tolerance relative to the element itself
/// covers: with 16 ulps and `tolerance` 1e-5, an f32 element below 0.19 of
/// the largest is held to 1.9e-6 of the largest. Integers keep the 1e-6
/// floor; the fraction is at most 1.
pub fn floor_fraction(ty: ElemType, tolerance: f64, rounding_ulps: f64) -> f64 {
    let ulp = match ty {
        ElemType::F32 => f32::EPSILON as f64,
        ElemType::F64 => f64::EPSILON,
        ElemType::I32 | ElemType::U32 => 0.0,
    };
    if tolerance > 0.0 && rounding_ulps > 0.0 {
        (rounding_ulps * ulp / tolerance).clamp(1e-6, 1.0)
    } else {
        1e-6
    }
}

fn is_poison(d: &HostData, i: usize) -> bool {
    match d {
        HostData::F32(v) => v[i].to_bits() == u32::MAX,
        HostData::F64(v) => v[i].to_bits() == u64::MAX,
        HostData::I32(v) => v[i] == -1,
        HostData::U32(v) => v[i] == u32::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poisoned(ty: ElemType, len: usize) -> HostData {
        let mut d = HostData::zeros(ty, len);
        d.as_bytes_mut().fill(POISON_BYTE);
        d
    }

    #[test]
    fn poison_reads_as_nan_and_minus_one() {
        match poisoned(ElemType::F32, 2) {
            HostData::F32(v) => assert!(v.iter().all(|x| x.is_nan())),
            other => panic!("{other:?}"),
        }
        match poisoned(ElemType::F64, 2) {
            HostData::F64(v) => assert!(v.iter().all(|x| x.is_nan())),
            other => panic!("{other:?}"),
        }
        assert_eq!(poisoned(ElemType::I32, 1), HostData::I32(vec![-1]));
    }

    #[test]
    fn elements_a_reference_kernel_left_unwritten_may_stay_unwritten() {
        // A stencil writes the interior only: poison in both outputs agrees.
        let mut want = poisoned(ElemType::F32, 4);
        let mut got = poisoned(ElemType::F32, 4);
        for d in [&mut want, &mut got] {
            let HostData::F32(v) = d else { unreachable!() };
            v[1] = 2.0;
            v[2] = 3.0;
        }
        assert!(compare(&got, &want, 0.0).passed());
        // Left unwritten where the reference wrote it: wrong.
        let HostData::F32(v) = &mut got else {
            unreachable!()
        };
        v[2] = f32::from_bits(u32::MAX);
        let cmp = compare(&got, &want, 0.0);
        assert_eq!((cmp.passed(), cmp.unwritten), (false, 1));
        // Written where the reference left poison: wrong too.
        let HostData::F32(v) = &mut got else {
            unreachable!()
        };
        v[2] = 3.0;
        v[0] = 1.0;
        assert!(!compare(&got, &want, 0.0).passed());
    }

    #[test]
    fn random_data_is_fresh_per_seed_nonzero_and_in_range() {
        let a = HostData::random(ElemType::F32, 1000, 1);
        let b = HostData::random(ElemType::F32, 1000, 2);
        assert_ne!(a, b);
        assert_eq!(a, HostData::random(ElemType::F32, 1000, 1));
        let HostData::F32(v) = &a else { unreachable!() };
        assert!(v.iter().all(|x| (-1.0..1.0).contains(x)));
        assert!(v.iter().filter(|x| **x == 0.0).count() < 2);
        let HostData::I32(v) = HostData::random(ElemType::I32, 1000, 3) else {
            unreachable!()
        };
        assert!(v.iter().all(|x| (0..1 << 16).contains(x)));
    }

    #[test]
    fn random_data_does_not_depend_on_the_number_of_threads() {
        let len = 3 * PIECE + 17;
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        for ty in [ElemType::F32, ElemType::F64, ElemType::I32, ElemType::U32] {
            let serial = one.install(|| HostData::random(ty, len, 11));
            assert_eq!(serial, HostData::random(ty, len, 11));
            assert_eq!(serial.len(), len);
        }
        // Pieces are not copies of one another.
        let HostData::F32(v) = HostData::random(ElemType::F32, 2 * PIECE, 5) else {
            unreachable!()
        };
        assert_ne!(v[..PIECE], v[PIECE..]);
    }

    #[test]
    fn the_worst_element_is_the_first_of_the_largest_errors_across_pieces() {
        let len = 4 * PIECE + 3;
        let HostData::F32(want) = HostData::random(ElemType::F32, len, 9) else {
            unreachable!()
        };
        let mut got = want.clone();
        // Equal errors in two pieces, a smaller one before them, an
        // unwritten element and a NaN after.
        got[10] = want[10] * 1.01;
        got[PIECE + 5] = want[PIECE + 5] * 1.5;
        got[3 * PIECE + 1] = want[3 * PIECE + 1] * 1.5;
        got[4 * PIECE] = f32::from_bits(u32::MAX);
        got[4 * PIECE + 2] = f32::NAN;
        let c = compare(
            &HostData::F32(got.clone()),
            &HostData::F32(want.clone()),
            1e-6,
        );
        assert_eq!(c.failing, 5);
        assert_eq!(c.unwritten, 1);
        assert!(c.max_rel_err.is_infinite());
        assert_eq!(c.worst.unwrap().index, 4 * PIECE);
        got[4 * PIECE] = want[4 * PIECE];
        got[4 * PIECE + 2] = want[4 * PIECE + 2];
        let c = compare(&HostData::F32(got), &HostData::F32(want), 1e-6);
        assert_eq!(c.failing, 3);
        assert_eq!(c.unwritten, 0);
        let w = c.worst.unwrap();
        assert_eq!(w.index, PIECE + 5);
        assert!((c.max_rel_err - 0.5).abs() < 1e-6, "{}", c.max_rel_err);
    }

    #[test]
    fn an_exact_copy_passes_with_zero_tolerance() {
        let a = HostData::random(ElemType::F64, 100, 7);
        let c = compare(&a, &a.clone(), 0.0);
        assert!(c.passed(), "{c:?}");
        assert_eq!(c.max_rel_err, 0.0);
    }

    #[test]
    fn an_unwritten_element_fails_and_is_counted() {
        let want = HostData::random(ElemType::F32, 64, 9);
        let mut got = want.clone();
        if let HostData::F32(v) = &mut got {
            v[17] = f32::from_bits(u32::MAX);
        }
        let c = compare(&got, &want, 1e-3);
        assert!(!c.passed());
        assert_eq!(c.unwritten, 1);
        assert_eq!(c.failing, 1);
        assert_eq!(c.worst.as_ref().unwrap().index, 17);
        assert!(c.describe("dst", 1e-3).contains("never written"));
    }

    #[test]
    fn relative_error_is_measured_against_the_reference() {
        let want = HostData::F32(vec![1.0, 2.0, 4.0]);
        let got = HostData::F32(vec![1.0, 2.002, 4.0]);
        let c = compare(&got, &want, 1e-2);
        assert!(c.passed());
        assert!((c.max_rel_err - 1e-3).abs() < 1e-5, "{}", c.max_rel_err);
        let c = compare(&got, &want, 1e-4);
        assert!(!c.passed());
        assert!(c
            .describe("y", 1e-4)
            .starts_with("wrong answer: max rel err"));
    }

    #[test]
    fn f32_rounding_where_terms_cancel_passes_only_when_asked_for() {
        // Values of order 4 (ulp 4.8e-7): 16 ulps of the largest are 7.6e-6.
        let want = HostData::F32(vec![4.0, -3.5, 2.0, 3.0e-6, 0.5]);
        // An element near zero whose cancelling terms were summed in another
        // order: 6e-6 apart, 12.6 ulps of the largest.
        let close = HostData::F32(vec![4.0, -3.5, 2.0, 9.0e-6, 0.5]);
        assert!(!compare(&close, &want, 1e-5).passed());
        assert!(compare_with_rounding(&close, &want, 1e-5, 16.0).passed());
        // 20 ulps of the largest: beyond the 16 allowed.
        let far = HostData::F32(vec![
            4.0,
            -3.5,
            2.0,
            3.0e-6 + 20.0 * 4.0 * f32::EPSILON,
            0.5,
        ]);
        assert!(!compare_with_rounding(&far, &want, 1e-5, 16.0).passed());
        // An element at 1/8 of the largest, 6e-6 off (1.2e-5 of itself):
        // within 16 ulps of the largest, so let through, as the floor says.
        let mid = HostData::F32(vec![4.0, -3.5, 2.0, 3.0e-6, 0.500006]);
        assert!(compare_with_rounding(&mid, &want, 1e-5, 16.0).passed());
        assert!(!compare(&mid, &want, 1e-5).passed());
        // Above the floor (0.19 of the largest) the relative tolerance holds.
        let large = HostData::F32(vec![4.0, -3.5, 2.0001, 3.0e-6, 0.5]);
        assert!(!compare_with_rounding(&large, &want, 1e-5, 16.0).passed());
    }

    #[test]
    fn the_floor_follows_the_element_type_the_tolerance_and_the_ulps() {
        assert_eq!(floor_fraction(ElemType::F32, 1e-5, 0.0), 1e-6);
        assert_eq!(floor_fraction(ElemType::I32, 1e-5, 16.0), 1e-6);
        assert_eq!(floor_fraction(ElemType::F32, 0.0, 16.0), 1e-6);
        let f = floor_fraction(ElemType::F32, 1e-5, 16.0);
        assert!((f - 16.0 * 2f64.powi(-23) / 1e-5).abs() < 1e-12, "{f}");
        // f64's ulp is far below the 1e-6 floor.
        assert_eq!(floor_fraction(ElemType::F64, 1e-5, 16.0), 1e-6);
        assert_eq!(floor_fraction(ElemType::F32, 1e-7, 16.0), 1.0);
    }

    #[test]
    fn length_mismatch_fails() {
        let c = compare(
            &HostData::U32(vec![1, 2]),
            &HostData::U32(vec![1, 2, 3]),
            0.0,
        );
        assert!(!c.passed());
    }

    #[test]
    fn bytes_round_trip() {
        let a = HostData::random(ElemType::U32, 10, 4);
        let mut b = HostData::zeros(ElemType::U32, 10);
        b.as_bytes_mut().copy_from_slice(a.as_bytes());
        assert_eq!(a, b);
        assert_eq!(a.byte_len(), 40);
    }
}
