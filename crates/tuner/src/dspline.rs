//! d-spline (Tanaka et al.): a discrete smoothing spline over a grid of problem
//! sizes. Given samples `(n_i, y_i)`, find the values `f` at every grid point
//! minimising `||y - E f||^2 + alpha^2 ||D f||^2`, where `E` picks the sampled
//! grid points and `D` takes second differences.
//!
//! The normal equations `(E^T E + alpha^2 D^T D) f = E^T y` are pentadiagonal;
//! they are solved through a banded factorisation `R^T R` of their matrix, taken
//! by Givens QR of the stacked system for accuracy, in O(grid points). `alpha` is
//! chosen by generalised cross-validation,
//! `GCV(alpha) = k ||(I - A) y||^2 / tr(I - A)^2` for `k` samples and influence
//! matrix `A = E M^-1 E^T`, whose trace needs only the diagonal of `M^-1` at
//! the sampled points: those come from the band of the inverse, computed by
//! Takahashi's recurrence from the same factorisation, also in O(grid points).

use serde::{Deserialize, Serialize};

/// The grid `lo, lo + step, ..., <= hi` of problem sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    pub lo: u64,
    pub hi: u64,
    pub step: u64,
}

impl Grid {
    /// Every integer in `[lo, hi]`, as in the paper.
    pub fn integers(lo: u64, hi: u64) -> Grid {
        Grid { lo, hi, step: 1 }
    }

    pub fn len(&self) -> usize {
        if self.step == 0 || self.hi < self.lo {
            0
        } else {
            ((self.hi - self.lo) / self.step + 1) as usize
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn point(&self, i: usize) -> u64 {
        self.lo + i as u64 * self.step
    }

    /// The nearest grid index to `n`, if `n` lies in `[lo, hi]`.
    pub fn index_of(&self, n: u64) -> Option<usize> {
        if self.step == 0 || n < self.lo || n > self.hi {
            return None;
        }
        let i = ((n - self.lo) as f64 / self.step as f64).round() as usize;
        Some(i.min(self.len() - 1))
    }
}

/// Why a fit failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DSplineError {
    #[error("the grid is empty (lo {lo}, hi {hi}, step {step})")]
    EmptyGrid { lo: u64, hi: u64, step: u64 },
    #[error("a d-spline needs samples at {need} or more distinct grid points, got {got}")]
    TooFewSamples { need: usize, got: usize },
    #[error("sample at size {0} lies outside the grid")]
    OutOfGrid(u64),
    #[error("sample at size {0} has a non-finite value")]
    NotFinite(u64),
    #[error("alpha must be a finite non-negative number, got {0}")]
    BadAlpha(f64),
}

/// A fitted d-spline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DSpline {
    pub grid: Grid,
    /// The fitted value at every grid point.
    pub values: Vec<f64>,
    pub alpha: f64,
    /// GCV score at `alpha`.
    pub gcv: f64,
    /// Trace of the influence matrix (effective degrees of freedom).
    pub dof: f64,
    /// Residual sum of squares at the samples.
    pub rss: f64,
    pub samples: usize,
}

impl DSpline {
    /// The fitted value at size `n`: linear between grid points, constant beyond.
    pub fn at(&self, n: u64) -> f64 {
        let g = self.grid;
        if n <= g.lo {
            return self.values[0];
        }
        let last = self.values.len() - 1;
        if n >= g.point(last) {
            return self.values[last];
        }
        let off = (n - g.lo) as f64 / g.step as f64;
        let i = off.floor() as usize;
        let t = off - i as f64;
        self.values[i] * (1.0 - t) + self.values[(i + 1).min(last)] * t
    }

    /// Residual standard deviation estimate `sqrt(RSS / (k - dof))`.
    pub fn noise_sd(&self) -> f64 {
        let dof_left = (self.samples as f64 - self.dof).max(1e-9);
        (self.rss / dof_left).sqrt()
    }
}

/// Samples gathered on the grid: per grid index, the count and sum of values.
struct Gathered {
    pos: Vec<usize>,
    y: Vec<f64>,
}

