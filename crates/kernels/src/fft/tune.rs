//! Planning by measurement: each pass of a plan reads only its own axis's
//! parameters, and a plan's time is the sum of its passes' times, so the
//! passes are tuned one at a time (as Nukada's auto-tuner does) instead of
//! over the product of their spaces.
//!
//! For each structure (a line pass per axis, or a plane pass over X and Y
//! then Z), every candidate of every pass is compiled (on all cores), run
//! alone in place on the problem's data and timed; the fastest per pass
//! make the plan. Padding and twiddles are shared by the passes, so they
//! are decided second, on the winners. The plan is then checked against the
//! oracle and timed whole.

use std::collections::{HashMap, HashSet};

use hone_gpu::TimingOptions;

use super::codegen::{PassKernel, PassShape};
use super::device::{Checked, FftRunner, ReadyPlan};
use super::plan::{passes, AxisParams, FftConfig, MAX_CLUSTER};
use super::{FftProblem, Twiddle};
use crate::precision::Precision;
use crate::routine::{LibError, Result};

/// The candidate values of each parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TuneSpace {
    pub rmax: Vec<u32>,
    pub ept: Vec<u32>,
    /// Lines per block of the X pass.
    pub xlines: Vec<u32>,
    /// Lines per block of the Y and Z passes.
    pub lines: Vec<u32>,
    /// Shared-memory layouts of the Y and Z passes (`Ia`).
    pub interleave: Vec<u32>,
    pub pad: Vec<u32>,
    /// Rows skewed (`SK`) or not.
    pub skew: Vec<bool>,
    pub twiddle: Vec<Twiddle>,
    pub plane_threads: Vec<u32>,
    /// Blocks per cluster of a plane pass.
    pub clusters: Vec<u32>,
    /// Blocks of a plane pass per SM asked of the compiler.
    pub min_blocks: Vec<u32>,
    /// Keep a plan only when its RMS error on the same inputs is no worse
    /// than cuFFT's: the chosen structure's other padding and twiddle
    /// choices are checked in order of time until one is (the fastest plan
    /// stays when none is, or when cuFFT cannot run the problem).
    pub match_vendor_error: bool,
}

impl Default for TuneSpace {
    fn default() -> TuneSpace {
        TuneSpace {
            rmax: vec![8, 16],
            ept: vec![4, 8, 16],
            xlines: vec![1, 2, 4, 8],
            lines: vec![8, 16, 32],
            interleave: vec![0, 1, 2],
            pad: vec![0, 1],
            skew: vec![false, true],
            twiddle: vec![
                Twiddle::Table,
                Twiddle::Computed,
                Twiddle::Powers,
                Twiddle::WidePowers,
                Twiddle::CorrectedPowers,
            ],
            plane_threads: vec![256, 512, 1024],
            clusters: (1..=MAX_CLUSTER).collect(),
            min_blocks: vec![0, 2, 3],
            match_vendor_error: true,
        }
    }
}

/// What planning found.
#[derive(Debug, Clone, PartialEq)]
pub struct Tuned {
    pub config: FftConfig,
    /// The sum of the chosen passes' median times, ms.
    pub predicted_ms: f64,
    /// The whole plan's median time, ms.
    pub measured_ms: f64,
    /// Distinct pass kernels compiled and timed.
    pub candidates: usize,
    /// The plan's RMS error over cuFFT's on the same inputs, when both ran.
    pub error_ratio: Option<f64>,
}

/// A configuration and the sum of its passes' times, ms.
type TimedConfig = (f64, FftConfig);

/// One slot of a structure: the pass at `index` of its plans.
struct Slot {
    /// The configurations whose pass in this slot differ, one per candidate.
    candidates: Vec<FftConfig>,
}

