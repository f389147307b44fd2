//! SYMV as a library call: y = alpha A x + beta y on the caller's device
//! buffers, with the kernel for each size chosen by hone's selection rules.
//!
//! [`SymvRules`] holds one rule per precision and storage (the tuner's
//! intervals of N, each naming a configuration): the ones built into the
//! crate, one set per GPU model they were tuned on (`kernels/symv/rules/`
//! for the H100, which also serves GPUs without a set of their own, and
//! `kernels/symv/rules/nvidia-h200/`; [`SymvRules::bundled_for`]), or the
//! same four files from another directory ([`SymvRules::load_dir`]). [`Symv`] owns a
//! [`SymvRunner`] and the rules; [`Symv::symv`] enqueues the rule's kernel
//! for the size on the GPU's stream and says which kernel that was.

use std::path::Path;

use hone_gpu::{Gpu, ModuleCache};
use hone_tuner::Rule;

use super::bench::Pick;
use super::tuning::{kernel_of, library_name};
use super::{
    symv_template, DeviceLimits, Precision, Result, SymvError, SymvKernel, SymvRunner, Uplo,
};
use crate::routine::rules::RuleSet;

/// A set of rules built into the crate: the GPU model it was tuned on, the
/// folder it comes from (relative to the repository root), and each
/// variant's JSON text.
struct BuiltIn {
    gpu: &'static str,
    folder: &'static str,
    texts: [(&'static str, &'static str); 4],
}

/// The set of rules in `$folder` (relative to the repository root), built
/// into the crate, for the GPU model `$gpu`.
macro_rules! built_in {
    ($gpu:expr, $folder:literal) => {
        BuiltIn {
            gpu: $gpu,
            folder: $folder,
            texts: [
                built_in!(@rule $folder, "dsymv_lower"),
                built_in!(@rule $folder, "dsymv_upper"),
                built_in!(@rule $folder, "ssymv_lower"),
                built_in!(@rule $folder, "ssymv_upper"),
            ],
        }
    };
    (@rule $folder:literal, $variant:literal) => {
        (
            $variant,
            include_str!(concat!("../../../../", $folder, "/", $variant, ".json")),
        )
    };
}

/// The built-in rules, one set per GPU model; the first serves every GPU
/// that has none of its own.
const BUILT_IN: [BuiltIn; 2] = [
    built_in!(
        crate::routine::device_rules::BUILT_IN_GPU,
        "kernels/symv/rules"
    ),
    built_in!("NVIDIA H200", "kernels/symv/rules/nvidia-h200"),
];

/// The GPU models with built-in rules, the fallback first.
pub const BUILT_IN_GPUS: [&str; 2] = [BUILT_IN[0].gpu, BUILT_IN[1].gpu];

/// The precision and storage of a variant name (`dsymv_lower`).
pub fn parse_variant(name: &str) -> Option<(Precision, Uplo)> {
    Precision::ALL
        .into_iter()
        .flat_map(|p| Uplo::ALL.map(|u| (p, u)))
        .find(|&(p, u)| library_name(p, u) == name)
}

/// The variant names, in report order.
pub fn variants() -> Vec<String> {
    Precision::ALL
        .into_iter()
        .flat_map(|p| Uplo::ALL.map(move |u| library_name(p, u)))
        .collect()
}

/// A rule's configuration must be a kernel of its variant's templates.
fn check_config(variant: &str, config: &hone_tuner::Config) -> std::result::Result<(), String> {
    let (p, u) = parse_variant(variant).ok_or_else(|| format!("`{variant}` is not SYMV"))?;
    let kernel = kernel_of(p, u, config).map_err(|e| e.to_string())?;
    symv_template(p, u, kernel.algorithm)
        .validate(&kernel.config)
        .map_err(|e| e.to_string())
}

/// What a rule picks at one size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub kernel: SymvKernel,
    /// The rule's label for the kernel (`Rank 2`, `Best ALG=1`).
    pub label: String,
    /// The interval `start <= N < end` that holds the size (`end` None: no
    /// upper bound). Sizes below the first interval's start use it.
    pub start: u64,
    pub end: Option<u64>,
}

