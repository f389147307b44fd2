//! Kernel selection rules: the best kernel for every problem size as intervals
//! `[a, b)` (the paper's Table 5), with emitters for JSON, Rust and C, and a
//! small runtime API.

use crate::config::{Config, ParamValue};
use crate::dspline::Grid;
use crate::key::{Family, ProblemKey};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// A kernel a rule may choose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleKernel {
    /// A human label such as `Rank 1`.
    pub label: String,
    pub config: Config,
}

/// Sizes `start <= n < end` use `kernel` (an index into [`Rule::kernels`]);
/// `end == None` means no upper bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interval {
    pub start: u64,
    pub end: Option<u64>,
    pub kernel: usize,
}

/// A selection rule over problem sizes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    pub name: String,
    /// The range the rule was fitted on; sizes outside it use the nearest interval.
    pub lo: u64,
    pub hi: u64,
    /// Relative loss accepted when merging intervals.
    pub tolerance: f64,
    pub kernels: Vec<RuleKernel>,
    pub intervals: Vec<Interval>,
    /// The problems the sizes stand for (`m=*,n=*,k=*,layout=NN`): the
    /// intervals are over its size axis, its fixed dimensions say which
    /// problems the rule covers. Absent in files written before families
    /// were declared, which are over `n=*`.
    #[serde(default, skip_serializing_if = "Family::is_default")]
    pub family: Family,
}

/// Errors loading or building rules.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
    #[error("{0}")]
    Invalid(String),
}

/// A size and every rule kernel's measured median time there (`None` where
/// one was not measured or could not run).
pub type MeasuredPoint = (u64, Vec<Option<f64>>);

/// Per grid point, the index of the kernel with the lowest predicted cost
/// (`curves[k][i]` for kernel `k` at grid point `i`, lower is better; NaN or
/// infinite values never win).
pub fn pointwise_best(curves: &[Vec<f64>]) -> Vec<usize> {
    let m = curves.first().map_or(0, Vec::len);
    (0..m)
        .map(|i| {
            let mut best = (f64::INFINITY, 0usize);
            for (k, c) in curves.iter().enumerate() {
                let v = c[i];
                if v.is_finite() && v < best.0 {
                    best = (v, k);
                }
            }
            best.1
        })
        .collect()
}

impl Rule {
    /// Builds a rule from predicted log times on `grid` (`log_times[k][i]`),
    /// then merges an interval into a neighbour's kernel wherever that costs at
    /// most `tolerance` (relative time) against the best kernel at every size in
    /// it. Merges are applied cheapest first; since losses are measured against
    /// the pointwise best, the final rule is never more than `tolerance` slower
    /// than the best prediction anywhere.
    pub fn from_curves(
        name: &str,
        grid: Grid,
        kernels: Vec<RuleKernel>,
        log_times: &[Vec<f64>],
        tolerance: f64,
    ) -> Result<Rule, RuleError> {
        if kernels.is_empty() || kernels.len() != log_times.len() {
            return Err(RuleError::Invalid(format!(
                "{} kernels but {} curves",
                kernels.len(),
                log_times.len()
            )));
        }
        if log_times.iter().any(|c| c.len() != grid.len()) || grid.is_empty() {
            return Err(RuleError::Invalid(format!(
                "every curve needs {} grid values",
                grid.len()
            )));
        }
        let best = pointwise_best(log_times);
        let best_val: Vec<f64> = best
            .iter()
            .enumerate()
            .map(|(i, &k)| log_times[k][i])
            .collect();
        // Runs over grid indices: (first index, one past last, kernel).
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        for (i, &k) in best.iter().enumerate() {
            match runs.last_mut() {
                Some(r) if r.2 == k => r.1 = i + 1,
                _ => runs.push((i, i + 1, k)),
            }
        }
        let loss = |run: &(usize, usize, usize), k: usize| -> f64 {
            (run.0..run.1)
                .map(|i| {
                    let d = log_times[k][i] - best_val[i];
                    if d.is_finite() {
                        d.exp() - 1.0
                    } else {
                        f64::INFINITY
                    }
                })
                .fold(0.0, f64::max)
        };
        loop {
            let mut pick: Option<(f64, usize, usize, usize)> = None; // loss, len, run, kernel
            for (ri, run) in runs.iter().enumerate() {
                let neighbours = [
                    ri.checked_sub(1).map(|j| runs[j].2),
                    runs.get(ri + 1).map(|r| r.2),
                ];
                for k in neighbours.into_iter().flatten() {
                    let l = loss(run, k);
                    let len = run.1 - run.0;
                    if l <= tolerance && pick.is_none_or(|(pl, plen, _, _)| (l, len) < (pl, plen)) {
                        pick = Some((l, len, ri, k));
                    }
                }
            }
            let Some((_, _, ri, k)) = pick else { break };
            runs[ri].2 = k;
            let mut merged: Vec<(usize, usize, usize)> = Vec::with_capacity(runs.len());
            for r in runs.drain(..) {
                match merged.last_mut() {
                    Some(last) if last.2 == r.2 => last.1 = r.1,
                    _ => merged.push(r),
                }
            }
            runs = merged;
        }
        let n = runs.len();
        let intervals = runs
            .iter()
            .enumerate()
            .map(|(j, r)| Interval {
                start: grid.point(r.0),
                end: (j + 1 < n).then(|| grid.point(r.1)),
                kernel: r.2,
            })
            .collect();
        Ok(Rule {
            name: name.to_string(),
            lo: grid.lo,
            hi: grid.hi,
            tolerance,
            kernels,
            intervals,
            family: Family::default(),
        })
    }