fn gather(grid: &Grid, samples: &[(u64, f64)]) -> Result<Gathered, DSplineError> {
    if grid.is_empty() {
        return Err(DSplineError::EmptyGrid {
            lo: grid.lo,
            hi: grid.hi,
            step: grid.step,
        });
    }
    let mut pos = Vec::with_capacity(samples.len());
    let mut y = Vec::with_capacity(samples.len());
    for &(n, v) in samples {
        let p = grid.index_of(n).ok_or(DSplineError::OutOfGrid(n))?;
        if !v.is_finite() {
            return Err(DSplineError::NotFinite(n));
        }
        pos.push(p);
        y.push(v);
    }
    let mut order: Vec<usize> = (0..pos.len()).collect();
    order.sort_by_key(|&i| pos[i]);
    let pos: Vec<usize> = order.iter().map(|&i| pos[i]).collect();
    let y: Vec<f64> = order.iter().map(|&i| y[i]).collect();
    let mut distinct = pos.clone();
    distinct.dedup();
    // Two distinct points pin down the linear null space of D; GCV needs a third.
    let need = if grid.len() >= 3 { 3 } else { grid.len() };
    if distinct.len() < need {
        return Err(DSplineError::TooFewSamples {
            need,
            got: distinct.len(),
        });
    }
    Ok(Gathered { pos, y })
}

/// `M = E^T E + alpha^2 D^T D = R^T R`, held as `L D L^T` with `L = (R / diag R)^T`
/// and `D = diag(R)^2`, plus the solution `f`.
///
/// `R` comes from a Givens QR of the stacked least-squares system
/// `[E; alpha D] f ~ [y; 0]` rather than from a Cholesky factorisation of `M`:
/// forming `M` squares the condition number, which for large `alpha` on a fine
/// grid (`alpha^2 * 16` against the O(1) entries of `E^T E`) loses every digit of
/// the influence-matrix trace. Rows are rotated in by their leading column, so
/// each one meets at most three rows of `R`: O(grid points) in all.
struct Factor {
    d: Vec<f64>,
    l1: Vec<f64>,
    l2: Vec<f64>,
    f: Vec<f64>,
}

fn factor(m: usize, g: &Gathered, alpha: f64) -> Factor {
    let mut rb = vec![[0.0f64; 3]; m];
    let mut filled = vec![false; m];
    let mut qtb = vec![0.0; m];
    // Rotates one row (leading column, three values, right side) into R.
    let mut rotate_in = |lead: usize, mut vals: [f64; 3], mut rhs: f64| {
        let mut j = lead;
        while j < m {
            if vals[0] != 0.0 {
                if !filled[j] {
                    rb[j] = vals;
                    qtb[j] = rhs;
                    filled[j] = true;
                    return;
                }
                let (a, b) = (rb[j][0], vals[0]);
                // Entries are moderate (at most |alpha| * 2 plus O(1)), so the
                // plain square root cannot overflow; hypot would be slower.
                let r = (a * a + b * b).sqrt();
                let (c, s) = (a / r, b / r);
                for t in 0..3 {
                    let (x, y) = (rb[j][t], vals[t]);
                    rb[j][t] = c * x + s * y;
                    vals[t] = -s * x + c * y;
                }
                let (x, y) = (qtb[j], rhs);
                qtb[j] = c * x + s * y;
                rhs = -s * x + c * y;
            }
            if vals[1] == 0.0 && vals[2] == 0.0 {
                return;
            }
            vals = [vals[1], vals[2], 0.0];
            j += 1;
        }
    };
    // Rows go in by leading column (samples are sorted by position), so each
    // one stops at the first empty row of R.
    let mut next_sample = 0;
    for c in 0..m {
        if c + 2 < m {
            rotate_in(c, [alpha, -2.0 * alpha, alpha], 0.0);
        }
        while next_sample < g.pos.len() && g.pos[next_sample] == c {
            rotate_in(c, [1.0, 0.0, 0.0], g.y[next_sample]);
            next_sample += 1;
        }
    }
    // Back substitution R f = Q^T b.
    let mut f = vec![0.0; m];
    for i in (0..m).rev() {
        let mut s = qtb[i];
        if i + 1 < m {
            s -= rb[i][1] * f[i + 1];
        }
        if i + 2 < m {
            s -= rb[i][2] * f[i + 2];
        }
        // A zero pivot means an unconstrained point (alpha = 0 away from the
        // samples); gather() rules that out for alpha > 0.
        let piv = if rb[i][0].abs() > 1e-300 {
            rb[i][0]
        } else {
            1e-300
        };
        f[i] = s / piv;
    }
    let mut d = vec![0.0; m];
    let mut l1 = vec![0.0; m];
    let mut l2 = vec![0.0; m];
    for i in 0..m {
        let piv = if rb[i][0].abs() > 1e-300 {
            rb[i][0]
        } else {
            1e-300
        };
        d[i] = piv * piv;
        l1[i] = rb[i][1] / piv;
        l2[i] = rb[i][2] / piv;
    }
    Factor { d, l1, l2, f }
}