impl Selection {
    /// `[start, end)` as text.
    pub fn interval(&self) -> String {
        crate::routine::rules::interval_text(self.start, self.end)
    }

    fn of(precision: Precision, uplo: Uplo, s: crate::routine::Selection) -> Result<Selection> {
        Ok(Selection {
            kernel: kernel_of(precision, uplo, &s.config)?,
            label: s.label,
            start: s.start,
            end: s.end,
        })
    }
}

/// One selection rule per precision and storage.
#[derive(Debug, Clone, PartialEq)]
pub struct SymvRules {
    set: RuleSet,
}

/// The file name of a rule: `dsymv_lower.json`, ...
pub fn rule_file(precision: Precision, uplo: Uplo) -> String {
    format!("{}.json", library_name(precision, uplo))
}

fn lib_error(e: crate::routine::LibError) -> SymvError {
    match e {
        crate::routine::LibError::Io { path, source } => SymvError::Io { path, source },
        crate::routine::LibError::Gpu(g) => SymvError::Gpu(g),
        other => SymvError::Config(other.to_string()),
    }
}

/// Parses and checks the rule of `precision` and `uplo`: the JSON, the
/// intervals, the name (the library name, as `hone rule` writes it), and every
/// kernel's configuration against its template. `origin` names the text in
/// errors.
pub fn parse_rule(precision: Precision, uplo: Uplo, text: &str, origin: &str) -> Result<Rule> {
    RuleSet::parse(&library_name(precision, uplo), text, origin, check_config).map_err(lib_error)
}

impl SymvRules {
    /// The rules built into the crate for the GPU models without rules of
    /// their own (tuned on [`BUILT_IN_GPUS`]`[0]`). They are checked by the
    /// crate's tests, so failing to parse one is a bug in the build, not a
    /// user error.
    pub fn bundled() -> SymvRules {
        SymvRules::built_in(&BUILT_IN[0])
    }

    /// The built-in rules for the GPU named `device_name`: those tuned on
    /// its model when hone carries them, else [`SymvRules::bundled`].
    pub fn bundled_for(device_name: &str) -> SymvRules {
        let set = BUILT_IN
            .iter()
            .find(|b| crate::routine::device_rules::same_model(device_name, b.gpu))
            .unwrap_or(&BUILT_IN[0]);
        SymvRules::built_in(set)
    }

    /// Every built-in set, the fallback first.
    pub fn all_bundled() -> Vec<SymvRules> {
        BUILT_IN.iter().map(SymvRules::built_in).collect()
    }

    fn built_in(b: &BuiltIn) -> SymvRules {
        SymvRules {
            set: RuleSet::bundled(b.folder, &b.texts, check_config),
        }
    }

    /// The rules for `gpu`: those `hone retune symv` tuned on its model when
    /// the user's rules folder holds all four and they can be read, else the
    /// built-in ones for its model, else the fallback built-in ones (the
    /// user hears once why, when those were tuned on another GPU or the
    /// folder's cannot be read).
    pub fn for_device(gpu: &hone_gpu::Gpu) -> Result<SymvRules> {
        let routine = &super::routine::SymvRoutine;
        let name = &gpu.props().name;
        let Some(dir) = crate::routine::rules_for_device(routine, name) else {
            return Ok(SymvRules::bundled_for(name));
        };
        // Rules that cannot be read are skipped, and the user hears why.
        Ok(SymvRules::load_dir(&dir).unwrap_or_else(|e| {
            crate::routine::device_rules::notify_once(&format!(
                "hone: the rules in {} cannot be used ({e}); SYMV runs the built-in rules",
                dir.display()
            ));
            SymvRules::bundled_for(name)
        }))
    }

    /// Reads `dsymv_lower.json`, `dsymv_upper.json`, `ssymv_lower.json` and
    /// `ssymv_upper.json` from `dir`. Errors name the file.
    pub fn load_dir(dir: impl AsRef<Path>) -> Result<SymvRules> {
        Ok(SymvRules {
            set: RuleSet::load_dir(dir, &variants(), check_config).map_err(lib_error)?,
        })
    }

