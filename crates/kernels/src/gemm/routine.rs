//! GEMM as a library routine: variants `sgemm_nn` ... `sgemm_3xtf32_tt`
//! (one rule per flavor and layout), problems `m n k` with packed leading
//! dimensions, the rules' kernel checked and timed against cuBLAS `?gemm`
//! on the same buffers.

use std::path::Path;

use hone_gpu::{Gpu, ModuleCache};

use super::device::{GemmRunner, Timed};
use super::library::{GemmRules, Retuned};
use super::reference::CheckReport;
use super::{Flavor, GemmProblem, Layout};
use crate::routine::problem::{reject_unknown, size_word};
use crate::routine::{
    Comparison, DefaultSizes, DimHelp, LaunchInfo, LibError, MeasureOptions, Problem, Result, Roof,
    Routine, Row, Selection, Session, WorkUnit,
};
use crate::vendor::cublas::{Cublas, DefaultStreamTimer};

/// The routine's description; see [`Routine`].
pub struct GemmRoutine;

const MAX_DIM: u64 = i32::MAX as u64;

/// The library problem of a GEMM problem.
pub fn problem_of(p: &GemmProblem) -> Problem {
    Problem::new(
        p.flavor.variant(p.layout),
        vec![
            ("m", p.m as u64),
            ("n", p.n as u64),
            ("k", p.k as u64),
            ("lda", p.lda as u64),
            ("ldb", p.ldb as u64),
            ("ldc", p.ldc as u64),
        ],
        // The rules run along square problems; others are placed by their
        // geometric mean, the cube root of the work.
        (p.m as f64 * p.n as f64 * p.k as f64).cbrt().round() as u64,
    )
}

/// The GEMM problem of a library problem.
pub fn gemm_of(p: &Problem) -> Result<GemmProblem> {
    let (flavor, layout) = Flavor::parse_variant(&p.variant).ok_or_else(|| {
        LibError::Usage(format!(
            "unknown GEMM variant `{}` (expected one of {})",
            p.variant,
            Flavor::all_variants().join(", ")
        ))
    })?;
    let dim = |name: &str| {
        p.dim(name)
            .map(|v| v as usize)
            .ok_or_else(|| LibError::Usage(format!("{p}: no {name}")))
    };
    let g = GemmProblem {
        flavor,
        layout,
        m: dim("m")?,
        n: dim("n")?,
        k: dim("k")?,
        lda: dim("lda")?,
        ldb: dim("ldb")?,
        ldc: dim("ldc")?,
    };
    g.validate().map_err(LibError::Usage)?;
    Ok(g)
}

impl Routine for GemmRoutine {
    /// The runner checks hone's kernel and the vendor's on the same operands.
    fn checks_share_inputs(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "gemm"
    }

