//! The test problem and the CPU reference.
//!
//! The matrix never crosses the bus: element a(i, j) = a(j, i) is a hash of
//! (seed, max(i, j), min(i, j)), computed the same way by `symv_fill` on the
//! GPU and by [`element`] here, so the reference regenerates what the GPU
//! holds. Each check draws a fresh seed.
//!
//! Error measure: with want = alpha A x + beta y0 computed in f64 and the
//! scale s_i = |alpha| sum_j |a_ij x_j| + |beta y0_i|, a result passes when
//! every element is finite and max_i |got_i - want_i| / max_i s_i is at most
//! [`tolerance`] = 16 u sqrt(n), u the unit roundoff of the precision
//! (2^-53 or 2^-24): rounding errors of a sum of n terms accumulated in any
//! order grow like u sqrt(n) relative to the sum of magnitudes, and 16 leaves
//! room for the few extra roundings of alpha, beta and the atomics. For n =
//! 32768 the bound is 3.2e-13 in double and 1.7e-4 in single.

use rayon::prelude::*;

use super::{Precision, Uplo};

/// SplitMix64's output function (as in `symv_util.cu`).
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn hash(seed: u64, i: usize, j: usize) -> u64 {
    let key = ((i as u64) << 32) | j as u64;
    mix64(key.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(seed))
}

/// The double-precision value of a(i, j), i >= j: uniform in [-1, 1).
pub fn value_f64(seed: u64, i: usize, j: usize) -> f64 {
    (hash(seed, i, j) >> 11) as f64 * (1.0 / 4_503_599_627_370_496.0) - 1.0
}

/// The single-precision value of a(i, j), i >= j: uniform in [-1, 1).
pub fn value_f32(seed: u64, i: usize, j: usize) -> f32 {
    (hash(seed, i, j) >> 40) as u32 as f32 * (1.0 / 8_388_608.0) - 1.0
}

/// a(i, j) of the symmetric test matrix, in `precision`, widened to f64.
pub fn element(precision: Precision, seed: u64, i: usize, j: usize) -> f64 {
    let (hi, lo) = if i >= j { (i, j) } else { (j, i) };
    match precision {
        Precision::Double => value_f64(seed, hi, lo),
        Precision::Single => value_f32(seed, hi, lo) as f64,
    }
}

/// A x and |A| |x| for the hash matrix of `seed`.
#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    pub ax: Vec<f64>,
    pub abs_ax: Vec<f64>,
}

/// A x and |A| |x| from the lower triangle, each element generated once and
/// used for its row and its column (in parallel over column blocks).
pub fn hash_product(precision: Precision, seed: u64, x: &[f64]) -> Product {
    let n = x.len();
    const COLUMNS: usize = 64;
    let blocks: Vec<usize> = (0..n.div_ceil(COLUMNS)).collect();
    let (ax, abs_ax) = blocks
        .par_iter()
        .fold(
            || (vec![0.0f64; n], vec![0.0f64; n]),
            |(mut ax, mut abs), &b| {
                for j in b * COLUMNS..((b + 1) * COLUMNS).min(n) {
                    let xj = x[j];
                    let (mut col, mut col_abs) = (0.0, 0.0);
                    for (i, &xi) in x.iter().enumerate().skip(j) {
                        let a = element(precision, seed, i, j);
                        ax[i] += a * xj;
                        abs[i] += (a * xj).abs();
                        if i != j {
                            col += a * xi;
                            col_abs += (a * xi).abs();
                        }
                    }
                    ax[j] += col;
                    abs[j] += col_abs;
                }
                (ax, abs)
            },
        )
        .reduce(
            || (vec![0.0f64; n], vec![0.0f64; n]),
            |(mut a, mut b), (c, d)| {
                a.iter_mut().zip(&c).for_each(|(p, q)| *p += q);
                b.iter_mut().zip(&d).for_each(|(p, q)| *p += q);
                (a, b)
            },
        );
    Product { ax, abs_ax }
}

/// The hash matrix as a dense column-major lda x n array: the `uplo` triangle
/// holds its values, the rest NaN (or the mirrored values when `full`).
pub fn hash_matrix(
    precision: Precision,
    seed: u64,
    n: usize,
    lda: usize,
    uplo: Uplo,
    full: bool,
) -> Vec<f64> {
    let mut a = vec![f64::NAN; lda * n];
    for j in 0..n {
        for i in 0..n {
            if full || uplo.stores(i, j) {
                a[j * lda + i] = element(precision, seed, i, j);
            }
        }
    }
    a
}