impl<'g> FftRunner<'g> {
    /// Plans `p` by measurement over `space`; `log` hears each step.
    pub fn tune(
        &mut self,
        p: &FftProblem,
        space: &TuneSpace,
        timing: &TimingOptions,
        log: &mut dyn FnMut(&str),
    ) -> Result<Tuned> {
        p.validate().map_err(LibError::Usage)?;
        self.data(p, timing)?;
        let limits = self.limits();
        let base = FftConfig::default();
        let mut timed: HashMap<PassKernel, Option<f64>> = HashMap::new();
        // Each structure's best configuration and its phase-2 alternatives
        // in order of time.
        let mut structures: Vec<(f64, FftConfig, Vec<TimedConfig>)> = Vec::new();
        let has_plane_pass =
            |ks: &[PassKernel]| ks.iter().any(|k| matches!(k.shape, PassShape::Plane(_)));
        for plane in [false, true] {
            // The plane structure starts from the first cluster that holds a
            // plane: the plan's own choice, else one the space names.
            let starts = std::iter::once(0).chain(space.clusters.iter().copied());
            let Some((start, shape)) = starts
                .map(|cluster| FftConfig {
                    plane,
                    cluster,
                    ..base
                })
                .filter_map(|c| passes(p, &c, &limits).ok().map(|ks| (c, ks)))
                .find(|(_, ks)| !plane || has_plane_pass(ks))
            else {
                continue;
            };
            let has_plane = has_plane_pass(&shape);
            // Phase 1: each slot's own parameters, padding and twiddles fixed.
            let slots = slots(p, &start, space, has_plane);
            let kernels: Vec<Vec<Option<PassKernel>>> = slots
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    s.candidates
                        .iter()
                        .map(|c| {
                            // A candidate whose structure differs (a cluster
                            // that cannot hold the plane) is not one.
                            let ks = passes(p, c, &limits).ok()?;
                            let same = ks.len() == shape.len()
                                && ks.iter().zip(&shape).all(|(a, b)| {
                                    matches!(a.shape, PassShape::Plane(_))
                                        == matches!(b.shape, PassShape::Plane(_))
                                });
                            same.then(|| ks[i].clone())
                        })
                        .collect()
                })
                .collect();
            let chosen = self.best_per_slot(&slots, &kernels, timing, &mut timed, log)?;
            let Some(mut config) = merge(&start, &chosen, has_plane) else {
                continue;
            };
            // Phase 2: padding and twiddles on the winners, each distinct
            // set of kernels once (padding does not reach every pass).
            let mut phase2: Vec<TimedConfig> = Vec::new();
            let mut distinct = HashSet::new();
            for &pad in &space.pad {
                for &twiddle in &space.twiddle {
                    // In double precision wide powers are the arithmetic of
                    // powers.
                    if twiddle.single_only() && p.precision == Precision::Double {
                        continue;
                    }
                    let c = FftConfig {
                        pad,
                        twiddle,
                        ..config
                    };
                    let Ok(ks) = passes(p, &c, &limits) else {
                        continue;
                    };
                    let mut total = 0.0;
                    let mut ok = true;
                    self.prepare(&ks)?;
                    for k in &ks {
                        match self.timed(k, timing, &mut timed)? {
                            Some(ms) => total += ms,
                            None => ok = false,
                        }
                    }
                    if ok && distinct.insert(ks) {
                        phase2.push((total, c));
                    }
                }
            }
            phase2.sort_by(|a, b| a.0.total_cmp(&b.0));
            let tried: Vec<String> = phase2
                .iter()
                .map(|(t, c)| format!("PAD={} TW={} {t:.4}", c.pad, c.twiddle.code()))
                .collect();
            log(&format!(
                "{p}: padding and twiddles, ms predicted: {}",
                tried.join(", ")
            ));
            if let Some(&(t, c)) = phase2.first() {
                config = c;
                log(&format!(
                    "{p}: {} ({} passes) {:.4} ms predicted",
                    c.label(),
                    if has_plane { "plane" } else { "line" },
                    t
                ));
                let alternatives = phase2[1..].to_vec();
                structures.push((t, config, alternatives));
            }
        }
        // Each structure's plan timed whole decides: passes timed alone
        // miss what one pass leaves in L2 for the next.
        let mut best: Option<(f64, f64, ReadyPlan, Vec<TimedConfig>)> = None;
        for (predicted, config, alternatives) in structures {
            let Ok(plan) = self.plan(p, &config)? else {
                continue;
            };
            let Ok(t) = self.time(&plan, timing, 1)? else {
                continue;
            };
            let ms = t.medians_ms()[0];
            log(&format!(
                "{p}: {} measured whole: {ms:.4} ms",
                config.label()
            ));
            if best.as_ref().is_none_or(|(b, _, _, _)| ms < *b) {
                best = Some((ms, predicted, plan, alternatives));
            }
        }
        let (mut measured_ms, mut predicted_ms, mut plan, alternatives) =
            best.ok_or_else(|| LibError::Routine(format!("{p}: no candidate plan runs")))?;
        let (mut check, mut vendor) = if space.match_vendor_error {
            self.check_beside_vendor(&plan)?
        } else {
            (self.check(&plan)?, None)
        };
        if check.passed() && worse(&check, vendor.as_ref()) {
            log(&format!(
                "{p}: {} errs {:.2e} against cuFFT's {:.2e}; trying its other padding and twiddles",
                plan.config.label(),
                check.error,
                vendor.map_or(f64::NAN, |v| v.error)
            ));
            for (predicted, c) in alternatives {
                let Ok(other) = self.plan(p, &c)? else {
                    continue;
                };
                let (ch, v) = self.check_beside_vendor(&other)?;
                if !ch.passed() || worse(&ch, v.as_ref()) {
                    continue;
                }
                let Ok(t) = self.time(&other, timing, 1)? else {
                    continue;
                };
                measured_ms = t.medians_ms()[0];
                predicted_ms = predicted;
                log(&format!(
                    "{p}: {} errs {:.2e} against cuFFT's {:.2e}, measured whole: {measured_ms:.4} ms",
                    c.label(),
                    ch.error,
                    v.map_or(f64::NAN, |v| v.error)
                ));
                (plan, check, vendor) = (other, ch, v);
                break;
            }
        }
        let config = plan.config;
        if let Some(v) = vendor {
            log(&format!(
                "{p}: {} errs {:.2} of cuFFT's error on the same inputs",
                config.label(),
                check.error / v.error
            ));
        }
        if !check.passed() {
            return Err(LibError::Routine(format!(
                "{p}: the chosen plan {} is wrong: {}",
                config.label(),
                check.describe()
            )));
        }
        Ok(Tuned {
            config,
            predicted_ms,
            measured_ms,
            candidates: timed.len(),
            error_ratio: vendor.map(|v| check.error / v.error),
        })
    }

    /// The time of `k`, measured once per distinct kernel.
    fn timed(
        &mut self,
        k: &PassKernel,
        timing: &TimingOptions,
        timed: &mut HashMap<PassKernel, Option<f64>>,
    ) -> Result<Option<f64>> {
        if let Some(t) = timed.get(k) {
            return Ok(*t);
        }
        let t = self.time_pass(k, timing)?;
        timed.insert(k.clone(), t);
        Ok(t)
    }

    /// The fastest candidate configuration of each slot.
    fn best_per_slot(
        &mut self,
        slots: &[Slot],
        kernels: &[Vec<Option<PassKernel>>],
        timing: &TimingOptions,
        timed: &mut HashMap<PassKernel, Option<f64>>,
        log: &mut dyn FnMut(&str),
    ) -> Result<Vec<Option<FftConfig>>> {
        let mut all: Vec<PassKernel> = Vec::new();
        let mut seen = HashSet::new();
        for k in kernels.iter().flatten().flatten() {
            if seen.insert(k.clone()) {
                all.push(k.clone());
            }
        }
        log(&format!("compiling {} pass kernels", all.len()));
        self.prepare(&all)?;
        let mut out = Vec::new();
        for (slot, ks) in slots.iter().zip(kernels) {
            let mut best: Option<(f64, FftConfig)> = None;
            for (c, k) in slot.candidates.iter().zip(ks) {
                let Some(k) = k else { continue };
                if let Some(ms) = self.timed(k, timing, timed)? {
                    if best.as_ref().is_none_or(|(b, _)| ms < *b) {
                        best = Some((ms, *c));
                    }
                }
            }
            out.push(best.map(|(_, c)| c));
        }
        Ok(out)
    }
}

