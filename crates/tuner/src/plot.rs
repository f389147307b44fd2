//! SVG plots of performance against problem size for the sampled kernels:
//! the samples, their d-splines, and the selection rule as coloured bands
//! (after figures 2-5 of the paper).

use crate::expr::{Expr, ExprError, Value};
use crate::rule::Rule;
use crate::sampling::Curves;
use std::fmt::Write as _;

/// What the vertical axis shows.
#[derive(Debug, Clone)]
pub enum YAxis {
    /// Median time in milliseconds.
    Time,
    /// Time relative to the fastest predicted kernel at the same size (>= 1):
    /// crossings are easiest to see this way.
    Relative,
    /// Work per second: `work` is an expression in `N` (e.g. `2 * N * N` flops
    /// for SYMV), divided by the time and by `scale` (1e9 for GFLOP/s).
    Rate {
        work: Expr,
        scale: f64,
        unit: String,
    },
}

impl YAxis {
    /// A rate axis from a work formula in `N`.
    pub fn rate(work: &str, scale: f64, unit: &str) -> Result<YAxis, ExprError> {
        let e = Expr::parse(work)?;
        if let Some(n) = e.names().into_iter().find(|n| *n != "N") {
            return Err(ExprError {
                offset: 0,
                message: format!("the work formula may only use `N`, not `{n}`"),
            });
        }
        Ok(YAxis::Rate {
            work: e,
            scale,
            unit: unit.to_string(),
        })
    }

    fn label(&self) -> String {
        match self {
            YAxis::Time => "time [ms]".into(),
            YAxis::Relative => "time / fastest".into(),
            YAxis::Rate { unit, .. } => unit.clone(),
        }
    }
}

/// Plot settings.
#[derive(Debug, Clone)]
pub struct PlotOptions {
    pub title: String,
    pub width: u32,
    pub height: u32,
    pub y: YAxis,
}

impl Default for PlotOptions {
    fn default() -> Self {
        PlotOptions {
            title: String::new(),
            width: 960,
            height: 560,
            y: YAxis::Relative,
        }
    }
}

const PALETTE: [&str; 12] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#637939",
];

fn colour(k: usize) -> &'static str {
    PALETTE[k % PALETTE.len()]
}

/// Escapes text for SVG and HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The round step (1, 2 or 5 times a power of ten) nearest above `raw`, for
/// axis ticks.
pub fn round_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// Tick positions: about `want` round numbers covering `[lo, hi]`.
fn ticks(lo: f64, hi: f64, want: usize) -> Vec<f64> {
    if hi.is_nan() || lo.is_nan() || hi <= lo {
        return vec![lo];
    }
    let step = round_step((hi - lo) / want.max(1) as f64);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 {
        out.push(t);
        t += step;
    }
    out
}

