//! The emulated DGEMM against cuBLAS DGEMM (`hone ozaki`): on the same
//! fresh random inputs, both products are compared with the exact one on
//! sampled entries (elementwise and normwise errors) and timed on the same
//! stream in the same run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hone_gpu::launch::DeviceBuffer;
use hone_gpu::timing::L2Flusher;
use hone_gpu::Gpu;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::dd::{self, Accuracy, Dd};
use super::ozaki::{OzakiGemm, Phases};
use super::ozaki_fit::{Emulation, FittedGemm};
use super::reference::{at, sample_entries};
use super::{Flavor, GemmProblem, Layout};
use crate::routine::report::write_texts;
use crate::routine::{pass_medians, LibError, MeasureOptions, Result};
use crate::vendor::cublas::Cublas;

/// What to measure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OzakiOptions {
    pub layout: Layout,
    pub sizes: Vec<usize>,
    /// Moduli counts to measure.
    pub moduli: Vec<usize>,
    /// Also the emulation with its moduli fitted to the inputs.
    #[serde(default)]
    pub fit: bool,
    /// Input spreads: entries (rand - 0.5) exp(phi randn).
    pub phis: Vec<f64>,
    pub measure: MeasureOptions,
}

/// One implementation on one size and input kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OzakiRow {
    pub n: usize,
    pub phi: f64,
    /// `cublas dgemm` or `int8 emulation, 16 moduli`.
    pub implementation: String,
    pub moduli: Option<usize>,
    pub medians_ms: Vec<f64>,
    pub tflops: Option<f64>,
    /// cuBLAS DGEMM's time over this one's.
    pub speedup: Option<f64>,
    pub accuracy: Accuracy,
    /// max over the checked entries of |error_ij| / (sqrt(k) 2^-53
    /// (|A| |B|)_ij): at most 1 (and the result's rounding) where the
    /// moduli were fitted.
    #[serde(default)]
    pub bound: f64,
    /// Where an emulation's time goes (medians of a few runs after the
    /// timed ones, without flushing L2).
    #[serde(default)]
    pub phases: Option<Phases>,
    /// What ran an emulation's INT8 products.
    #[serde(default)]
    pub products: Option<String>,
    pub status: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OzakiReport {
    pub device: String,
    pub cublas: String,
    pub options: OzakiOptions,
    pub rows: Vec<OzakiRow>,
}

/// Column-major operands of `p` with entries of spread `phi`.
fn operands(p: &GemmProblem, phi: f64, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let gen = |rows: usize, cols: usize, ld: usize, seed: u64| -> Vec<f64> {
        let v = dd::matrix(seed, rows, cols, ld, |g, _, _| dd::phi_entry(g, phi));
        v.iter().step_by(2).copied().collect()
    };
    let (ra, ca) = GemmProblem::stored_shape(p.layout.a, p.m, p.k);
    let (rb, cb) = GemmProblem::stored_shape(p.layout.b, p.k, p.n);
    (gen(ra, ca, p.lda, seed), gen(rb, cb, p.ldb, seed ^ 0xb))
}

/// The errors of `c` on `entries` against the exact product, and the
/// largest against sqrt(k) 2^-53 (|A| |B|)_ij.
fn accuracy(
    p: &GemmProblem,
    a: &[f64],
    b: &[f64],
    c: &[f64],
    entries: &[(usize, usize)],
) -> (Accuracy, f64) {
    let unit = (p.k as f64).sqrt() * f64::EPSILON / 2.0;
    let measured: Vec<(f64, f64, f64)> = entries
        .par_iter()
        .map(|&(i, j)| {
            let pairs = (0..p.k).map(|q| {
                (
                    Dd::from_f64(at(a, p.layout.a, p.lda, i, q)),
                    Dd::from_f64(at(b, p.layout.b, p.ldb, q, j)),
                )
            });
            let (exact, abs) = dd::exact_entry(Dd::from_f64(1.0), pairs, Dd::ZERO, None);
            let got = c[i + j * p.ldc];
            let err = if got.is_finite() {
                dd::error(Dd::from_f64(got), &exact)
            } else {
                f64::INFINITY
            };
            let against = if abs > 0.0 {
                err / (unit * abs)
            } else if err == 0.0 {
                0.0
            } else {
                f64::INFINITY
            };
            (err, dd::to_f64(&exact).abs(), against)
        })
        .collect();
    let bound = measured.iter().fold(0.0f64, |m, r| m.max(r.2));
    let (errors, magnitudes): (Vec<f64>, Vec<f64>) =
        measured.into_iter().map(|(e, m, _)| (e, m)).unzip();
    (dd::accuracy(&errors, &magnitudes), bound)
}

