//! The double-double GEMM report (`hone ddgemm`): for each variant, size and
//! multiply-add, the rules' tile shape checked against the exact oracle on
//! every input kind (normwise and elementwise errors), timed, and set against
//! the instruction bound: the GPU's FP64 instruction rate, measured in the
//! same run, over the FP64 instructions that the compiled main loop spends
//! per multiply-add. With `int8_moduli`, the interleaved variants also get
//! the double-double product on the INT8 tensor cores (Ozaki scheme II,
//! [`super::ozaki`]), checked and timed on the same problems.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hone_gpu::timing::L2Flusher;
use hone_gpu::{Gpu, ModuleCache, Stats};
use serde::{Deserialize, Serialize};

use super::dd::{Accuracy, Dd, InputKind};
use super::device::GemmRunner;
use super::fp64::{self, Fp64Count};
use super::library::GemmRules;
use super::ozaki::{OzakiGemm, MODULI};
use super::ozaki_fit::FittedGemm;
use super::template::GemmKernel;
use super::{Flavor, GemmProblem, LD_MULTIPLE};
use crate::routine::report::write_texts;
use crate::routine::{pass_medians, LibError, MeasureOptions, Result};

/// What to measure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DdReportOptions {
    pub variants: Vec<String>,
    pub sizes: Vec<usize>,
    /// The multiply-adds (the template's MADD) to measure on each tile.
    pub madds: Vec<i64>,
    pub kinds: Vec<InputKind>,
    /// Moduli counts of the double-double product on the INT8 tensor cores
    /// (Ozaki scheme II) to measure beside the interleaved variants' kernels.
    #[serde(default)]
    pub int8_moduli: Vec<usize>,
    pub measure: MeasureOptions,
}

impl DdReportOptions {
    pub fn defaults(measure: MeasureOptions) -> DdReportOptions {
        DdReportOptions {
            variants: [
                "ddgemm_nn",
                "ddgemm_tn",
                "ddgemm_split_nn",
                "ddgemm_split_tn",
            ]
            .map(str::to_string)
            .to_vec(),
            sizes: vec![1024, 2048, 4096, 8192],
            madds: vec![0, 1, 2],
            kinds: vec![
                InputKind::Phi(0.5),
                InputKind::Phi(4.0),
                InputKind::IllConditioned(40),
            ],
            int8_moduli: Vec::new(),
            measure,
        }
    }

    /// Checks the names and values before a GPU is touched.
    pub fn validate(&self) -> Result<()> {
        for v in &self.variants {
            match Flavor::parse_variant(v) {
                Some((f, _)) if f.is_dd() => {}
                _ => {
                    return Err(LibError::Usage(format!(
                        "`{v}` is not a double-double GEMM variant (ddgemm_nn ... ddgemm_split_tt)"
                    )))
                }
            }
        }
        if let Some(m) = self.madds.iter().find(|m| !(0..=2).contains(*m)) {
            return Err(LibError::Usage(format!(
                "MADD={m}: the multiply-adds are 0 (accurate), 1 (sloppy) and 2 (lazy)"
            )));
        }
        if let Some(l) = self
            .int8_moduli
            .iter()
            .find(|&&l| l != FIT_MODULI && !(1..=MODULI.len()).contains(&l))
        {
            return Err(LibError::Usage(format!(
                "{l} moduli: the INT8 emulation takes 1 to {}",
                MODULI.len()
            )));
        }
        if self.sizes.is_empty() || self.sizes.contains(&0) || self.variants.is_empty() {
            return Err(LibError::Usage(
                "give at least one variant and one positive size".to_string(),
            ));
        }
        Ok(())
    }
}

/// The entry of `int8_moduli` that fits the moduli to each input kind
/// ([`super::ozaki_fit`]).
pub const FIT_MODULI: usize = 0;

/// The `madd` of rows measured on the INT8 tensor cores.
pub const INT8_MADD: i64 = -1;

/// The name of a multiply-add.
pub fn madd_name(madd: i64) -> &'static str {
    match madd {
        INT8_MADD => "INT8 tensor cores",
        0 => "accurate",
        1 => "sloppy",
        _ => "lazy",
    }
}