    fn about(&self) -> &'static str {
        "C = alpha op(A) op(B) + beta C, column-major (sgemm: FP32 FMA; dgemm: FP64 tensor cores; \
         sgemm_3xtf32: FP32 accuracy on TF32 tensor cores; ddgemm, ddgemm_split: double-double \
         on the FP64 cores)"
    }

    fn variants(&self) -> Vec<String> {
        Flavor::all_variants()
    }

    /// The variants with rules of their own on every GPU (an H200's extra
    /// SGEMM layouts are benchmarked by naming them).
    fn default_variants(&self) -> Vec<String> {
        GemmRules::bundled().variants()
    }

    fn retune_files(&self) -> Vec<(&'static str, &'static str)> {
        super::tuning::retune_files()
    }

    fn merges_retuned_rules(&self) -> bool {
        true
    }

    /// A CPU reference product at N = 4096 takes longer than timing all of
    /// a sieve's kernels there: every kernel is checked at N = 256 and 1024
    /// (beta = 0 and beta != 0), and the larger sizes timed
    /// on device-filled inputs.
    fn retune_check_max(&self) -> Option<u64> {
        Some(1024)
    }

    fn built_in_notice(&self, device_name: &str) -> Option<String> {
        notice(device_name, &GemmRules::for_device(device_name).1)
    }

    fn dims(&self) -> &'static [DimHelp] {
        &[
            DimHelp {
                name: "m",
                help: "rows of C (required; n and k default to it)",
            },
            DimHelp {
                name: "n",
                help: "columns of C",
            },
            DimHelp {
                name: "k",
                help: "the inner dimension",
            },
            DimHelp {
                name: "routine",
                help: "sgemm (default), dgemm, sgemm_3xtf32, ddgemm (interleaved hi, lo) or ddgemm_split (hi plane, lo plane)",
            },
            DimHelp {
                name: "layout",
                help: "op(A) op(B): NN (default), NT, TN or TT",
            },
        ]
    }

    fn problem(&self, words: &[(String, String)]) -> Result<Problem> {
        reject_unknown(words, &["m", "n", "k", "routine", "layout"])?;
        let word = |k: &str| words.iter().find(|(w, _)| w == k).map(|(_, v)| v.as_str());
        let flavor = match word("routine") {
            Some(f) => f.parse::<Flavor>().map_err(LibError::Usage)?,
            None => Flavor::Sgemm,
        };
        let layout = match word("layout") {
            Some(l) => l.parse::<Layout>().map_err(LibError::Usage)?,
            None => Layout::ALL[0],
        };
        let m = size_word(words, "m", MAX_DIM)?
            .ok_or_else(|| LibError::Usage("GEMM needs m=M (n and k default to m)".into()))?;
        let n = size_word(words, "n", MAX_DIM)?.unwrap_or(m);
        let k = size_word(words, "k", MAX_DIM)?.unwrap_or(m);
        let g = GemmProblem::packed(flavor, layout, m as usize, n as usize, k as usize);
        g.validate().map_err(LibError::Usage)?;
        Ok(problem_of(&g))
    }

    fn family_problem(&self, variant: &str, size: u64) -> Result<Problem> {
        let (flavor, layout) = Flavor::parse_variant(variant)
            .ok_or_else(|| LibError::Usage(format!("unknown GEMM variant `{variant}`")))?;
        let s = size as usize;
        let g = GemmProblem::padded(flavor, layout, s, s, s, super::LD_MULTIPLE);
        g.validate().map_err(LibError::Usage)?;
        Ok(problem_of(&g))
    }

    fn size_axis(&self) -> &'static str {
        "N (square, M = N = K)"
    }

    /// What GEMM users bring besides squares: tall-skinny C (a panel
    /// update), a rank-256 update of a large C, and products of thin panels
    /// with K much longer than M and N (the library splits their K).
    fn other_shapes(&self, variant: &str) -> Vec<Problem> {
        // Double-double GEMM's benchmark is `hone ddgemm`'s, on squares.
        let Some((flavor, layout)) = Flavor::parse_variant(variant).filter(|(f, _)| !f.is_dd())
        else {
            return Vec::new();
        };
        [
            (8192, 128, 8192),
            (128, 8192, 8192),
            (4096, 4096, 256),
            (256, 256, 16384),
            (128, 128, 65536),
        ]
        .into_iter()
        .map(|(m, n, k)| {
            problem_of(&GemmProblem::padded(
                flavor,
                layout,
                m,
                n,
                k,
                super::LD_MULTIPLE,
            ))
        })
        .collect()
    }

    fn default_sizes(&self) -> DefaultSizes {
        DefaultSizes {
            table: vec![256, 512, 1024, 2048, 4096, 8192, 16384],
            chart: (64, 16384),
        }
    }

    fn work_unit(&self) -> WorkUnit {
        WorkUnit::Flops
    }

    fn open<'g>(&self, gpu: &'g Gpu, rules_dir: Option<&Path>) -> Result<Box<dyn Session + 'g>> {
        let rules = match rules_dir {
            Some(d) => GemmRules::load_dir(d)?,
            None => GemmRules::for_device(&gpu.props().name).0,
        };
        Ok(Box::new(GemmSession {
            runner: GemmRunner::new(gpu, ModuleCache::open_default())?,
            timer: DefaultStreamTimer::new(gpu)?,
            cublas: Cublas::new(gpu)?,
            rules,
        }))
    }
}

struct GemmSession<'g> {
    runner: GemmRunner<'g>,
    cublas: Cublas,
    timer: DefaultStreamTimer,
    rules: GemmRules,
}

pub(super) fn fill_row(row: &mut Row, check: Option<&CheckReport>, timed: Option<&Timed>) {
    if let Some(c) = check {
        row.error = Some(c.max_error);
        row.bound = Some(c.bound);
    }
    if let Some(t) = timed {
        row.timed(WorkUnit::Flops, t.medians_ms());
        if let (Some(l), Some(registers)) = (t.launch, t.registers) {
            row.launch = Some(LaunchInfo {
                registers,
                local_bytes: t.local_bytes.unwrap_or(0),
                grid: l.grid,
                block: l.block,
                shared_mem: l.shared_mem,
            });
        }
    }
}