    /// The rule corrected by direct measurements: at each size `n` of
    /// `points` (with every kernel's measured median time there, `None`
    /// where one was not measured or could not run), where the rule's own
    /// kernel was measured more than the rule's tolerance slower than the
    /// fastest, that one size goes to the fastest. Curves fitted across
    /// sizes cannot see what one size does (a size that every tile divides
    /// runs the large tiles without ragged edges, or fills the SMs in one
    /// wave), and a rule should not contradict what was measured at a size
    /// it serves. Only the size itself changes: its neighbours keep the
    /// curves' pick. Sizes at or below the first interval's start and above
    /// the fitted range are left alone, since the first and last intervals
    /// also serve the sizes beyond them.
    pub fn with_measured_points(mut self, points: &[MeasuredPoint]) -> Rule {
        for (n, times) in points {
            let n = *n;
            if n <= self.intervals[0].start || n > self.hi || times.len() != self.kernels.len() {
                continue;
            }
            let i = self.interval_of(n);
            let own = self.intervals[i].kernel;
            let Some(own_time) = times[own].filter(|t| t.is_finite()) else {
                continue;
            };
            let Some((best, best_time)) = times
                .iter()
                .enumerate()
                .filter_map(|(k, t)| t.filter(|t| t.is_finite()).map(|t| (k, t)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
            else {
                continue;
            };
            if own_time <= best_time * (1.0 + self.tolerance) {
                continue;
            }
            let Interval { start, end, .. } = self.intervals[i].clone();
            let mut parts = Vec::new();
            if start < n {
                parts.push(Interval {
                    start,
                    end: Some(n),
                    kernel: own,
                });
            }
            parts.push(Interval {
                start: n,
                end: Some(n + 1),
                kernel: best,
            });
            if end.is_none_or(|e| e > n + 1) {
                parts.push(Interval {
                    start: n + 1,
                    end,
                    kernel: own,
                });
            } else {
                parts.last_mut().expect("pushed").end = end;
            }
            self.intervals.splice(i..=i, parts);
        }
        // A point next to an interval of its kernel joins it.
        let mut joined: Vec<Interval> = Vec::with_capacity(self.intervals.len());
        for iv in self.intervals.drain(..) {
            match joined.last_mut() {
                Some(last) if last.kernel == iv.kernel => last.end = iv.end,
                _ => joined.push(iv),
            }
        }
        self.intervals = joined;
        self
    }

    /// The interval index that covers `n` (sizes below the first interval use it).
    pub fn interval_of(&self, n: u64) -> usize {
        // Intervals are sorted and contiguous: find the last start <= n.
        self.intervals
            .partition_point(|iv| iv.start <= n)
            .saturating_sub(1)
    }

    pub fn select_index(&self, n: u64) -> usize {
        self.intervals[self.interval_of(n)].kernel
    }

    /// The configuration to run at size `n`.
    pub fn select(&self, n: u64) -> &Config {
        &self.kernels[self.select_index(n)].config
    }

    /// The rule over `family`'s sizes.
    pub fn on_family(mut self, family: &Family) -> Rule {
        self.family = family.clone();
        self
    }

    /// The configuration for problem `key`; `None` when the key is not of
    /// the rule's family (another layout, a non-square shape).
    pub fn select_key(&self, key: &ProblemKey) -> Option<&Config> {
        self.family.size_of(key).map(|n| self.select(n))
    }

    /// Checks the invariants that [`Rule::select`] relies on.
    pub fn validate(&self) -> Result<(), RuleError> {
        if self.intervals.is_empty() {
            return Err(RuleError::Invalid(
                "a rule needs at least one interval".into(),
            ));
        }
        for (j, iv) in self.intervals.iter().enumerate() {
            if iv.kernel >= self.kernels.len() {
                return Err(RuleError::Invalid(format!(
                    "interval {j} names kernel {} of {}",
                    iv.kernel,
                    self.kernels.len()
                )));
            }
            let last = j + 1 == self.intervals.len();
            match (iv.end, last) {
                (None, true) => {}
                (Some(e), false) if e == self.intervals[j + 1].start && e > iv.start => {}
                _ => {
                    return Err(RuleError::Invalid(format!(
                    "interval {j} [{}, {:?}) does not meet the next one (only the last is open)",
                    iv.start, iv.end
                )))
                }
            }
        }
        Ok(())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(text: &str, origin: &str) -> Result<Rule, RuleError> {
        // The path to the field at fault (`intervals[2].end`) goes in the message.
        let mut de = serde_json::Deserializer::from_str(text);
        let rule: Rule = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| {
                let field = e.path().to_string();
                let e = e.into_inner();
                let at = if field.is_empty() || field == "." {
                    String::new()
                } else {
                    format!(", `{field}`")
                };
                RuleError::Format {
                    path: origin.to_string(),
                    message: format!("line {}{at}: {e}", e.line()),
                }
            })
            .and_then(|r| {
                de.end().map(|()| r).map_err(|e| RuleError::Format {
                    path: origin.to_string(),
                    message: format!("line {}: {e}", e.line()),
                })
            })?;
        rule.validate().map_err(|e| RuleError::Format {
            path: origin.to_string(),
            message: e.to_string(),
        })?;
        Ok(rule)
    }

    pub fn load(path: impl AsRef<Path>) -> Result<Rule, RuleError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| RuleError::Io {
            path: name.clone(),
            source,
        })?;
        Rule::from_json(&text, &name)
    }

    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), RuleError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_json()).map_err(|source| RuleError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// A plain-text table like the paper's Table 5.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        for iv in &self.intervals {
            let k = &self.kernels[iv.kernel];
            let range = match iv.end {
                Some(e) => format!("{} <= N < {}", iv.start, e),
                None => format!("{} <= N", iv.start),
            };
            let _ = writeln!(s, "{:<10} ({range})  {}", k.label, k.config.key());
        }
        s
    }

    /// Rust source: `pub fn select(n: u64) -> &'static str` returning the
    /// configuration key, with a `match` on size ranges.
    pub fn to_rust(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "/// Kernel selection rule `{}` for sizes {}..={} (hone-tuner).",
            self.name.replace('`', "'"),
            self.lo,
            self.hi
        );
        let _ = writeln!(s, "/// Returns the configuration key to run at size `n`.");
        let _ = writeln!(s, "pub fn select(n: u64) -> &'static str {{");
        let _ = writeln!(s, "    match n {{");
        let last = self.intervals.len() - 1;
        for (j, iv) in self.intervals.iter().enumerate() {
            let key = rust_string(&self.kernels[iv.kernel].config.key());
            let pattern = match (j, iv.end) {
                (_, None) => "_".to_string(),
                (0, Some(e)) => format!("0..={}", e - 1),
                (_, Some(e)) => format!("{}..={}", iv.start, e - 1),
            };
            let pattern = if j == last { "_".to_string() } else { pattern };
            let _ = writeln!(
                s,
                "        {pattern} => {key}, // {}",
                self.kernels[iv.kernel].label
            );
        }
        let _ = writeln!(s, "    }}");
        let _ = writeln!(s, "}}");
        s
    }

    /// A C header: a configuration struct holding every parameter and an
    /// `if` chain on `n` returning it.
    pub fn to_c_header(&self) -> String {
        let ident = c_ident(&self.name);
        let upper = ident.to_uppercase();
        let ty = format!("hone_{ident}_config");
        // Every parameter any kernel has, in first-seen order, with its kind.
        let mut fields: Vec<(String, bool)> = Vec::new();
        for k in &self.kernels {
            for (name, v) in k.config.entries() {
                if !fields.iter().any(|(f, _)| f == name) {
                    fields.push((name.clone(), matches!(v, ParamValue::Str(_))));
                }
            }
        }
        let mut s = String::new();
        let _ = writeln!(
            s,
            "/* Kernel selection rule \"{}\" for sizes {}..{} (hone-tuner). */",
            c_comment(&self.name),
            self.lo,
            self.hi
        );
        let _ = writeln!(s, "#ifndef HONE_RULE_{upper}_H");
        let _ = writeln!(s, "#define HONE_RULE_{upper}_H");
        let _ = writeln!(s);
        let _ = writeln!(s, "typedef struct {{");
        let _ = writeln!(s, "    int kernel; /* index in the rule's kernel list */");
        let _ = writeln!(s, "    const char *key;");
        for (f, is_str) in &fields {
            if *is_str {
                let _ = writeln!(s, "    const char *{};", c_ident(f));
            } else {
                let _ = writeln!(s, "    long long {};", c_ident(f));
            }
        }
        let _ = writeln!(s, "}} {ty};");
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "static inline {ty} hone_{ident}_select(unsigned long long n)"
        );
        let _ = writeln!(s, "{{");
        for iv in &self.intervals {
            let k = &self.kernels[iv.kernel];
            let mut init = format!("{}, {}", iv.kernel, c_string(&k.config.key()));
            for (f, is_str) in &fields {
                let v = match k.config.get(f) {
                    Some(ParamValue::Int(x)) => format!("{x}LL"),
                    Some(ParamValue::Str(x)) => c_string(x),
                    None if *is_str => "0".to_string(),
                    None => "0LL".to_string(),
                };
                init.push_str(", ");
                init.push_str(&v);
            }
            match iv.end {
                Some(e) => {
                    let _ = writeln!(s, "    if (n < {e}ULL) {{ /* {} */", c_comment(&k.label));
                    let _ = writeln!(s, "        {ty} c = {{ {init} }};");
                    let _ = writeln!(s, "        return c;");
                    let _ = writeln!(s, "    }}");
                }
                None => {
                    let _ = writeln!(s, "    {{ /* {} */", c_comment(&k.label));
                    let _ = writeln!(s, "        {ty} c = {{ {init} }};");
                    let _ = writeln!(s, "        return c;");
                    let _ = writeln!(s, "    }}");
                }
            }
        }
        let _ = writeln!(s, "}}");
        let _ = writeln!(s);
        let _ = writeln!(s, "#endif /* HONE_RULE_{upper}_H */");
        s
    }
}

