//! SVG charts of a benchmark: GB/s against N (log scale) for hone's kernel,
//! cuBLAS `?symv` and cuBLAS `?gemv`, one chart per precision and storage.
//!
//! Each implementation is plotted on its own byte count (SYMV's for hone and
//! `?symv`, GEMV's for `?gemv`, see [`traffic`](super::traffic)), so the
//! lines compare how close each comes to the memory bandwidth; the device's
//! copy rate, when measured, is drawn as a dashed line for scale.

use std::fmt::Write as _;

use super::bench::{BenchReport, BenchRow, SizeSummary};
use super::tuning::library_name;
use super::{Precision, Uplo};

/// One line of a chart: (N, GB/s) in increasing N.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub colour: &'static str,
    pub points: Vec<(usize, f64)>,
}

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 230.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 64.0;

/// The three series of one precision and storage, from the report's summary
/// (hone's row there is the picked kernel, or the fastest measured one).
pub fn series(report: &BenchReport, precision: Precision, uplo: Uplo) -> Vec<Series> {
    let summary: Vec<&SizeSummary> = report
        .summary
        .iter()
        .filter(|s| (s.precision, s.uplo) == (precision, uplo))
        .collect();
    let points = |row: fn(&SizeSummary) -> &Option<BenchRow>| {
        let mut v: Vec<(usize, f64)> = summary
            .iter()
            .filter_map(|s| {
                let r = row(s).as_ref()?;
                let g = r.gbps.filter(|g| g.is_finite() && *g > 0.0)?;
                Some((s.n, g))
            })
            .collect();
        v.sort_by_key(|p| p.0);
        v
    };
    let hone = match (&report.options.picks, &report.options.picks_origin) {
        (Some(_), Some(_)) => "hone (rule)",
        (Some(_), None) => "hone (picked kernels)",
        (None, _) => "hone (fastest measured)",
    };
    let prefix = precision.blas_prefix();
    vec![
        Series {
            name: hone.to_string(),
            colour: "#d62728",
            points: points(|s| &s.best),
        },
        Series {
            name: format!("cuBLAS {prefix}symv"),
            colour: "#1f77b4",
            points: points(|s| &s.cublas_symv),
        },
        Series {
            name: format!("cuBLAS {prefix}gemv"),
            colour: "#2ca02c",
            points: points(|s| &s.cublas_gemv),
        },
    ]
}

/// One chart per (precision, storage) of the report's options, as
/// (`dsymv_lower.svg`, SVG text).
pub fn charts(report: &BenchReport) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for &p in &report.options.precisions {
        for &u in &report.options.uplos {
            out.push((format!("{}.svg", library_name(p, u)), chart(report, p, u)));
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// About `want` round steps (1, 2 or 5 times a power of ten) from 0 to at
/// least `hi`.
fn linear_ticks(hi: f64, want: usize) -> Vec<f64> {
    let raw = hi / want.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let count = (hi / step).ceil() as usize;
    (0..=count).map(|i| i as f64 * step).collect()
}

/// Powers of two from `lo` to `hi` (exponents), thinned to at most 12.
fn log2_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo.ceil() as i32, hi.floor() as i32);
    let all: Vec<f64> = (a..=b).map(f64::from).collect();
    let stride = all.len().div_ceil(12).max(1);
    all.into_iter().step_by(stride).collect()
}