/// Measures the report on `gpu`.
pub fn run(
    gpu: &Gpu,
    options: &OzakiOptions,
    log: &mut dyn FnMut(&OzakiRow),
) -> Result<OzakiReport> {
    if options.sizes.is_empty()
        || (options.moduli.is_empty() && !options.fit)
        || options.phis.is_empty()
    {
        return Err(LibError::Usage(
            "give at least one size, moduli count and phi".to_string(),
        ));
    }
    // Both products on the GPU's stream, timed alike.
    let cublas = Cublas::on_stream_of(gpu)?;
    let mut emulations = options
        .moduli
        .iter()
        .map(|&l| OzakiGemm::new(gpu, l).map(Emulation::Fixed))
        .collect::<Result<Vec<_>>>()?;
    if options.fit {
        emulations.push(Emulation::Fit(FittedGemm::new(gpu, false)?));
    }
    let mut flusher = L2Flusher::new(gpu)?;
    let timing = &options.measure.timing;
    let mut rows = Vec::new();
    for &n in &options.sizes {
        let p = GemmProblem::packed(Flavor::Dgemm, options.layout, n, n, n);
        p.validate().map_err(LibError::Usage)?;
        for &phi in &options.phis {
            let (a, b) = operands(&p, phi, rand::random());
            let entries = sample_entries(&p, rand::random(), 96);
            let prec = crate::precision::Precision::Double;
            let da = DeviceBuffer::with_data(gpu, &prec.to_bytes(&a))?;
            let db = DeviceBuffer::with_data(gpu, &prec.to_bytes(&b))?;
            let dc = DeviceBuffer::alloc(gpu, 8 * p.ldc * p.n)?;
            let fetch = |dc: &DeviceBuffer| -> Result<Vec<f64>> {
                gpu.synchronize()?;
                let mut raw = vec![0u8; 8 * p.ldc * p.n];
                dc.download(gpu, &mut raw)?;
                Ok(prec.from_bytes(&raw))
            };
            let mut time = |run: &mut dyn FnMut() -> Result<()>| -> Result<Vec<f64>> {
                let passes = options.measure.timed_runs;
                pass_medians(gpu, timing, passes, 1, Some(&mut flusher), |_| run())
            };
            // SAFETY (both closures): the buffers hold p's matrices.
            let mut vendor = || -> Result<()> {
                Ok(unsafe { cublas.gemm(&p, 1.0, da.ptr(), db.ptr(), 0.0, dc.ptr()) }?)
            };
            vendor()?;
            let c = fetch(&dc)?;
            let (base_acc, base_bound) = accuracy(&p, &a, &b, &c, &entries);
            let base_ms = time(&mut vendor)?;
            let base = OzakiRow {
                n,
                phi,
                implementation: "cublas dgemm".to_string(),
                moduli: None,
                tflops: Some(p.flops() / (base_ms[0] * 1e-3) / 1e12),
                medians_ms: base_ms.clone(),
                speedup: Some(1.0),
                accuracy: base_acc,
                bound: base_bound,
                phases: None,
                products: None,
                status: "ok".to_string(),
            };
            log(&base);
            rows.push(base);
            for emu in emulations.iter_mut() {
                let mut run_emu = || -> Result<usize> {
                    // SAFETY: the buffers hold p's matrices.
                    unsafe {
                        emu.enqueue(
                            &p,
                            Dd::from_f64(1.0),
                            da.ptr(),
                            db.ptr(),
                            Dd::ZERO,
                            dc.ptr(),
                        )
                    }
                };
                let mut row = OzakiRow {
                    n,
                    phi,
                    implementation: String::new(),
                    moduli: None,
                    medians_ms: Vec::new(),
                    tflops: None,
                    speedup: None,
                    accuracy: Accuracy::default(),
                    bound: 0.0,
                    phases: None,
                    products: None,
                    status: "ok".to_string(),
                };
                dc.fill_async(gpu, 0xff)?;
                let first = run_emu();
                if let Ok(l) = first {
                    row.moduli = Some(l);
                }
                match first.and_then(|_| fetch(&dc)) {
                    Err(e) => row.status = format!("failed: {e}"),
                    Ok(c) => {
                        (row.accuracy, row.bound) = accuracy(&p, &a, &b, &c, &entries);
                        let ms = time(&mut || run_emu().map(|_| ()))?;
                        row.tflops = Some(p.flops() / (ms[0] * 1e-3) / 1e12);
                        row.speedup = Some(base_ms[0] / ms[0]);
                        row.medians_ms = ms;
                        let l = row.moduli.expect("ran");
                        let fixed = match emu {
                            Emulation::Fixed(e) => e,
                            Emulation::Fit(f) => f.emulation(l)?,
                        };
                        // SAFETY: the buffers hold p's matrices.
                        row.phases =
                            Some(unsafe { fixed.phases(&p, da.ptr(), db.ptr(), dc.ptr(), 5) }?);
                        row.products = Some(fixed.products_engine());
                    }
                }
                row.implementation = match (&*emu, row.moduli) {
                    (Emulation::Fixed(_), Some(l)) => format!("int8 emulation, {l} moduli"),
                    (Emulation::Fixed(e), None) => {
                        format!("int8 emulation, {} moduli", e.crt().moduli.len())
                    }
                    (Emulation::Fit(f), Some(l)) => format!(
                        "int8 emulation, fit: {l} moduli ({})",
                        f.last().map_or(String::new(), |x| x.describe())
                    ),
                    (Emulation::Fit(_), None) => "int8 emulation, fit".to_string(),
                };
                log(&row);
                rows.push(row);
            }
        }
    }
    let cublas_version = cublas
        .version()
        .map(|v| v.to_string())
        .unwrap_or_else(|e| e.to_string());
    Ok(OzakiReport {
        device: gpu.props().to_string(),
        cublas: cublas_version,
        options: options.clone(),
        rows,
    })
}