/// The candidates of each pass of the structure `start` gives.
fn slots(p: &FftProblem, start: &FftConfig, space: &TuneSpace, plane: bool) -> Vec<Slot> {
    let mut out = Vec::new();
    if plane {
        let mut candidates = Vec::new();
        for &rx in &space.rmax {
            for &ry in &space.rmax {
                for &pt in &space.plane_threads {
                    for &cl in &space.clusters {
                        for &mb in &space.min_blocks {
                            for &skew in &space.skew {
                                let mut c = *start;
                                c.axes[0].rmax = rx;
                                c.axes[1].rmax = ry;
                                c.plane_threads = pt;
                                c.cluster = cl;
                                c.min_blocks = mb;
                                c.skew = skew;
                                candidates.push(c);
                            }
                        }
                    }
                }
            }
        }
        out.push(Slot { candidates });
    }
    // In the order of the passes: a complex-to-real transform's X pass
    // comes last.
    let order = if p.real && p.direction == super::Direction::Inverse {
        [1, 2, 0]
    } else {
        [0, 1, 2]
    };
    for axis in order.into_iter().filter(|&a| !plane || a == 2) {
        if p.n[axis] == 1 {
            continue;
        }
        let lines = if axis == 0 {
            &space.xlines
        } else {
            &space.lines
        };
        // Skew changes only the contiguous axis's pass, the layout of
        // interleaved lines only the strided ones'.
        let skews: &[bool] = if axis == 0 { &space.skew } else { &[false] };
        let layouts: &[u32] = if axis == 0 { &[0] } else { &space.interleave };
        let mut candidates = Vec::new();
        for &rmax in &space.rmax {
            for &ept in &space.ept {
                for &l in lines {
                    for &skew in skews {
                        for &interleave in layouts {
                            let mut c = *start;
                            c.axes[axis] = AxisParams {
                                rmax,
                                ept,
                                lines: l,
                                interleave,
                            };
                            c.skew = skew;
                            candidates.push(c);
                        }
                    }
                }
            }
        }
        out.push(Slot { candidates });
    }
    out
}

