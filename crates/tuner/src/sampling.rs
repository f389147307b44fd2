//! Sampling the surviving kernels over problem size, fitting their d-splines,
//! and deriving the selection rule: on a fixed grid of sizes (the paper's 48
//! points) or by sequential addition of sizes (the paper's future work).
//!
//! Curves are fitted to log median time: the best kernel at a size is the same
//! whatever the work formula, the noise of timings is roughly relative, and a
//! difference of two curves is directly a relative loss.

use crate::dspline::{self, DSpline, Grid};
use crate::key::Family;
use crate::measure::{run_tasks, Evaluator, InvalidKind, Measurement, Stop, StopAt, Task};
use crate::rule::{pointwise_best, Rule, RuleError, RuleKernel};
use serde::{Deserialize, Serialize};

/// `count` sizes spread evenly on a log scale over `[lo, hi]`, rounded, distinct.
pub fn log_spaced(lo: u64, hi: u64, count: usize) -> Vec<u64> {
    spaced(lo, hi, count, |a, b, t| {
        (a.ln() + t * (b.ln() - a.ln())).exp()
    })
}

/// `count` sizes spread evenly over `[lo, hi]`, rounded, distinct.
pub fn linear_spaced(lo: u64, hi: u64, count: usize) -> Vec<u64> {
    spaced(lo, hi, count, |a, b, t| a + t * (b - a))
}

fn spaced(lo: u64, hi: u64, count: usize, f: impl Fn(f64, f64, f64) -> f64) -> Vec<u64> {
    let (a, b) = (lo.max(1) as f64, hi.max(lo.max(1)) as f64);
    let mut v: Vec<u64> = (0..count)
        .map(|i| {
            let t = if count > 1 {
                i as f64 / (count - 1) as f64
            } else {
                0.0
            };
            f(a, b, t).round().clamp(a, b) as u64
        })
        .collect();
    v.dedup();
    v
}

/// Measured log times of each kernel, and their fitted curves.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Curves {
    pub grid: Grid,
    pub kernels: Vec<RuleKernel>,
    /// Per kernel, `(size, ln median time)` for each valid measurement.
    pub samples: Vec<Vec<(u64, f64)>>,
    /// Per kernel, its d-spline (`None` with fewer than three valid sizes).
    pub splines: Vec<Option<DSpline>>,
    /// Per kernel, the sizes where it could not run (a launch requirement
    /// the size breaks, a failure, a wrong result).
    #[serde(default)]
    pub invalid: Vec<Vec<u64>>,
}

impl Curves {
    pub fn new(grid: Grid, kernels: Vec<RuleKernel>) -> Self {
        let n = kernels.len();
        Curves {
            grid,
            kernels,
            samples: vec![Vec::new(); n],
            splines: vec![None; n],
            invalid: vec![Vec::new(); n],
        }
    }

    /// Measures every kernel at `size` of `family` and keeps the valid results.
    pub fn measure(
        &mut self,
        size: u64,
        family: &Family,
        eval: &mut dyn Evaluator,
    ) -> Result<usize, Stop> {
        self.measure_sizes(&[size], family, eval)
    }

    /// Measures every kernel at each of `sizes`, as one batch (at once on a
    /// backend of several devices); returns the evaluations made.
    pub fn measure_sizes(
        &mut self,
        sizes: &[u64],
        family: &Family,
        eval: &mut dyn Evaluator,
    ) -> Result<usize, Stop> {
        let keys = family.keys(sizes);
        let tasks: Vec<Task> = self
            .kernels
            .iter()
            .map(|k| Task::new(k.config.clone(), keys.clone(), StopAt::Never))
            .collect();
        let measured = run_tasks(eval, &tasks)?;
        // Sample order stays size-major, as when sizes were measured one by one.
        for (i, &size) in sizes.iter().enumerate() {
            for (k, ms) in measured.iter().enumerate() {
                match ms.get(i) {
                    Some(Measurement::Ok(t)) => self.samples[k].push((size, t.median_s.ln())),
                    // a point a replayed recording lacks says nothing of
                    // whether the kernel runs there
                    Some(Measurement::Invalid { kind, .. }) if *kind != InvalidKind::Missing => {
                        self.invalid[k].push(size)
                    }
                    _ => {}
                }
            }
        }
        Ok(self.kernels.len() * sizes.len())
    }