impl OzakiReport {
    pub fn markdown(&self, footer: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# DGEMM emulated on INT8 tensor cores (Ozaki scheme II)\n"
        );
        let _ = writeln!(s, "Device: {}.\n\ncuBLAS {}.\n", self.device, self.cublas);
        let _ = writeln!(
            s,
            "Layout {}; inputs (rand - 0.5) exp(phi randn), fresh each size; errors against the exact product on sampled entries; both on the same stream, timed alike. An emulation's phases (scaling and slicing both operands, the INT8 products, the reconstruction) are medians of 5 more runs with events between them, L2 not flushed; a fitted emulation's time also holds the fit (the norms, a BF16 product of the magnitudes, the largest ratio read back), which its phases leave out. `max err / bound` is the largest |error_ij| / (sqrt(k) 2^-53 (|A| |B|)_ij) over the checked entries: the fit keeps it at most 1 besides the result's own rounding.\n",
            self.options.layout
        );
        let _ = writeln!(s, "| N | phi | implementation | ms (2nd run) | TFLOP/s | x cuBLAS | median elementwise | max elementwise | normwise | max err / bound | slice / products / rebuild ms | status |");
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|");
        for r in &self.rows {
            let times = match r.medians_ms.as_slice() {
                [a, b, ..] => format!("{a:.3} ({b:.3})"),
                [a] => format!("{a:.3}"),
                [] => "-".to_string(),
            };
            let opt = |v: Option<f64>| {
                v.map(|x| format!("{x:.2}"))
                    .unwrap_or_else(|| "-".to_string())
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {:.1e} | {:.1e} | {:.1e} | {:.1e} | {} | {} |",
                r.n,
                r.phi,
                r.implementation,
                times,
                opt(r.tflops),
                opt(r.speedup),
                r.accuracy.elementwise_median,
                r.accuracy.elementwise_max,
                r.accuracy.normwise,
                r.bound,
                r.phases
                    .map(|f| format!(
                        "{:.3} / {:.3} / {:.3}",
                        f.slice_ms, f.products_ms, f.reconstruct_ms
                    ))
                    .unwrap_or_else(|| "-".to_string()),
                r.status
            );
        }
        s.push('\n');
        let mut engines: Vec<String> = self
            .rows
            .iter()
            .filter_map(|r| {
                r.products
                    .as_ref()
                    .map(|e| format!("- N = {}, {}: {e}", r.n, r.implementation))
            })
            .collect();
        engines.dedup();
        if !engines.is_empty() {
            let _ = writeln!(s, "INT8 products:\n\n{}\n", engines.join("\n"));
        }
        s.push_str(footer);
        s
    }

    /// Writes `ozaki.md` and `ozaki.json` into `dir`.
    pub fn write(&self, dir: &Path, footer: &str) -> Result<Vec<PathBuf>> {
        let json = serde_json::to_string_pretty(self)
            .map_err(|e| LibError::Routine(format!("report as JSON: {e}")))?;
        write_texts(
            dir,
            vec![("ozaki.md", self.markdown(footer)), ("ozaki.json", json)],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_have_the_spread_and_errors_see_a_wrong_entry() {
        let p = GemmProblem::packed(Flavor::Dgemm, Layout::ALL[2], 20, 10, 30);
        let (a, b) = operands(&p, 4.0, 1);
        assert_eq!((a.len(), b.len()), (30 * 20, 30 * 10));
        let spread = a.iter().fold(0.0f64, |m, x| m.max(x.abs()))
            / a.iter().fold(f64::MAX, |m, x| m.min(x.abs()));
        assert!(spread > 1e6, "{spread:e}");
        let mut c = vec![0.0; 20 * 10];
        for j in 0..10 {
            for i in 0..20 {
                c[i + j * 20] = (0..30).map(|q| a[q + i * 30] * b[q + j * 30]).sum();
            }
        }
        let entries: Vec<(usize, usize)> =
            (0..10).flat_map(|j| (0..20).map(move |i| (i, j))).collect();
        let (good, good_bound) = accuracy(&p, &a, &b, &c, &entries);
        assert!(good.elementwise_median < 1e-14, "{good:?}");
        // An FP64 sum of 30 terms errs by at most 30 u (|A| |B|)_ij.
        assert!(good_bound <= 30f64.sqrt(), "{good_bound}");
        c[5] *= 1.0 + 1e-6;
        let (bad, bad_bound) = accuracy(&p, &a, &b, &c, &entries);
        assert!(bad.elementwise_max > 1e-7, "{bad:?}");
        assert!(bad_bound > 1e3, "{bad_bound}");
    }
}
