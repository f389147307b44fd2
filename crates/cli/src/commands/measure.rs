//! `hone analyze --measure`: the analysed kernel and each verified fix timed
//! on the GPU, on the same inputs, with their outputs compared there.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use hone_analyzer::patterns::verify::relay;
use hone_analyzer::patterns::Layout;
use hone_analyzer::Analysis;
use hone_emulator::Buffer;
use hone_gpu::ir_kernel::IrKernel;
use hone_gpu::{Gpu, Stats};
use hone_launch::{difference, Launch};
use serde::Serialize;

use crate::commands::gpurun::with_symbols;
use crate::commands::parse_launch;

/// One kernel timed.
#[derive(Clone, Debug, Serialize)]
pub struct Timed {
    /// `original`, or the fix's catalogue entry.
    pub pattern: String,
    pub title: String,
    pub median_ms: f64,
    pub q1_ms: f64,
    pub q3_ms: f64,
    pub runs: usize,
    /// The original's median over this one's.
    pub speedup: f64,
    /// Whole-kernel sectors plus wavefronts the analysis predicted before
    /// and after the fix, at the analysed launch's size.
    pub predicted_before: u64,
    pub predicted_after: u64,
    /// Buffers whose contents differ from the original's on the GPU (after
    /// the fix's change of layout), both compiled without contracting
    /// multiplies and adds into FMAs, so that every operation rounds once
    /// as the source says.
    pub differing_buffers: Vec<String>,
    /// Buffers that agree so compiled but differ as timed: the compiler
    /// fused other multiply-adds in the two kernels (a legal choice that
    /// changes the last bits), with the largest relative difference.
    pub rounding_differs: Vec<String>,
    pub rounding_max_rel: f64,
}

/// A fix that was not timed, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    pub pattern: String,
    pub title: String,
    pub reason: String,
}

/// What `--measure` found.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    pub device: String,
    pub launch: String,
    pub kernels: Vec<Timed>,
    pub skipped: Vec<Skipped>,
}

fn traffic(c: &hone_analyzer::Cost) -> u64 {
    c.sectors + c.wavefronts
}