/// One kernel on one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DdRow {
    pub variant: String,
    pub n: usize,
    pub madd: i64,
    pub kernel: String,
    /// `ok`, or why the kernel was left out.
    pub status: String,
    pub medians_ms: Vec<f64>,
    /// Double-double flops per second (2 N^3 per product), 10^12.
    pub tflops: Option<f64>,
    pub fp64: Option<Fp64Count>,
    /// The instruction bound, 10^12 double-double flops per second.
    pub bound_tflops: Option<f64>,
    /// Errors per input kind (label, errors).
    pub accuracy: Vec<(String, Accuracy)>,
    pub registers: Option<u32>,
    pub local_bytes: Option<u32>,
}

impl DdRow {
    pub fn share_of_bound(&self) -> Option<f64> {
        Some(self.tflops? / self.bound_tflops?)
    }
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DdReport {
    pub device: String,
    pub rules: String,
    /// The measured FP64 instruction rate (thread instructions per second)
    /// and its timing.
    pub fp64_per_second: f64,
    pub fp64_timing: Stats,
    pub options: DdReportOptions,
    pub rows: Vec<DdRow>,
}

/// Measures the report on `gpu`.
pub fn run(
    gpu: &Gpu,
    rules: &GemmRules,
    options: &DdReportOptions,
    log: &mut dyn FnMut(&DdRow),
) -> Result<DdReport> {
    options.validate()?;
    let (rate, timing) = fp64::fp64_per_second(gpu, &options.measure.timing)?;
    let (major, minor) = gpu.props().compute_capability;
    let arch = major * 10 + minor;
    let mut runner = GemmRunner::new(gpu, ModuleCache::open_default())?;
    let mut counts: HashMap<GemmKernel, std::result::Result<Fp64Count, String>> = HashMap::new();
    let mut rows = Vec::new();
    let mut emulations: HashMap<usize, OzakiGemm<'_>> = HashMap::new();
    let mut fitted: Option<FittedGemm<'_>> = None;
    let mut flusher = L2Flusher::new(gpu)?;
    for variant in &options.variants {
        let (flavor, layout) = Flavor::parse_variant(variant).expect("validated");
        for &n in &options.sizes {
            let p = GemmProblem::padded(flavor, layout, n, n, n, LD_MULTIPLE);
            runner.data(&p, &options.measure.timing)?;
            let base = rules.kernel(&p)?;
            for &madd in &options.madds {
                let mut kernel = base.clone();
                kernel.config.insert("MADD".to_string(), madd);
                let row = measure(
                    &mut runner,
                    &kernel,
                    &p,
                    variant,
                    options,
                    rate,
                    counts
                        .entry(kernel.clone())
                        .or_insert_with(|| fp64::count(&kernel, arch).map_err(|e| e.to_string())),
                )?;
                log(&row);
                rows.push(row);
            }
            if flavor != Flavor::Ddgemm {
                continue;
            }
            for &l in &options.int8_moduli {
                if l == FIT_MODULI {
                    if fitted.is_none() {
                        fitted = Some(FittedGemm::new(gpu, true)?);
                    }
                    let f = fitted.as_mut().expect("just made");
                    let row = measure_fit(&mut runner, f, &p, variant, options, &mut flusher)
                        .unwrap_or_else(|e| {
                            let mut r = int8_row(&p, variant, 0, format!("failed: {e}"));
                            r.kernel = "int8 emulation, fit".to_string();
                            r
                        });
                    log(&row);
                    rows.push(row);
                    continue;
                }
                let emu = match emulations.entry(l) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(OzakiGemm::new_dd(gpu, l)?)
                    }
                };
                // A count that cannot run this problem (too few moduli for
                // its K, no room for the scratch) is noted on its row.
                let row = measure_int8(&mut runner, emu, &p, variant, options, &mut flusher)
                    .unwrap_or_else(|e| int8_row(&p, variant, l, format!("failed: {e}")));
                log(&row);
                rows.push(row);
            }
        }
    }
    Ok(DdReport {
        device: gpu.props().to_string(),
        rules: rules.origin().to_string(),
        fp64_per_second: rate,
        fp64_timing: timing,
        options: options.clone(),
        rows,
    })
}

