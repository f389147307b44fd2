//! GEMM as a library call on the caller's device buffers, with the kernel
//! for each problem chosen by the tuner's rules (one per flavor and layout,
//! `kernels/gemm/rules/VARIANT.json`).

use std::path::{Path, PathBuf};

use hone_gpu::{Gpu, ModuleCache};
use hone_tuner::Config as TunerConfig;

use super::device::GemmRunner;
use super::routine::problem_of;
use super::template::{kernel_of, GemmKernel};
use super::{Flavor, GemmProblem, Layout};
use crate::routine::rules::RuleSet;
use crate::routine::{LibError, Result};

const RULES_FOLDER: &str = "kernels/gemm/rules";

/// The rules built into the crate: one per variant tuned so far; a variant
/// without one is refused with a message naming it.
const BUNDLED: &[(&str, &str)] = &[
    (
        "sgemm_nn",
        include_str!("../../../../kernels/gemm/rules/sgemm_nn.json"),
    ),
    (
        "dgemm_nn",
        include_str!("../../../../kernels/gemm/rules/dgemm_nn.json"),
    ),
    (
        "dgemm_nt",
        include_str!("../../../../kernels/gemm/rules/dgemm_nt.json"),
    ),
    (
        "dgemm_tn",
        include_str!("../../../../kernels/gemm/rules/dgemm_tn.json"),
    ),
    (
        "dgemm_tt",
        include_str!("../../../../kernels/gemm/rules/dgemm_tt.json"),
    ),
    (
        "sgemm_3xtf32_nn",
        include_str!("../../../../kernels/gemm/rules/sgemm_3xtf32_nn.json"),
    ),
    (
        "ddgemm_nn",
        include_str!("../../../../kernels/gemm/rules/ddgemm_nn.json"),
    ),
    (
        "ddgemm_tn",
        include_str!("../../../../kernels/gemm/rules/ddgemm_tn.json"),
    ),
];

/// The GPU model with built-in rules of its own for some variants (SGEMM's,
/// DGEMM's and 3xTF32 SGEMM's four layouts, the last with the warpgroup-MMA
/// kernels that only sm_90 runs); its other variants, and every GPU without
/// rules of its own, take [`BUNDLED`], tuned on the fallback model.
pub const H200: &str = "NVIDIA H200";
const H200_FOLDER: &str = "kernels/gemm/rules/nvidia-h200";
const H200_BUNDLED: &[(&str, &str)] = &[
    (
        "sgemm_nn",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/sgemm_nn.json"),
    ),
    (
        "sgemm_nt",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/sgemm_nt.json"),
    ),
    (
        "sgemm_tn",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/sgemm_tn.json"),
    ),
    (
        "sgemm_tt",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/sgemm_tt.json"),
    ),
    (
        "dgemm_nn",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/dgemm_nn.json"),
    ),
    (
        "dgemm_nt",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/dgemm_nt.json"),
    ),
    (
        "dgemm_tn",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/dgemm_tn.json"),
    ),
    (
        "dgemm_tt",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/dgemm_tt.json"),
    ),
    (
        "sgemm_3xtf32_nn",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/sgemm_3xtf32_nn.json"),
    ),
    (
        "sgemm_3xtf32_nt",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/sgemm_3xtf32_nt.json"),
    ),
    (
        "sgemm_3xtf32_tn",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/sgemm_3xtf32_tn.json"),
    ),
    (
        "sgemm_3xtf32_tt",
        include_str!("../../../../kernels/gemm/rules/nvidia-h200/sgemm_3xtf32_tt.json"),
    ),
];

/// The folder and texts of the built-in rules tuned on the GPU model named
/// `device_name`, where hone carries some.
fn own_bundled(
    device_name: &str,
) -> Option<(&'static str, &'static [(&'static str, &'static str)])> {
    crate::routine::device_rules::same_model(device_name, H200)
        .then_some((H200_FOLDER, H200_BUNDLED))
}