impl Factor {
    /// The diagonal of `M^-1` (Takahashi's recurrence over the band).
    fn inverse_diagonal(&self) -> Vec<f64> {
        let m = self.d.len();
        // z0[i] = Z[i][i], z1[i] = Z[i][i+1], z2[i] = Z[i][i+2].
        let mut z0 = vec![0.0; m];
        let mut z1 = vec![0.0; m];
        let mut z2 = vec![0.0; m];
        for i in (0..m).rev() {
            let (a, b) = (self.l1[i], self.l2[i]);
            let zi1_i1 = if i + 1 < m { z0[i + 1] } else { 0.0 };
            let zi1_i2 = if i + 1 < m { z1[i + 1] } else { 0.0 };
            let zi2_i2 = if i + 2 < m { z0[i + 2] } else { 0.0 };
            z2[i] = -(a * zi1_i2 + b * zi2_i2);
            z1[i] = -(a * zi1_i1 + b * zi1_i2);
            z0[i] = 1.0 / self.d[i] - (a * z1[i] + b * z2[i]);
        }
        z0
    }
}

struct Solved {
    values: Vec<f64>,
    rss: f64,
    trace: f64,
}

fn solve_at(grid: &Grid, g: &Gathered, alpha: f64) -> Solved {
    let m = grid.len();
    let f = factor(m, g, alpha);
    let zdiag = f.inverse_diagonal();
    let rhs = f.f;
    let rss = g
        .pos
        .iter()
        .zip(&g.y)
        .map(|(&p, &y)| (y - rhs[p]).powi(2))
        .sum();
    let trace = g.pos.iter().map(|&p| zdiag[p]).sum();
    Solved {
        values: rhs,
        rss,
        trace,
    }
}

fn gcv_of(k: usize, s: &Solved) -> f64 {
    let denom = (k as f64 - s.trace).max(1e-12);
    k as f64 * s.rss / (denom * denom)
}

/// The GCV score of a fit with this `alpha` (for diagnostics and tests).
pub fn gcv_score(grid: Grid, samples: &[(u64, f64)], alpha: f64) -> Result<f64, DSplineError> {
    let g = gather(&grid, samples)?;
    Ok(gcv_of(g.y.len(), &solve_at(&grid, &g, alpha)))
}

/// Fits a d-spline with the given `alpha`, or with the GCV-optimal one when `None`.
pub fn fit(
    grid: Grid,
    samples: &[(u64, f64)],
    alpha: Option<f64>,
) -> Result<DSpline, DSplineError> {
    fit_impl(grid, samples, alpha, None)
}

/// Fits with the GCV-optimal alpha, searching only within a decade of `hint`
/// (a previous fit's alpha): for repeated fits as samples are added one by one.
pub fn fit_near(grid: Grid, samples: &[(u64, f64)], hint: f64) -> Result<DSpline, DSplineError> {
    if !(hint.is_finite() && hint > 0.0) {
        return Err(DSplineError::BadAlpha(hint));
    }
    fit_impl(grid, samples, None, Some(hint.log10()))
}