fn measure(
    runner: &mut GemmRunner<'_>,
    kernel: &GemmKernel,
    p: &GemmProblem,
    variant: &str,
    options: &DdReportOptions,
    rate: f64,
    count: &std::result::Result<Fp64Count, String>,
) -> Result<DdRow> {
    let mut row = DdRow {
        variant: variant.to_string(),
        n: p.m,
        madd: kernel.config["MADD"],
        kernel: kernel.label(),
        status: "ok".to_string(),
        medians_ms: Vec::new(),
        tflops: None,
        fp64: count.as_ref().ok().copied(),
        bound_tflops: count.as_ref().ok().map(|c| c.bound(rate) / 1e12),
        accuracy: Vec::new(),
        registers: None,
        local_bytes: None,
    };
    if let Err(e) = count {
        row.status = format!("no instruction count: {e}");
    }
    for kind in &options.kinds {
        match runner.check_kind(kernel, Some(*kind))? {
            Ok((_, accuracy)) => row
                .accuracy
                .push((kind.label(), accuracy.unwrap_or_default())),
            Err(why) => {
                row.status = format!("invalid ({}): {}", kind.label(), why.reason);
                return Ok(row);
            }
        }
    }
    match runner.time(kernel, &options.measure.timing, options.measure.timed_runs)? {
        Ok(t) => {
            row.medians_ms = t.medians_ms();
            row.tflops = row
                .medians_ms
                .first()
                .map(|ms| p.flops() / (ms * 1e-3) / 1e12);
            row.registers = t.registers;
            row.local_bytes = t.local_bytes;
        }
        Err(why) => row.status = format!("invalid: {}", why.reason),
    }
    Ok(row)
}

/// The status of an INT8 row whose errors exceed the double-double check:
/// measured on purpose (fewer moduli), so not a failure of the report.
const OUTSIDE_CHECK: &str = "outside the double-double check";

fn int8_row(p: &GemmProblem, variant: &str, moduli: usize, status: String) -> DdRow {
    DdRow {
        variant: variant.to_string(),
        n: p.m,
        madd: INT8_MADD,
        kernel: format!("int8 emulation, {moduli} moduli"),
        status,
        medians_ms: Vec::new(),
        tflops: None,
        fp64: None,
        bound_tflops: None,
        accuracy: Vec::new(),
        registers: None,
        local_bytes: None,
    }
}

/// The INT8 emulation on the runner's problem: errors on every input kind
/// (a check that fails is noted, not fatal: fewer moduli are measured to
/// show what they cost in accuracy), then the timing.
fn measure_int8(
    runner: &mut GemmRunner<'_>,
    emu: &mut OzakiGemm<'_>,
    p: &GemmProblem,
    variant: &str,
    options: &DdReportOptions,
    flusher: &mut L2Flusher,
) -> Result<DdRow> {
    let l = emu.crt().moduli.len();
    emu.crt().target(p.k).map_err(LibError::Usage)?;
    let mut row = int8_row(p, variant, l, "ok".to_string());
    let mut failed = Vec::new();
    for kind in &options.kinds {
        let (report, accuracy) = runner.check_inputs(Some(*kind), |alpha, a, b, beta, c| {
            // SAFETY: the runner's buffers hold the problem.
            unsafe { emu.enqueue_dd(p, alpha, a, b, beta, c) }
        })?;
        if !report.passed() {
            failed.push(format!("{}: {}", kind.label(), report.describe()));
        }
        row.accuracy
            .push((kind.label(), accuracy.unwrap_or_default()));
    }
    if !failed.is_empty() {
        row.status = format!("{OUTSIDE_CHECK} on {}", failed.join("; "));
    }
    time_into(
        &mut row,
        runner,
        p,
        options,
        flusher,
        |alpha, a, b, beta, c| {
            // SAFETY: the runner's buffers hold the problem.
            unsafe { emu.enqueue_dd(p, alpha, a, b, beta, c) }
        },
    )?;
    Ok(row)
}