/// Where `hone retune gemm` keeps the rules it tunes on the GPU model named
/// `device_name` (`None` without a home folder).
pub fn retuned_dir(device_name: &str) -> Option<PathBuf> {
    crate::routine::device_rules::user_dir("gemm", device_name)
}

/// The variants with a rule (`VARIANT.json`) in `dir`, in variant order.
pub fn retuned_variants(dir: &Path) -> Vec<String> {
    RuleSet::present(dir, &Flavor::all_variants())
}

/// What [`GemmRules::for_device`] took from the user's folder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Retuned {
    /// The folder, where there are rules in it.
    pub dir: Option<PathBuf>,
    /// The variants whose rules came from it.
    pub variants: Vec<String>,
    /// Why its rules were not used, where they could not be read.
    pub unreadable: Option<String>,
}

impl Retuned {
    /// What to tell the user of the folder's rules that could not be read
    /// and were left out (`None` where all could).
    pub fn unreadable_notice(&self) -> Option<String> {
        match (&self.dir, &self.unreadable) {
            (Some(dir), Some(why)) => Some(format!(
                "hone: some gemm rules in {} cannot be used and were left out ({why})",
                dir.display()
            )),
            _ => None,
        }
    }
}

fn check_config(variant: &str, config: &TunerConfig) -> std::result::Result<(), String> {
    let (flavor, layout) =
        Flavor::parse_variant(variant).ok_or_else(|| format!("`{variant}` is not GEMM"))?;
    kernel_of(flavor, layout, config).map(|_| ())
}

/// One rule per GEMM variant.
#[derive(Debug, Clone, PartialEq)]
pub struct GemmRules {
    set: RuleSet,
}

impl GemmRules {
    pub fn bundled() -> GemmRules {
        GemmRules {
            set: RuleSet::bundled(RULES_FOLDER, BUNDLED, check_config),
        }
    }

    /// The built-in rules for the GPU named `device_name`: those tuned on
    /// its model for the variants hone carries them for, the fallback
    /// model's for the rest.
    pub fn bundled_for(device_name: &str) -> GemmRules {
        let mut rules = GemmRules::bundled();
        if let Some((folder, texts)) = own_bundled(device_name) {
            rules
                .set
                .replace_from(RuleSet::bundled(folder, texts, check_config));
        }
        rules
    }

    /// The rules the GPU named `device_name` runs when no folder is given:
    /// the built-in ones for its model, each variant that `hone retune gemm`
    /// tuned on this model (in the user's folder, [`retuned_dir`]) replacing
    /// its built-in rule. The folder comes back with the variants it served;
    /// a folder whose rules cannot be read is left out, with why.
    pub fn for_device(device_name: &str) -> (GemmRules, Retuned) {
        GemmRules::retuned_over_bundled(device_name, retuned_dir(device_name))
    }

    /// [`GemmRules::for_device`] with the user's folder `dir`.
    pub fn retuned_over_bundled(device_name: &str, dir: Option<PathBuf>) -> (GemmRules, Retuned) {
        let rules = GemmRules::bundled_for(device_name);
        let Some(dir) = dir else {
            return (rules, Retuned::default());
        };
        // Each file on its own: a damaged or outdated one leaves out only
        // its variant.
        let (user, unreadable) =
            RuleSet::load_dir_readable(&dir, &Flavor::all_variants(), check_config);
        if user.variants().next().is_none() && unreadable.is_empty() {
            return (rules, Retuned::default());
        }
        let variants: Vec<String> = user.variants().map(str::to_string).collect();
        let mut merged = rules;
        if !variants.is_empty() {
            merged.set.replace_from(user);
        }
        (
            merged,
            Retuned {
                dir: Some(dir),
                variants,
                unreadable: (!unreadable.is_empty()).then(|| unreadable.join("; ")),
            },
        )
    }