    /// Distinct sizes measured so far (where some kernel ran or could not), ascending.
    pub fn sizes(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self
            .samples
            .iter()
            .flatten()
            .map(|s| s.0)
            .chain(self.invalid.iter().flatten().copied())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Fits every kernel's d-spline on `grid` (GCV alpha unless `alpha` is
    /// given; near the previous alpha when `reuse` and one exists).
    pub fn fit(&mut self, grid: Grid, alpha: Option<f64>, reuse: bool) {
        for k in 0..self.kernels.len() {
            let samples: Vec<(u64, f64)> = self.samples[k]
                .iter()
                .copied()
                .filter(|s| s.0 >= grid.lo && s.0 <= grid.hi)
                .collect();
            let prev = self.splines[k]
                .as_ref()
                .map(|s| s.alpha)
                .filter(|a| *a > 0.0);
            let fitted = match (alpha, prev, reuse) {
                (Some(a), _, _) => dspline::fit(grid, &samples, Some(a)),
                (None, Some(p), true) => dspline::fit_near(grid, &samples, p),
                _ => dspline::fit(grid, &samples, None),
            };
            self.splines[k] = fitted.ok();
        }
        self.grid = grid;
    }

    /// Predicted log times, `[kernel][grid point]`; kernels without a curve are +inf,
    /// and so is a kernel at a size where it may not run: one whose nearest
    /// measured sizes (below and above, or the one there is) include one
    /// where it could not run. The curve is fitted on the valid sizes only
    /// and would otherwise carry the kernel across a size where it fails
    /// (a split kernel whose workspace stops fitting as C grows).
    /// Where no kernel may run, the curves stand as fitted.
    pub fn predictions(&self) -> Vec<Vec<f64>> {
        let fitted: Vec<Vec<f64>> = self
            .splines
            .iter()
            .map(|s| match s {
                Some(s) => s.values.clone(),
                None => vec![f64::INFINITY; self.grid.len()],
            })
            .collect();
        let mut out = fitted.clone();
        for i in 0..self.grid.len() {
            let n = self.grid.point(i);
            for (k, curve) in out.iter_mut().enumerate() {
                if !self.may_run(k, n) {
                    curve[i] = f64::INFINITY;
                }
            }
            if out.iter().all(|c| !c[i].is_finite()) {
                for (c, f) in out.iter_mut().zip(&fitted) {
                    c[i] = f[i];
                }
            }
        }
        out
    }

    /// Whether kernel `k` may run at size `n`: the measured sizes nearest to
    /// `n` on each side (or at `n`) were all valid.
    fn may_run(&self, k: usize, n: u64) -> bool {
        if self.invalid.get(k).is_none_or(Vec::is_empty) {
            return true;
        }
        [true, false]
            .into_iter()
            .all(|below| self.nearest(k, n, below).is_none_or(|s| s.1))
    }

    /// Kernel `k`'s measured size nearest to `n` among those at or below it
    /// (`below`) or at or above it, with whether the kernel ran there; a size
    /// measured both ways counts as one where it could not.
    fn nearest(&self, k: usize, n: u64, below: bool) -> Option<(u64, bool)> {
        let bad = self.invalid.get(k).map(Vec::as_slice).unwrap_or(&[]);
        self.samples[k]
            .iter()
            .map(|s| (s.0, true))
            .chain(bad.iter().map(|&b| (b, false)))
            .filter(|&(size, _)| if below { size <= n } else { size >= n })
            .min_by_key(|&(size, ok)| (size.abs_diff(n), ok))
    }

    /// The selection rule from the current curves.
    pub fn rule(&self, name: &str, tolerance: f64) -> Result<Rule, RuleError> {
        Rule::from_curves(
            name,
            self.grid,
            self.kernels.clone(),
            &self.predictions(),
            tolerance,
        )
    }

    /// The part of the curves over `[lo, hi]` (grid points nearest to them): the
    /// same fits, cut, with only the samples inside.
    pub fn window(&self, lo: u64, hi: u64) -> Option<Curves> {
        let g = self.grid;
        let (i0, i1) = (g.index_of(lo.max(g.lo))?, g.index_of(hi.min(g.hi))?);
        if i1 < i0 + 2 {
            return None;
        }
        let grid = Grid {
            lo: g.point(i0),
            hi: g.point(i1),
            step: g.step,
        };
        let splines = self
            .splines
            .iter()
            .map(|s| {
                s.as_ref().map(|s| DSpline {
                    grid,
                    values: s.values[i0..=i1].to_vec(),
                    ..s.clone()
                })
            })
            .collect();
        let samples = self
            .samples
            .iter()
            .map(|ks| {
                ks.iter()
                    .copied()
                    .filter(|(n, _)| (grid.lo..=grid.hi).contains(n))
                    .collect()
            })
            .collect();
        // The sizes inside where a kernel could not run, and the nearest
        // measured size on each side outside where that one is such a size:
        // the cut curves then hide a kernel where the whole ones do.
        let invalid = (0..self.kernels.len())
            .map(|k| {
                let bad = self.invalid.get(k).map(Vec::as_slice).unwrap_or(&[]);
                let mut v: Vec<u64> = bad
                    .iter()
                    .copied()
                    .filter(|n| (grid.lo..=grid.hi).contains(n))
                    .collect();
                let outside = [
                    grid.lo
                        .checked_sub(1)
                        .and_then(|n| self.nearest(k, n, true)),
                    self.nearest(k, grid.hi + 1, false),
                ];
                v.extend(outside.into_iter().flatten().filter(|s| !s.1).map(|s| s.0));
                v.sort_unstable();
                v
            })
            .collect();
        Some(Curves {
            grid,
            kernels: self.kernels.clone(),
            samples,
            splines,
            invalid,
        })
    }

    /// A pooled estimate of the timing noise (in log units) from the fits' residuals.
    pub fn noise(&self) -> f64 {
        let mut sds: Vec<f64> = self
            .splines
            .iter()
            .flatten()
            .map(DSpline::noise_sd)
            .filter(|v| v.is_finite())
            .collect();
        if sds.is_empty() {
            return 0.01;
        }
        sds.sort_by(f64::total_cmp);
        sds[sds.len() / 2].max(1e-3)
    }
}

/// Settings of sequential addition sampling.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SequentialConfig {
    /// The final grid the rule is fitted on.
    pub grid: Grid,
    /// Log-spaced sizes to start from.
    pub initial: usize,
    /// Most distinct sizes to measure.
    pub max_sizes: usize,
    /// Stop once the rule has been stable for this many rounds.
    pub patience: usize,
    /// The rule counts as unchanged when at most this share of grid points
    /// changed kernel.
    pub stable_fraction: f64,
    /// Merge tolerance of the rule (relative time).
    pub tolerance: f64,
    /// Fixed smoothing; GCV when `None`.
    pub alpha: Option<f64>,
    /// Every this many rounds, fill the widest gap (in log size) instead.
    pub explore_every: usize,
    /// Grid step used between rounds (coarser than the final grid for speed).
    pub working_step: u64,
    /// The only sizes that may be measured, when not every grid point can
    /// be (a replay of a run that measured a fixed set of sizes); `None`:
    /// any grid point.
    pub candidates: Option<Vec<u64>>,
}