/// The chart of one precision and storage.
pub fn chart(report: &BenchReport, precision: Precision, uplo: Uplo) -> String {
    let series = series(report, precision, uplo);
    let all: Vec<(usize, f64)> = series.iter().flat_map(|s| s.points.clone()).collect();
    let (mut x0, mut x1) = all
        .iter()
        .map(|p| (p.0 as f64).log2())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !x0.is_finite() {
        // Nothing valid: an empty frame over the range.
        (x0, x1) = (9.0, 15.0);
    }
    if x1 - x0 < 1.0 {
        x0 -= 0.5;
        x1 += 0.5;
    }
    // Keeps the end points off the frame.
    let pad = 0.03 * (x1 - x0);
    (x0, x1) = (x0 - pad, x1 + pad);
    let copy = report.copy_gbps.filter(|g| g.is_finite() && *g > 0.0);
    let y_max = all
        .iter()
        .map(|p| p.1)
        .chain(copy)
        .fold(0.0f64, f64::max)
        .max(1.0)
        * 1.08;
    let yt = linear_ticks(y_max, 6);
    let y_top = *yt.last().unwrap_or(&y_max);
    let (pw, ph) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let px = |n: f64| LEFT + (n.log2() - x0) / (x1 - x0) * pw;
    let py = |g: f64| TOP + ph - g / y_top * ph;

    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        s,
        "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>"
    );
    let title = format!(
        "{}SYMV, {uplo} storage, on {}",
        precision.blas_prefix().to_uppercase(),
        report.device.name
    );
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">{}</text>",
        LEFT + pw / 2.0,
        escape(&title)
    );
    // Grid and y ticks.
    for &t in &yt {
        let y = py(t);
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#e0e0e0\"/>",
            LEFT + pw
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{t:.0}</text>",
            LEFT - 6.0,
            y + 4.0
        );
    }
    // x ticks at powers of two.
    for e in log2_ticks(x0, x1) {
        let n = e.exp2();
        let x = px(n);
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{TOP}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#e0e0e0\"/>",
            TOP + ph
        );
        let _ = writeln!(
            s,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{n:.0}</text>",
            TOP + ph + 18.0
        );
    }
    // Axes and their labels.
    let _ = writeln!(
        s,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" \
         stroke=\"black\"/>"
    );
    let _ = writeln!(
        s,
        "<text class=\"x-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">N (log scale)</text>",
        LEFT + pw / 2.0,
        HEIGHT - 18.0
    );
    let _ = writeln!(
        s,
        "<text class=\"y-label\" x=\"22\" y=\"{:.1}\" text-anchor=\"middle\" \
         transform=\"rotate(-90 22 {:.1})\">GB/s (each routine's own bytes)</text>",
        TOP + ph / 2.0,
        TOP + ph / 2.0
    );
    if let Some(c) = copy {
        let y = py(c);
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#555\" \
             stroke-dasharray=\"6 4\"/>",
            LEFT + pw
        );
    }
    // The series, then the legend.
    for sr in series.iter().filter(|sr| !sr.points.is_empty()) {
        let pts = sr
            .points
            .iter()
            .map(|&(n, g)| format!("{:.1},{:.1}", px(n as f64), py(g)))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            s,
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{pts}\">\
             <title>{}</title></polyline>",
            sr.colour,
            escape(&sr.name)
        );
        for &(n, g) in &sr.points {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{}\"><title>{}: N = {n}, \
                 {g:.0} GB/s</title></circle>",
                px(n as f64),
                py(g),
                sr.colour,
                escape(&sr.name)
            );
        }
    }
    let lx = LEFT + pw + 16.0;
    let mut ly = TOP + 8.0;
    for sr in &series {
        let _ = writeln!(
            s,
            "<line x1=\"{lx}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{}\" stroke-width=\"2\"/>",
            lx + 24.0,
            sr.colour
        );
        let note = if sr.points.is_empty() {
            " (no valid size)"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{:.1}\">{}{note}</text>",
            lx + 30.0,
            ly + 4.0,
            escape(&sr.name)
        );
        ly += 20.0;
    }
    if let Some(c) = copy {
        let _ = writeln!(
            s,
            "<line x1=\"{lx}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"#555\" \
             stroke-dasharray=\"6 4\"/>",
            lx + 24.0
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{:.1}\">device copy, {c:.0} GB/s</text>",
            lx + 30.0,
            ly + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symv::bench::{summarise, BenchOptions, Pick};
    use crate::symv::traffic::{gbps, gemv_bytes, symv_bytes};
    use crate::symv::{Algorithm, Config};

    fn row(imp: &str, n: usize, ms: f64) -> BenchRow {
        let bytes = if imp == "cublas gemv" {
            gemv_bytes(n, 8)
        } else {
            symv_bytes(n, 8)
        };
        BenchRow {
            precision: Precision::Double,
            uplo: Uplo::Lower,
            n,
            lda: n,
            implementation: imp.to_string(),
            config: String::new(),
            status: "ok".to_string(),
            medians_ms: vec![ms],
            gbps: Some(gbps(bytes, ms)),
            relative_error: Some(1e-16),
            registers: None,
            local_bytes: None,
            grid: None,
            block: None,
            shared_mem: None,
        }
    }

    fn report(sizes: &[usize], with_gemv: bool) -> BenchReport {
        let props = crate::symv::bench::tests::test_props("Test <GPU>");
        let mut rows = Vec::new();
        let mut summary = Vec::new();
        for &n in sizes {
            let t = n as f64 * n as f64 * 1e-9;
            let mut at_n = vec![row("hone atomic", n, t), row("cublas symv", n, 1.5 * t)];
            if with_gemv {
                at_n.push(row("cublas gemv", n, 1.8 * t));
            }
            summary.push(summarise(&at_n, Precision::Double, Uplo::Lower, n));
            rows.extend(at_n);
        }
        BenchReport {
            device: props,
            cublas_version: Some(130000),
            vector_atomics: true,
            copy_gbps: Some(3000.0),
            options: BenchOptions {
                sizes: sizes.to_vec(),
                precisions: vec![Precision::Double],
                uplos: vec![Uplo::Lower],
                picks: Some(vec![Pick {
                    precision: Precision::Double,
                    uplo: Uplo::Lower,
                    n: sizes[0],
                    algorithm: Algorithm::Atomic,
                    config: Config::new(),
                }]),
                picks_origin: Some("the bundled rules".to_string()),
                ..BenchOptions::default()
            },
            rows,
            summary,
        }
    }

    fn count(s: &str, pat: &str) -> usize {
        s.matches(pat).count()
    }

    #[test]
    fn one_polyline_per_series_with_axis_labels() {
        let sizes = [64, 100, 512, 4096, 32768];
        let r = report(&sizes, true);
        let charts = charts(&r);
        assert_eq!(charts.len(), 1);
        let (name, svg) = &charts[0];
        assert_eq!(name, "dsymv_lower.svg");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(count(svg, "<polyline"), 3, "{svg}");
        for label in ["hone (rule)", "cuBLAS dsymv", "cuBLAS dgemv"] {
            assert!(svg.contains(&format!("<title>{label}</title>")), "{label}");
        }
        assert!(svg.contains("N (log scale)") && svg.contains("GB/s (each"));
        // Every size is a point of every series; the name is escaped.
        assert_eq!(count(svg, "<circle"), 3 * sizes.len());
        assert!(svg.contains("Test &lt;GPU&gt;") && !svg.contains("<GPU>"));
        // Powers of two label the log axis; the copy rate is a dashed line.
        for n in [64, 512, 4096, 32768] {
            assert!(svg.contains(&format!(">{n}</text>")), "{n}");
        }
        assert!(svg.contains("device copy, 3000 GB/s"));
        assert!(svg.contains("stroke-dasharray"));
    }

    #[test]
    fn larger_rates_are_drawn_higher_and_larger_sizes_further_right() {
        let r = report(&[1024, 2048], true);
        let s = series(&r, Precision::Double, Uplo::Lower);
        assert_eq!(s.len(), 3);
        let hone = &s[0].points;
        assert_eq!(
            hone.iter().map(|p| p.0).collect::<Vec<_>>(),
            vec![1024, 2048]
        );
        // hone takes 1/1.5 of cuBLAS SYMV's time on the same bytes.
        assert!((hone[0].1 / s[1].points[0].1 - 1.5).abs() < 1e-9);
        let svg = chart(&r, Precision::Double, Uplo::Lower);
        let coords = |name: &str| -> Vec<(f64, f64)> {
            let line = svg
                .lines()
                .find(|l| l.contains("<polyline") && l.contains(name))
                .unwrap();
            let pts = line.split("points=\"").nth(1).unwrap();
            pts.split('"')
                .next()
                .unwrap()
                .split(' ')
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        };
        let (h, c) = (coords("hone (rule)"), coords("cuBLAS dsymv"));
        assert!(h[1].0 > h[0].0);
        assert_eq!(h[0].0, c[0].0);
        // SVG y grows downwards.
        assert!(h[0].1 < c[0].1);
    }

    #[test]
    fn missing_series_and_single_sizes_still_draw() {
        let r = report(&[4096], false);
        let svg = chart(&r, Precision::Double, Uplo::Lower);
        assert_eq!(count(&svg, "<polyline"), 2);
        assert!(svg.contains("cuBLAS dgemv (no valid size)"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        let empty = chart(&r, Precision::Single, Uplo::Upper);
        assert_eq!(count(&empty, "<polyline"), 0);
        assert!(empty.contains("N (log scale)") && !empty.contains("NaN"));
    }
}
