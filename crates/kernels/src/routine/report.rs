//! A benchmark report as files: `ROUTINE.md` (tables), `ROUTINE.csv` (every
//! row), `ROUTINE.json` (everything) and one `VARIANT.svg` chart per
//! variant.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::bench::BenchReport;
use super::chart::{render, Chart, Series, COLOURS};
use super::compare::{Comparison, Row};
use super::{LibError, Result};

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map(|x| format!("{x:.digits$}"))
        .unwrap_or_else(|| "-".to_string())
}

/// `NAME (132 SMs, sm_90), driver 13.0, NVRTC 13.0`: the device a report's
/// numbers were measured on.
pub fn device_line(d: &hone_gpu::DeviceProps) -> String {
    let nvrtc = d.nvrtc_version.map(|(a, b)| format!("{a}.{b}"));
    format!(
        "{}, NVRTC {}",
        d.identity(),
        nvrtc.as_deref().unwrap_or("?")
    )
}

/// The header: device, tools, method.
fn preamble(report: &BenchReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {}: hone against the vendor library\n", report.routine);
    let _ = writeln!(
        s,
        "Device: {}; {}.{}\n",
        device_line(&report.device),
        report.tools,
        report
            .roof
            .as_ref()
            .map(|r| format!(
                " {}: {:.0} {}.",
                r.label,
                r.rate,
                report.work_unit.rate_label()
            ))
            .unwrap_or_default()
    );
    let t = &report.options.measure.timing;
    let _ = writeln!(
        s,
        "Kernels: {}, one per size, measured here (no selection on this run's timings). \
         Times: median of {} event-timed runs after {} warm-ups{}, buffers rotated past \
         twice the L2; each implementation timed {} times (second median in parentheses). \
         Every implementation was checked against the reference on fresh random inputs \
         before it was timed{}. Rates count each implementation's own work.\n",
        report.rules_origin,
        t.reps,
        t.warmup,
        t.flush_phrase(),
        report.options.measure.timed_runs,
        if report.same_inputs {
            ", on the same inputs for hone and each baseline (`error / V's` is hone's largest \
             error over V's)"
        } else {
            ""
        }
    );
    s
}

/// One variant's table at `sizes` (all of its sizes when empty).
pub fn table(report: &BenchReport, variant: &str, sizes: &[u64]) -> String {
    let unit = report.work_unit.rate_label();
    let names = report.baseline_names(variant);
    // Errors compare only where the checks share their inputs.
    let errors = report.same_inputs;
    let cols = 3 + usize::from(errors);
    let mut s = String::new();
    let _ = write!(s, "| {} | hone ms | hone {unit} |", report.size_axis);
    for n in &names {
        let _ = write!(s, " {n} ms | {n} {unit} | hone / {n} |");
        if errors {
            let _ = write!(s, " error / {n}'s |");
        }
    }
    let _ = writeln!(s, " check (share of bound) | hone kernel |");
    let _ = write!(s, "|---:|---:|---:|");
    s.push_str(&"---:|".repeat(cols * names.len()));
    let _ = writeln!(s, "---:|---|");
    for c in report
        .of_variant(variant)
        .filter(|c| sizes.is_empty() || sizes.contains(&c.problem.size))
    {
        let h = &c.hone;
        let _ = write!(
            s,
            "| {} | {} | {} |",
            c.problem.size,
            if h.ok() {
                h.times_text()
            } else {
                h.status.clone()
            },
            opt(h.rate, 0)
        );
        for n in &names {
            match c.baseline(n) {
                Some((i, b)) if b.ok() => {
                    let _ = write!(
                        s,
                        " {} | {} | {} |",
                        b.times_text(),
                        opt(b.rate, 0),
                        opt(c.ratio(i), 2)
                    );
                    if errors {
                        let _ = write!(s, " {} |", opt(c.error_ratio(i), 2));
                    }
                }
                Some((_, b)) => {
                    let _ = write!(s, " {} |{}", b.status, " - |".repeat(cols - 1));
                }
                None => s.push_str(&" - |".repeat(cols)),
            }
        }
        let _ = writeln!(
            s,
            " {} | {} ({}) |",
            opt(h.error_share(), 2),
            h.kernel,
            c.interval
        );
    }
    s
}