impl SequentialConfig {
    pub fn new(grid: Grid) -> Self {
        SequentialConfig {
            grid,
            initial: 5,
            max_sizes: 48,
            patience: 3,
            stable_fraction: 0.005,
            tolerance: 0.01,
            alpha: None,
            explore_every: 3,
            working_step: (grid.len() as u64 / 500).max(1) * grid.step,
            candidates: None,
        }
    }
}

/// Why sampling stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The rule stopped changing.
    Stable,
    /// `max_sizes` were measured.
    Budget,
    /// Fixed grid: every size was measured.
    Fixed,
    /// No size left to add.
    Exhausted,
}

/// The result of a sampling run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SamplingResult {
    pub curves: Curves,
    pub rule: Rule,
    /// Sizes in the order they were measured.
    pub sizes: Vec<u64>,
    /// Evaluator calls made.
    pub evaluations: usize,
    pub rounds: usize,
    pub stopped: StopReason,
}

/// Why sampling ended without a rule.
#[derive(Debug, thiserror::Error)]
pub enum SamplingError {
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error(transparent)]
    Stopped(#[from] Stop),
}

/// Measures the kernels at fixed `sizes` of `family` (e.g. the paper's 48
/// points), fits d-splines on `grid` and derives the rule.
#[allow(clippy::too_many_arguments)]
pub fn sample_fixed(
    name: &str,
    kernels: Vec<RuleKernel>,
    family: &Family,
    sizes: &[u64],
    grid: Grid,
    alpha: Option<f64>,
    tolerance: f64,
    eval: &mut dyn Evaluator,
) -> Result<SamplingResult, SamplingError> {
    let mut curves = Curves::new(grid, kernels);
    let mut evaluations = 0;
    evaluations += curves.measure_sizes(sizes, family, eval)?;
    curves.fit(grid, alpha, false);
    let rule = curves.rule(name, tolerance)?.on_family(family);
    Ok(SamplingResult {
        curves,
        rule,
        sizes: sizes.to_vec(),
        evaluations,
        rounds: 1,
        stopped: StopReason::Fixed,
    })
}