    /// Where the rules came from.
    pub fn origin(&self) -> &str {
        self.set.origin()
    }

    /// Replaces one rule (checked as [`parse_rule`] checks a file).
    pub fn set_rule(&mut self, precision: Precision, uplo: Uplo, rule: Rule) -> Result<()> {
        self.set
            .set(&library_name(precision, uplo), rule)
            .map_err(lib_error)
    }

    pub fn rule(&self, precision: Precision, uplo: Uplo) -> &Rule {
        // Every constructor fills all four variants.
        self.set
            .rule(&library_name(precision, uplo))
            .expect("every SYMV variant has a rule")
    }

    /// The kernel the rule picks at size n, with its interval. Sizes outside
    /// the rule's range use the nearest interval (the first below it; the
    /// last is open above).
    pub fn select(&self, precision: Precision, uplo: Uplo, n: usize) -> Result<Selection> {
        let s = self
            .set
            .select(&library_name(precision, uplo), n as u64)
            .map_err(lib_error)?;
        Selection::of(precision, uplo, s)
    }

    /// The kernel the rule picks at size n.
    pub fn kernel(&self, precision: Precision, uplo: Uplo, n: usize) -> Result<SymvKernel> {
        Ok(self.select(precision, uplo, n)?.kernel)
    }

    /// One selection per interval of the rule, in order of N.
    pub fn selections(&self, precision: Precision, uplo: Uplo) -> Result<Vec<Selection>> {
        self.set
            .selections(&library_name(precision, uplo))
            .map_err(lib_error)?
            .into_iter()
            .map(|s| Selection::of(precision, uplo, s))
            .collect()
    }

    /// The distinct kernels the rule can pick, in order of first use.
    pub fn kernels(&self, precision: Precision, uplo: Uplo) -> Result<Vec<SymvKernel>> {
        let mut out: Vec<SymvKernel> = Vec::new();
        for s in self.selections(precision, uplo)? {
            if !out.contains(&s.kernel) {
                out.push(s.kernel);
            }
        }
        Ok(out)
    }

    /// The benchmark's picks: the rule's kernel for every precision, storage
    /// and size given.
    pub fn picks(
        &self,
        precisions: &[Precision],
        uplos: &[Uplo],
        sizes: &[usize],
    ) -> Result<Vec<Pick>> {
        let mut picks = Vec::new();
        for &precision in precisions {
            for &uplo in uplos {
                for &n in sizes {
                    let k = self.kernel(precision, uplo, n)?;
                    picks.push(Pick {
                        precision,
                        uplo,
                        n,
                        algorithm: k.algorithm,
                        config: k.config,
                    });
                }
            }
        }
        Ok(picks)
    }
}

/// The SYMV library call: the rules' kernel for each size, enqueued on the
/// caller's device buffers.
pub struct Symv<'g> {
    runner: SymvRunner<'g>,
    rules: SymvRules,
}

impl<'g> Symv<'g> {
    /// A runner on `gpu` compiling into the default module cache.
    pub fn new(gpu: &'g Gpu, rules: SymvRules) -> Result<Symv<'g>> {
        Ok(Symv::with_runner(
            SymvRunner::new(gpu, ModuleCache::open_default())?,
            rules,
        ))
    }

    pub fn with_runner(runner: SymvRunner<'g>, rules: SymvRules) -> Symv<'g> {
        Symv { runner, rules }
    }

    pub fn rules(&self) -> &SymvRules {
        &self.rules
    }

    pub fn runner_ref(&self) -> &SymvRunner<'g> {
        &self.runner
    }

    pub fn runner(&mut self) -> &mut SymvRunner<'g> {
        &mut self.runner
    }

    pub fn into_parts(self) -> (SymvRunner<'g>, SymvRules) {
        (self.runner, self.rules)
    }

    /// Compiles and loads every kernel the rules of `precision` and `uplo`
    /// can pick, so that no call waits for the compiler; the kernels that
    /// cannot be built, with why.
    pub fn prepare(
        &mut self,
        precision: Precision,
        uplo: Uplo,
    ) -> Result<Vec<(SymvKernel, String)>> {
        let kernels = self.rules.kernels(precision, uplo)?;
        self.runner.prepare_kernels(&kernels)?;
        let mut failed = Vec::new();
        for k in kernels {
            if let Err(reason) = self.runner.kernel(&k)? {
                failed.push((k, reason));
            }
        }
        Ok(failed)
    }