/// The whole report as markdown: the preamble, then per variant the table
/// at the headline sizes and the table of every size.
pub fn markdown(report: &BenchReport) -> String {
    let mut s = preamble(report);
    let failed: Vec<String> = report
        .comparisons
        .iter()
        .chain(&report.other_shapes)
        .flat_map(Comparison::rows)
        .filter(|r| !r.ok())
        .map(|r| format!("{} {}: {}", r.problem, r.implementation, r.status))
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(s, "Not measured: {}.\n", failed.join("; "));
    }
    for v in &report.options.variants {
        let _ = writeln!(s, "## {v}\n");
        s.push_str(&table(report, v, &report.options.sizes));
        if !report.options.chart_sizes.is_empty() {
            let _ = writeln!(s, "\nEvery size measured (the chart `{v}.svg`):\n");
            s.push_str(&table(report, v, &[]));
        }
        if report.other_shapes.iter().any(|c| &c.problem.variant == v) {
            let _ = writeln!(
                s,
                "\nOther shapes (placed on the rule's axis at the size shown):\n"
            );
            s.push_str(&shapes_table(report, v));
        }
        let _ = writeln!(s);
    }
    s
}

/// A variant's other shapes: the problem, hone's and the vendor's times,
/// the ratio and the kernel.
pub fn shapes_table(report: &BenchReport, variant: &str) -> String {
    let unit = report.work_unit.rate_label();
    let mut s = format!(
        "| problem | {axis} | hone ms | hone {unit} | vendor ms | vendor {unit} | hone / vendor | hone kernel |\n\
         |---|---:|---:|---:|---:|---:|---:|---|\n",
        axis = report.size_axis
    );
    for c in report
        .other_shapes
        .iter()
        .filter(|c| c.problem.variant == variant)
    {
        let h = &c.hone;
        let b = c.baselines.first();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} ({}) |",
            c.problem.key(),
            c.problem.size,
            if h.ok() {
                h.times_text()
            } else {
                h.status.clone()
            },
            opt(h.rate, 0),
            b.map(|b| if b.ok() {
                b.times_text()
            } else {
                b.status.clone()
            })
            .unwrap_or_else(|| "-".into()),
            opt(b.and_then(|b| b.rate), 0),
            opt(c.speedup(), 2),
            h.kernel,
            c.interval
        );
    }
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\"").replace('\n', " "))
    } else {
        s.to_string()
    }
}

/// Every row as CSV.
pub fn csv(report: &BenchReport) -> String {
    let mut s = String::from(
        "variant,problem,size,implementation,kernel,status,median_ms,second_median_ms,work,\
         rate,error,bound,registers,local_bytes,grid,block,shared_mem\n",
    );
    let o = |v: Option<String>| v.unwrap_or_default();
    for r in report
        .comparisons
        .iter()
        .chain(&report.other_shapes)
        .flat_map(Comparison::rows)
    {
        let l = r.launch.as_ref();
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.problem.variant,
            csv_field(&r.problem.key()),
            r.problem.size,
            r.implementation,
            csv_field(&r.kernel),
            csv_field(&r.status),
            o(r.medians_ms.first().map(|t| format!("{t:.6}"))),
            o(r.medians_ms.get(1).map(|t| format!("{t:.6}"))),
            r.work,
            o(r.rate.map(|g| format!("{g:.1}"))),
            o(r.error.map(|e| format!("{e:.3e}"))),
            o(r.bound.map(|e| format!("{e:.3e}"))),
            o(l.map(|l| l.registers.to_string())),
            o(l.map(|l| l.local_bytes.to_string())),
            o(l.map(|l| format!("{}x{}x{}", l.grid.0, l.grid.1, l.grid.2))),
            o(l.map(|l| format!("{}x{}x{}", l.block.0, l.block.1, l.block.2))),
            o(l.map(|l| l.shared_mem.to_string())),
        );
    }
    s
}