/// The rules' kernel for `g` (the runner's current problem, fitted to its
/// leading dimensions and pointers), checked then timed, as the row `name`.
pub(super) fn kernel_row(
    runner: &mut GemmRunner<'_>,
    rules: &GemmRules,
    g: &GemmProblem,
    problem: &Problem,
    name: &str,
    options: &MeasureOptions,
) -> Result<Row> {
    let kernel = runner.fitting(rules.kernel(g)?);
    let mut row = Row::new(problem, name, g.flops());
    row.kernel = kernel.label();
    match runner.check(&kernel)? {
        Err(why) => row.invalid(why),
        Ok(check) => match runner.time(&kernel, &options.timing, options.timed_runs)? {
            Ok(t) => fill_row(&mut row, Some(&check), Some(&t)),
            Err(why) => {
                fill_row(&mut row, Some(&check), None);
                row.invalid(why)
            }
        },
    }
    Ok(row)
}

/// cuBLAS on the runner's current problem, checked then timed, as the row
/// `name`.
pub(super) fn cublas_row(
    runner: &mut GemmRunner<'_>,
    cublas: &Cublas,
    timer: &mut DefaultStreamTimer,
    problem: &Problem,
    name: &str,
    options: &MeasureOptions,
) -> Result<Row> {
    let flops = problem_flops(problem);
    let mut vendor = Row::new(problem, name, flops);
    let check = runner.check_vendor(cublas)?;
    if check.passed() {
        let t = runner.time_vendor(cublas, timer, &options.timing, options.timed_runs)?;
        fill_row(&mut vendor, Some(&check), Some(&t));
    } else {
        fill_row(&mut vendor, Some(&check), None);
        vendor.invalid(format!("wrong result: {}", check.describe()));
    }
    Ok(vendor)
}

/// What the user hears once about whose rules GEMM runs on the GPU named
/// `device_name`, given what came from the folder of `hone retune gemm`
/// (`None`: every variant's rules were tuned on this model and all could be
/// read).
fn notice(device_name: &str, retuned: &Retuned) -> Option<String> {
    // Rules of the folder that could not be read: said on a line of their own.
    match (
        retuned.unreadable_notice(),
        notice_of_rules(device_name, retuned),
    ) {
        (Some(s), Some(n)) => Some(format!("{s}\n{n}")),
        (s, n) => s.or(n),
    }
}

/// Whose rules each GEMM variant runs (`None`: every variant's were tuned
/// on this model).
fn notice_of_rules(device_name: &str, retuned: &Retuned) -> Option<String> {
    let model = device_name.trim();
    let fallback = crate::routine::device_rules::BUILT_IN_GPU;
    let mut parts = Vec::new();
    if let Some(dir) = retuned
        .dir
        .as_ref()
        .filter(|_| !retuned.variants.is_empty())
    {
        if retuned.variants.len() == Flavor::all_variants().len() {
            return None;
        }
        parts.push(format!(
            "the rules `hone retune gemm` tuned on this GPU model for {} (in {})",
            retuned.variants.join(", "),
            dir.display()
        ));
    }
    let own: Vec<&str> = GemmRules::own_variants(device_name)
        .into_iter()
        .filter(|v| !retuned.variants.iter().any(|r| r == v))
        .collect();
    if !own.is_empty() {
        parts.push(format!(
            "built-in rules tuned on this GPU model ({model}) for {}",
            own.join(", ")
        ));
    }
    let on_fallback = crate::routine::device_rules::same_model(device_name, fallback);
    if parts.is_empty() {
        return (!on_fallback).then(|| {
            format!(
                "hone: gemm runs its built-in rules, tuned on the {fallback}, on this GPU \
                 ({model}); `hone retune gemm` tunes them here (--variants V,V for some), each \
                 variant's replacing its built-in rule"
            )
        });
    }
    if on_fallback {
        parts.push("the built-in ones for the other variants".to_string());
    } else {
        parts.push(format!(
            "those tuned on the {fallback} for the other variants (`hone retune gemm --variants \
             V,V` tunes them here)"
        ));
    }
    Some(format!("hone: gemm runs {}", join_list(&parts)))
}