    /// The variants whose built-in rules were tuned on the GPU model named
    /// `device_name` (none where the fallback model's serve every variant).
    pub fn own_variants(device_name: &str) -> Vec<&'static str> {
        own_bundled(device_name)
            .map(|(_, texts)| texts.iter().map(|t| t.0).collect())
            .unwrap_or_default()
    }

    /// `VARIANT.json` for each variant that has one in `dir` (layouts and
    /// routines are tuned one at a time); errors name the file.
    pub fn load_dir(dir: impl AsRef<Path>) -> Result<GemmRules> {
        Ok(GemmRules {
            set: RuleSet::load_dir_present(dir, &Flavor::all_variants(), check_config)?,
        })
    }

    /// The variants that have a rule.
    pub fn variants(&self) -> Vec<String> {
        self.set.variants().map(str::to_string).collect()
    }

    pub fn origin(&self) -> &str {
        self.set.origin()
    }

    pub fn set(&self) -> &RuleSet {
        &self.set
    }

    /// The kernel the rules pick for `p` (placed on its variant's size axis
    /// as [`problem_of`] places it). A layout without a rule of its own takes
    /// the kernel that its flavor's NN rule picks at the same size: the
    /// templates take any layout with any configuration, so the call still
    /// runs a tuned tile shape, though one tuned for another layout's access
    /// pattern ([`GemmRules::source_variant`] tells which rule answered).
    pub fn kernel(&self, p: &GemmProblem) -> Result<GemmKernel> {
        let lp = problem_of(p);
        let variant = self.source_variant(p.flavor, p.layout)?;
        let s = self.set.select(&variant, lp.size)?;
        kernel_of(p.flavor, p.layout, &s.config).map_err(LibError::Rule)
    }

    /// The variant whose rule answers for `flavor` and `layout`: its own, or
    /// the flavor's NN rule when the layout has none. Split double-double
    /// storage runs the interleaved template's parameters, so without rules
    /// of its own it takes the interleaved ones.
    pub fn source_variant(&self, flavor: Flavor, layout: Layout) -> Result<String> {
        let own = flavor.variant(layout);
        let nn = flavor.variant(Layout::ALL[0]);
        let mut candidates = vec![own.clone(), nn.clone()];
        if flavor == Flavor::DdgemmSplit {
            candidates.push(Flavor::Ddgemm.variant(layout));
            candidates.push(Flavor::Ddgemm.variant(Layout::ALL[0]));
        }
        match candidates.into_iter().find(|v| self.set.rule(v).is_ok()) {
            Some(v) => Ok(v),
            None => Err(LibError::Rule(format!(
                "no rule for `{own}` nor for `{nn}`, whose kernels the other layouts take \
                 (rules: {}; tune one with `hone tune kernels/gemm/tune/{nn}.toml`)",
                self.set.origin()
            ))),
        }
    }

    /// Every kernel a variant's rule (or the rule it falls back to) can pick.
    pub fn kernels(&self, flavor: Flavor, layout: Layout) -> Result<Vec<GemmKernel>> {
        self.set
            .configs(&self.source_variant(flavor, layout)?)?
            .iter()
            .map(|c| kernel_of(flavor, layout, c).map_err(LibError::Rule))
            .collect()
    }
}

/// The GEMM library call: the rules' kernel for each problem, enqueued on
/// the caller's device buffers.
pub struct Gemm<'g> {
    runner: GemmRunner<'g>,
    rules: GemmRules,
}