/// One chart per variant, as (`VARIANT.svg`, SVG text): hone and each
/// baseline against the size axis.
pub fn charts(report: &BenchReport) -> Vec<(String, String)> {
    let unit = report.work_unit.rate_label();
    report
        .options
        .variants
        .iter()
        .map(|v| {
            let points = |pick: &dyn Fn(&Comparison) -> Option<&Row>| -> Vec<(f64, f64)> {
                report
                    .of_variant(v)
                    .filter_map(|c| {
                        let r = pick(c).filter(|r| r.ok())?;
                        let g = r.rate.filter(|g| g.is_finite() && *g > 0.0)?;
                        Some((c.problem.size as f64, g))
                    })
                    .collect()
            };
            let mut series = vec![Series {
                name: "hone (rule)".to_string(),
                colour: COLOURS[0],
                points: points(&|c| Some(&c.hone)),
            }];
            for (i, name) in report.baseline_names(v).into_iter().enumerate() {
                series.push(Series {
                    name: name.to_string(),
                    colour: COLOURS[(i + 1) % COLOURS.len()],
                    points: points(&|c| c.baseline(name).map(|(_, r)| r)),
                });
            }
            let chart = Chart {
                title: format!("{v} on {}", report.device.name),
                x_label: report.size_axis.clone(),
                y_label: format!("{unit} (each implementation's own work)"),
                unit: unit.to_string(),
                series,
                roof: report.roof.clone(),
            };
            (format!("{v}.svg"), render(&chart))
        })
        .collect()
}