fn selection(rule: &Rule, grid: Grid) -> Vec<usize> {
    (0..grid.len())
        .map(|i| rule.select_index(grid.point(i)))
        .collect()
}

/// Sequential addition sampling: start from a few log-spaced sizes, then add,
/// one size per round, the size where the choice of kernel is least certain,
/// until the rule stops changing or the budget is spent.
///
/// The next size maximises `d(n) / (noise + margin(n))`: `d` is the distance
/// to the nearest measured size (relative to the range) and `margin` the
/// predicted log-time gap between the best and the runner-up kernel. Sizes near
/// a predicted crossing and far from any measurement come first; where no
/// crossing is near, this fills the widest gaps. Every `explore_every` rounds
/// the widest gap is bisected instead, so that a crossing the curves do not
/// yet predict can still be found.
pub fn sample_sequential(
    name: &str,
    kernels: Vec<RuleKernel>,
    family: &Family,
    cfg: &SequentialConfig,
    eval: &mut dyn Evaluator,
) -> Result<SamplingResult, SamplingError> {
    let fine = cfg.grid;
    let work = Grid {
        lo: fine.lo,
        hi: fine.hi,
        step: cfg.working_step.max(fine.step),
    };
    let mut curves = Curves::new(work, kernels);
    let mut order: Vec<u64> = Vec::new();
    let mut evaluations = 0;
    let candidates: Option<Vec<u64>> = cfg.candidates.as_ref().map(|c| {
        let mut c: Vec<u64> = c
            .iter()
            .copied()
            .filter(|n| (fine.lo..=fine.hi).contains(n))
            .collect();
        c.sort_unstable();
        c.dedup();
        c
    });
    let mut initial = log_spaced(fine.lo, fine.hi, cfg.initial.max(3));
    if let Some(c) = &candidates {
        initial = initial
            .iter()
            .filter_map(|&n| c.iter().copied().min_by_key(|&m| m.abs_diff(n)))
            .collect();
        initial.dedup();
    }
    evaluations += curves.measure_sizes(&initial, family, eval)?;
    order.extend(initial);
    let mut prev: Option<Vec<usize>> = None;
    let mut stable = 0;
    let mut rounds = 0;
    let stopped = loop {
        rounds += 1;
        curves.fit(work, cfg.alpha, true);
        let rule = curves.rule(name, cfg.tolerance)?;
        let sel = selection(&rule, work);
        if let Some(p) = &prev {
            // A switch between kernels predicted within half the tolerance of
            // each other is no change in performance: near-tied kernels may
            // trade places from round to round without the rule being unsettled.
            let pred = curves.predictions();
            let same = (1.0 + (cfg.tolerance / 2.0).max(1e-3)).ln();
            let changed = p
                .iter()
                .zip(&sel)
                .enumerate()
                .filter(|(i, (a, b))| a != b && (pred[**a][*i] - pred[**b][*i]).abs() > same)
                .count();
            if changed as f64 <= cfg.stable_fraction * sel.len() as f64 {
                stable += 1;
            } else {
                stable = 0;
            }
        }
        prev = Some(sel);
        if stable >= cfg.patience {
            break StopReason::Stable;
        }
        if order.len() >= cfg.max_sizes {
            break StopReason::Budget;
        }
        let explore = cfg.explore_every > 0 && rounds % cfg.explore_every == 0;
        let next = match (&candidates, explore) {
            (None, true) => widest_gap(&curves.sizes()),
            (None, false) => most_uncertain(&curves, &work),
            (Some(c), true) => farthest_candidate(&curves.sizes(), c),
            (Some(c), false) => most_uncertain_candidate(&curves, &work, c),
        };
        let Some(n) = next else {
            break StopReason::Exhausted;
        };
        evaluations += curves.measure(n, family, eval)?;
        order.push(n);
    };
    curves.fit(fine, cfg.alpha, true);
    let rule = curves.rule(name, cfg.tolerance)?.on_family(family);
    Ok(SamplingResult {
        curves,
        rule,
        sizes: order,
        evaluations,
        rounds,
        stopped,
    })
}