/// The reference BLAS loop for y = A x with A symmetric, reading only the
/// `uplo` triangle of the column-major lda x n array `a`.
pub fn symv_triangle(uplo: Uplo, n: usize, a: &[f64], lda: usize, x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for j in 0..n {
        let rows = match uplo {
            Uplo::Lower => j + 1..n,
            Uplo::Upper => 0..j,
        };
        let diag = a[j * lda + j];
        y[j] += diag * x[j];
        let mut dot = 0.0;
        for i in rows {
            let aij = a[j * lda + i];
            y[i] += aij * x[j];
            dot += aij * x[i];
        }
        y[j] += dot;
    }
    y
}

/// y = A x for the dense column-major lda x n array `a`.
pub fn gemv_dense(n: usize, a: &[f64], lda: usize, x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for j in 0..n {
        for i in 0..n {
            y[i] += a[j * lda + i] * x[j];
        }
    }
    y
}

/// How a result compares with the reference.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ErrorReport {
    /// max_i |got_i - want_i| over finite elements.
    pub max_abs_error: f64,
    /// max_i s_i, the normalisation.
    pub scale: f64,
    /// max_abs_error / scale.
    pub relative: f64,
    pub tolerance: f64,
    /// Elements that are NaN or infinite (an unwritten poisoned element, or a
    /// read of the unstored triangle, shows up here).
    pub non_finite: usize,
    /// Index of the largest error (or of the first non-finite element).
    pub worst: usize,
}

impl ErrorReport {
    pub fn passed(&self) -> bool {
        self.non_finite == 0 && self.relative <= self.tolerance
    }

    pub fn describe(&self) -> String {
        if self.non_finite > 0 {
            format!(
                "{} non-finite element(s), the first at index {}",
                self.non_finite, self.worst
            )
        } else {
            format!(
                "relative error {:.3e} (bound {:.3e}), worst at index {}",
                self.relative, self.tolerance, self.worst
            )
        }
    }
}

/// 16 u sqrt(n): the accepted relative error for `precision` at size n.
pub fn tolerance(precision: Precision, n: usize) -> f64 {
    16.0 * precision.unit_roundoff() * (n.max(1) as f64).sqrt()
}