    /// Enqueues y = alpha A x + beta y on the GPU's stream with the rules'
    /// kernel for `precision`, `uplo` and n, and returns that kernel without
    /// waiting for it ([`Symv::synchronize`] waits). A holds the `uplo`
    /// triangle of a symmetric n x n matrix, column-major with leading
    /// dimension `lda` (n or more; a multiple of the kernel's VEC for the
    /// vector-load kernels); the other triangle is never read.
    ///
    /// # Safety
    /// `a` must point to `lda * n` elements of `precision` and `x` and `y` to
    /// n each, allocated on this runner's GPU and alive until the call
    /// completes; `y` must not overlap `a` or `x`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn symv(
        &mut self,
        precision: Precision,
        uplo: Uplo,
        n: usize,
        alpha: f64,
        a: u64,
        lda: usize,
        x: u64,
        beta: f64,
        y: u64,
    ) -> Result<SymvKernel> {
        let picked = self.rules.kernel(precision, uplo, n)?;
        let kernel = fitting(picked, lda, [a, x, y], self.runner.limits());
        // SAFETY: the caller's guarantees are the runner's; it checks n and lda.
        unsafe { self.runner.enqueue(&kernel, n, alpha, a, lda, x, beta, y)? };
        Ok(kernel)
    }

    /// Waits for every call enqueued so far; a kernel fault surfaces here.
    pub fn synchronize(&self) -> Result<()> {
        Ok(self.runner.gpu().synchronize()?)
    }
}

