//! The GEMM check: random operands, the CPU reference in FP64 (the
//! `matrixmultiply` crate, not a hand-written loop nest), and an
//! element-wise error bound.
//!
//! The bound is the classical one for a dot product of length K computed in
//! floating point, with one rounding for alpha and one for beta C:
//!
//!   |C_ij - Ĉ_ij| <= c (K + 2) u (|alpha| (|op(A)| |op(B)|)_ij + |beta| |C_ij|)
//!
//! with u the unit roundoff of the routine's precision and c a small
//! constant per routine ([`bound_factor`]). The deterministic worst case has
//! c = 1; 3xTF32 drops the small x small product (up to 4u of each product)
//! and rounds both small parts to TF32 (up to 4u each), about 12u per
//! product on top of the summation, which at K = 1 needs c = 6 (seen on the
//! GPU: 13u with K = 1). Double-double's unit is 2^-106 ([`unit`]). The FP64
//! reference's own error is at most (K + 2) 2^-53 of the same scale, far
//! below every bound but DGEMM's, which carries c = 2 to cover it.
//!
//! Problems whose M N K exceeds [`FULL_CHECK_LIMIT`] are checked on sampled
//! entries (the four corners, the last row and column of every 16 x 16 tile
//! edge that a sample lands on, and random entries), each computed as an
//! FP64 dot product, so that the check at N = 16384 takes milliseconds.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::dd::{self, Dd, InputKind};
use super::{Flavor, GemmProblem, Op};

/// Above this M N K the check samples entries instead of computing all of C.
pub const FULL_CHECK_LIMIT: f64 = 2.0 * 1024.0 * 1024.0 * 1024.0;
/// Random entries checked on a sampled problem (besides the corners).
pub const SAMPLES: usize = 4096;

/// Random entries of a sampled double-double check (the exact oracle costs
/// microseconds per multiply-add).
pub const DD_SAMPLES: usize = 96;
/// Above this M N K a double-double check samples entries.
pub const DD_FULL_CHECK_LIMIT: f64 = 64.0 * 64.0 * 256.0;

/// The constant c of the bound.
pub fn bound_factor(flavor: Flavor) -> f64 {
    match flavor {
        Flavor::Sgemm => 1.0,
        Flavor::Dgemm => 2.0,
        Flavor::Sgemm3xTf32 => 6.0,
        // The lazy multiply-add gathers up to BK error terms in its low
        // word between renormalisations; 64 covers BK <= 16 with room.
        Flavor::Ddgemm | Flavor::DdgemmSplit => 64.0,
    }
}

/// The unit of the bound: the routine's unit roundoff (2^-106 for
/// double-double, whose products and sums round at about u^2).
pub fn unit(flavor: Flavor) -> f64 {
    if flavor.is_dd() {
        2f64.powi(-106)
    } else {
        flavor.precision().unit_roundoff()
    }
}

/// Rounds to the routine's storage precision.
pub fn round_to(flavor: Flavor, v: f64) -> f64 {
    match flavor {
        Flavor::Dgemm | Flavor::Ddgemm | Flavor::DdgemmSplit => v,
        Flavor::Sgemm | Flavor::Sgemm3xTf32 => v as f32 as f64,
    }
}

/// Host values (interleaved pairs for double-double) as the device stores
/// them.
pub fn device_bytes(flavor: Flavor, v: &[f64]) -> Vec<u8> {
    let prec = flavor.precision();
    match flavor {
        Flavor::DdgemmSplit => prec.to_bytes(&dd::to_device(true, v)),
        _ => prec.to_bytes(v),
    }
}

/// The inverse of [`device_bytes`].
pub fn host_values(flavor: Flavor, bytes: &[u8]) -> Vec<f64> {
    let v = flavor.precision().from_bytes(bytes);
    match flavor {
        Flavor::DdgemmSplit => dd::from_device(true, &v),
        _ => v,
    }
}

/// Host copies of the stored A, B and C (column-major, with the problem's
/// leading dimensions; padding rows hold NaN, so a kernel that reads them
/// fails), as f64 values exactly representable in the precision.
#[derive(Debug, Clone, PartialEq)]
pub struct Operands {
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
}

fn stored(p: &GemmProblem, which: char) -> (Op, usize, usize, usize) {
    match which {
        'a' => {
            let (r, c) = GemmProblem::stored_shape(p.layout.a, p.m, p.k);
            (p.layout.a, r, c, p.lda)
        }
        'b' => {
            let (r, c) = GemmProblem::stored_shape(p.layout.b, p.k, p.n);
            (p.layout.b, r, c, p.ldb)
        }
        _ => (Op::N, p.m, p.n, p.ldc),
    }
}