/// `a`, `a and b`, `a, b and c`.
fn join_list(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// 2 m n k of a problem with those dimensions.
fn problem_flops(p: &Problem) -> f64 {
    let d = |n: &str| p.dim(n).unwrap_or(0) as f64;
    2.0 * d("m") * d("n") * d("k")
}

impl Session for GemmSession<'_> {
    fn tools(&self) -> String {
        format!(
            "cuBLAS {}",
            self.cublas
                .version()
                .map(|v| v.to_string())
                .unwrap_or_else(|e| e.to_string())
        )
    }

    fn rules_origin(&self) -> String {
        self.rules.origin().to_string()
    }

    /// The selection of the rule that answers for the problem's variant: its
    /// own, or its flavor's NN rule (as [`GemmRules::kernel`] picks).
    fn select(&self, problem: &Problem) -> Result<Selection> {
        let g = gemm_of(problem)?;
        let variant = self.rules.source_variant(g.flavor, g.layout)?;
        self.rules.set().select(&variant, problem.size)
    }

    fn compare(
        &mut self,
        problem: &Problem,
        options: &MeasureOptions,
        log: &mut dyn FnMut(&Row),
    ) -> Result<Comparison> {
        let g = gemm_of(problem)?;
        let selection = self.select(problem)?;
        self.runner.data(&g, &options.timing)?;
        let hone = kernel_row(&mut self.runner, &self.rules, &g, problem, "hone", options)?;
        log(&hone);
        let name = match g.flavor {
            Flavor::Dgemm => "cublas dgemm",
            Flavor::Sgemm | Flavor::Sgemm3xTf32 => "cublas sgemm",
            // No vendor library computes in double-double: the measured
            // instruction bound (`hone ddgemm`) is its yardstick instead.
            Flavor::Ddgemm | Flavor::DdgemmSplit => {
                return Ok(Comparison::new(problem, &selection, hone, Vec::new()))
            }
        };
        let vendor = cublas_row(
            &mut self.runner,
            &self.cublas,
            &mut self.timer,
            problem,
            name,
            options,
        )?;
        log(&vendor);
        Ok(Comparison::new(problem, &selection, hone, vec![vendor]))
    }

    fn roof(&mut self, _options: &MeasureOptions) -> Option<Roof> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routine::parse_words;

    #[test]
    fn the_notice_names_whose_rules_each_variant_runs() {
        use crate::routine::device_rules::BUILT_IN_GPU;
        // (`built_in_notice` reads the user's folder; none here)
        let none = Retuned::default();
        assert_eq!(notice(BUILT_IN_GPU, &none), None);
        let n = notice("NVIDIA H200", &none).unwrap();
        assert!(
            n.contains("sgemm_nn, sgemm_nt, sgemm_tn, sgemm_tt")
                && n.contains("dgemm_nn, dgemm_nt, dgemm_tn, dgemm_tt")
                && n.contains(BUILT_IN_GPU),
            "{n}"
        );
        let n = notice("NVIDIA A100-SXM4-80GB", &none).unwrap();
        assert!(
            n.contains("tuned on the") && n.contains(BUILT_IN_GPU),
            "{n}"
        );
        // with rules `hone retune gemm` tuned on this model
        let dir = std::path::PathBuf::from("/home/u/.cache/hone/rules/nvidia-h200/gemm");
        let retuned = Retuned {
            dir: Some(dir.clone()),
            variants: vec!["dgemm_nn".to_string(), "sgemm_nn".to_string()],
            unreadable: None,
        };
        let n = notice("NVIDIA H200", &retuned).unwrap();
        assert!(
            n.contains("retune gemm` tuned on this GPU model for dgemm_nn, sgemm_nn (in /home/u")
                && n.contains("(NVIDIA H200) for sgemm_nt, sgemm_tn, sgemm_tt, dgemm_nt, dgemm_tn, dgemm_tt, sgemm_3xtf32_nn")
                && n.contains(BUILT_IN_GPU),
            "{n}"
        );
        let n = notice(BUILT_IN_GPU, &retuned).unwrap();
        assert!(
            n.contains("for dgemm_nn, sgemm_nn")
                && n.ends_with("the built-in ones for the other variants"),
            "{n}"
        );
        let n = notice("NVIDIA A100-SXM4-80GB", &Retuned::default()).unwrap();
        assert!(n.contains("`hone retune gemm` tunes them here"), "{n}");
        // a damaged file: said on a line of its own, the rest as without it
        let unreadable = Retuned {
            dir: Some(dir.clone()),
            variants: Vec::new(),
            unreadable: Some("dgemm_nn.json: bad".to_string()),
        };
        let n = notice(BUILT_IN_GPU, &unreadable).unwrap();
        assert_eq!(
            n,
            "hone: some gemm rules in /home/u/.cache/hone/rules/nvidia-h200/gemm cannot be used \
             and were left out (dgemm_nn.json: bad)"
        );
        let partly = Retuned {
            variants: vec!["sgemm_nn".into()],
            ..unreadable
        };
        let n = notice("NVIDIA H200", &partly).unwrap();
        let lines: Vec<&str> = n.lines().collect();
        assert_eq!(lines.len(), 2, "{n}");
        assert!(lines[0].ends_with("(dgemm_nn.json: bad)"), "{n}");
        assert!(
            lines[1].starts_with("hone: gemm runs the rules `hone retune gemm`"),
            "{n}"
        );
        let all = Retuned {
            variants: Flavor::all_variants(),
            ..retuned
        };
        assert_eq!(notice("NVIDIA A100-SXM4-80GB", &all), None);
        let defaults = GemmRoutine.default_variants();
        assert!(
            defaults.contains(&"sgemm_nn".to_string())
                && !defaults.contains(&"sgemm_tt".to_string())
                && defaults.contains(&"dgemm_tt".to_string())
        );
    }

    #[test]
    fn other_shapes_cover_tall_skinny_and_long_k_problems_of_the_variant() {
        let shapes = GemmRoutine.other_shapes("dgemm_tn");
        assert_eq!(shapes.len(), 5);
        for p in &shapes {
            assert_eq!(p.variant, "dgemm_tn");
            gemm_of(p).unwrap();
        }
        let g: Vec<(usize, usize, usize)> = shapes
            .iter()
            .map(|p| gemm_of(p).map(|g| (g.m, g.n, g.k)).unwrap())
            .collect();
        assert!(g.contains(&(8192, 128, 8192)) && g.contains(&(256, 256, 16384)));
        assert!(GemmRoutine.other_shapes("zgemm_nn").is_empty());
        assert!(GemmRoutine.other_shapes("ddgemm_nn").is_empty());
    }

    #[test]
    fn problems_default_to_square_packed_sgemm_nn() {
        let r = GemmRoutine;
        let p = r.problem(&parse_words(&["m=100"]).unwrap()).unwrap();
        assert_eq!(p.variant, "sgemm_nn");
        assert_eq!(p.key(), "m=100 n=100 k=100 lda=100 ldb=100 ldc=100");
        assert_eq!(p.size, 100);
        let p = r
            .problem(
                &parse_words(&["m=64", "n=32", "k=4096", "routine=dgemm", "layout=tn"]).unwrap(),
            )
            .unwrap();
        assert_eq!(p.variant, "dgemm_tn");
        assert_eq!(p.key(), "m=64 n=32 k=4096 lda=4096 ldb=4096 ldc=64");
        let g = gemm_of(&p).unwrap();
        assert_eq!((g.m, g.n, g.k), (64, 32, 4096));
        assert_eq!(problem_of(&g), p);
        for (words, msg) in [
            (vec!["n=3"], "needs m=M"),
            (vec!["m=3", "layout=XY"], "unknown layout"),
            (vec!["m=3", "routine=zgemm"], "unknown GEMM"),
            (vec!["m=3", "uplo=lower"], "unknown key `uplo`"),
            (vec!["m=65536", "k=65536"], "2^31"),
        ] {
            let e = r.problem(&parse_words(&words).unwrap()).unwrap_err();
            assert!(e.to_string().contains(msg), "{words:?}: {e}");
        }
    }

    #[test]
    fn families_are_square() {
        let r = GemmRoutine;
        for v in r.variants() {
            let p = r.family_problem(&v, 512).unwrap();
            let g = gemm_of(&p).unwrap();
            assert_eq!((g.m, g.n, g.k, p.size), (512, 512, 512, 512));
            assert_eq!(g.lda % super::super::LD_MULTIPLE, 0);
        }
        assert!(r.family_problem("sgemm_nn", 0).is_err());
    }
}