fn fmt_tick(v: f64) -> String {
    if v.abs() >= 1e6 || (v != 0.0 && v.abs() < 1e-2) {
        format!("{v:.1e}")
    } else if v.fract().abs() < 1e-9 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// Draws the kernels' samples and fitted curves and the rule's intervals.
pub fn render_svg(curves: &Curves, rule: &Rule, opts: &PlotOptions) -> String {
    let grid = curves.grid;
    let preds = curves.predictions();
    let m = grid.len();
    // Thin the grid to at most ~800 points per curve.
    let stride = (m / 800).max(1);
    let idx: Vec<usize> = (0..m)
        .step_by(stride)
        .chain(std::iter::once(m - 1))
        .collect();
    let best_at = |i: usize| {
        preds
            .iter()
            .map(|c| c[i])
            .filter(|v| v.is_finite())
            .fold(f64::INFINITY, f64::min)
    };
    let y_of = |n: u64, log_t: f64, best: f64| -> f64 {
        match &opts.y {
            YAxis::Time => log_t.exp() * 1e3,
            YAxis::Relative => (log_t - best).exp(),
            YAxis::Rate { work, scale, .. } => {
                let w = work
                    .eval(&|name| (name == "N").then_some(Value::Int(n as i64)))
                    .ok()
                    .and_then(|v| match v {
                        Value::Int(x) => Some(x as f64),
                        Value::Str(_) => None,
                    })
                    .unwrap_or(f64::NAN);
                w / log_t.exp() / scale
            }
        }
    };
    // Curve and sample values, for the vertical range.
    let mut lines: Vec<Vec<(f64, f64)>> = Vec::new();
    for c in &preds {
        let pts: Vec<(f64, f64)> = idx
            .iter()
            .filter(|&&i| c[i].is_finite())
            .map(|&i| {
                let n = grid.point(i);
                (n as f64, y_of(n, c[i], best_at(i)))
            })
            .filter(|p| p.1.is_finite())
            .collect();
        lines.push(pts);
    }
    let mut dots: Vec<Vec<(f64, f64)>> = Vec::new();
    for s in &curves.samples {
        let pts = s
            .iter()
            .map(|&(n, lt)| {
                let best = grid.index_of(n).map(best_at).unwrap_or(lt);
                (
                    n as f64,
                    y_of(n, lt, if best.is_finite() { best } else { lt }),
                )
            })
            .filter(|p| p.1.is_finite())
            .collect();
        dots.push(pts);
    }
    let ys: Vec<f64> = lines.iter().chain(&dots).flatten().map(|p| p.1).collect();
    let (mut ylo, mut yhi) = ys
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &y| {
            (a.min(y), b.max(y))
        });
    if !ylo.is_finite() {
        (ylo, yhi) = (0.0, 1.0);
    }
    if matches!(opts.y, YAxis::Rate { .. }) {
        ylo = 0.0;
    }
    if let YAxis::Relative = opts.y {
        // Far-off kernels would flatten the interesting part near 1.
        yhi = yhi.min(1.5);
        ylo = ylo.min(1.0);
    }
    if yhi <= ylo {
        yhi = ylo + 1.0;
    }
    let pad = (yhi - ylo) * 0.05;
    let (ylo, yhi) = (if ylo == 0.0 { 0.0 } else { ylo - pad }, yhi + pad);

    let (w, h) = (opts.width as f64, opts.height as f64);
    let (left, right, top, bottom) = (70.0, 250.0, 40.0, 70.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let (xlo, xhi) = (grid.lo as f64, grid.hi as f64);
    let sx = |x: f64| left + (x - xlo) / (xhi - xlo).max(1.0) * pw;
    let sy = |y: f64| top + ph - (y.clamp(ylo, yhi) - ylo) / (yhi - ylo) * ph;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    if !opts.title.is_empty() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="24" font-size="16" text-anchor="middle">{}</text>"#,
            left + pw / 2.0,
            escape(&opts.title)
        );
    }
    // Rule bands: a light wash over the plot and a solid strip under it.
    let _ = writeln!(s, r#"<g class="rule">"#);
    for iv in &rule.intervals {
        let x0 = sx((iv.start as f64).max(xlo));
        let x1 = sx(iv.end.map_or(xhi, |e| (e as f64).min(xhi)));
        if x1 <= x0 {
            continue;
        }
        let c = colour(iv.kernel);
        let label = escape(&rule.kernels[iv.kernel].label);
        let _ = writeln!(
            s,
            r#"<rect class="band" x="{x0:.2}" y="{top}" width="{:.2}" height="{ph}" fill="{c}" fill-opacity="0.08"><title>{label}</title></rect>"#,
            x1 - x0
        );
        let _ = writeln!(
            s,
            r#"<rect class="strip" x="{x0:.2}" y="{:.2}" width="{:.2}" height="10" fill="{c}"><title>{label}</title></rect>"#,
            top + ph + 2.0,
            x1 - x0
        );
    }
    let _ = writeln!(s, "</g>");
    // Axes and ticks.
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
    );
    for t in ticks(xlo, xhi, 8) {
        let x = sx(t);
        let _ = writeln!(
            s,
            r#"<line x1="{x:.2}" y1="{}" x2="{x:.2}" y2="{}" stroke="black"/><text x="{x:.2}" y="{}" text-anchor="middle">{}</text>"#,
            top + ph,
            top + ph + 16.0,
            top + ph + 30.0,
            fmt_tick(t)
        );
    }
    for t in ticks(ylo, yhi, 6) {
        let y = sy(t);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.2}" x2="{}" y2="{y:.2}" stroke="#dddddd"/><text x="{}" y="{:.2}" text-anchor="end">{}</text>"##,
            left + pw,
            left - 6.0,
            y + 4.0,
            fmt_tick(t)
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">N</text>"#,
        left + pw / 2.0,
        h - 18.0
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(18 {}) rotate(-90)" text-anchor="middle">{}</text>"#,
        top + ph / 2.0,
        escape(&opts.y.label())
    );
    // Curves, then samples on top.
    for (k, pts) in lines.iter().enumerate() {
        if pts.is_empty() {
            continue;
        }
        let path: Vec<String> = pts
            .iter()
            .map(|&(x, y)| format!("{:.2},{:.2}", sx(x), sy(y)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline class="spline" fill="none" stroke="{}" stroke-width="1.5" points="{}"/>"#,
            colour(k),
            path.join(" ")
        );
    }
    for (k, pts) in dots.iter().enumerate() {
        for &(x, y) in pts {
            let _ = writeln!(
                s,
                r#"<circle class="sample" cx="{:.2}" cy="{:.2}" r="2.5" fill="{}"/>"#,
                sx(x),
                sy(y),
                colour(k)
            );
        }
    }
    // Legend.
    for (k, kern) in curves.kernels.iter().enumerate() {
        let y = top + 8.0 + k as f64 * 18.0;
        let x = left + pw + 14.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{}" width="12" height="12" fill="{}"/><text x="{}" y="{}"><title>{}</title>{}</text>"#,
            y - 10.0,
            colour(k),
            x + 18.0,
            y,
            escape(&kern.config.key()),
            escape(&kern.label)
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// Windows equal on a log scale when the range spans more than three
/// decades (a linear axis then squeezes the small sizes into one pixel).
pub fn zoom_windows(lo: u64, hi: u64) -> Vec<(u64, u64)> {
    let (a, b) = (lo.max(1) as f64, hi as f64);
    if b / a < 1e3 {
        return Vec::new();
    }
    let parts = ((b / a).log10() / 2.0).ceil().clamp(2.0, 5.0) as usize;
    (0..parts)
        .map(|i| {
            let at = |t: f64| (a.ln() + t * (b.ln() - a.ln())).exp().round() as u64;
            (
                at(i as f64 / parts as f64),
                at((i + 1) as f64 / parts as f64),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::dspline::Grid;
    use crate::rule::RuleKernel;

    fn setup() -> (Curves, Rule) {
        let grid = Grid::integers(100, 2000);
        let kernels: Vec<RuleKernel> = (0..2)
            .map(|k| RuleKernel {
                label: format!("Rank <{k}>"),
                config: Config::parse_key(&format!("K={k}")).unwrap(),
            })
            .collect();
        let mut c = Curves::new(grid, kernels);
        for n in [100u64, 500, 1000, 1500, 2000] {
            let x = n as f64;
            c.samples[0].push((n, (1e-6 * x + 1e-10 * x * x).ln()));
            c.samples[1].push((n, (2e-4 + 0.5e-6 * x + 1e-10 * x * x).ln()));
        }
        c.fit(grid, Some(1.0), false);
        let rule = c.rule("t", 0.0).unwrap();
        (c, rule)
    }

    fn count(s: &str, pat: &str) -> usize {
        s.matches(pat).count()
    }

    #[test]
    fn svg_has_curves_samples_and_bands() {
        let (curves, rule) = setup();
        assert_eq!(rule.intervals.len(), 2, "{}", rule.to_table());
        let svg = render_svg(
            &curves,
            &rule,
            &PlotOptions {
                title: "SYMV & co".into(),
                ..Default::default()
            },
        );
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(count(&svg, "class=\"spline\""), 2);
        assert_eq!(count(&svg, "class=\"sample\""), 10);
        assert_eq!(count(&svg, "class=\"band\""), 2);
        assert_eq!(count(&svg, "class=\"strip\""), 2);
        // Text is escaped.
        assert!(svg.contains("SYMV &amp; co") && svg.contains("Rank &lt;0&gt;"));
        assert!(!svg.contains("Rank <0>"));
        // Every opened group closes, and all coordinates stay inside the image.
        assert_eq!(count(&svg, "<g "), count(&svg, "</g>"));
        for part in svg.split(" cx=\"").skip(1) {
            let x: f64 = part.split('"').next().unwrap().parse().unwrap();
            assert!((0.0..=960.0).contains(&x));
        }
        // The band boundary sits where the rule switches.
        let x_switch = 70.0 + (rule.intervals[1].start as f64 - 100.0) / 1900.0 * (960.0 - 320.0);
        assert!(svg.contains(&format!("x=\"{x_switch:.2}\"")), "{x_switch}");
    }

    #[test]
    fn rate_axis_uses_the_work_formula() {
        let (curves, rule) = setup();
        let y = YAxis::rate("2 * N * N", 1e9, "GFLOP/s").unwrap();
        let svg = render_svg(
            &curves,
            &rule,
            &PlotOptions {
                y,
                ..Default::default()
            },
        );
        assert!(svg.contains(">GFLOP/s<"));
        assert!(YAxis::rate("2 * M", 1.0, "x").is_err());
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(fmt_tick(2500.0), "2500");
        assert_eq!(fmt_tick(10_000.0), "10000");
        assert_eq!(fmt_tick(2e6), "2.0e6");
        assert_eq!(fmt_tick(0.25), "0.25");
    }

    #[test]
    fn zoom_windows_split_wide_ranges_evenly_in_log() {
        assert!(zoom_windows(100, 10_000).is_empty());
        let w = zoom_windows(1 << 10, 1 << 28);
        assert_eq!(w.len(), 3);
        assert_eq!(w[0].0, 1 << 10);
        assert_eq!(w[2].1, 1 << 28);
        assert_eq!(w[0].1, 1 << 16);
        assert_eq!(w[1], (1 << 16, 1 << 22));
    }
}