fn rust_string(s: &str) -> String {
    format!("{s:?}")
}

fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_ascii_graphic() || c == ' ' => out.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "\\{b:03o}");
                }
            }
        }
    }
    out.push('"');
    out
}

fn c_comment(s: &str) -> String {
    s.replace("*/", "* /")
}

fn c_ident(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn kernels(n: usize) -> Vec<RuleKernel> {
        (0..n)
            .map(|k| RuleKernel {
                label: format!("Rank {k}"),
                config: Config::parse_key(&format!(
                    "BLOCK_SIZE={},UX={},LAYOUT=l{k}",
                    32 * (k + 1),
                    10 + k
                ))
                .unwrap(),
            })
            .collect()
    }

    /// Three kernels: 0 best below 300, 2 best from 700, 1 between, with a
    /// 1-point blip of kernel 0 at 500 that costs 0.5% to remove.
    fn example() -> (Grid, Vec<Vec<f64>>) {
        let grid = Grid::integers(100, 1000);
        let c0: Vec<f64> = (0..grid.len())
            .map(|i| {
                let n = grid.point(i) as f64;
                if n == 500.0 {
                    -0.01
                } else {
                    (n - 300.0) / 1000.0
                }
            })
            .collect();
        let c1: Vec<f64> = (0..grid.len()).map(|_| -0.005).collect();
        let c2: Vec<f64> = (0..grid.len())
            .map(|i| (700.0 - grid.point(i) as f64) / 1000.0 - 0.005)
            .collect();
        (grid, vec![c0, c1, c2])
    }

    #[test]
    fn intervals_follow_the_best_kernel_and_merge_noise() {
        let (grid, curves) = example();
        let strict = Rule::from_curves("t", grid, kernels(3), &curves, 0.0).unwrap();
        let starts: Vec<(u64, Option<u64>, usize)> = strict
            .intervals
            .iter()
            .map(|i| (i.start, i.end, i.kernel))
            .collect();
        assert_eq!(
            starts,
            [
                (100, Some(296), 0),
                (296, Some(500), 1),
                (500, Some(501), 0),
                (501, Some(701), 1),
                (701, None, 2)
            ]
        );
        let merged = Rule::from_curves("t", grid, kernels(3), &curves, 0.01).unwrap();
        merged.validate().unwrap();
        assert_eq!(merged.intervals.len(), 3, "{}", merged.to_table());
        assert_eq!(
            merged
                .intervals
                .iter()
                .map(|i| i.kernel)
                .collect::<Vec<_>>(),
            [0, 1, 2]
        );
        // The merged rule never costs more than the tolerance over the best.
        for i in 0..grid.len() {
            let n = grid.point(i);
            let k = merged.select_index(n);
            let best = curves.iter().map(|c| c[i]).fold(f64::INFINITY, f64::min);
            assert!((curves[k][i] - best).exp() - 1.0 <= 0.01 + 1e-12);
        }
        // Sizes outside the fitted range use the nearest interval.
        assert_eq!(merged.select_index(5), 0);
        assert_eq!(merged.select_index(1_000_000), 2);
        assert_eq!(merged.select(150).get_int("BLOCK_SIZE"), Some(32));
    }

    #[test]
    fn measured_sizes_go_to_the_kernel_measured_fastest_there() {
        let (grid, curves) = example();
        let rule = Rule::from_curves("t", grid, kernels(3), &curves, 0.01).unwrap();
        let kernels_of = |r: &Rule| {
            r.intervals
                .iter()
                .map(|i| (i.start, i.end, i.kernel))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            kernels_of(&rule),
            [(100, Some(296), 0), (296, Some(701), 1), (701, None, 2)]
        );
        let at = |n: u64, times: [Option<f64>; 3]| (n, times.to_vec());
        let fixed = rule.clone().with_measured_points(&[
            // kernel 2 measured 20% faster than the rule's kernel 1 at 512
            at(512, [Some(1.3), Some(1.2), Some(1.0)]),
            // within the tolerance: left alone
            at(600, [None, Some(1.005), Some(1.0)]),
            // the rule's own kernel not measured there: no evidence
            at(650, [Some(0.5), None, Some(1.0)]),
            // the first interval's start also serves the sizes below it
            at(100, [Some(2.0), Some(1.0), None]),
            // at the end of an interval: the point takes its place
            at(700, [Some(0.5), Some(1.0), Some(1.0)]),
            // at the start of one, to the kernel before it: that one grows
            at(296, [Some(1.0), Some(1.5), None]),
            // in the open last interval
            at(900, [None, Some(1.0), Some(2.0)]),
            // beyond the fitted range
            at(5000, [None, Some(1.0), Some(2.0)]),
        ]);
        fixed.validate().unwrap();
        assert_eq!(
            kernels_of(&fixed),
            [
                (100, Some(297), 0),
                (297, Some(512), 1),
                (512, Some(513), 2),
                (513, Some(700), 1),
                (700, Some(701), 0),
                (701, Some(900), 2),
                (900, Some(901), 1),
                (901, None, 2)
            ]
        );
        for n in [99, 295, 297, 511, 513, 600, 650, 699, 701, 899, 901, 5000] {
            assert_eq!(fixed.select_index(n), rule.select_index(n), "{n}");
        }
        assert_eq!(fixed.select_index(296), 0);
        // the emitted code selects as the rule does
        let rust = fixed.to_rust();
        assert!(rust.contains("512..=512 =>"), "{rust}");
    }

    #[test]
    fn json_round_trip_and_load() {
        let (grid, curves) = example();
        let rule = Rule::from_curves("symv k20", grid, kernels(3), &curves, 0.0).unwrap();
        let back = Rule::from_json(&rule.to_json(), "mem").unwrap();
        assert_eq!(back, rule);
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("rule.json");
        rule.save(&p).unwrap();
        let loaded = Rule::load(&p).unwrap();
        for n in [0, 100, 295, 296, 500, 501, 700, 701, 5000] {
            assert_eq!(loaded.select(n), rule.select(n));
        }
        let mut broken = rule.clone();
        broken.intervals[1].start += 1;
        assert!(Rule::from_json(&broken.to_json(), "x.json")
            .unwrap_err()
            .to_string()
            .contains("does not meet"));
        assert!(Rule::load(dir.path().join("absent.json")).is_err());
    }

    #[test]
    fn rust_and_c_text_match_the_rule() {
        let (grid, curves) = example();
        let rule = Rule::from_curves("symv", grid, kernels(3), &curves, 0.0).unwrap();
        let rust = rule.to_rust();
        // One arm per interval, with the rule's inclusive bounds, in order.
        let arms: Vec<&str> = rust.lines().filter(|l| l.contains(" => ")).collect();
        assert_eq!(arms.len(), rule.intervals.len());
        assert!(
            arms[0]
                .trim_start()
                .starts_with("0..=295 => \"BLOCK_SIZE=32,UX=10,LAYOUT=l0\""),
            "{}",
            arms[0]
        );
        assert!(
            arms[2].trim_start().starts_with("500..=500 =>"),
            "{}",
            arms[2]
        );
        assert!(
            arms[4].trim_start().starts_with("_ => \"BLOCK_SIZE=96,"),
            "{}",
            arms[4]
        );
        let c = rule.to_c_header();
        let bounds: Vec<u64> = c
            .lines()
            .filter_map(|l| l.trim().strip_prefix("if (n < "))
            .map(|rest| rest.split("ULL").next().unwrap().parse().unwrap())
            .collect();
        let ends: Vec<u64> = rule.intervals.iter().filter_map(|i| i.end).collect();
        assert_eq!(bounds, ends);
        assert!(c.contains("long long BLOCK_SIZE;") && c.contains("const char *LAYOUT;"));
        assert!(
            c.contains("{ 1, \"BLOCK_SIZE=64,UX=11,LAYOUT=l1\", 64LL, 11LL, \"l1\" }"),
            "{c}"
        );
    }

    /// Probe sizes: every interval edge and its neighbours.
    fn probes(rule: &Rule) -> Vec<u64> {
        let mut v = vec![0, 1, rule.lo, rule.hi, rule.hi + 1, 1 << 40];
        for iv in &rule.intervals {
            v.extend([iv.start.saturating_sub(1), iv.start, iv.start + 1]);
            if let Some(e) = iv.end {
                v.extend([e - 1, e]);
            }
        }
        v
    }

    #[test]
    fn generated_rust_compiles_and_selects_like_the_rule() {
        let (grid, curves) = example();
        let rule = Rule::from_curves("symv", grid, kernels(3), &curves, 0.0).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let probes = probes(&rule);
        let src = format!(
            "{}\nfn main() {{ for n in {:?} {{ println!(\"{{}}\", select(n)); }} }}\n",
            rule.to_rust(),
            probes
        );
        let path = dir.path().join("rule.rs");
        std::fs::write(&path, src).unwrap();
        let exe = dir.path().join("rule_rs");
        let out = Command::new("rustc")
            .args(["--edition", "2021", "-O", "-o"])
            .arg(&exe)
            .arg(&path)
            .output()
            .expect("rustc runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().unwrap();
        let got: Vec<String> = String::from_utf8(run.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let want: Vec<String> = probes.iter().map(|&n| rule.select(n).key()).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn generated_c_compiles_and_selects_like_the_rule() {
        let (grid, curves) = example();
        let rule = Rule::from_curves("symv-k20", grid, kernels(3), &curves, 0.0).unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("rule.h"), rule.to_c_header()).unwrap();
        let probes = probes(&rule);
        let list: Vec<String> = probes.iter().map(|n| format!("{n}ULL")).collect();
        let main = format!(
            "#include <stdio.h>\n#include \"rule.h\"\nint main(void) {{\n  unsigned long long p[] = {{ {} }};\n  for (unsigned i = 0; i < sizeof p / sizeof p[0]; i++) {{\n    hone_symv_k20_config c = hone_symv_k20_select(p[i]);\n    printf(\"%s %d %lld %s\\n\", c.key, c.kernel, c.BLOCK_SIZE, c.LAYOUT);\n  }}\n  return 0;\n}}\n",
            list.join(", ")
        );
        std::fs::write(dir.path().join("main.c"), main).unwrap();
        let exe = dir.path().join("rule_c");
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let out = Command::new(cc)
            .args(["-std=c99", "-Wall", "-Werror", "-o"])
            .arg(&exe)
            .arg(dir.path().join("main.c"))
            .output()
            .expect("a C compiler runs (the bundled SQLite needs one too)");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().unwrap();
        let got: Vec<String> = String::from_utf8(run.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let want: Vec<String> = probes
            .iter()
            .map(|&n| {
                let k = rule.select_index(n);
                let c = &rule.kernels[k].config;
                format!(
                    "{} {k} {} {}",
                    c.key(),
                    c.get_int("BLOCK_SIZE").unwrap(),
                    c.get("LAYOUT").unwrap()
                )
            })
            .collect();
        assert_eq!(got, want);
    }
}