/// Compares `got` with alpha A x + beta y0 (`y0` absent means beta = 0).
pub fn compare(
    precision: Precision,
    got: &[f64],
    product: &Product,
    alpha: f64,
    beta: f64,
    y0: Option<&[f64]>,
) -> ErrorReport {
    let n = got.len();
    let mut report = ErrorReport {
        max_abs_error: 0.0,
        scale: 0.0,
        relative: 0.0,
        tolerance: tolerance(precision, n),
        non_finite: 0,
        worst: 0,
    };
    for i in 0..n {
        let y0i = y0.map_or(0.0, |y| y[i]);
        let want = alpha * product.ax[i] + beta * y0i;
        let scale = alpha.abs() * product.abs_ax[i] + (beta * y0i).abs();
        report.scale = report.scale.max(scale);
        if !got[i].is_finite() {
            if report.non_finite == 0 {
                report.worst = i;
            }
            report.non_finite += 1;
            continue;
        }
        let err = (got[i] - want).abs();
        if err > report.max_abs_error && report.non_finite == 0 {
            report.worst = i;
        }
        report.max_abs_error = report.max_abs_error.max(err);
    }
    report.relative = if report.scale > 0.0 {
        report.max_abs_error / report.scale
    } else {
        report.max_abs_error
    };
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn random_vec(n: usize, seed: u64) -> Vec<f64> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect()
    }

    #[test]
    fn hash_values_are_uniform_in_the_unit_interval_and_exact() {
        let mut sum = 0.0;
        let count = 20_000;
        for k in 0..count {
            let d = value_f64(99, k, k / 3);
            let s = value_f32(99, k, k / 3);
            assert!((-1.0..1.0).contains(&d) && (-1.0..1.0).contains(&s));
            // Single values are multiples of 2^-23, double of 2^-52.
            assert_eq!((s as f64 * 8_388_608.0).fract(), 0.0);
            assert_eq!((d * 4_503_599_627_370_496.0).fract(), 0.0);
            sum += d;
        }
        assert!(
            (sum / count as f64).abs() < 0.02,
            "mean {}",
            sum / count as f64
        );
        assert_ne!(value_f64(1, 5, 3), value_f64(2, 5, 3));
        assert_ne!(value_f64(1, 5, 3), value_f64(1, 3, 5));
    }

    #[test]
    fn mix64_matches_splitmix64() {
        // SplitMix64 seeded with 0 first returns mix64(0x9E3779B97F4A7C15).
        assert_eq!(mix64(0x9E37_79B9_7F4A_7C15), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn symmetric_product_from_either_triangle_equals_the_dense_product() {
        for (n, lda) in [(1, 1), (5, 8), (17, 17), (40, 45)] {
            for p in Precision::ALL {
                let seed = 1000 + n as u64;
                let x = random_vec(n, seed);
                let dense =
                    gemv_dense(n, &hash_matrix(p, seed, n, lda, Uplo::Lower, true), lda, &x);
                for uplo in Uplo::ALL {
                    // The other triangle and the padding are NaN: reading them
                    // would poison the result.
                    let a = hash_matrix(p, seed, n, lda, uplo, false);
                    let y = symv_triangle(uplo, n, &a, lda, &x);
                    for (i, (got, want)) in y.iter().zip(&dense).enumerate() {
                        assert!((got - want).abs() <= 1e-13, "{p} {uplo} n={n} i={i}");
                    }
                }
                let prod = hash_product(p, seed, &x);
                for (i, (got, want)) in prod.ax.iter().zip(&dense).enumerate() {
                    assert!((got - want).abs() <= 1e-13, "{p} n={n} i={i}");
                }
            }
        }
    }

    #[test]
    fn abs_product_bounds_the_product() {
        let x = random_vec(50, 3);
        let prod = hash_product(Precision::Double, 3, &x);
        let a = hash_matrix(Precision::Double, 3, 50, 50, Uplo::Lower, true);
        let abs_a: Vec<f64> = a.iter().map(|v| v.abs()).collect();
        let abs_x: Vec<f64> = x.iter().map(|v| v.abs()).collect();
        let want = gemv_dense(50, &abs_a, 50, &abs_x);
        for ((ax, abs_ax), want) in prod.ax.iter().zip(&prod.abs_ax).zip(&want) {
            assert!(ax.abs() <= *abs_ax);
            assert!((abs_ax - want).abs() < 1e-12);
        }
    }

    #[test]
    fn compare_accepts_rounding_and_rejects_errors_and_poison() {
        let n = 300;
        let x = random_vec(n, 5);
        let y0 = random_vec(n, 6);
        let prod = hash_product(Precision::Single, 5, &x);
        let (alpha, beta) = (0.75, -1.25);
        let exact: Vec<f64> = (0..n).map(|i| alpha * prod.ax[i] + beta * y0[i]).collect();
        // Rounded to single precision: passes.
        let rounded: Vec<f64> = exact.iter().map(|&v| v as f32 as f64).collect();
        let r = compare(Precision::Single, &rounded, &prod, alpha, beta, Some(&y0));
        assert!(r.passed(), "{}", r.describe());
        // One element off by a part in 1e3 of the scale: fails, and is found.
        let mut wrong = rounded.clone();
        wrong[123] += 1e-3 * r.scale;
        let r = compare(Precision::Single, &wrong, &prod, alpha, beta, Some(&y0));
        assert!(!r.passed());
        assert_eq!(r.worst, 123);
        // A poisoned (unwritten) element fails whatever the tolerance.
        let mut poisoned = rounded;
        poisoned[7] = f64::NAN;
        let r = compare(Precision::Single, &poisoned, &prod, alpha, beta, Some(&y0));
        assert!(!r.passed() && r.non_finite == 1 && r.worst == 7);
        assert!(r.describe().contains("non-finite"));
        // The same rounding is far outside the double-precision bound.
        let r = compare(Precision::Double, &wrong, &prod, alpha, beta, Some(&y0));
        assert!(!r.passed());
    }

    #[test]
    fn tolerance_grows_with_the_square_root_of_n() {
        let t = tolerance(Precision::Double, 32768);
        assert!(t > 3.0e-13 && t < 3.3e-13, "{t}");
        let s = tolerance(Precision::Single, 32768);
        assert!(s > 1.6e-4 && s < 1.8e-4, "{s}");
        assert!(
            (tolerance(Precision::Double, 400) / tolerance(Precision::Double, 100) - 2.0).abs()
                < 1e-12
        );
    }
}
