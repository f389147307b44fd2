//! One problem measured: hone's kernel and the vendor baselines, each a
//! [`Row`], checked first and then timed on the same buffers.

use hone_gpu::TimingOptions;
use serde::{Deserialize, Serialize};

use super::problem::Problem;
use super::WorkUnit;

/// How to measure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasureOptions {
    pub timing: TimingOptions,
    /// Timing passes of `timing.reps` runs each; the spread between their
    /// medians shows the noise.
    pub timed_runs: u32,
}

impl Default for MeasureOptions {
    fn default() -> Self {
        MeasureOptions {
            timing: TimingOptions::default(),
            timed_runs: 2,
        }
    }
}

/// Launch facts of a hone kernel, for reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchInfo {
    pub registers: u32,
    pub local_bytes: u32,
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    pub shared_mem: u32,
}

/// One implementation on one problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub problem: Problem,
    /// `hone`, or the vendor routine (`cublas dsymv`).
    pub implementation: String,
    /// hone's kernel (`atomic BLOCK_SIZE=128 ...`); empty for vendors.
    pub kernel: String,
    /// `ok`, or why the implementation was left out (`invalid: ...`).
    pub status: String,
    /// Median of each timing pass, milliseconds.
    pub medians_ms: Vec<f64>,
    /// The work this row's rate counts (bytes or flops): its own, so a
    /// baseline that does more (GEMV beside SYMV) is rated on what it does.
    pub work: f64,
    pub rate: Option<f64>,
    /// The check's error measure and the bound it must stay under.
    pub error: Option<f64>,
    pub bound: Option<f64>,
    pub launch: Option<LaunchInfo>,
}

impl Row {
    /// A row with no measurement yet.
    pub fn new(problem: &Problem, implementation: &str, work: f64) -> Row {
        Row {
            problem: problem.clone(),
            implementation: implementation.to_string(),
            kernel: String::new(),
            status: "ok".to_string(),
            medians_ms: Vec::new(),
            work,
            rate: None,
            error: None,
            bound: None,
            launch: None,
        }
    }

    pub fn ok(&self) -> bool {
        self.status == "ok"
    }

    /// The first pass's median.
    pub fn median_ms(&self) -> Option<f64> {
        self.medians_ms.first().copied()
    }

    /// Sets the timings and the rate they give.
    pub fn timed(&mut self, unit: WorkUnit, medians_ms: Vec<f64>) {
        self.rate = medians_ms.first().map(|&t| unit.rate(self.work, t));
        self.medians_ms = medians_ms;
    }

    /// Marks the row invalid with `why`.
    pub fn invalid(&mut self, why: impl std::fmt::Display) {
        self.status = format!("invalid: {why}");
    }

    /// The error as a share of its bound.
    pub fn error_share(&self) -> Option<f64> {
        match (self.error, self.bound) {
            (Some(e), Some(b)) if b > 0.0 => Some(e / b),
            _ => None,
        }
    }

    /// `0.0123 ms (0.0125)`: both passes' medians.
    pub fn times_text(&self) -> String {
        match self.medians_ms.as_slice() {
            [a, b, ..] => format!("{a:.4} ({b:.4})"),
            [a] => format!("{a:.4}"),
            [] => "-".to_string(),
        }
    }
}

/// hone's kernel and the baselines on one problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub problem: Problem,
    /// The rule's kernel and its interval (`[start, end)`).
    pub rule_kernel: String,
    pub interval: String,
    pub hone: Row,
    /// The vendor's routine for the same problem first, then any other
    /// reference points (GEMV beside SYMV).
    pub baselines: Vec<Row>,
}

impl Comparison {
    /// hone's row and the baselines' for `problem`, which `selection` chose
    /// hone's kernel for.
    pub fn new(
        problem: &Problem,
        selection: &super::Selection,
        hone: Row,
        baselines: Vec<Row>,
    ) -> Comparison {
        Comparison {
            problem: problem.clone(),
            rule_kernel: selection.label.clone(),
            interval: selection.interval(),
            hone,
            baselines,
        }
    }

    /// hone's rate over the baseline's (above 1: hone is faster); for the
    /// first baseline, which does the same work, this is the time ratio.
    pub fn ratio(&self, baseline: usize) -> Option<f64> {
        let b = self.baselines.get(baseline)?;
        if !(self.hone.ok() && b.ok()) {
            return None;
        }
        match (self.hone.rate, b.rate) {
            (Some(h), Some(v)) if v > 0.0 => Some(h / v),
            _ => None,
        }
    }