/// Writes `ROUTINE.md` (the markdown, then `footer`), `.csv`, `.json` and
/// the charts to `dir` (created if missing); the paths written.
pub fn write_reports(dir: &Path, report: &BenchReport, footer: &str) -> Result<Vec<PathBuf>> {
    let io = |path: &Path, source: std::io::Error| LibError::Io {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let name = &report.routine;
    let json = serde_json::to_string_pretty(report)
        .map_err(|e| io(&dir.join(format!("{name}.json")), std::io::Error::other(e)))?;
    let mut files = vec![
        (format!("{name}.md"), markdown(report) + footer),
        (format!("{name}.csv"), csv(report)),
        (format!("{name}.json"), json),
    ];
    files.extend(charts(report));
    write_texts(dir, files)
}

/// Writes each (file name, text) into `dir` (created if missing); the paths
/// written. Errors name the path.
pub fn write_texts<N: AsRef<str>>(dir: &Path, files: Vec<(N, String)>) -> Result<Vec<PathBuf>> {
    let io = |path: &Path, e: std::io::Error| LibError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(name.as_ref());
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::routine::bench::BenchOptions;
    use crate::routine::compare::MeasureOptions;
    use crate::routine::problem::Problem;
    use crate::routine::{Roof, WorkUnit};

    fn row(p: &Problem, imp: &str, work: f64, ms: f64) -> Row {
        let mut r = Row::new(p, imp, work);
        r.timed(WorkUnit::Flops, vec![ms, ms]);
        r.error = Some(1e-16);
        r.bound = Some(1e-15);
        r
    }

    pub(crate) fn report(sizes: &[u64]) -> BenchReport {
        let comparisons = sizes
            .iter()
            .map(|&n| {
                let p = Problem::new("dfoo", vec![("n", n)], n);
                let work = (n * n) as f64;
                let mut hone = row(&p, "hone", work, 1.0);
                hone.kernel = "A=1".into();
                let mut vendor = row(&p, "vendor dfoo", work, 2.0);
                vendor.error = Some(2e-16);
                Comparison {
                    problem: p.clone(),
                    rule_kernel: "Rank 1".into(),
                    interval: "[1, inf)".into(),
                    hone,
                    baselines: vec![vendor],
                }
            })
            .collect();
        BenchReport {
            routine: "foo".into(),
            work_unit: WorkUnit::Flops,
            size_axis: "N".into(),
            device: crate::routine::test_props("Test <GPU>"),
            tools: "vendor 1".into(),
            rules_origin: "the rules in test".into(),
            roof: Some(Roof {
                label: "peak".into(),
                rate: 1e6,
            }),
            options: BenchOptions {
                variants: vec!["dfoo".into()],
                sizes: vec![sizes[0]],
                chart_sizes: sizes.to_vec(),
                measure: MeasureOptions::default(),
                other_shapes: true,
            },
            comparisons,
            other_shapes: Vec::new(),
            same_inputs: true,
        }
    }

    #[test]
    fn other_shapes_get_their_own_table_and_csv_rows() {
        let mut r = report(&[256]);
        let mut c = r.comparisons[0].clone();
        c.problem = Problem::new("dfoo", vec![("m", 8), ("n", 8), ("k", 4096)], 64);
        r.other_shapes.push(c);
        let md = markdown(&r);
        assert!(md.contains("Other shapes"), "{md}");
        assert!(
            md.contains("| m=8 n=8 k=4096 | 64 | 1.0000 (1.0000) |"),
            "{md}"
        );
        assert_eq!(csv(&r).lines().count(), 1 + 2 + 2);
    }

    #[test]
    fn markdown_has_a_headline_and_a_full_table_with_ratios() {
        let r = report(&[256, 1024]);
        let md = markdown(&r);
        assert!(md.contains("# foo: hone against the vendor library"));
        assert!(
            md.contains("| N | hone ms | hone GFLOP/s | vendor dfoo ms |"),
            "{md}"
        );
        // hone takes half the vendor's time: 2.00 in every row.
        assert_eq!(md.matches("| 2.00 |").count(), 3, "{md}");
        assert!(
            md.contains("| hone / vendor dfoo | error / vendor dfoo's |"),
            "{md}"
        );
        // hone's check found half the vendor's error: 0.50 in every row.
        assert_eq!(md.matches("| 2.00 | 0.50 |").count(), 3, "{md}");
        assert!(
            md.contains("on the same inputs for hone and each baseline"),
            "{md}"
        );
        // without shared inputs, no error column
        let mut apart = r.clone();
        apart.same_inputs = false;
        let md = markdown(&apart);
        assert!(!md.contains("error / vendor dfoo's"), "{md}");
        assert_eq!(md.matches("| 2.00 | 0.10 |").count(), 3, "{md}");
        assert!(md.contains("| 0.10 | A=1 ([1, inf)) |"), "{md}");
        assert!(!md.contains("Not measured"));
        let mut bad = r.clone();
        bad.comparisons[0].baselines[0].invalid("wrong result");
        assert!(
            markdown(&bad).contains("Not measured: dfoo n=256 vendor dfoo: invalid: wrong result")
        );
    }

    #[test]
    fn csv_has_a_line_per_row_and_quotes_fields() {
        let mut r = report(&[256, 1024]);
        r.comparisons[1].hone.invalid("wrong, badly");
        let c = csv(&r);
        assert_eq!(c.lines().count(), 1 + 4);
        assert!(c.contains("\"invalid: wrong, badly\""));
        assert!(c
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("dfoo,n=256,256,hone,A=1,ok,1.000000"));
    }

    #[test]
    fn charts_draw_hone_and_each_baseline_and_files_are_written() {
        let r = report(&[64, 512, 4096]);
        let charts = charts(&r);
        assert_eq!(charts.len(), 1);
        let (name, svg) = &charts[0];
        assert_eq!(name, "dfoo.svg");
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 6);
        assert!(svg.contains("peak, 1000000 GFLOP/s"));
        assert!(svg.contains("Test &lt;GPU&gt;"));
        let dir = std::env::temp_dir().join(format!("hone-report-{}", std::process::id()));
        let written = write_reports(&dir, &r, "Command: `x`.\n").unwrap();
        assert_eq!(written.len(), 4);
        let md = std::fs::read_to_string(dir.join("foo.md")).unwrap();
        assert!(md.ends_with("Command: `x`.\n"));
        let back: BenchReport =
            serde_json::from_str(&std::fs::read_to_string(dir.join("foo.json")).unwrap()).unwrap();
        assert_eq!(back, r);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