/// Times C = op(A) op(B) by `run` on the runner's buffers into `row`.
fn time_into(
    row: &mut DdRow,
    runner: &mut GemmRunner<'_>,
    p: &GemmProblem,
    options: &DdReportOptions,
    flusher: &mut L2Flusher,
    mut run: impl FnMut(Dd, u64, u64, Dd, u64) -> Result<()>,
) -> Result<()> {
    let gpu = runner.gpu();
    let (a, b, c) = runner.data(p, &options.measure.timing)?.ptrs(0);
    row.medians_ms = pass_medians(
        gpu,
        &options.measure.timing,
        options.measure.timed_runs,
        1,
        Some(flusher),
        |_| run(Dd::from_f64(1.0), a, b, Dd::ZERO, c),
    )?;
    row.tflops = row
        .medians_ms
        .first()
        .map(|ms| p.flops() / (ms * 1e-3) / 1e12);
    Ok(())
}

/// The INT8 emulation with its moduli fitted to each input kind: the
/// count each kind took (or its refusal, which is the fit's answer for
/// inputs too wide, not a failure) and its errors, then the timing on the
/// runner's default inputs.
fn measure_fit(
    runner: &mut GemmRunner<'_>,
    fit: &mut FittedGemm<'_>,
    p: &GemmProblem,
    variant: &str,
    options: &DdReportOptions,
    flusher: &mut L2Flusher,
) -> Result<DdRow> {
    let mut row = int8_row(p, variant, 0, "ok".to_string());
    let mut took = Vec::new();
    let mut failed = Vec::new();
    for kind in &options.kinds {
        let checked = runner.check_inputs(Some(*kind), |alpha, a, b, beta, c| {
            // SAFETY: the runner's buffers hold the problem.
            unsafe { fit.enqueue(p, alpha, a, b, beta, c) }.map(|_| ())
        });
        match checked {
            Ok((report, accuracy)) => {
                let l = fit.last().map_or(0, |f| f.moduli);
                took.push(format!("{}: {l}", kind.label()));
                if !report.passed() {
                    failed.push(format!("{}: {}", kind.label(), report.describe()));
                }
                row.accuracy
                    .push((kind.label(), accuracy.unwrap_or_default()));
            }
            Err(LibError::Refused(_)) => {
                took.push(format!("{}: refused", kind.label()));
                row.accuracy.push((
                    kind.label(),
                    Accuracy {
                        normwise: f64::NAN,
                        elementwise_max: f64::NAN,
                        elementwise_median: f64::NAN,
                        entries: 0,
                    },
                ));
            }
            Err(e) => return Err(e),
        }
    }
    row.kernel = format!("int8 emulation, fit ({})", took.join(", "));
    if !failed.is_empty() {
        row.status = format!("wrong result: {}", failed.join("; "));
        return Ok(row);
    }
    time_into(
        &mut row,
        runner,
        p,
        options,
        flusher,
        |alpha, a, b, beta, c| {
            // SAFETY: the runner's buffers hold the problem.
            unsafe { fit.enqueue(p, alpha, a, b, beta, c) }.map(|_| ())
        },
    )?;
    let l = fit.last().map_or(0, |f| f.moduli);
    row.kernel = format!(
        "int8 emulation, fit ({}; timed inputs: {l})",
        took.join(", ")
    );
    Ok(row)
}

fn sci(v: f64) -> String {
    format!("{v:.1e}")
}