    /// hone's largest error over the baseline's, from their checks (below
    /// 1: hone is the more accurate); `None` where either has none, or the
    /// baseline's is zero.
    pub fn error_ratio(&self, baseline: usize) -> Option<f64> {
        let b = self.baselines.get(baseline)?;
        match (self.hone.error, b.error) {
            (Some(h), Some(v)) if v > 0.0 && h.is_finite() && v.is_finite() => Some(h / v),
            _ => None,
        }
    }

    /// The baseline called `name`, with its index for [`Comparison::ratio`].
    pub fn baseline(&self, name: &str) -> Option<(usize, &Row)> {
        self.baselines
            .iter()
            .enumerate()
            .find(|(_, b)| b.implementation == name)
    }

    /// The speedup over the vendor's own routine.
    pub fn speedup(&self) -> Option<f64> {
        self.ratio(0)
    }

    /// Every row, hone's first.
    pub fn rows(&self) -> impl Iterator<Item = &Row> {
        std::iter::once(&self.hone).chain(&self.baselines)
    }

    /// The comparison for a terminal: the kernel and its interval, the
    /// check, each row's times and rate, and the speedup.
    pub fn text(&self, unit: WorkUnit, device: &str) -> String {
        let mut lines = vec![
            format!("{} on {device}", self.problem),
            format!(
                "kernel        {} (rule kernel `{}`, size in {})",
                self.hone.kernel, self.rule_kernel, self.interval
            ),
        ];
        let h = &self.hone;
        lines.push(match (h.ok(), h.error, h.bound) {
            (true, Some(e), Some(b)) => format!(
                "check         passed: error {e:.2e}, bound {b:.2e} ({:.2} of it)",
                e / b
            ),
            (true, _, _) => "check         not run".to_string(),
            (false, _, _) => format!("check         FAILED, {}", h.status),
        });
        let width = self
            .rows()
            .map(|r| r.implementation.len())
            .max()
            .unwrap_or(4)
            .max(12);
        for r in self.rows() {
            lines.push(if r.ok() {
                format!(
                    "{:<width$}  {} ms  {} {}",
                    r.implementation,
                    r.times_text(),
                    r.rate
                        .map(|g| format!("{g:.0}"))
                        .unwrap_or_else(|| "-".into()),
                    unit.rate_label()
                )
            } else {
                format!("{:<width$}  {}", r.implementation, r.status)
            });
        }
        if let (Some(s), Some(b)) = (self.speedup(), self.baselines.first()) {
            lines.push(format!("speedup       {s:.2}x over {}", b.implementation));
        }
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(imp: &str, work: f64, ms: f64) -> Row {
        let p = Problem::new("dfoo", vec![("n", 10)], 10);
        let mut r = Row::new(&p, imp, work);
        r.timed(WorkUnit::Bytes, vec![ms, ms * 1.01]);
        r
    }

    #[test]
    fn ratios_compare_rates_on_each_rows_own_work() {
        let c = Comparison {
            problem: Problem::new("dfoo", vec![("n", 10)], 10),
            rule_kernel: "Rank 1".into(),
            interval: "[1, inf)".into(),
            hone: row("hone", 1e9, 1.0),
            baselines: vec![row("vendor", 1e9, 2.0), row("other", 2e9, 2.0)],
        };
        assert!((c.hone.rate.unwrap() - 1000.0).abs() < 1e-9);
        assert!((c.speedup().unwrap() - 2.0).abs() < 1e-12);
        assert!((c.ratio(1).unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(c.ratio(2), None);
        assert_eq!(c.hone.times_text(), "1.0000 (1.0100)");
        let mut bad = c.clone();
        bad.baselines[0].invalid("wrong result");
        assert_eq!(bad.speedup(), None);
        assert_eq!(bad.rows().count(), 3);
        let text = c.text(WorkUnit::Bytes, "GPU");
        assert!(text.starts_with("dfoo n=10 on GPU\n"), "{text}");
        assert!(text.contains("speedup       2.00x over vendor"), "{text}");
        assert!(text.contains("check         not run"), "{text}");
        let text = bad.text(WorkUnit::Bytes, "GPU");
        assert!(text.contains("invalid: wrong result") && !text.contains("speedup"));
    }
}
