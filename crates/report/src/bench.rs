//! The page of a routine's benchmark (`hone bench ROUTINE`): per variant,
//! the chart of rates against size with the vendor's, the headline table
//! with speedups, and every measurement in a sortable table.

use hone_kernels::routine::report::charts;
use hone_kernels::routine::{BenchReport, Comparison};

use crate::page::{Cell, Page, Table};

fn speedup_cell(v: Option<f64>) -> Cell {
    let c = Cell::num(v, 2);
    match v {
        Some(s) if s >= 1.0 => c.with_class("good"),
        Some(_) => c.with_class("bad"),
        None => c,
    }
}

fn variant_table(
    report: &BenchReport,
    variant: &str,
    sizes: &[u64],
    id: &str,
    caption: &str,
) -> Table {
    let unit = report.work_unit.rate_label();
    let mut cols: Vec<(String, bool)> = vec![
        (report.size_axis.clone(), false),
        ("hone ms".into(), false),
        (format!("hone {unit}"), false),
    ];
    let names = report.baseline_names(variant);
    for n in &names {
        cols.push((format!("{n} ms"), false));
        cols.push((format!("{n} {unit}"), false));
        cols.push((format!("speedup over {n}"), false));
    }
    cols.push(("error / bound".into(), false));
    cols.push(("hone kernel".into(), true));
    let col_refs: Vec<(&str, bool)> = cols.iter().map(|(c, t)| (c.as_str(), *t)).collect();
    let mut t = Table::new(id, caption, &col_refs);
    for c in report
        .of_variant(variant)
        .filter(|c| sizes.is_empty() || sizes.contains(&c.problem.size))
    {
        t.row(row_cells(c, &names));
    }
    t
}

fn row_cells(c: &Comparison, names: &[&str]) -> Vec<Cell> {
    let h = &c.hone;
    let mut cells = vec![
        Cell::num(Some(c.problem.size as f64), 0),
        if h.ok() {
            Cell::num(h.median_ms(), 4)
        } else {
            Cell::text(h.status.clone()).with_class("bad")
        },
        Cell::num(h.rate, 0),
    ];
    for n in names {
        match c.baseline(n) {
            Some((i, b)) if b.ok() => {
                cells.push(Cell::num(b.median_ms(), 4));
                cells.push(Cell::num(b.rate, 0));
                cells.push(speedup_cell(c.ratio(i)));
            }
            Some((_, b)) => {
                cells.push(Cell::text(b.status.clone()));
                cells.push(Cell::num(None, 0));
                cells.push(Cell::num(None, 0));
            }
            None => cells.extend([Cell::num(None, 0), Cell::num(None, 0), Cell::num(None, 0)]),
        }
    }
    cells.push(Cell::num(h.error_share(), 2));
    cells.push(Cell::text(format!("{} {}", h.kernel, c.interval)));
    cells
}