fn fit_impl(
    grid: Grid,
    samples: &[(u64, f64)],
    alpha: Option<f64>,
    hint_log: Option<f64>,
) -> Result<DSpline, DSplineError> {
    let g = gather(&grid, samples)?;
    let k = g.y.len();
    let alpha = match alpha {
        Some(a) if a.is_finite() && a >= 0.0 => a,
        Some(a) => return Err(DSplineError::BadAlpha(a)),
        None => choose_alpha(&grid, &g, hint_log),
    };
    let s = solve_at(&grid, &g, alpha);
    Ok(DSpline {
        grid,
        gcv: gcv_of(k, &s),
        dof: s.trace,
        rss: s.rss,
        values: s.values,
        alpha,
        samples: k,
    })
}

/// Minimises GCV over log10(alpha): a coarse scan over a range wide enough for
/// any grid (from near interpolation to a straight line), then golden-section
/// refinement around the best scan point.
fn choose_alpha(grid: &Grid, g: &Gathered, hint_log: Option<f64>) -> f64 {
    let k = g.y.len();
    let score = |la: f64| gcv_of(k, &solve_at(grid, g, 10f64.powf(la)));
    let (lo, hi) = match hint_log {
        Some(h) => (h - 1.0, h + 1.0),
        // Beyond alpha ~ m^2 (m grid points) even the smoothest bending mode is
        // penalised out and the fit is the least-squares line.
        None => (-3.0, 1.0 + 2.0 * (grid.len().max(10) as f64).log10()),
    };
    let step = 0.5;
    let mut best = (f64::INFINITY, lo);
    let mut la = lo;
    while la <= hi + 1e-9 {
        let s = score(la);
        if s < best.0 {
            best = (s, la);
        }
        la += step;
    }
    let (mut a, mut b) = (best.1 - step, best.1 + step);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (score(c), score(d));
    let iterations = if hint_log.is_some() { 10 } else { 16 };
    for _ in 0..iterations {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = score(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = score(d);
        }
    }
    let refined = if fc < fd { (fc, c) } else { (fd, d) };
    let chosen = if refined.0 <= best.0 {
        refined.1
    } else {
        best.1
    };
    10f64.powf(chosen)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Gaussian elimination with partial pivoting on a dense system.
    pub(crate) fn dense_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
        let n = b.len();
        for col in 0..n {
            let piv = (col..n)
                .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
                .unwrap();
            a.swap(col, piv);
            b.swap(col, piv);
            for r in col + 1..n {
                let f = a[r][col] / a[col][col];
                let pivot_row = a[col].clone();
                for (x, p) in a[r][col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                b[r] -= f * b[col];
            }
        }
        let mut x = vec![0.0; n];
        for r in (0..n).rev() {
            let s: f64 = (r + 1..n).map(|c| a[r][c] * x[c]).sum();
            x[r] = (b[r] - s) / a[r][r];
        }
        x
    }

    /// The dense matrix M = E^T E + alpha^2 D^T D, built from E and D themselves.
    fn dense_m(m: usize, pos: &[usize], alpha: f64) -> Vec<Vec<f64>> {
        let k = pos.len();
        let mut e = vec![vec![0.0; m]; k];
        for (i, &p) in pos.iter().enumerate() {
            e[i][p] = 1.0;
        }
        let mut d = vec![vec![0.0; m]; m - 2];
        for r in 0..m - 2 {
            d[r][r] = 1.0;
            d[r][r + 1] = -2.0;
            d[r][r + 2] = 1.0;
        }
        let mut out = vec![vec![0.0; m]; m];
        for i in 0..m {
            for j in 0..m {
                let ete: f64 = (0..k).map(|r| e[r][i] * e[r][j]).sum();
                let dtd: f64 = (0..m - 2).map(|r| d[r][i] * d[r][j]).sum();
                out[i][j] = ete + alpha * alpha * dtd;
            }
        }
        out
    }

    #[test]
    fn banded_solve_matches_dense_elimination() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for (m, alpha) in [(7usize, 0.3), (15, 2.0), (30, 10.0), (12, 0.05)] {
            let grid = Grid::integers(50, 50 + m as u64 - 1);
            let mut samples: Vec<(u64, f64)> = (0..m as u64)
                .filter(|i| i % 3 == 0 || *i == m as u64 - 1)
                .map(|i| (50 + i, rng.gen_range(-2.0..2.0)))
                .collect();
            // A repeated size counts twice, as two rows of E.
            samples.push((50 + 3, 0.7));
            let fitted = fit(grid, &samples, Some(alpha)).unwrap();
            let pos: Vec<usize> = samples.iter().map(|s| (s.0 - 50) as usize).collect();
            let mm = dense_m(m, &pos, alpha);
            let mut rhs = vec![0.0; m];
            for (p, s) in pos.iter().zip(&samples) {
                rhs[*p] += s.1;
            }
            let want = dense_solve(mm.clone(), rhs);
            for (a, b) in fitted.values.iter().zip(&want) {
                assert!((a - b).abs() < 1e-9, "m={m} alpha={alpha}: {a} vs {b}");
            }
            // Trace of the influence matrix E M^-1 E^T from dense column solves.
            let mut trace = 0.0;
            for &p in &pos {
                let mut unit = vec![0.0; m];
                unit[p] = 1.0;
                trace += dense_solve(mm.clone(), unit)[p];
            }
            assert!(
                (fitted.dof - trace).abs() < 1e-9,
                "trace {} vs {trace}",
                fitted.dof
            );
            let rss: f64 = samples
                .iter()
                .zip(&pos)
                .map(|(s, &p)| (s.1 - want[p]).powi(2))
                .sum();
            let k = samples.len() as f64;
            let gcv = k * rss / (k - trace).powi(2);
            assert!((gcv_score(grid, &samples, alpha).unwrap() - gcv).abs() < 1e-9 * gcv.max(1.0));
        }
    }

    #[test]
    fn limits_interpolate_and_regress() {
        let grid = Grid::integers(0, 40);
        let samples: Vec<(u64, f64)> = [0u64, 10, 17, 25, 40]
            .iter()
            .map(|&n| (n, ((n as f64) * 0.2).sin()))
            .collect();
        // Tiny alpha: passes through the samples.
        let f = fit(grid, &samples, Some(1e-6)).unwrap();
        for &(n, y) in &samples {
            assert!((f.at(n) - y).abs() < 1e-6);
        }
        // Huge alpha: the least-squares line. (alpha^2 D^T D then dwarfs E^T E by
        // 1e15: a Cholesky factorisation of the normal matrix gets the trace wrong
        // in the third digit here.)
        let g = fit(grid, &samples, Some(1e7)).unwrap();
        let second: f64 = g
            .values
            .windows(3)
            .map(|w| (w[0] - 2.0 * w[1] + w[2]).abs())
            .fold(0.0, f64::max);
        assert!(second < 1e-8, "{second}");
        assert!((g.dof - 2.0).abs() < 1e-6, "dof {}", g.dof);
        let (xm, ym) = (
            samples.iter().map(|s| s.0 as f64).sum::<f64>() / 5.0,
            samples.iter().map(|s| s.1).sum::<f64>() / 5.0,
        );
        let slope = samples
            .iter()
            .map(|s| (s.0 as f64 - xm) * (s.1 - ym))
            .sum::<f64>()
            / samples
                .iter()
                .map(|s| (s.0 as f64 - xm).powi(2))
                .sum::<f64>();
        assert!((g.at(20) - (ym + slope * (20.0 - xm))).abs() < 1e-6);
        // The same on the paper's 9,901-point grid with an alpha that makes the
        // fit a line: the trace stays accurate.
        let wide = Grid::integers(100, 10_000);
        let pts: Vec<(u64, f64)> = (0..20u64)
            .map(|i| (100 + i * 500, (i as f64 * 0.7).cos()))
            .collect();
        let w = fit(wide, &pts, Some(1e9)).unwrap();
        assert!((w.dof - 2.0).abs() < 1e-4, "dof {}", w.dof);
        // A straight line is reproduced for any alpha.
        let line: Vec<(u64, f64)> = [0u64, 7, 30]
            .iter()
            .map(|&n| (n, 3.0 - 0.5 * n as f64))
            .collect();
        let h = fit(grid, &line, Some(5.0)).unwrap();
        assert!((h.at(20) - (3.0 - 10.0)).abs() < 1e-9);
        // Between grid points of a coarse grid, values interpolate linearly.
        let coarse = Grid {
            lo: 100,
            hi: 1000,
            step: 100,
        };
        let c = fit(coarse, &[(100, 1.0), (500, 5.0), (1000, 10.0)], Some(1e-3)).unwrap();
        assert!((c.at(150) - (c.at(100) + c.at(200)) / 2.0).abs() < 1e-12);
        assert_eq!(c.at(5), c.values[0]);
        assert_eq!(c.at(99_999), c.values[9]);
    }

    #[test]
    fn bad_input_is_rejected() {
        let grid = Grid::integers(100, 200);
        assert_eq!(
            fit(grid, &[(100, 1.0), (150, 2.0)], None).unwrap_err(),
            DSplineError::TooFewSamples { need: 3, got: 2 }
        );
        assert_eq!(
            fit(grid, &[(100, 1.0), (150, 2.0), (250, 1.0)], None).unwrap_err(),
            DSplineError::OutOfGrid(250)
        );
        assert_eq!(
            fit(grid, &[(100, 1.0), (150, f64::NAN), (200, 1.0)], None).unwrap_err(),
            DSplineError::NotFinite(150)
        );
        assert!(matches!(
            fit(grid, &[(100, 1.0), (150, 1.0), (200, 1.0)], Some(-1.0)),
            Err(DSplineError::BadAlpha(_))
        ));
        assert!(matches!(
            fit(
                Grid {
                    lo: 5,
                    hi: 1,
                    step: 1
                },
                &[],
                None
            ),
            Err(DSplineError::EmptyGrid { .. })
        ));
    }

    fn truth(n: u64) -> f64 {
        let x = n as f64 / 10_000.0;
        1.5 + 0.8 * (6.0 * x).sin() - 0.6 * x * x
    }

    #[test]
    fn gcv_picks_a_sensible_alpha_on_the_paper_grid() {
        // The paper's setting: 48 samples in [100, 10000], evaluated at 9,901 points.
        let grid = Grid::integers(100, 10_000);
        let sizes: Vec<u64> = (0..48).map(|i| 100 + (i as u64 * 9900) / 47).collect();
        let mut wins = 0;
        for seed in 0..4 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let samples: Vec<(u64, f64)> = sizes
                .iter()
                .map(|&n| (n, truth(n) + rng.gen_range(-0.15..0.15)))
                .collect();
            let f = fit(grid, &samples, None).unwrap();
            let rms = |s: &DSpline| {
                ((0..grid.len())
                    .map(|i| (s.values[i] - truth(grid.point(i))).powi(2))
                    .sum::<f64>()
                    / grid.len() as f64)
                    .sqrt()
            };
            let too_small = fit(grid, &samples, Some(f.alpha / 1e3)).unwrap();
            let too_large = fit(grid, &samples, Some(f.alpha * 1e3)).unwrap();
            let (e, es, el) = (rms(&f), rms(&too_small), rms(&too_large));
            assert!(
                e < es && e < el,
                "seed {seed}: gcv {e} small {es} large {el}"
            );
            // Noise is uniform on +-0.15 (sd 0.087): the fit is well inside it.
            assert!(e < 0.06, "seed {seed}: {e}");
            // GCV really is minimal at the chosen alpha among nearby values.
            for factor in [0.5, 2.0] {
                assert!(
                    gcv_score(grid, &samples, f.alpha * factor).unwrap() >= f.gcv * (1.0 - 1e-9)
                );
            }
            if e < 0.5 * es.min(el) {
                wins += 1;
            }
            let sd = f.noise_sd();
            assert!(sd > 0.05 && sd < 0.13, "noise estimate {sd}");
        }
        assert!(wins >= 2, "{wins}");
    }
}