impl DdReport {
    /// The markdown report: the bound, then one table per variant.
    pub fn markdown(&self, footer: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Double-double GEMM\n");
        let _ = writeln!(s, "Device: {}.\n", self.device);
        let _ = writeln!(
            s,
            "Measured FP64 instruction rate: {:.2} T thread instructions/s (FMA chains, median of {} runs, {:.3} ms). \
             The bound of a kernel is 2 x this rate / its FP64 instructions per multiply-add (counted in the SASS of its main loop). \
             Rules: {}. Rates count 2 N^3 double-double operations; errors are against the exact product on sampled entries.\n",
            self.fp64_per_second / 1e12,
            self.options.measure.timing.reps,
            self.fp64_timing.median,
            self.rules
        );
        let kinds: Vec<String> = self.options.kinds.iter().map(|k| k.label()).collect();
        for variant in &self.options.variants {
            let _ = writeln!(s, "## {variant}\n");
            let mut header = "| N | multiply-add | ms (2nd run) | TFLOP/s | FP64/madd | bound TFLOP/s | of bound |".to_string();
            let mut rule = "|---|---|---|---|---|---|---|".to_string();
            for k in &kinds {
                let _ = write!(header, " normwise {k} | elementwise max {k} |");
                rule.push_str("---|---|");
            }
            header.push_str(" kernel |");
            rule.push_str("---|");
            let _ = writeln!(s, "{header}\n{rule}");
            for r in self.rows.iter().filter(|r| &r.variant == variant) {
                let times = match r.medians_ms.as_slice() {
                    [a, b, ..] => format!("{a:.3} ({b:.3})"),
                    [a] => format!("{a:.3}"),
                    [] => "-".to_string(),
                };
                let opt = |v: Option<f64>, d: usize| {
                    v.map(|x| format!("{x:.d$}"))
                        .unwrap_or_else(|| "-".to_string())
                };
                let _ = write!(
                    s,
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    r.n,
                    madd_name(r.madd),
                    times,
                    opt(r.tflops, 3),
                    opt(r.fp64.map(|c| c.per_madd()), 2),
                    opt(r.bound_tflops, 2),
                    opt(r.share_of_bound(), 2),
                );
                for k in &kinds {
                    match r.accuracy.iter().find(|(l, _)| l == k) {
                        Some((_, a)) => {
                            let _ =
                                write!(s, " {} | {} |", sci(a.normwise), sci(a.elementwise_max));
                        }
                        None => s.push_str(" - | - |"),
                    }
                }
                let status = if r.status == "ok" {
                    String::new()
                } else {
                    format!(" ({})", r.status)
                };
                let _ = writeln!(s, " {}{status} |", r.kernel);
            }
            s.push('\n');
        }
        s.push_str(footer);
        s
    }

    pub fn csv(&self) -> String {
        let mut s = String::from(
            "variant,n,madd,kernel,status,median_ms,median_ms_2,tflops,fp64_per_madd,bound_tflops,share_of_bound,kind,normwise,elementwise_max,elementwise_median,entries\n",
        );
        let f = |v: Option<f64>| v.map(|x| format!("{x:e}")).unwrap_or_default();
        for r in &self.rows {
            let lines: Vec<(String, Option<Accuracy>)> = if r.accuracy.is_empty() {
                vec![(String::new(), None)]
            } else {
                r.accuracy
                    .iter()
                    .map(|(k, a)| (k.clone(), Some(*a)))
                    .collect()
            };
            for (kind, a) in lines {
                let _ = writeln!(
                    s,
                    "{},{},{},\"{}\",\"{}\",{},{},{},{},{},{},{},{},{},{},{}",
                    r.variant,
                    r.n,
                    madd_name(r.madd),
                    r.kernel,
                    r.status.replace('"', "'"),
                    f(r.medians_ms.first().copied()),
                    f(r.medians_ms.get(1).copied()),
                    f(r.tflops),
                    f(r.fp64.map(|c| c.per_madd())),
                    f(r.bound_tflops),
                    f(r.share_of_bound()),
                    kind,
                    f(a.map(|a| a.normwise)),
                    f(a.map(|a| a.elementwise_max)),
                    f(a.map(|a| a.elementwise_median)),
                    a.map(|a| a.entries.to_string()).unwrap_or_default(),
                );
            }
        }
        s
    }

    /// Writes `ddgemm.md`, `.csv` and `.json` into `dir`.
    pub fn write(&self, dir: &Path, footer: &str) -> Result<Vec<PathBuf>> {
        let json = serde_json::to_string_pretty(self)
            .map_err(|e| LibError::Routine(format!("report as JSON: {e}")))?;
        write_texts(
            dir,
            vec![
                ("ddgemm.md", self.markdown(footer)),
                ("ddgemm.csv", self.csv()),
                ("ddgemm.json", json),
            ],
        )
    }

