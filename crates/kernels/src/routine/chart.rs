//! SVG charts of rates against problem size (log scale): one line per
//! implementation, the device's measured ceiling dashed for scale.

use std::fmt::Write as _;

use hone_tuner::plot::{escape, round_step};

use super::Roof;

/// One line of a chart: (size, rate) in increasing size.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub colour: &'static str,
    pub points: Vec<(f64, f64)>,
}

/// What [`render`] draws.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub title: String,
    /// The size axis's name (`N`); the axis is logarithmic.
    pub x_label: String,
    pub y_label: String,
    /// The rate unit in tooltips and the ceiling's legend (`GB/s`).
    pub unit: String,
    pub series: Vec<Series>,
    pub roof: Option<Roof>,
}

/// Colours for series in order: hone first.
pub const COLOURS: [&str; 6] = [
    "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];

const WIDTH: f64 = 980.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 310.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 64.0;

/// About `want` round steps (1, 2 or 5 times a power of ten) from 0 to at
/// least `hi`.
fn linear_ticks(hi: f64, want: usize) -> Vec<f64> {
    let step = round_step(hi / want.max(1) as f64);
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

/// The chart as SVG text.
pub fn render(chart: &Chart) -> String {
    let series = &chart.series;
    let all: Vec<(f64, f64)> = series.iter().flat_map(|s| s.points.clone()).collect();
    let (mut x0, mut x1) = all
        .iter()
        .map(|p| p.0.log2())
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
    let copy = chart
        .roof
        .as_ref()
        .filter(|r| r.rate.is_finite() && r.rate > 0.0);
    let y_max = all
        .iter()
        .map(|p| p.1)
        .chain(copy.map(|r| r.rate))
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
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">{}</text>",
        LEFT + pw / 2.0,
        escape(&chart.title)
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
        "<text class=\"x-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{} (log scale)</text>",
        LEFT + pw / 2.0,
        HEIGHT - 18.0,
        escape(&chart.x_label)
    );
    let _ = writeln!(
        s,
        "<text class=\"y-label\" x=\"22\" y=\"{:.1}\" text-anchor=\"middle\" \
         transform=\"rotate(-90 22 {:.1})\">{}</text>",
        TOP + ph / 2.0,
        TOP + ph / 2.0,
        escape(&chart.y_label)
    );
    if let Some(c) = copy {
        let y = py(c.rate);
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
            .map(|&(n, g)| format!("{:.1},{:.1}", px(n), py(g)))
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
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{}\"><title>{}: {} = {n}, \
                 {g:.0} {}</title></circle>",
                px(n),
                py(g),
                sr.colour,
                escape(&sr.name),
                escape(&chart.x_label),
                escape(&chart.unit)
            );
        }
    }
    let lx = LEFT + pw + 16.0;
    let mut ly = TOP + 8.0;
    for sr in series {
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
            "<text x=\"{}\" y=\"{:.1}\">{}, {:.0} {}</text>",
            lx + 30.0,
            ly + 4.0,
            escape(&c.label),
            c.rate,
            escape(&chart.unit)
        );
    }
    s.push_str("</svg>\n");
    s
}