/// Times the original and every verified fix of `analysis` on the GPU, with
/// the inputs of `launch_path` (the analysed launch, or a larger one of the
/// same kernel: `analysed` is false).
pub fn measure(
    analysis: &Analysis,
    launch_path: &Path,
    analysed: bool,
    source: Option<&Path>,
    reps: u32,
    max_memory: u64,
) -> Result<Measurement> {
    let mut launch = Launch::read(launch_path)?;
    if let Some(src) = source {
        launch.source_path = src.to_path_buf();
    }
    let parsed = parse_launch(&launch)?;
    let kernel = launch.kernel(&parsed)?;
    if kernel.name != analysis.kernel {
        bail!(
            "{}: launches `{}`, but the analysed kernel is `{}`",
            launch_path.display(),
            kernel.name,
            analysis.kernel
        );
    }
    let data = launch.data_within(kernel, max_memory)?;
    let gpu = Gpu::open(0).map_err(|e| anyhow!("--measure: {e}"))?;
    let label = launch_path.display().to_string();
    // `exact`: compiled with --fmad=false and launched once, for the
    // comparison; otherwise compiled as a user would and timed.
    let launch_once = |module: &hone_ir::Module,
                       buffers: &mut Vec<Buffer>,
                       stem: &str,
                       exact: bool|
     -> Result<Option<Stats>> {
        let (_, f) = module
            .kernel(&analysis.kernel)
            .with_context(|| format!("{stem}: no kernel `{}`", analysis.kernel))?;
        let mut k = with_symbols(
            IrKernel::new(&label, module, f, &data.config, &data.args, buffers)?,
            &data,
            module,
        )?;
        if exact {
            k.options.extra.push("--fmad=false".into());
        }
        Ok(k.run(&gpu, buffers, stem, None, (!exact).then_some(reps))?)
    };
    let run = |module: &hone_ir::Module, buffers: &mut Vec<Buffer>, stem: &str| -> Result<Stats> {
        launch_once(module, buffers, stem, false)?.with_context(|| format!("{stem}: no timing"))
    };
    let mut original = data.buffers.clone();
    let base = run(&parsed.module, &mut original, "original")?;
    let mut original_exact = data.buffers.clone();
    launch_once(&parsed.module, &mut original_exact, "original", true)?;
    let mut kernels = vec![Timed {
        pattern: "original".into(),
        title: "the kernel as written".into(),
        median_ms: base.median,
        q1_ms: base.q1,
        q3_ms: base.q3,
        runs: base.count,
        speedup: 1.0,
        predicted_before: 0,
        predicted_after: 0,
        differing_buffers: Vec::new(),
        rounding_differs: Vec::new(),
        rounding_max_rel: 0.0,
    }];
    let mut seen = BTreeSet::new();
    let mut skipped = Vec::new();
    for site in &analysis.sites {
        for s in &site.suggestions {
            if !seen.insert(s.source.clone()) {
                continue;
            }
            if !analysed && !s.layout_changes.is_empty() {
                // The layout it states was worked out for the analysed
                // launch's sizes; another launch may need another one.
                skipped.push(Skipped {
                    pattern: s.pattern.into(),
                    title: s.title.clone(),
                    reason: "its change of data layout is stated for the analysed launch's sizes; analyse a launch of this size to time it".into(),
                });
                continue;
            }
            let name = format!("{}.{}.cu", analysis.kernel, s.pattern);
            let fixed = hone_frontend::parse_source(&name, &s.module_source, &Default::default())
                .map_err(|e| anyhow!("{name}: {e}"))?
                .module;
            let layouts: Vec<(usize, Layout)> = s
                .layout_changes
                .iter()
                .filter_map(|c| {
                    let i = data.buffers.iter().position(|b| b.name == c.array)?;
                    Some((i, c.layout))
                })
                .collect();
            let mut buffers = relay(&data.buffers, &layouts);
            let t = run(&fixed, &mut buffers, s.pattern)?;
            let mut exact = relay(&data.buffers, &layouts);
            launch_once(&fixed, &mut exact, s.pattern, true)?;
            // The original's results in the fix's layout.
            let want = relay(&original, &layouts);
            let want_exact = relay(&original_exact, &layouts);
            let mut differing_buffers = Vec::new();
            let mut rounding_differs = Vec::new();
            let mut rounding_max_rel: f64 = 0.0;
            for (i, b) in exact.iter().enumerate() {
                if difference(b, &want_exact[i].data).differing > 0 {
                    differing_buffers.push(b.name.clone());
                    continue;
                }
                let d = difference(&buffers[i], &want[i].data);
                if d.differing == 0 {
                    continue;
                }
                if rounding_only(b.component(), d.max_rel) {
                    rounding_differs.push(b.name.clone());
                    rounding_max_rel = rounding_max_rel.max(d.max_rel);
                } else {
                    differing_buffers.push(b.name.clone());
                }
            }
            kernels.push(Timed {
                pattern: s.pattern.into(),
                title: s.title.clone(),
                median_ms: t.median,
                q1_ms: t.q1,
                q3_ms: t.q3,
                runs: t.count,
                speedup: base.median / t.median,
                predicted_before: traffic(&s.kernel_before),
                predicted_after: traffic(&s.kernel_after),
                differing_buffers,
                rounding_differs,
                rounding_max_rel,
            });
        }
    }
    Ok(Measurement {
        device: gpu.props().name.clone(),
        launch: label,
        kernels,
        skipped,
    })
}

/// Whether builds that agree without FMA contraction but differ with it,
/// by at most `max_rel`, differ as contraction can make them: in floating
/// point, by a few roundings. Integers, infinities, NaNs and larger
/// differences (a race, memory read before it is written) are not rounding.
fn rounding_only(component: hone_ir::Scalar, max_rel: f64) -> bool {
    let bound = match component {
        hone_ir::Scalar::F32 => 1e-5,
        hone_ir::Scalar::F64 => 1e-12,
        _ => return false,
    };
    max_rel.is_finite() && max_rel <= bound
}