    /// Whether every row was checked and timed.
    /// Every row measured; INT8 rows whose errors exceed the double-double
    /// check count as measured (fewer moduli are measured to show what
    /// they cost).
    pub fn all_ok(&self) -> bool {
        self.rows.iter().all(|r| {
            r.status == "ok" || (r.madd == INT8_MADD && r.status.starts_with(OUTSIDE_CHECK))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> DdReport {
        let acc = Accuracy {
            normwise: 2e-31,
            elementwise_max: 5e-29,
            elementwise_median: 1e-31,
            entries: 290,
        };
        let row = DdRow {
            variant: "ddgemm_nn".to_string(),
            n: 4096,
            madd: 2,
            kernel: "BM=64 BN=64".to_string(),
            status: "ok".to_string(),
            medians_ms: vec![80.0, 81.0],
            tflops: Some(1.718),
            fp64: Some(Fp64Count {
                dfma: 384,
                dadd: 1120,
                dmul: 128,
                madds: 128,
            }),
            bound_tflops: Some(2.6),
            accuracy: vec![("phi=0.5".to_string(), acc)],
            registers: Some(128),
            local_bytes: Some(0),
        };
        DdReport {
            device: "GPU".to_string(),
            rules: "built in".to_string(),
            fp64_per_second: 16.5e12,
            fp64_timing: Stats::from_samples(&[1.0, 1.0]).unwrap(),
            options: DdReportOptions {
                variants: vec!["ddgemm_nn".to_string()],
                sizes: vec![4096],
                madds: vec![2],
                kinds: vec![InputKind::Phi(0.5)],
                int8_moduli: vec![30],
                measure: MeasureOptions::default(),
            },
            rows: vec![row],
        }
    }

    #[test]
    fn tables_show_speed_bound_and_errors_side_by_side() {
        let r = report();
        let md = r.markdown("Command: x\n");
        assert!(md.contains("16.50 T thread instructions/s"), "{md}");
        assert!(md.contains(
            "| 4096 | lazy | 80.000 (81.000) | 1.718 | 12.75 | 2.60 | 0.66 | 2.0e-31 | 5.0e-29 | BM=64 BN=64 |"
        ), "{md}");
        let csv = r.csv();
        assert_eq!(csv.lines().count(), 2);
        assert!(csv.contains("ddgemm_nn,4096,lazy,"));
        assert!(r.all_ok());
        // A row of the INT8 emulation: no instruction bound.
        let mut r = r;
        let mut int8 = r.rows[0].clone();
        int8.madd = INT8_MADD;
        int8.fp64 = None;
        int8.bound_tflops = None;
        int8.kernel = "int8 emulation, 30 moduli".to_string();
        r.rows.push(int8);
        let md = r.markdown("");
        assert!(
            md.contains("| 4096 | INT8 tensor cores | 80.000 (81.000) | 1.718 | - | - | - |"),
            "{md}"
        );
        r.rows[1].status = format!("{OUTSIDE_CHECK} on phi=4: error 1e-25");
        assert!(r.all_ok());
        r.rows[1].status = "failed: 1 moduli leave no bit per element at k = 4096".to_string();
        assert!(!r.all_ok());
    }

    #[test]
    fn options_are_checked_before_a_gpu_is_touched() {
        let mut o = DdReportOptions::defaults(MeasureOptions::default());
        assert!(o.validate().is_ok());
        o.variants = vec!["dgemm_nn".to_string()];
        assert!(o
            .validate()
            .unwrap_err()
            .to_string()
            .contains("not a double-double"));
        o = DdReportOptions::defaults(MeasureOptions::default());
        o.madds = vec![3];
        assert!(o.validate().unwrap_err().to_string().contains("MADD=3"));
        o = DdReportOptions::defaults(MeasureOptions::default());
        o.sizes = vec![0];
        assert!(o.validate().is_err());
        o = DdReportOptions::defaults(MeasureOptions::default());
        o.int8_moduli = vec![30, 35];
        assert!(o.validate().unwrap_err().to_string().contains("35 moduli"));
    }
}
