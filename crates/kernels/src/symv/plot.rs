//! SVG charts of a benchmark: GB/s against N (log scale) for hone's kernel,
//! cuBLAS `?symv` and cuBLAS `?gemv`, one chart per precision and storage.
//!
//! Each implementation is plotted on its own byte count (SYMV's for hone and
//! `?symv`, GEMV's for `?gemv`, see [`traffic`](super::traffic)), so the
//! lines compare how close each comes to the memory bandwidth; the device's
//! copy rate, when measured, is drawn as a dashed line for scale.

use crate::routine::chart::{render, Chart, Series};
use crate::routine::Roof;

use super::bench::{BenchReport, BenchRow, SizeSummary};
use super::tuning::library_name;
use super::{Precision, Uplo};

/// The three series of one precision and storage, from the report's summary
/// (hone's row there is the picked kernel, or the fastest measured one).
pub fn series(report: &BenchReport, precision: Precision, uplo: Uplo) -> Vec<Series> {
    let summary: Vec<&SizeSummary> = report
        .summary
        .iter()
        .filter(|s| (s.precision, s.uplo) == (precision, uplo))
        .collect();
    let points = |row: fn(&SizeSummary) -> &Option<BenchRow>| {
        let mut v: Vec<(f64, f64)> = summary
            .iter()
            .filter_map(|s| {
                let r = row(s).as_ref()?;
                let g = r.gbps.filter(|g| g.is_finite() && *g > 0.0)?;
                Some((s.n as f64, g))
            })
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
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

/// The chart of one precision and storage.
pub fn chart(report: &BenchReport, precision: Precision, uplo: Uplo) -> String {
    render(&Chart {
        title: format!(
            "{}SYMV, {uplo} storage, on {}",
            precision.blas_prefix().to_uppercase(),
            report.device.name
        ),
        x_label: "N".to_string(),
        y_label: "GB/s (each routine's own bytes)".to_string(),
        unit: "GB/s".to_string(),
        series: series(report, precision, uplo),
        roof: report.copy_gbps.map(|rate| Roof {
            label: "device copy".to_string(),
            rate,
        }),
    })
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
        let props = crate::routine::test_props("Test <GPU>");
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
            vec![1024.0, 2048.0]
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