impl<'g> Gemm<'g> {
    pub fn new(gpu: &'g Gpu, rules: GemmRules) -> Result<Gemm<'g>> {
        Ok(Gemm {
            runner: GemmRunner::new(gpu, ModuleCache::open_default())?,
            rules,
        })
    }

    pub fn rules(&self) -> &GemmRules {
        &self.rules
    }

    /// Compiles every kernel the rules of `flavor` can pick for any layout,
    /// and the twin without packing of each that packs (which `fitting`
    /// runs for a thin C), so that no call waits for the compiler.
    pub fn prepare(&mut self, flavor: Flavor) -> Result<()> {
        let mut all = Vec::new();
        for l in Layout::ALL {
            for k in self.rules.kernels(flavor, l)? {
                if k.packs() {
                    all.push(k.unpacked());
                }
                all.push(k);
            }
        }
        self.runner.prepare_kernels(&all)
    }

    /// Enqueues C = alpha op(A) op(B) + beta C on the GPU's stream with the
    /// rules' kernel for `p` (its element-load variant where `p`'s leading
    /// dimensions or the pointers call for it), and returns the kernel that
    /// ran, without waiting
    /// ([`Gemm::synchronize`] waits). Column-major, BLAS semantics: beta = 0
    /// never reads C.
    ///
    /// # Safety
    /// `a`, `b`, `c` must point to `p`'s stored matrices
    /// ([`GemmProblem::elements`] elements of its precision) on this GPU,
    /// alive until the call completes; `c` must not overlap `a` or `b`.
    pub unsafe fn gemm(
        &mut self,
        p: &GemmProblem,
        alpha: f64,
        a: u64,
        b: u64,
        beta: f64,
        c: u64,
    ) -> Result<GemmKernel> {
        let kernel = self.rules.kernel(p)?;
        // SAFETY: the caller's guarantees are the runner's.
        unsafe { self.runner.enqueue(&kernel, p, alpha, a, b, beta, c) }
    }

    /// [`Gemm::gemm`] with double-double alpha and beta, for the
    /// double-double routines (`ddgemm`: interleaved (hi, lo) pairs, 16-byte
    /// aligned; `ddgemm_split`: the hi parts of each stored matrix, then its
    /// lo parts).
    ///
    /// # Safety
    /// As [`Gemm::gemm`], with two doubles per element.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gemm_dd(
        &mut self,
        p: &GemmProblem,
        alpha: super::dd::Dd,
        a: u64,
        b: u64,
        beta: super::dd::Dd,
        c: u64,
    ) -> Result<GemmKernel> {
        let kernel = self.rules.kernel(p)?;
        // SAFETY: the caller's guarantees are the runner's.
        unsafe { self.runner.enqueue_dd(&kernel, p, alpha, a, b, beta, c) }
    }