/// The measurement as the human report's closing section.
pub fn human(m: &Measurement) -> String {
    let mut o = format!(
        "\nmeasured on {} with {} (median of the timed runs, L2 flushed before each):\n",
        m.device, m.launch
    );
    for k in &m.kernels {
        let outputs = if k.pattern == "original" {
            String::new()
        } else if k.differing_buffers.is_empty() && k.rounding_differs.is_empty() {
            ", same outputs as the original on the GPU".to_string()
        } else if k.differing_buffers.is_empty() {
            format!(
                ", same outputs as the original on the GPU when both are compiled without FMA \
                 contraction; as timed, {} differ in rounding only (the compiler fused other \
                 multiply-adds; largest relative difference {:.1e})",
                k.rounding_differs.join(", "),
                k.rounding_max_rel
            )
        } else {
            let mut text = format!(
                ", OUTPUTS DIFFER from the original's: {}",
                k.differing_buffers.join(", ")
            );
            if !k.rounding_differs.is_empty() {
                text.push_str(&format!(
                    " ({} differ in rounding only, largest relative difference {:.1e})",
                    k.rounding_differs.join(", "),
                    k.rounding_max_rel
                ));
            }
            text
        };
        let predicted = if k.pattern == "original" {
            String::new()
        } else {
            format!(
                " (predicted traffic {} -> {} sectors and wavefronts, {:.2}x less)",
                k.predicted_before,
                k.predicted_after,
                k.predicted_before as f64 / k.predicted_after.max(1) as f64
            )
        };
        o.push_str(&format!(
            "  {:<20} {:.4} ms (q1 {:.4}, q3 {:.4}; {} runs), speedup {:.2}x{predicted}{outputs}\n",
            k.pattern, k.median_ms, k.q1_ms, k.q3_ms, k.runs, k.speedup
        ));
    }
    for k in &m.skipped {
        o.push_str(&format!("  {:<20} not timed: {}\n", k.pattern, k.reason));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(pattern: &str, differing: &[&str], rounding: &[&str]) -> Timed {
        Timed {
            pattern: pattern.into(),
            title: String::new(),
            median_ms: 1.0,
            q1_ms: 1.0,
            q3_ms: 1.0,
            runs: 5,
            speedup: 1.0,
            predicted_before: 8,
            predicted_after: 4,
            differing_buffers: differing.iter().map(|s| s.to_string()).collect(),
            rounding_differs: rounding.iter().map(|s| s.to_string()).collect(),
            rounding_max_rel: 1.2e-7,
        }
    }

    #[test]
    fn outputs_that_differ_only_by_fused_multiply_adds_are_told_apart_from_wrong_ones() {
        let m = Measurement {
            device: "GPU".into(),
            launch: "l.json".into(),
            kernels: vec![
                timed("original", &[], &[]),
                timed("same", &[], &[]),
                timed("rounding", &[], &["e"]),
                timed("wrong", &["e"], &[]),
            ],
            skipped: Vec::new(),
        };
        let text = human(&m);
        let line = |p: &str| {
            text.lines()
                .find(|l| l.trim_start().starts_with(p))
                .unwrap()
                .to_string()
        };
        assert!(line("same").ends_with("same outputs as the original on the GPU"));
        let r = line("rounding");
        assert!(
            r.contains("without FMA contraction") && r.contains("e differ in rounding only"),
            "{r}"
        );
        assert!(r.contains("1.2e-7"), "{r}");
        assert!(!r.contains("DIFFER"), "{r}");
        assert!(line("wrong").ends_with("OUTPUTS DIFFER from the original's: e"));
    }

    #[test]
    fn only_small_finite_float_differences_count_as_rounding() {
        use hone_ir::Scalar;
        assert!(rounding_only(Scalar::F32, 1.2e-7));
        assert!(rounding_only(Scalar::F64, 2e-16));
        assert!(!rounding_only(Scalar::F32, 1e-3));
        assert!(!rounding_only(Scalar::F64, 1e-9));
        assert!(!rounding_only(Scalar::F32, f64::INFINITY));
        assert!(!rounding_only(Scalar::F32, f64::NAN));
        assert!(!rounding_only(Scalar::I32, 0.0));
        let mut both = timed("both", &["out"], &["e"]);
        both.rounding_max_rel = 3e-7;
        let text = human(&Measurement {
            device: "GPU".into(),
            launch: "l.json".into(),
            kernels: vec![both],
            skipped: Vec::new(),
        });
        assert!(
            text.contains("OUTPUTS DIFFER from the original's: out (e differ in rounding only"),
            "{text}"
        );
    }
}