/// The benchmark page.
pub fn bench_page(report: &BenchReport) -> String {
    let d = &report.device;
    let mut page = Page::new(&format!(
        "{}: hone against the vendor library on {}",
        report.routine, d.name
    ));
    page.heading(
        1,
        &format!("{}: hone against the vendor library", report.routine),
        "top",
    );
    page.meta(&format!(
        "{}; {}. Kernels: {}.",
        d.identity(),
        report.tools,
        report.rules_origin
    ));
    let t = &report.options.measure.timing;
    page.paragraph(&format!(
        "Each time is the median of {} event-timed runs after {} warm-ups{}; every implementation \
         was checked against the reference on fresh random inputs before it was timed. Rates count \
         each implementation's own work; a speedup above 1 means hone is faster.",
        t.reps,
        t.warmup,
        t.flush_phrase()
    ));
    if let Some(r) = &report.roof {
        page.paragraph(&format!(
            "Ceiling measured in the same run: {}, {:.0} {}.",
            r.label,
            r.rate,
            report.work_unit.rate_label()
        ));
    }
    let charts = charts(report);
    for (i, v) in report.options.variants.iter().enumerate() {
        page.heading(2, v, &format!("v-{v}"));
        if let Some((_, svg)) = charts.iter().find(|(f, _)| f == &format!("{v}.svg")) {
            page.figure(
                svg,
                &format!(
                    "{v}: {} against {}",
                    report.work_unit.rate_label(),
                    report.size_axis
                ),
                &format!(
                    "{v}: hone's rule and the vendor's routine, {} against {} (log scale).",
                    report.work_unit.rate_label(),
                    report.size_axis
                ),
            );
        }
        page.table(&variant_table(
            report,
            v,
            &report.options.sizes,
            &format!("headline-{i}"),
            &format!("{v} at the headline sizes"),
        ));
        page.table(&variant_table(
            report,
            v,
            &[],
            &format!("all-{i}"),
            &format!("{v}: every measured size"),
        ));
        let shapes: Vec<&Comparison> = report
            .other_shapes
            .iter()
            .filter(|c| &c.problem.variant == v)
            .collect();
        if !shapes.is_empty() {
            let unit = report.work_unit.rate_label();
            let mut t = Table::new(
                &format!("shapes-{i}"),
                &format!("{v}: other shapes, placed on the rule's axis at the size shown"),
                &[
                    ("problem", true),
                    (report.size_axis.as_str(), false),
                    ("hone ms", false),
                    (&format!("hone {unit}"), false),
                    ("vendor ms", false),
                    (&format!("vendor {unit}"), false),
                    ("speedup", false),
                    ("hone kernel", true),
                ],
            );
            for c in shapes {
                let b = c.baselines.first();
                t.row(vec![
                    Cell::text(c.problem.key()),
                    Cell::num(Some(c.problem.size as f64), 0),
                    Cell::num(c.hone.median_ms().filter(|_| c.hone.ok()), 4),
                    Cell::num(c.hone.rate, 0),
                    Cell::num(b.and_then(|b| b.median_ms()), 4),
                    Cell::num(b.and_then(|b| b.rate), 0),
                    speedup_cell(c.speedup()),
                    Cell::text(format!("{} {}", c.hone.kernel, c.interval)),
                ]);
            }
            page.table(&t);
        }
    }
    page.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hone_kernels::routine::{problem::Problem, BenchOptions, MeasureOptions, Row, WorkUnit};

    pub(crate) fn report() -> BenchReport {
        let comparisons = [256u64, 1024]
            .iter()
            .map(|&n| {
                let p = Problem::new("dfoo", vec![("n", n)], n);
                let mut hone = Row::new(&p, "hone", 1e9);
                hone.timed(WorkUnit::Bytes, vec![1.0, 1.0]);
                hone.kernel = "A=1".into();
                let mut v = Row::new(&p, "vendor <dfoo>", 1e9);
                v.timed(WorkUnit::Bytes, vec![if n == 256 { 0.5 } else { 2.0 }]);
                Comparison {
                    problem: p,
                    rule_kernel: "Rank 1".into(),
                    interval: "[1, inf)".into(),
                    hone,
                    baselines: vec![v],
                }
            })
            .collect();
        BenchReport {
            routine: "foo".into(),
            work_unit: WorkUnit::Bytes,
            size_axis: "N".into(),
            device: serde_json::from_str(include_str!("../tests/data/device.json")).unwrap(),
            tools: "vendor 1".into(),
            rules_origin: "test rules".into(),
            roof: None,
            options: BenchOptions {
                variants: vec!["dfoo".into()],
                sizes: vec![1024],
                chart_sizes: vec![256, 1024],
                measure: MeasureOptions::default(),
                other_shapes: true,
            },
            comparisons,
            other_shapes: Vec::new(),
            same_inputs: false,
        }
    }

    #[test]
    fn the_page_has_a_chart_and_both_tables_with_speedups_marked() {
        let html = bench_page(&report());
        assert!(html.contains("<h2 id=\"v-dfoo\">dfoo</h2>"));
        assert_eq!(html.matches("<figure>").count(), 1);
        assert!(html.contains("id=\"headline-0\"") && html.contains("id=\"all-0\""));
        // 1024: hone 2x faster (good); 256: 0.5x (bad).
        assert!(
            html.contains("class=\"good\" data-value=\"2\">2.00</td>"),
            "{html}"
        );
        assert!(html.contains("class=\"bad\" data-value=\"0.5\">0.50</td>"));
        assert!(html.contains("vendor &lt;dfoo&gt;"));
    }
}
