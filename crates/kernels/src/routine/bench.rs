//! The benchmark of a routine: for each variant and size, the rules' kernel
//! against the vendor baselines in the same run ([`Session::compare`]), with
//! the device's ceiling measured alongside.

use hone_gpu::DeviceProps;
use serde::{Deserialize, Serialize};

use super::compare::{Comparison, MeasureOptions, Row};
use super::{Problem, Result, Roof, Routine, Session, WorkUnit};

/// What to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchOptions {
    pub variants: Vec<String>,
    /// The sizes of the headline tables.
    pub sizes: Vec<u64>,
    /// More sizes measured for the charts' curves only.
    pub chart_sizes: Vec<u64>,
    pub measure: MeasureOptions,
    /// Also measure the routine's other shapes ([`Routine::other_shapes`]).
    #[serde(default = "yes")]
    pub other_shapes: bool,
}

fn yes() -> bool {
    true
}

/// Everything one benchmark run measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    pub routine: String,
    pub work_unit: WorkUnit,
    pub size_axis: String,
    pub device: DeviceProps,
    pub tools: String,
    pub rules_origin: String,
    pub roof: Option<Roof>,
    pub options: BenchOptions,
    /// One per variant and size, variants in order, sizes increasing.
    pub comparisons: Vec<Comparison>,
    /// The routine's other shapes ([`Routine::other_shapes`]), per variant.
    #[serde(default)]
    pub other_shapes: Vec<Comparison>,
    /// [`Routine::checks_share_inputs`]: the errors of hone and the
    /// baselines compare.
    #[serde(default)]
    pub same_inputs: bool,
}

impl BenchReport {
    /// The comparisons of one variant, sizes increasing.
    pub fn of_variant<'a>(&'a self, variant: &'a str) -> impl Iterator<Item = &'a Comparison> {
        self.comparisons
            .iter()
            .filter(move |c| c.problem.variant == variant)
    }

    /// The baselines' names of a variant, in the order its comparisons list
    /// them.
    pub fn baseline_names<'a>(&'a self, variant: &'a str) -> Vec<&'a str> {
        let mut names: Vec<&str> = Vec::new();
        for c in self.of_variant(variant) {
            for b in &c.baselines {
                if !names.contains(&b.implementation.as_str()) {
                    names.push(&b.implementation);
                }
            }
        }
        names
    }

    /// Whether every hone row passed its check.
    pub fn all_checks_passed(&self) -> bool {
        self.comparisons
            .iter()
            .chain(&self.other_shapes)
            .all(|c| c.hone.ok())
    }
}

impl BenchOptions {
    /// The options for `routine`: `variants` (all when empty), the table
    /// `sizes` (the routine's default when empty), and `chart_count`
    /// log-spaced sizes over the routine's chart range.
    pub fn for_routine(
        routine: &dyn Routine,
        variants: &[String],
        sizes: &[u64],
        chart_count: usize,
        measure: MeasureOptions,
    ) -> Result<BenchOptions> {
        let known = routine.variants();
        for v in variants {
            if !known.contains(v) {
                return Err(super::LibError::Usage(format!(
                    "{} has no variant `{v}` (expected one of {})",
                    routine.name(),
                    known.join(", ")
                )));
            }
        }
        let defaults = routine.default_sizes();
        let variants = if variants.is_empty() {
            routine.default_variants()
        } else {
            variants.to_vec()
        };
        let sizes = if sizes.is_empty() {
            defaults.table
        } else {
            sizes.to_vec()
        };
        // Every size must make a problem of every variant before anything runs.
        for v in &variants {
            for &n in &sizes {
                routine.family_problem(v, n)?;
            }
        }
        let (lo, hi) = defaults.chart;
        Ok(BenchOptions {
            variants,
            sizes,
            chart_sizes: hone_tuner::sampling::log_spaced(lo, hi, chart_count),
            measure,
            other_shapes: true,
        })
    }
}

/// Sorted, without repeats.
fn merged(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut v: Vec<u64> = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The problems of `variant`'s family at `sizes`, each once: sizes that
/// make the same problem (an FFT's 243 is 250 for a real transform, whose
/// x length must be even; chart sizes between two smooth lengths) are
/// measured once.
pub fn family_problems(
    routine: &dyn Routine,
    variant: &str,
    sizes: &[u64],
) -> Result<Vec<Problem>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for &size in sizes {
        let problem = routine.family_problem(variant, size)?;
        if seen.insert(problem.key()) {
            out.push(problem);
        }
    }
    Ok(out)
}

/// Runs the benchmark on an open session; `log` receives each row.
pub fn run_bench(
    routine: &dyn Routine,
    session: &mut dyn Session,
    device: &DeviceProps,
    options: &BenchOptions,
    log: &mut dyn FnMut(&Row),
) -> Result<BenchReport> {
    let roof = session.roof(&options.measure);
    let sizes = merged(&options.sizes, &options.chart_sizes);
    let mut comparisons = Vec::new();
    let mut other_shapes = Vec::new();
    for variant in &options.variants {
        for problem in family_problems(routine, variant, &sizes)? {
            comparisons.push(session.compare(&problem, &options.measure, log)?);
        }
        if options.other_shapes {
            for problem in routine.other_shapes(variant) {
                other_shapes.push(session.compare(&problem, &options.measure, log)?);
            }
        }
    }
    Ok(BenchReport {
        routine: routine.name().to_string(),
        work_unit: routine.work_unit(),
        size_axis: routine.size_axis().to_string(),
        device: device.clone(),
        tools: session.tools(),
        rules_origin: session.rules_origin(),
        roof,
        options: options.clone(),
        comparisons,
        other_shapes,
        same_inputs: routine.checks_share_inputs(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_that_make_one_problem_are_measured_once() {
        let fft = crate::routine::find("fft").unwrap();
        let real = family_problems(fft, "scfft3d", &[243, 250, 251, 256]).unwrap();
        let sizes: Vec<u64> = real.iter().map(|p| p.size).collect();
        assert_eq!(sizes, vec![250, 252, 256]);
        let complex = family_problems(fft, "cfft3d", &[243, 250, 256]).unwrap();
        assert_eq!(complex.len(), 3);
    }

    #[test]
    fn options_default_to_every_variant_and_the_routines_sizes() {
        let symv = crate::routine::find("symv").unwrap();
        let o = BenchOptions::for_routine(symv, &[], &[], 10, MeasureOptions::default()).unwrap();
        assert_eq!(o.variants, symv.variants());
        assert_eq!(o.sizes, symv.default_sizes().table);
        assert_eq!(o.chart_sizes.len(), 10);
        // the other shapes are measured unless left out, also in reports
        // recorded before they could be
        assert!(o.other_shapes);
        let mut old = serde_json::to_value(&o).unwrap();
        old.as_object_mut().unwrap().remove("other_shapes");
        let back: BenchOptions = serde_json::from_value(old).unwrap();
        assert_eq!(back, o);
        assert_eq!(
            (o.chart_sizes[0], o.chart_sizes[9]),
            symv.default_sizes().chart
        );
        let e = BenchOptions::for_routine(
            symv,
            &["zsymv".to_string()],
            &[],
            0,
            MeasureOptions::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("no variant `zsymv`"), "{e}");
        let e =
            BenchOptions::for_routine(symv, &[], &[0], 0, MeasureOptions::default()).unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
    }

    #[test]
    fn sizes_merge_sorted_and_distinct() {
        assert_eq!(merged(&[512, 64], &[64, 100, 512]), vec![64, 100, 512]);
    }
}