/// `kernel`, or the same kernel with scalar loads (VEC=1) when the caller's
/// leading dimension or pointers do not suit its vector loads: a BLAS caller
/// may pass any lda and any element-aligned pointer, and should get an
/// answer, a little slower, not an error.
pub fn fitting(
    kernel: SymvKernel,
    lda: usize,
    ptrs: [u64; 3],
    limits: &DeviceLimits,
) -> SymvKernel {
    let vec = kernel.config.get("VEC").copied().unwrap_or(1);
    if vec <= 1 {
        return kernel;
    }
    let width = vec as u64 * kernel.precision.size() as u64;
    if lda.is_multiple_of(vec as usize) && ptrs.iter().all(|p| p % width == 0) {
        return kernel;
    }
    let mut scalar = kernel.clone();
    scalar.config.insert("VEC".to_string(), 1);
    let t = symv_template(kernel.precision, kernel.uplo, kernel.algorithm);
    match t.is_valid(&scalar.config, limits) {
        Ok(true) => scalar,
        _ => kernel,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symv::DeviceLimits;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hone-symv-library-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write_bundled(dir: &Path) {
        for (variant, text) in BUILT_IN[0].texts {
            std::fs::write(dir.join(format!("{variant}.json")), text).unwrap();
        }
    }

    #[test]
    fn bundled_rules_parse_and_cover_every_precision_and_storage() {
        for b in &BUILT_IN {
            let rules = SymvRules::built_in(b);
            for p in Precision::ALL {
                for u in Uplo::ALL {
                    let rule = rules.rule(p, u);
                    assert_eq!(rule.name, library_name(p, u));
                    assert!(!rule.intervals.is_empty());
                    assert!(rule.lo <= 512 && rule.hi >= 32768, "{}", rule.name);
                }
            }
        }
    }

    #[test]
    fn each_built_in_gpu_gets_its_own_rules_and_others_the_first_set() {
        let h100 = SymvRules::bundled();
        let h200 = SymvRules::bundled_for("NVIDIA H200");
        assert!(Precision::ALL
            .into_iter()
            .flat_map(|p| Uplo::ALL.map(move |u| (p, u)))
            .any(|(p, u)| h100.rule(p, u) != h200.rule(p, u)));
        assert_eq!(SymvRules::all_bundled(), vec![h100.clone(), h200.clone()]);
        assert!(h200.origin().ends_with("kernels/symv/rules/nvidia-h200"));
        assert_eq!(SymvRules::bundled_for(BUILT_IN_GPUS[0]), h100);
        assert_eq!(SymvRules::bundled_for(" NVIDIA H200 "), h200);
        assert_eq!(SymvRules::bundled_for("NVIDIA A100-SXM4-80GB"), h100);
        assert_eq!(SymvRules::bundled_for("NVIDIA H200 NVL"), h100);
    }

    #[test]
    fn every_selectable_kernel_is_valid_on_hopper() {
        // The H100 and the H200 share the SM and its limits.
        let limits = DeviceLimits::h100_sxm();
        for rules in BUILT_IN.iter().map(SymvRules::built_in) {
            check_selectable(&rules, &limits);
        }
    }

    fn check_selectable(rules: &SymvRules, limits: &DeviceLimits) {
        for p in Precision::ALL {
            for u in Uplo::ALL {
                let kernels = rules.kernels(p, u).unwrap();
                assert!(!kernels.is_empty());
                for k in kernels {
                    assert_eq!((k.precision, k.uplo), (p, u));
                    let t = symv_template(p, u, k.algorithm);
                    let violated = t.violations(&k.config, limits).unwrap();
                    assert!(
                        t.is_valid(&k.config, limits).unwrap(),
                        "{}: {} violates {violated:?}",
                        library_name(p, u),
                        k.label()
                    );
                }
            }
        }
    }

    #[test]
    fn kernels_follow_the_intervals_at_their_boundaries() {
        let rules = SymvRules::bundled();
        for p in Precision::ALL {
            for u in Uplo::ALL {
                let rule = rules.rule(p, u);
                let at = |iv: &hone_tuner::Interval| {
                    kernel_of(p, u, &rule.kernels[iv.kernel].config).unwrap()
                };
                for (j, iv) in rule.intervals.iter().enumerate() {
                    let start = iv.start as usize;
                    assert_eq!(rules.kernel(p, u, start).unwrap(), at(iv), "N = {start}");
                    let s = rules.select(p, u, start).unwrap();
                    assert_eq!((s.start, s.end), (iv.start, iv.end));
                    assert_eq!(s.label, rule.kernels[iv.kernel].label);
                    if let Some(end) = iv.end {
                        let last = end as usize - 1;
                        assert_eq!(rules.kernel(p, u, last).unwrap(), at(iv), "N = {last}");
                        let next = &rule.intervals[j + 1];
                        assert_eq!(rules.kernel(p, u, end as usize).unwrap(), at(next));
                    }
                }
                // Outside the fitted range: the nearest interval.
                let first = &rule.intervals[0];
                let last = rule.intervals.last().unwrap();
                assert!(first.start > 1);
                assert_eq!(rules.kernel(p, u, 1).unwrap(), at(first));
                assert_eq!(rules.select(p, u, 1).unwrap().start, first.start);
                assert_eq!(rules.kernel(p, u, 1 << 20).unwrap(), at(last));
            }
        }
    }

    #[test]
    fn picks_name_the_rule_kernel_of_every_size() {
        let rules = SymvRules::bundled();
        let sizes = [64, 1000, 32768];
        let picks = rules
            .picks(&Precision::ALL, &[Uplo::Upper], &sizes)
            .unwrap();
        assert_eq!(picks.len(), 2 * sizes.len());
        for pick in &picks {
            assert_eq!(pick.uplo, Uplo::Upper);
            assert_eq!(
                pick.kernel(),
                rules.kernel(pick.precision, pick.uplo, pick.n).unwrap()
            );
        }
    }

    #[test]
    fn load_dir_reads_the_four_files() {
        let dir = scratch("ok");
        write_bundled(&dir);
        assert_eq!(SymvRules::load_dir(&dir).unwrap(), SymvRules::bundled());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn load_dir_errors_name_the_file() {
        let dir = scratch("missing");
        write_bundled(&dir);
        let missing = dir.join("ssymv_upper.json");
        std::fs::remove_file(&missing).unwrap();
        let e = SymvRules::load_dir(&dir).unwrap_err().to_string();
        assert!(e.contains(&missing.display().to_string()), "{e}");

        let dir = scratch("broken");
        write_bundled(&dir);
        let broken = dir.join("dsymv_upper.json");
        std::fs::write(&broken, "{ \"name\": ").unwrap();
        let e = SymvRules::load_dir(&dir).unwrap_err().to_string();
        assert!(e.contains(&broken.display().to_string()), "{e}");

        // A rule for another routine under this one's name.
        let dir = scratch("swapped");
        write_bundled(&dir);
        let swapped = dir.join("ssymv_lower.json");
        std::fs::copy(dir.join("dsymv_upper.json"), &swapped).unwrap();
        let e = SymvRules::load_dir(&dir).unwrap_err().to_string();
        assert!(e.contains(&swapped.display().to_string()), "{e}");
        assert!(e.contains("expected `ssymv_lower`"), "{e}");

        // A configuration outside the kernel's template.
        let dir = scratch("badconfig");
        write_bundled(&dir);
        let bad = dir.join("dsymv_lower.json");
        let mut rule = SymvRules::bundled()
            .rule(Precision::Double, Uplo::Lower)
            .clone();
        let first = rule.kernels[0].config.entries().to_vec();
        rule.kernels[0].config = hone_tuner::Config::new(
            first
                .into_iter()
                .map(|(k, v)| {
                    if k == "UX" {
                        (k, hone_tuner::ParamValue::Int(99))
                    } else {
                        (k, v)
                    }
                })
                .collect(),
        );
        std::fs::write(&bad, rule.to_json()).unwrap();
        let e = SymvRules::load_dir(&dir).unwrap_err().to_string();
        assert!(e.contains(&bad.display().to_string()), "{e}");
        assert!(e.contains("UX=99"), "{e}");
        let mut rules = SymvRules::bundled();
        assert!(rules
            .set_rule(Precision::Double, Uplo::Lower, rule)
            .is_err());
        for name in ["missing", "broken", "swapped", "badconfig"] {
            let _ = std::fs::remove_dir_all(scratch(name));
        }
    }

    #[test]
    fn vector_kernels_fall_back_to_scalar_loads_for_odd_lda_or_pointers() {
        let limits = DeviceLimits::h100_sxm();
        let rules = SymvRules::bundled();
        let mut seen = 0;
        for p in Precision::ALL {
            for u in Uplo::ALL {
                for k in rules.kernels(p, u).unwrap() {
                    let vec = k.config.get("VEC").copied().unwrap_or(1);
                    let width = vec as u64 * p.size() as u64;
                    let aligned = [4096 * width; 3];
                    // Suitable lda and pointers keep the rule's kernel.
                    assert_eq!(fitting(k.clone(), 1024, aligned, &limits), k);
                    if vec <= 1 {
                        continue;
                    }
                    seen += 1;
                    for (lda, ptrs) in [
                        (1025, aligned),
                        (1024, [aligned[0] + p.size() as u64, aligned[1], aligned[2]]),
                    ] {
                        let f = fitting(k.clone(), lda, ptrs, &limits);
                        assert_eq!(f.config["VEC"], 1, "{}", k.label());
                        let mut rest = f.config.clone();
                        rest.insert("VEC".into(), vec);
                        assert_eq!(rest, k.config);
                    }
                }
            }
        }
        assert!(seen > 0, "no rule picks a vector kernel");
    }

    #[test]
    fn selection_prints_its_interval() {
        let rules = SymvRules::bundled();
        let rule = rules.rule(Precision::Double, Uplo::Lower);
        let last = rule.intervals.last().unwrap();
        let s = rules
            .select(Precision::Double, Uplo::Lower, last.start as usize)
            .unwrap();
        assert_eq!(s.interval(), format!("[{}, inf)", last.start));
        let first = &rule.intervals[0];
        let s = rules.select(Precision::Double, Uplo::Lower, 1).unwrap();
        match first.end {
            Some(e) => assert_eq!(s.interval(), format!("[{}, {e})", first.start)),
            None => assert_eq!(s.interval(), format!("[{}, inf)", first.start)),
        }
    }
}