/// Columns filled in parallel, each from its own generator seeded by the
/// matrix's seed and the column, so that a 16384 x 16384 operand takes a
/// fraction of a second and the same seed gives the same matrix.
fn random_matrix(seed: u64, flavor: Flavor, rows: usize, cols: usize, ld: usize) -> Vec<f64> {
    use rayon::prelude::*;
    let mut v = vec![f64::NAN; ld * cols];
    v.par_chunks_mut(ld.max(1))
        .enumerate()
        .take(cols)
        .for_each(|(j, col)| {
            let mut rng =
                StdRng::seed_from_u64(seed ^ (j as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            for x in &mut col[..rows] {
                *x = round_to(flavor, rng.gen_range(-1.0..1.0));
            }
        });
    v
}

impl Operands {
    /// Uniform values in [-1, 1) from `seed`; double-double operands are
    /// of [`InputKind::Phi`] 0.5 with random low words.
    pub fn random(p: &GemmProblem, seed: u64) -> Operands {
        if p.flavor.is_dd() {
            return Operands::dd(p, InputKind::Phi(0.5), seed);
        }
        let gen = |w: char| {
            let (_, r, c, ld) = stored(p, w);
            random_matrix(seed.wrapping_add(w as u64), p.flavor, r, c, ld)
        };
        Operands {
            a: gen('a'),
            b: gen('b'),
            c: gen('c'),
        }
    }

    /// Double-double operands of `kind` (interleaved pairs). The
    /// ill-conditioned kind pairs column q of op(A) with column q + K/2,
    /// which is the same plus a perturbation 2^-bits smaller, and row q of
    /// op(B) with its negation, so that every entry of the product cancels
    /// down to the perturbation's share.
    pub fn dd(p: &GemmProblem, kind: InputKind, seed: u64) -> Operands {
        let half = p.k / 2;
        let gen = |w: char| {
            let (op, r, c, ld) = stored(p, w);
            let seed = seed.wrapping_add(w as u64);
            match kind {
                InputKind::Phi(phi) => dd::matrix(seed, r, c, ld, |g, _, _| dd::phi_entry(g, phi)),
                InputKind::IllConditioned(bits) => {
                    // Values of the first half, drawn by logical (row,
                    // column) so that the second half can repeat them.
                    let base = |i: usize, q: usize| {
                        let mut g = StdRng::seed_from_u64(
                            seed ^ ((i as u64) << 32 | q as u64)
                                .wrapping_mul(0x2545_F491_4F6C_DD1D),
                        );
                        (dd::phi_entry(&mut g, 0.5), dd::phi_entry(&mut g, 0.5))
                    };
                    let scale = 2f64.powi(-(bits as i32));
                    dd::matrix(seed, r, c, ld, |_, si, sj| {
                        // (row, column) of op(X) at stored (si, sj).
                        let (i, q) = match op {
                            Op::N => (si, sj),
                            Op::T => (sj, si),
                        };
                        match w {
                            'a' if q >= half && q < 2 * half => {
                                let (x, d) = base(i, q - half);
                                let d = d * Dd::from_f64(scale);
                                let (s, e) = dd::two_sum(x.hi, d.hi);
                                Dd::new(s, e + (x.lo + d.lo))
                            }
                            // op(B) is K x N: its row is the inner index.
                            'b' if i >= half && i < 2 * half => {
                                let y = base(i - half, q).0;
                                Dd::new(-y.hi, -y.lo)
                            }
                            _ => base(i, q).0,
                        }
                    })
                }
            }
        };
        Operands {
            a: gen('a'),
            b: gen('b'),
            c: gen('c'),
        }
    }
}

/// op(X)(i, j) of a stored matrix with leading dimension `ld`.
pub(crate) fn at(x: &[f64], op: Op, ld: usize, i: usize, j: usize) -> f64 {
    match op {
        Op::N => x[i + j * ld],
        Op::T => x[j + i * ld],
    }
}

/// The reference values and bounds of the checked entries of C.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The checked (i, j); all of C when `full`.
    pub entries: Vec<(usize, usize)>,
    pub full: bool,
    pub values: Vec<f64>,
    /// |alpha| (|op(A)||op(B)|)_ij + |beta| |C_ij|: the scale of the bound.
    pub scales: Vec<f64>,
}

/// The entries a sampled check looks at: the corners, then `count` random
/// ones and the tile edges beside them.
pub fn sample_entries(p: &GemmProblem, seed: u64, count: usize) -> Vec<(usize, usize)> {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    let (m, n) = (p.m, p.n);
    let mut out = vec![(0, 0), (m - 1, 0), (0, n - 1), (m - 1, n - 1)];
    for _ in 0..count {
        let (i, j) = (rng.gen_range(0..m), rng.gen_range(0..n));
        out.push((i, j));
        // The edge of the 16 x 16 tile the sample falls in, where tiling
        // errors show.
        out.push((((i / 16) * 16 + 15).min(m - 1), j));
        out.push((i, ((j / 16) * 16 + 15).min(n - 1)));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The reference for C = alpha op(A) op(B) + beta C on `ops` (beta = 0
/// ignores C, which may hold NaN).
pub fn reference(p: &GemmProblem, ops: &Operands, alpha: f64, beta: f64, seed: u64) -> Reference {
    let full = p.m as f64 * p.n as f64 * p.k as f64 <= FULL_CHECK_LIMIT;
    let c_term = |i: usize, j: usize| {
        if beta == 0.0 {
            (0.0, 0.0)
        } else {
            let c = ops.c[i + j * p.ldc];
            (beta * c, beta.abs() * c.abs())
        }
    };
    if full {
        let (m, n, k) = (p.m, p.n, p.k);
        let strides = |op: Op, ld: usize| match op {
            Op::N => (1isize, ld as isize),
            Op::T => (ld as isize, 1isize),
        };
        let (rsa, csa) = strides(p.layout.a, p.lda);
        let (rsb, csb) = strides(p.layout.b, p.ldb);
        let mut prod = vec![0.0f64; m * n];
        let mut abs_prod = vec![0.0f64; m * n];
        let abs_a: Vec<f64> = ops.a.iter().map(|x| x.abs()).collect();
        let abs_b: Vec<f64> = ops.b.iter().map(|x| x.abs()).collect();
        // SAFETY: the strides walk op(A) (m x k), op(B) (k x n) inside their
        // allocations (validated leading dimensions), and the m x n outputs
        // are column-major with stride m.
        unsafe {
            matrixmultiply::dgemm(
                m,
                k,
                n,
                1.0,
                ops.a.as_ptr(),
                rsa,
                csa,
                ops.b.as_ptr(),
                rsb,
                csb,
                0.0,
                prod.as_mut_ptr(),
                1,
                m as isize,
            );
            matrixmultiply::dgemm(
                m,
                k,
                n,
                1.0,
                abs_a.as_ptr(),
                rsa,
                csa,
                abs_b.as_ptr(),
                rsb,
                csb,
                0.0,
                abs_prod.as_mut_ptr(),
                1,
                m as isize,
            );
        }
        let mut entries = Vec::with_capacity(m * n);
        let mut values = Vec::with_capacity(m * n);
        let mut scales = Vec::with_capacity(m * n);
        for j in 0..n {
            for i in 0..m {
                let (c, cs) = c_term(i, j);
                entries.push((i, j));
                values.push(alpha * prod[i + j * m] + c);
                scales.push(alpha.abs() * abs_prod[i + j * m] + cs);
            }
        }
        return Reference {
            entries,
            full,
            values,
            scales,
        };
    }
    let entries = sample_entries(p, seed, SAMPLES);
    let (values, scales) = entries
        .iter()
        .map(|&(i, j)| {
            let (mut dot, mut abs) = (0.0f64, 0.0f64);
            for q in 0..p.k {
                let x = at(&ops.a, p.layout.a, p.lda, i, q) * at(&ops.b, p.layout.b, p.ldb, q, j);
                dot += x;
                abs += x.abs();
            }
            let (c, cs) = c_term(i, j);
            (alpha * dot + c, alpha.abs() * abs + cs)
        })
        .unzip();
    Reference {
        entries,
        full,
        values,
        scales,
    }
}

/// How a computed C compares with the reference.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckReport {
    /// Entries compared (all of C, or the samples).
    pub checked: usize,
    pub full: bool,
    /// The largest |error| / scale: the componentwise relative error.
    pub max_error: f64,
    /// c (K + 2) u: `max_error` must not exceed it.
    pub bound: f64,
    /// The entry with the largest error, and non-finite outputs.
    pub worst: (usize, usize),
    pub non_finite: usize,
    /// Entries outside the stored m x n part of C that changed (padding
    /// rows between m and ldc).
    pub padding_written: usize,
}

impl CheckReport {
    pub fn passed(&self) -> bool {
        self.non_finite == 0 && self.padding_written == 0 && self.max_error <= self.bound
    }

    pub fn describe(&self) -> String {
        let mut s = format!(
            "error {:.2e} of scale at C[{}, {}], bound {:.2e} ({} entries{})",
            self.max_error,
            self.worst.0,
            self.worst.1,
            self.bound,
            self.checked,
            if self.full { "" } else { ", sampled" }
        );
        if self.non_finite > 0 {
            s.push_str(&format!(", {} not finite", self.non_finite));
        }
        if self.padding_written > 0 {
            s.push_str(&format!(
                ", {} padding elements of C written",
                self.padding_written
            ));
        }
        s
    }
}

/// c (K + 2) u: the largest error of scale a check allows on `p`.
fn bound(p: &GemmProblem) -> f64 {
    bound_factor(p.flavor) * (p.k as f64 + 2.0) * unit(p.flavor)
}

/// Compares `got` (the stored C after the call) with `r`; `before` is C
/// before the call, whose padding rows must be left as they were.
pub fn compare(p: &GemmProblem, r: &Reference, got: &[f64], before: &[f64]) -> CheckReport {
    let bound = bound(p);
    let mut report = CheckReport {
        checked: r.entries.len(),
        full: r.full,
        max_error: 0.0,
        bound,
        worst: (0, 0),
        non_finite: 0,
        padding_written: 0,
    };
    for ((&(i, j), &want), &scale) in r.entries.iter().zip(&r.values).zip(&r.scales) {
        let v = got[i + j * p.ldc];
        if !v.is_finite() {
            report.non_finite += 1;
            report.worst = (i, j);
            continue;
        }
        // A zero scale means an exact zero is expected.
        let e = (v - want).abs() / scale.max(f64::MIN_POSITIVE);
        if e > report.max_error {
            report.max_error = e;
            report.worst = (i, j);
        }
    }
    report.padding_written = padding_written(p, got, before, 1);
    report
}

/// The stored padding rows of C (between m and ldc) that a call changed;
/// `words` doubles per element.
fn padding_written(p: &GemmProblem, got: &[f64], before: &[f64], words: usize) -> usize {
    let mut n = 0;
    for j in 0..p.n {
        for i in p.m..p.ldc {
            for w in 0..words {
                let e = (i + j * p.ldc) * words + w;
                let (a, b) = (got[e], before[e]);
                if a.to_bits() != b.to_bits() && !(a.is_nan() && b.is_nan()) {
                    n += 1;
                }
            }
        }
    }
    n
}

/// op(X)(i, j) of a stored double-double matrix (interleaved pairs).
fn at_dd(x: &[f64], op: Op, ld: usize, i: usize, j: usize) -> Dd {
    match op {
        Op::N => dd::at(x, i + j * ld),
        Op::T => dd::at(x, j + i * ld),
    }
}

/// The double-double check: every checked entry of alpha op(A) op(B) +
/// beta C computed exactly (beta = 0 ignores C), the errors of `got` (C
/// after the call, interleaved pairs) against it as a [`CheckReport`] and
/// as normwise and elementwise errors.
pub fn compare_dd(
    p: &GemmProblem,
    ops: &Operands,
    alpha: Dd,
    beta: Dd,
    got: &[f64],
    before: &[f64],
    seed: u64,
) -> (CheckReport, dd::Accuracy) {
    use rayon::prelude::*;
    let full = p.m as f64 * p.n as f64 * p.k as f64 <= DD_FULL_CHECK_LIMIT;
    let entries: Vec<(usize, usize)> = if full {
        (0..p.n)
            .flat_map(|j| (0..p.m).map(move |i| (i, j)))
            .collect()
    } else {
        sample_entries(p, seed, DD_SAMPLES)
    };
    let with_c = beta != Dd::ZERO;
    // (error, scale, |exact|) per entry, None where C is not finite.
    let measured: Vec<Option<(f64, f64, f64)>> = entries
        .par_iter()
        .map(|&(i, j)| {
            let v = dd::at(got, i + j * p.ldc);
            if !v.is_finite() {
                return None;
            }
            let pairs = (0..p.k).map(|q| {
                (
                    at_dd(&ops.a, p.layout.a, p.lda, i, q),
                    at_dd(&ops.b, p.layout.b, p.ldb, q, j),
                )
            });
            let c = with_c.then(|| dd::at(&ops.c, i + j * p.ldc));
            let (exact, scale) = dd::exact_entry(alpha, pairs, beta, c);
            Some((dd::error(v, &exact), scale, dd::to_f64(&exact).abs()))
        })
        .collect();
    let mut report = CheckReport {
        checked: entries.len(),
        full,
        max_error: 0.0,
        bound: bound(p),
        worst: (0, 0),
        non_finite: 0,
        padding_written: padding_written(p, got, before, 2),
    };
    let (mut errors, mut magnitudes) = (Vec::new(), Vec::new());
    for (&(i, j), m) in entries.iter().zip(&measured) {
        match m {
            None => {
                report.non_finite += 1;
                report.worst = (i, j);
            }
            Some((err, scale, magnitude)) => {
                let e = err / scale.max(f64::MIN_POSITIVE);
                if e > report.max_error {
                    report.max_error = e;
                    report.worst = (i, j);
                }
                errors.push(*err);
                magnitudes.push(*magnitude);
            }
        }
    }
    (report, dd::accuracy(&errors, &magnitudes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::Layout;

    /// C as a correct kernel in the routine's precision would leave it:
    /// the FP64 product rounded once.
    fn computed(p: &GemmProblem, ops: &Operands, alpha: f64, beta: f64) -> Vec<f64> {
        let mut c = ops.c.clone();
        for j in 0..p.n {
            for i in 0..p.m {
                let dot: f64 = (0..p.k)
                    .map(|q| {
                        at(&ops.a, p.layout.a, p.lda, i, q) * at(&ops.b, p.layout.b, p.ldb, q, j)
                    })
                    .sum();
                let old = if beta == 0.0 {
                    0.0
                } else {
                    beta * ops.c[i + j * p.ldc]
                };
                c[i + j * p.ldc] = round_to(p.flavor, alpha * dot + old);
            }
        }
        c
    }

    #[test]
    fn every_layout_matches_a_direct_product_within_the_bound() {
        for layout in Layout::ALL {
            for flavor in [Flavor::Sgemm, Flavor::Dgemm] {
                let mut p = GemmProblem::packed(flavor, layout, 17, 9, 33);
                p.ldc = 20;
                p.lda += 3;
                let ops = Operands::random(&p, 7);
                for beta in [0.0, 0.75] {
                    let r = reference(&p, &ops, 1.5, beta, 7);
                    assert!(r.full && r.entries.len() == 17 * 9);
                    let got = computed(&p, &ops, 1.5, beta);
                    let rep = compare(&p, &r, &got, &ops.c);
                    assert!(rep.passed(), "{layout} {flavor}: {}", rep.describe());
                }
            }
        }
    }

    #[test]
    fn wrong_entries_nans_and_written_padding_fail() {
        let mut p = GemmProblem::packed(Flavor::Sgemm, Layout::ALL[2], 8, 8, 64);
        p.ldc = 10;
        let ops = Operands::random(&p, 1);
        let r = reference(&p, &ops, 1.0, 0.0, 1);
        let good = computed(&p, &ops, 1.0, 0.0);
        assert!(compare(&p, &r, &good, &ops.c).passed());
        let mut off = good.clone();
        // One unit of the product's scale is far above the bound.
        off[3 + 5 * 10] += r.scales[3 + 5 * 8];
        let rep = compare(&p, &r, &off, &ops.c);
        assert!(!rep.passed() && rep.worst == (3, 5), "{}", rep.describe());
        let mut nan = good.clone();
        nan[0] = f64::NAN;
        assert_eq!(compare(&p, &r, &nan, &ops.c).non_finite, 1);
        let mut pad = good;
        pad[8] = 0.0;
        let rep = compare(&p, &r, &pad, &ops.c);
        assert_eq!(rep.padding_written, 1);
        assert!(rep.describe().contains("padding"));
    }

    #[test]
    fn large_problems_are_sampled_with_corners_and_tile_edges() {
        let p = GemmProblem::packed(Flavor::Dgemm, Layout::ALL[0], 2048, 1100, 1024);
        assert!(p.m as f64 * p.n as f64 * p.k as f64 > FULL_CHECK_LIMIT);
        let e = sample_entries(&p, 3, SAMPLES);
        for corner in [(0, 0), (2047, 0), (0, 1099), (2047, 1099)] {
            assert!(e.contains(&corner));
        }
        assert!(e.iter().any(|&(i, _)| i % 16 == 15));
        assert!(e.len() > SAMPLES && e.len() <= 3 * SAMPLES + 4);
        assert!(e.iter().all(|&(i, j)| i < 2048 && j < 1100));
    }

    #[test]
    fn padding_rows_hold_nan_and_values_are_in_precision() {
        let mut p = GemmProblem::packed(Flavor::Sgemm, Layout::ALL[0], 3, 2, 2);
        p.lda = 5;
        let ops = Operands::random(&p, 9);
        assert!(ops.a[3].is_nan() && ops.a[4].is_nan() && !ops.a[2].is_nan());
        assert!(ops
            .a
            .iter()
            .filter(|x| !x.is_nan())
            .all(|&x| x == x as f32 as f64));
    }
}
