//! The page of a tuning run (`hone report --html`): the champions' times
//! against problem size with their fitted d-splines and the selection
//! rule's intervals on the same axes (the tuner's own figures, inline), the
//! rule as a table, and every stored measurement in a sortable table.

use hone_tuner::plot::{render_svg, PlotOptions, YAxis};
use hone_tuner::refit::Fitted;
use hone_tuner::{Measurement, Recording};

use crate::page::{Cell, Page, Table};

/// The page of a refitted job and its stored measurements.
pub fn tuning_page(f: &Fitted, recording: &Recording) -> String {
    let title = format!("Tuning of {} on {}", f.job.name, f.device.name);
    let mut page = Page::new(&title);
    page.heading(1, &title, "top");
    let curves = &f.sampling.curves;
    page.meta(&format!(
        "Kernel {}; {} champions sampled over {} <= N <= {}; {} stored measurements; \
         the rule has {} intervals.",
        f.job.kernel,
        curves.kernels.len(),
        curves.grid.lo,
        curves.grid.hi,
        recording.records.len(),
        f.rule.intervals.len()
    ));
    page.heading(2, "Champions, d-splines and the rule", "curves");
    let plot = |y: YAxis, what: &str| {
        let opts = PlotOptions {
            title: format!("{}: {what}", f.job.name),
            y,
            ..PlotOptions::default()
        };
        render_svg(curves, &f.rule, &opts)
    };
    page.figure(
        &plot(YAxis::Time, "time against N"),
        "champions' times against N with d-splines and the rule's intervals",
        "Each champion's measured times (points) and fitted d-spline (line); the bands \
         mark which kernel the rule picks over each interval of N.",
    );
    page.figure(
        &plot(YAxis::Relative, "time over the fastest"),
        "champions' times relative to the fastest at each N",
        "The same fits, each over the fastest fit at that N: the rule follows the lowest.",
    );

    page.heading(2, "Selection rule", "rule");
    let mut rule = Table::new(
        "rule-table",
        "The kernel for each interval of N",
        &[
            ("from N", false),
            ("to N", false),
            ("kernel", true),
            ("configuration", true),
        ],
    );
    for iv in &f.rule.intervals {
        let k = &f.rule.kernels[iv.kernel];
        rule.row(vec![
            Cell::num(Some(iv.start as f64), 0),
            iv.end
                .map(|e| Cell::num(Some(e as f64 - 1.0), 0))
                .unwrap_or_else(|| Cell::text("and above")),
            Cell::text(k.label.clone()),
            Cell::text(k.config.key()),
        ]);
    }
    page.table(&rule);

    page.heading(2, "Every measurement", "measurements");
    let mut all = Table::new(
        "measurement-table",
        "Every stored measurement (sort by any column)",
        &[
            ("configuration", true),
            ("problem", true),
            ("status", true),
            ("median us", false),
            ("q1 us", false),
            ("q3 us", false),
            ("GB/s", false),
            ("GFLOP/s", false),
        ],
    );
    for r in &recording.records {
        let problem = r
            .key
            .as_ref()
            .map(|k| k.to_string())
            .unwrap_or_else(|| format!("n={}", r.size));
        let (status, t) = match &r.measurement {
            Measurement::Ok(t) => ("ok".to_string(), Some(t)),
            other => (other.status().to_string(), None),
        };
        let us = |v: Option<f64>| v.map(|s| s * 1e6);
        all.row(vec![
            Cell::text(r.config.key()),
            Cell::text(problem),
            Cell::text(status),
            Cell::num(us(t.map(|t| t.median_s)), 3),
            Cell::num(us(t.map(|t| t.q1_s)), 3),
            Cell::num(us(t.map(|t| t.q3_s)), 3),
            Cell::num(t.and_then(|t| t.gbps), 0),
            Cell::num(t.and_then(|t| t.gflops), 0),
        ]);
    }
    page.table(&all);
    page.finish()
}