/// The midpoint of the widest gap between measured sizes, a gap's width being
/// its share of the range on a linear scale plus its share on a log scale: the
/// rule covers sizes linearly, but small sizes change faster.
fn widest_gap(sizes: &[u64]) -> Option<u64> {
    let (lo, hi) = (*sizes.first()? as f64, *sizes.last()? as f64);
    let lin = (hi - lo).max(1.0);
    let log = (hi / lo.max(1.0)).ln().max(1e-9);
    sizes
        .windows(2)
        .filter(|w| w[1] > w[0] + 1)
        .max_by(|a, b| {
            let width = |w: &[u64]| {
                (w[1] - w[0]) as f64 / lin + (w[1] as f64 / w[0].max(1) as f64).ln() / log
            };
            width(a).total_cmp(&width(b))
        })
        .map(|w| {
            // Between the arithmetic and geometric midpoints.
            let mid = ((w[0] + w[1]) as f64 / 2.0 + ((w[0] as f64) * (w[1] as f64)).sqrt()) / 2.0;
            (mid.round() as u64).clamp(w[0] + 1, w[1] - 1)
        })
}

/// The unmeasured candidate farthest from every measured size (the sum of its
/// linear and log distance shares, as in [`widest_gap`]).
fn farthest_candidate(sizes: &[u64], candidates: &[u64]) -> Option<u64> {
    let (lo, hi) = (*sizes.first()? as f64, *sizes.last()? as f64);
    let lin = (hi - lo).max(1.0);
    let log = (hi / lo.max(1.0)).ln().max(1e-9);
    let distance = |c: u64| {
        sizes
            .iter()
            .map(|&s| {
                c.abs_diff(s) as f64 / lin + (c.max(1) as f64 / s.max(1) as f64).ln().abs() / log
            })
            .fold(f64::INFINITY, f64::min)
    };
    candidates
        .iter()
        .copied()
        .filter(|c| !sizes.contains(c))
        .max_by(|&a, &b| distance(a).total_cmp(&distance(b)))
}

/// [`most_uncertain`] over the unmeasured candidates: each is scored at its
/// nearest working-grid point.
fn most_uncertain_candidate(curves: &Curves, grid: &Grid, candidates: &[u64]) -> Option<u64> {
    let last = grid.len().checked_sub(1)?;
    let step = grid.step.max(1) as f64;
    most_uncertain_of(
        curves,
        grid,
        candidates.iter().map(|&n| {
            let i = ((n.saturating_sub(grid.lo) as f64 / step).round() as usize).min(last);
            (n, i)
        }),
    )
}

fn most_uncertain(curves: &Curves, grid: &Grid) -> Option<u64> {
    most_uncertain_of(curves, grid, (0..grid.len()).map(|i| (grid.point(i), i)))
}

/// The predicted ln-time gap at grid point `i` between the best kernel and
/// the runner-up (1 when there is no runner-up).
fn margin_at(pred: &[Vec<f64>], best: usize, i: usize) -> f64 {
    let runner_up = pred
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != best)
        .map(|(_, c)| c[i])
        .fold(f64::INFINITY, f64::min);
    if runner_up.is_finite() {
        runner_up - pred[best][i]
    } else {
        1.0
    }
}