/// Whether `ours` errs more than cuFFT did on the same inputs.
fn worse(ours: &Checked, vendor: Option<&Checked>) -> bool {
    vendor.is_some_and(|v| v.passed() && ours.error > v.error)
}

/// One configuration from each slot's winner: the plane slot gives RX, RY
/// and PT; a line slot gives its axis's parameters.
fn merge(start: &FftConfig, chosen: &[Option<FftConfig>], plane: bool) -> Option<FftConfig> {
    let mut c = *start;
    let mut slot = 0;
    if plane {
        let w = chosen.first()?.as_ref()?;
        c.axes[0].rmax = w.axes[0].rmax;
        c.axes[1].rmax = w.axes[1].rmax;
        c.plane_threads = w.plane_threads;
        c.cluster = w.cluster;
        c.min_blocks = w.min_blocks;
        c.skew = w.skew;
        slot = 1;
    }
    // Line slots follow in axis order, skipping axes of length 1: each
    // winner differs from `start` only on its own axis.
    for w in &chosen[slot..] {
        let w = w.as_ref()?;
        for a in 0..3 {
            if w.axes[a] != start.axes[a] {
                c.axes[a] = w.axes[a];
            }
        }
        // Only X's slot varies the skew.
        if w.skew != start.skew {
            c.skew = w.skew;
        }
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fft::plan::BlockLimits;
    use crate::precision::Precision;

    #[test]
    fn a_plan_is_worse_only_than_a_vendor_that_passed() {
        let c = |error: f64| Checked {
            error,
            oracle_error: error,
            bound: 1e-5,
            input_kept: true,
        };
        assert!(worse(&c(2e-7), Some(&c(1e-7))));
        assert!(!worse(&c(1e-7), Some(&c(1e-7))), "equal is no worse");
        assert!(!worse(&c(2e-7), None));
        assert!(!worse(&c(2e-7), Some(&c(f64::NAN))));
        assert!(!worse(&c(2e-7), Some(&c(1e-4))), "a vendor off its bound");
    }

    #[test]
    fn slots_vary_one_pass_each() {
        let p = FftProblem::cube(Precision::Single, 256);
        let s = TuneSpace::default();
        let base = FftConfig {
            plane: false,
            ..FftConfig::default()
        };
        let line_slots = slots(&p, &base, &s, false);
        assert_eq!(line_slots.len(), 3);
        let l = BlockLimits::h100();
        let base_passes = passes(&p, &base, &l).unwrap();
        for (i, slot) in line_slots.iter().enumerate() {
            // Radices and elements per thread, then X's lines and skew, or
            // Y's and Z's lines and layouts.
            assert_eq!(
                slot.candidates.len(),
                2 * 3 * if i == 0 { 4 * 2 } else { 3 * 3 }
            );
            for c in &slot.candidates {
                let ks = passes(&p, c, &l).unwrap();
                for (j, k) in ks.iter().enumerate() {
                    if j != i {
                        assert_eq!(*k, base_passes[j], "slot {i} changed pass {j}");
                    }
                }
            }
        }
        // Winners merge into one configuration, each axis's layout with it.
        let mut w0 = base;
        w0.axes[0].lines = 8;
        let mut w2 = base;
        w2.axes[2].rmax = 8;
        w2.axes[2].interleave = 2;
        let m = merge(&base, &[Some(w0), Some(base), Some(w2)], false).unwrap();
        assert_eq!(m.axes[2].interleave, 2);
        assert_eq!(
            (m.axes[0].lines, m.axes[2].rmax, m.axes[1]),
            (8, 8, base.axes[1])
        );
        assert!(!m.skew);
        // X's winner brings its skew; a Y or Z winner cannot have one.
        let w0_skewed = FftConfig { skew: true, ..w0 };
        let m = merge(&base, &[Some(w0_skewed), Some(base), Some(w2)], false).unwrap();
        assert!(m.skew && m.axes[0].lines == 8 && m.axes[2].rmax == 8);
        assert!(line_slots[1..]
            .iter()
            .all(|s| s.candidates.iter().all(|c| !c.skew)));
        assert!(line_slots[0].candidates.iter().any(|c| c.skew));
        assert!(merge(&base, &[Some(w0), None, Some(w2)], false).is_none());
        let small = FftProblem::cube(Precision::Single, 64);
        let plane = slots(&small, &FftConfig::default(), &s, true);
        assert_eq!(plane.len(), 2);
        // 2 x 2 radices, 3 block sizes, 8 clusters, 3 register limits, skew or not.
        assert_eq!(plane[0].candidates.len(), 2 * 2 * 3 * 8 * 3 * 2);
        // The plane slot's winner brings its skew.
        let start = FftConfig::default();
        let pw = FftConfig {
            skew: true,
            plane_threads: 256,
            ..start
        };
        let m = merge(&start, &[Some(pw), Some(start)], true).unwrap();
        assert!(m.skew && m.plane_threads == 256);
    }
}