    /// Waits for every call enqueued so far; a kernel fault surfaces here.
    pub fn synchronize(&self) -> Result<()> {
        Ok(self.runner.gpu().synchronize()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::template::template;
    use crate::symv::DeviceLimits;

    #[test]
    fn bundled_rules_parse_and_pick_valid_kernels_on_an_h100() {
        let rules = GemmRules::bundled();
        assert!(!rules.variants().is_empty());
        let limits = DeviceLimits::h100_sxm();
        for v in rules.variants() {
            let (flavor, layout) = Flavor::parse_variant(&v).unwrap();
            for k in rules.kernels(flavor, layout).unwrap() {
                let violated = template(flavor).violations(&k.config, &|n| limits.get(n));
                assert!(violated.is_empty(), "{v} {}: {violated:?}", k.label());
            }
            // Every square size gets a kernel.
            for n in [1, 64, 1000, 4096, 20000] {
                let p = GemmProblem::packed(flavor, layout, n, n, n);
                assert_eq!(rules.kernel(&p).unwrap().flavor, flavor);
            }
        }
    }

    #[test]
    fn an_h200_takes_its_own_sgemm_dgemm_and_3xtf32_rules_and_the_fallback_for_the_rest() {
        let fallback = GemmRules::bundled();
        let h200 = GemmRules::bundled_for(" NVIDIA H200 ");
        let limits = DeviceLimits::h100_sxm();
        for layout in Layout::ALL {
            let v = Flavor::Sgemm.variant(layout);
            assert_eq!(h200.source_variant(Flavor::Sgemm, layout).unwrap(), v);
            assert!(h200.set().rule(&v).unwrap() != fallback.set().rule("sgemm_nn").unwrap());
            for k in h200.kernels(Flavor::Sgemm, layout).unwrap() {
                let violated = template(Flavor::Sgemm).violations(&k.config, &|n| limits.get(n));
                assert!(violated.is_empty(), "{v} {}: {violated:?}", k.label());
            }
            // small C is split, large C is not
            let at = |n| {
                h200.kernel(&GemmProblem::packed(Flavor::Sgemm, layout, n, n, n))
                    .unwrap()
            };
            assert!(at(256).config["SPLITK"] > 1, "{v}");
            assert_eq!(at(8192).config["SPLITK"], 1, "{v}");
            // 3xTF32 on the warpgroup MMAs for large C, on mma.sync for small
            let v = Flavor::Sgemm3xTf32.variant(layout);
            assert_eq!(h200.source_variant(Flavor::Sgemm3xTf32, layout).unwrap(), v);
            let t = template(Flavor::Sgemm3xTf32);
            for k in h200.kernels(Flavor::Sgemm3xTf32, layout).unwrap() {
                let violated = t.violations(&k.config, &|n| limits.get(n));
                assert!(violated.is_empty(), "{v} {}: {violated:?}", k.label());
            }
            let at = |n| {
                h200.kernel(&GemmProblem::packed(Flavor::Sgemm3xTf32, layout, n, n, n))
                    .unwrap()
            };
            assert_eq!(at(4096).config["WGMMA"], 1, "{v}");
            assert_eq!(at(256).config["WGMMA"], 0, "{v}");
            // DGEMM tuned on the H200 itself
            let v = Flavor::Dgemm.variant(layout);
            assert_eq!(h200.source_variant(Flavor::Dgemm, layout).unwrap(), v);
            assert!(h200.set().rule(&v).unwrap() != fallback.set().rule(&v).unwrap());
            let t = template(Flavor::Dgemm);
            for k in h200.kernels(Flavor::Dgemm, layout).unwrap() {
                let violated = t.violations(&k.config, &|n| limits.get(n));
                assert!(violated.is_empty(), "{v} {}: {violated:?}", k.label());
            }
        }
        for v in fallback
            .variants()
            .iter()
            .filter(|v| !v.starts_with("sgemm_") && !v.starts_with("dgemm_"))
        {
            assert_eq!(h200.set().rule(v).unwrap(), fallback.set().rule(v).unwrap());
        }
        assert!(h200.origin().contains("nvidia-h200"), "{}", h200.origin());
        // other models, the fallback's own included, take the fallback
        for other in [
            crate::routine::device_rules::BUILT_IN_GPU,
            "NVIDIA H200 NVL",
            "NVIDIA A100-SXM4-80GB",
        ] {
            assert_eq!(GemmRules::bundled_for(other), fallback);
        }
    }

    /// The fallback rules serve every GPU: none of their kernels may need
    /// one architecture's own instructions (the warpgroup-MMA kernels that
    /// only sm_90 runs belong to that model's rules).
    #[test]
    fn the_fallback_rules_run_on_every_architecture() {
        let sm80 = hone_gpu::Target {
            arch: 80,
            kind: hone_gpu::ImageKind::Cubin,
            arch_specific: false,
        };
        let rules = GemmRules::bundled();
        let mut kernels = 0;
        for v in rules.variants() {
            let (flavor, layout) = Flavor::parse_variant(&v).unwrap();
            for k in rules.kernels(flavor, layout).unwrap() {
                template(flavor).target(&k, &sm80).unwrap();
                kernels += 1;
            }
        }
        assert!(kernels >= 10, "{kernels}");
        // while the H200's own rules do pick some
        let h200 = GemmRules::bundled_for(H200);
        let specific = Layout::ALL
            .into_iter()
            .flat_map(|l| h200.kernels(Flavor::Sgemm3xTf32, l).unwrap())
            .filter(|k| template(Flavor::Sgemm3xTf32).target(k, &sm80).is_err())
            .count();
        assert!(specific >= 4, "{specific}");
    }

    /// `hone retune gemm`'s rules replace the built-in ones variant by
    /// variant; unreadable ones are left out with why.
    #[test]
    fn retuned_rules_replace_the_built_in_ones_variant_by_variant() {
        let dir = std::env::temp_dir().join(format!("hone-gemm-retuned-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // no folder, or an empty one: the built-in rules
        for d in [None, Some(dir.clone())] {
            let (rules, retuned) = GemmRules::retuned_over_bundled(H200, d);
            assert_eq!(rules, GemmRules::bundled_for(H200));
            assert_eq!(retuned, Retuned::default());
        }
        std::fs::create_dir_all(&dir).unwrap();
        // a DGEMM rule tuned here: the H100's SGEMM NN rule's kernels would
        // not do, so take the H100's DGEMM TT rule as the one "tuned" for NN
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kernels/gemm/rules/dgemm_tt.json"),
        )
        .unwrap();
        std::fs::write(
            dir.join("dgemm_nn.json"),
            text.replace("dgemm_tt", "dgemm_nn"),
        )
        .unwrap();
        let (rules, retuned) = GemmRules::retuned_over_bundled(H200, Some(dir.clone()));
        assert_eq!(retuned.variants, vec!["dgemm_nn".to_string()]);
        assert_eq!(retuned.dir.as_deref(), Some(dir.as_path()));
        let built_in = GemmRules::bundled_for(H200);
        let fallback = GemmRules::bundled();
        let tt = fallback.set().rule("dgemm_tt").unwrap();
        assert_eq!(
            rules.set().rule("dgemm_nn").unwrap().intervals,
            tt.intervals
        );
        assert_ne!(built_in.set().rule("dgemm_nn").unwrap(), tt);
        for v in ["sgemm_nn", "sgemm_3xtf32_tt", "dgemm_nt", "ddgemm_tn"] {
            assert_eq!(
                rules.set().rule(v).unwrap(),
                built_in.set().rule(v).unwrap()
            );
        }
        assert!(
            rules.origin().contains(&dir.display().to_string()),
            "{}",
            rules.origin()
        );
        // a damaged file: its variant keeps the built-in rule, and why; the
        // others still take the folder's
        std::fs::write(dir.join("sgemm_nn.json"), "{ not a rule").unwrap();
        let (damaged, retuned) = GemmRules::retuned_over_bundled(H200, Some(dir.clone()));
        assert_eq!(retuned.variants, vec!["dgemm_nn".to_string()]);
        assert_eq!(
            damaged.set().rule("sgemm_nn").unwrap(),
            built_in.set().rule("sgemm_nn").unwrap()
        );
        assert_eq!(
            damaged.set().rule("dgemm_nn").unwrap(),
            rules.set().rule("dgemm_nn").unwrap()
        );
        assert!(
            retuned
                .unreadable
                .as_deref()
                .unwrap_or("")
                .contains("sgemm_nn.json"),
            "{retuned:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_layout_without_a_rule_takes_its_flavors_nn_kernels() {
        let rules = GemmRules::bundled();
        let nn = rules
            .kernel(&GemmProblem::packed(
                Flavor::Sgemm,
                Layout::ALL[0],
                512,
                512,
                512,
            ))
            .unwrap();
        let tt_problem = GemmProblem::packed(Flavor::Sgemm, Layout::ALL[3], 512, 512, 512);
        let tt = rules.kernel(&tt_problem).unwrap();
        assert_eq!(tt.layout, Layout::ALL[3]);
        assert_eq!(tt.config, nn.config);
        assert_eq!(
            rules.source_variant(Flavor::Sgemm, Layout::ALL[3]).unwrap(),
            "sgemm_nn"
        );
        let empty = GemmRules {
            set: RuleSet::bundled(RULES_FOLDER, &[], check_config),
        };
        let e = empty.kernel(&tt_problem).unwrap_err().to_string();
        assert!(
            e.contains("no rule for `sgemm_tt` nor for `sgemm_nn`"),
            "{e}"
        );
    }
}