/// Of `points` (a size and the working-grid point its prediction is read
/// at), the unmeasured one with the highest distance to the nearest measured
/// size over the predicted margin between the two best kernels.
fn most_uncertain_of(
    curves: &Curves,
    grid: &Grid,
    points: impl Iterator<Item = (u64, usize)>,
) -> Option<u64> {
    let sizes = curves.sizes();
    let pred = curves.predictions();
    let best = pointwise_best(&pred);
    let noise = curves.noise();
    let span = (grid.hi - grid.lo).max(1) as f64;
    let mut pick: Option<(f64, u64)> = None;
    for (n, i) in points {
        // The nearest measured sizes are the last at or below n and the
        // first above it.
        let above = sizes.partition_point(|&s| s <= n);
        let d = above
            .checked_sub(1)
            .map(|k| n - sizes[k])
            .into_iter()
            .chain(sizes.get(above).map(|&s| s - n))
            .min()
            .unwrap_or(u64::MAX);
        if d == 0 {
            continue;
        }
        let score = (d as f64 / span) / (noise + margin_at(&pred, best[i], i));
        if pick.is_none_or(|(s, _)| score > s) {
            pick = Some((score, n));
        }
    }
    pick.map(|p| p.1)
}

/// Share of grid points where two rules choose the same configuration.
pub fn agreement(a: &Rule, b: &Rule, grid: Grid) -> f64 {
    let same = (0..grid.len())
        .filter(|&i| {
            let n = grid.point(i);
            a.select(n) == b.select(n)
        })
        .count();
    same as f64 / grid.len().max(1) as f64
}

/// Share of grid points where rule `a`'s choice is within `tolerance` of rule
/// `b`'s choice by the reference times `time(config, n)`: the choices are then
/// indistinguishable within timing noise.
pub fn agreement_within(
    a: &Rule,
    b: &Rule,
    grid: Grid,
    tolerance: f64,
    mut time: impl FnMut(&crate::config::Config, u64) -> f64,
) -> f64 {
    let ok = (0..grid.len())
        .filter(|&i| {
            let n = grid.point(i);
            let (ca, cb) = (a.select(n), b.select(n));
            ca == cb || time(ca, n) <= time(cb, n) * (1.0 + tolerance)
        })
        .count();
    ok as f64 / grid.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::measure::{FnEvaluator, InvalidKind, Timing};

    #[test]
    fn spacing_functions() {
        assert_eq!(log_spaced(100, 10_000, 3), vec![100, 1000, 10_000]);
        assert_eq!(linear_spaced(100, 10_000, 48).len(), 48);
        assert_eq!(linear_spaced(100, 10_000, 48)[47], 10_000);
        assert_eq!(log_spaced(1, 3, 10), vec![1, 2, 3]);
        // 200..1000 is the widest both linearly and by ratio.
        assert_eq!(widest_gap(&[100, 200, 1000, 1200]), Some(524));
        // A gap wide by ratio but narrow linearly (10..100) loses to 100..9000.
        assert_eq!(widest_gap(&[10, 100, 9000, 10_000]), Some(2749));
        assert_eq!(widest_gap(&[5, 6]), None);
    }

    /// Two kernels crossing at N = 3000 and a third that is never best.
    fn crossing(c: &Config, n: u64) -> Measurement {
        let x = n as f64;
        let t = match c.get_int("K").unwrap() {
            0 => 1e-5 + 1e-9 * x + 5e-12 * x * x,
            1 => 2.8e-5 + 1e-9 * x + 3e-12 * x * x,
            _ => 9e-5 + 2e-9 * x + 6e-12 * x * x,
        };
        Measurement::Ok(Timing::single(t))
    }

    fn kernels() -> Vec<RuleKernel> {
        (0..3)
            .map(|k| RuleKernel {
                label: format!("Rank {k}"),
                config: Config::parse_key(&format!("K={k}")).unwrap(),
            })
            .collect()
    }

    #[test]
    fn sequential_finds_a_crossing_with_few_sizes() {
        let grid = Grid::integers(100, 10_000);
        let mut cfg = SequentialConfig::new(grid);
        cfg.tolerance = 0.0;
        let mut ev = FnEvaluator(crossing);
        let seq = sample_sequential("t", kernels(), &Family::default(), &cfg, &mut ev).unwrap();
        let fixed = sample_fixed(
            "t",
            kernels(),
            &Family::default(),
            &linear_spaced(100, 10_000, 48),
            grid,
            None,
            0.0,
            &mut ev,
        )
        .unwrap();
        assert!(seq.sizes.len() < 48, "{:?}", seq.sizes);
        assert_eq!(seq.evaluations, 3 * seq.sizes.len());
        assert!(agreement(&seq.rule, &fixed.rule, grid) > 0.98);
        // Kernel 2 is never selected; the switch is found near N = 3000.
        assert!(seq.rule.intervals.iter().all(|iv| iv.kernel != 2));
        assert_eq!(seq.rule.intervals.len(), 2, "{}", seq.rule.to_table());
        assert!(
            seq.rule.intervals[1].start.abs_diff(3000) < 60,
            "{}",
            seq.rule.to_table()
        );
    }

    /// The three kernels sampled at `sizes`, fitted on the integers 100..=10000.
    fn fixed_over_integers(sizes: &[u64], ev: &mut dyn Evaluator) -> SamplingResult {
        let grid = Grid::integers(100, 10_000);
        sample_fixed(
            "t",
            kernels(),
            &Family::default(),
            sizes,
            grid,
            None,
            0.0,
            ev,
        )
        .unwrap()
    }

    #[test]
    fn a_kernel_is_not_chosen_past_a_size_where_it_could_not_run() {
        // Kernel 1, the fastest from N = 3000 on, cannot run from N = 6000
        // on (a split kernel whose workspace stops fitting); its curve,
        // fitted on the sizes where it ran, would carry it on.
        let capped = |c: &Config, n: u64| {
            if c.get_int("K") == Some(1) && n >= 6000 {
                Measurement::invalid(InvalidKind::Constraint, "workspace")
            } else {
                crossing(c, n)
            }
        };
        let sizes = [100, 1000, 2000, 3500, 5000, 8000, 10_000];
        let fitted = fixed_over_integers(&sizes, &mut FnEvaluator(capped));
        assert_eq!(fitted.curves.invalid[1], vec![8000, 10_000]);
        let rule = &fitted.rule;
        assert_eq!(rule.select_index(4000), 1, "{}", rule.to_table());
        // between the last size where it ran and the first where it did
        // not, and beyond, another kernel
        for n in [5100, 6000, 9000, 10_000] {
            assert_ne!(rule.select_index(n), 1, "N = {n}: {}", rule.to_table());
        }
        // without the failures the fit would keep it there
        let mut ok_only = fitted.curves.clone();
        ok_only.invalid = vec![Vec::new(); 3];
        let old = ok_only.rule("t", 0.0).unwrap();
        assert_eq!(old.select_index(9000), 1, "{}", old.to_table());
        // a cut of the curves keeps the nearest failure outside it
        let w = fitted.curves.window(2000, 5000).unwrap();
        assert_eq!(w.invalid[1], vec![8000]);
        assert!(w.invalid[0].is_empty());
        // a point a replayed recording lacks is no failure
        let gappy = |c: &Config, n: u64| {
            if c.get_int("K") == Some(0) && n == 2000 {
                Measurement::invalid(InvalidKind::Missing, "not recorded")
            } else {
                crossing(c, n)
            }
        };
        let replayed = fixed_over_integers(&sizes, &mut FnEvaluator(gappy));
        assert!(replayed.curves.invalid[0].is_empty());
        assert!(replayed.curves.sizes().contains(&2000));
        // where no kernel may run, the fitted curves choose as before
        let mut none_runs = fitted.curves.clone();
        none_runs.invalid = vec![vec![8000, 10_000]; 3];
        let far = none_runs.rule("t", 0.0).unwrap();
        assert_eq!(far.select_index(9000), 1, "{}", far.to_table());
    }

    #[test]
    fn a_window_cuts_the_fits_and_keeps_the_samples_inside() {
        let sizes = linear_spaced(100, 10_000, 12);
        let fixed = fixed_over_integers(&sizes, &mut FnEvaluator(crossing));
        let c = &fixed.curves;
        let w = c.window(2000, 5000).unwrap();
        assert_eq!((w.grid.lo, w.grid.hi, w.grid.step), (2000, 5000, 1));
        let full = c.splines[0].as_ref().unwrap();
        let cut = w.splines[0].as_ref().unwrap();
        assert_eq!(cut.values.len(), 3001);
        assert_eq!(cut.values[0], full.values[1900]);
        assert!(w
            .samples
            .iter()
            .flatten()
            .all(|s| (2000..=5000).contains(&s.0)));
        assert!(!w.samples[0].is_empty());
        // Fewer than three grid points: no window.
        assert!(c.window(5000, 5001).is_none());
    }
}
