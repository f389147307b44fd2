//! GEMM under `hone tune`: a job names its routine and layout with
//! `library = "dgemm_nn"` (any of [`Flavor::all_variants`]), runs along the
//! square family `m=*,n=*,k=*`, and searches the template's space (its
//! description's parameters and constraints, `kernels/gemm/*.json`).
//! Measurements run in hone's supervised worker through the library layer's
//! generic extension ([`crate::routine::tuning`]).

use hone_gpu::pool::Compiled;
use hone_gpu::{nvrtc, CompileOptions, DeviceProps, Gpu, GpuError, ModuleCache, TimingOptions};
use hone_tuner::job::ParamSpec;
use hone_tuner::{Config, Invalid, Measurement, ParamValue, ProblemKey};

use super::device::GemmRunner;
use super::template::{kernel_of, template, GemmKernel};
use super::{Flavor, GemmProblem, Layout};
use crate::routine::tuning::{launches, timing_of, Compiler, Tunable};
use crate::routine::LibError;
use crate::symv::DeviceLimits;

/// GEMM's side of the generic tuning extension.
pub struct GemmTune;

fn to_gpu(e: LibError) -> GpuError {
    match e {
        LibError::Gpu(g) => g,
        other => GpuError::Worker(other.to_string()),
    }
}

/// The problem a key of the square family (or any `m`, `n`, `k` key) is,
/// with leading dimensions padded to [`super::LD_MULTIPLE`].
pub fn problem_of_key(
    flavor: Flavor,
    layout: Layout,
    key: &ProblemKey,
) -> Result<GemmProblem, String> {
    let dim = |name: &str| -> Result<usize, String> {
        key.int(name)
            .filter(|&v| v > 0)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| format!("problem `{key}` has no positive `{name}`"))
    };
    let p = GemmProblem::padded(
        flavor,
        layout,
        dim("m")?,
        dim("n")?,
        dim("k")?,
        super::LD_MULTIPLE,
    );
    p.validate()?;
    Ok(p)
}

impl Tunable for GemmTune {
    const EXTENSION: &'static str = "gemm";
    type Target = (Flavor, Layout);
    type Kernel = GemmKernel;
    type Runner = GemmRunner<'static>;

    fn target(library: &str) -> Option<(Flavor, Layout)> {
        Flavor::parse_variant(library)
    }

    fn names() -> Vec<String> {
        Flavor::all_variants()
    }

    fn job_space((flavor, _): (Flavor, Layout)) -> (Vec<ParamSpec>, Vec<String>) {
        let t = template(flavor);
        let params = t
            .params
            .iter()
            .map(|(name, values)| ParamSpec {
                name: name.clone(),
                values: values.iter().map(|&v| ParamValue::Int(v)).collect(),
                range: None,
            })
            .collect();
        let constraints = t.constraints.iter().map(|(text, _)| text.clone()).collect();
        (params, constraints)
    }

    fn kernel_of(
        (flavor, layout): (Flavor, Layout),
        config: &Config,
    ) -> Result<GemmKernel, String> {
        kernel_of(flavor, layout, config)
    }

    fn size_of(key: &ProblemKey) -> Option<u64> {
        key.int("m").and_then(|m| u64::try_from(m).ok())
    }

    fn open(gpu: &'static Gpu) -> Result<GemmRunner<'static>, GpuError> {
        GemmRunner::new(gpu, ModuleCache::open_default()).map_err(to_gpu)
    }

    fn compiler(props: &DeviceProps, cache: ModuleCache) -> Result<Compiler<GemmKernel>, GpuError> {
        let target = nvrtc::target_for(props.compute_capability)?;
        let nvrtc_version = nvrtc::version()?;
        let limits = DeviceLimits::from_props(props);
        Ok(Box::new(move |k: &GemmKernel| {
            let t = template(k.flavor);
            let violated = t.violations(&k.config, &|n| limits.get(n));
            if !violated.is_empty() {
                return Compiled {
                    result: Err(Invalid::constraint(format!(
                        "violates {}",
                        violated.join("; ")
                    ))),
                    cache_hit: None,
                };
            }
            let options = CompileOptions::with_defines(t.defines(k));
            let target = match t.target(k, &target) {
                Ok(target) => target,
                Err(e) => {
                    return Compiled {
                        result: Err(Invalid::compile(e)),
                        cache_hit: None,
                    }
                }
            };
            match cache.compile(&t.source(), t.file, &options, &target, nvrtc_version) {
                Ok(m) => Compiled {
                    result: Ok(()),
                    cache_hit: Some(m.hit),
                },
                Err(e) => Compiled {
                    result: Err(Invalid::compile(e.to_string())),
                    cache_hit: Some(false),
                },
            }
        }))
    }

    fn measure(
        runner: &mut GemmRunner<'static>,
        kernel: &GemmKernel,
        key: &ProblemKey,
        timing: &TimingOptions,
        check: bool,
        progress: &mut dyn FnMut(&str, u32),
    ) -> Result<Measurement, GpuError> {
        let p = match problem_of_key(kernel.flavor, kernel.layout, key) {
            Ok(p) => p,
            Err(e) => return Ok(Invalid::constraint(e).into()),
        };
        if let Err(why) = runner.kernel(kernel).map_err(to_gpu)? {
            return Ok(why.into());
        }
        progress("data", 0);
        runner.data(&p, timing).map_err(to_gpu)?;
        if check {
            progress("check", 4);
            if let Err(why) = runner.check(kernel).map_err(to_gpu)? {
                return Ok(why.into());
            }
        }
        progress("run", launches(timing));
        let t = match runner.time(kernel, timing, 1).map_err(to_gpu)? {
            Ok(t) => t,
            Err(why) => return Ok(why.into()),
        };
        let s = t.times[0];
        let elem = p.flavor.element_bytes();
        let (ea, eb, ec) = p.elements();
        Ok(Measurement::Ok(timing_of(&s).with_work(
            Some(((ea + eb + 2 * ec) * elem) as f64),
            Some(p.flops()),
        )))
    }
}

/// `tune/VARIANT.toml` for every variant with its text (`library` names the
/// template's space, so the jobs need no other file): what `hone retune gemm`
/// writes out and runs.
pub fn retune_files() -> Vec<(&'static str, &'static str)> {
    macro_rules! jobs {
        ($($v:literal),* $(,)?) => {
            vec![$((
                concat!("tune/", $v, ".toml"),
                include_str!(concat!("../../../../kernels/gemm/tune/", $v, ".toml")),
            )),*]
        };
    }
    jobs![
        "sgemm_nn",
        "sgemm_nt",
        "sgemm_tn",
        "sgemm_tt",
        "dgemm_nn",
        "dgemm_nt",
        "dgemm_tn",
        "dgemm_tt",
        "sgemm_3xtf32_nn",
        "sgemm_3xtf32_nt",
        "sgemm_3xtf32_tn",
        "sgemm_3xtf32_tt",
        "ddgemm_nn",
        "ddgemm_nt",
        "ddgemm_tn",
        "ddgemm_tt",
        "ddgemm_split_nn",
        "ddgemm_split_nt",
        "ddgemm_split_tn",
        "ddgemm_split_tt",
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_retune_job() {
        let files = retune_files();
        let mut variants: Vec<String> = files
            .iter()
            .map(|(path, text)| {
                let v = path
                    .strip_prefix("tune/")
                    .and_then(|p| p.strip_suffix(".toml"))
                    .unwrap()
                    .to_string();
                let spec = hone_tuner::JobSpec::from_toml(text, path).unwrap();
                assert_eq!(spec.name, v);
                assert_eq!(spec.kernel.library.as_deref(), Some(v.as_str()));
                v
            })
            .collect();
        variants.sort();
        let mut all = Flavor::all_variants();
        all.sort();
        assert_eq!(variants, all);
    }

    #[test]
    fn every_variant_is_a_target_with_the_templates_space() {
        for v in Flavor::all_variants() {
            let target = GemmTune::target(&v).unwrap();
            let (params, constraints) = GemmTune::job_space(target);
            let t = template(target.0);
            assert_eq!(params.len(), t.params.len(), "{v}");
            assert_eq!(constraints.len(), t.constraints.len(), "{v}");
        }
        assert!(GemmTune::target("zgemm_nn").is_none());
    }

    #[test]
    fn the_job_files_inherit_spaces_with_fast_kernels_on_an_h100() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kernels/gemm/tune");
        let mut device = hone_tuner::DeviceProps::new();
        for (name, v) in DeviceLimits::h100_sxm().named() {
            device.set(name, v);
        }
        for v in Flavor::all_variants() {
            let path = dir.join(format!("{v}.toml"));
            let text = std::fs::read_to_string(&path).unwrap();
            let mut spec =
                hone_tuner::JobSpec::from_toml(&text, &path.display().to_string()).unwrap();
            assert_eq!(spec.kernel.library.as_deref(), Some(v.as_str()));
            crate::backend::prepare_job(&mut spec).unwrap();
            let space = hone_tuner::Space::new(spec.space_spec(), device.clone()).unwrap();
            let valid = space.enumerate();
            assert!(valid.len() >= 8, "{v}: {} valid", valid.len());
            // Every configuration is a kernel of the template, with vector
            // loads where the template has them (the warpgroup-MMA kernels
            // load element by element only where they must, whatever VEC).
            let target = GemmTune::target(&v).unwrap();
            for c in valid.configs() {
                let k = GemmTune::kernel_of(target, &c).unwrap();
                let wgmma = k.config.get("WGMMA") == Some(&1);
                assert!(wgmma || k.config.get("VEC").is_none_or(|&v| v > 1), "{v}");
            }
            if target.0 == Flavor::Sgemm3xTf32 {
                let wgmma = valid
                    .configs()
                    .filter(|c| GemmTune::kernel_of(target, c).unwrap().config["WGMMA"] == 1)
                    .count();
                assert!(wgmma >= 6, "{v}: {wgmma} warpgroup-MMA kernels");
            }
            println!("{v}: {} configurations", valid.len());
        }
    }

    #[test]
    fn keys_become_packed_problems() {
        let key: ProblemKey = "m=96,n=64,k=128".parse().unwrap();
        let p = problem_of_key(Flavor::Sgemm, Layout::ALL[2], &key).unwrap();
        assert_eq!(
            (p.m, p.n, p.k, p.lda, p.ldb, p.ldc),
            (96, 64, 128, 128, 128, 96)
        );
        assert_eq!(GemmTune::size_of(&key), Some(96));
        let bad: ProblemKey = "n=64".parse().unwrap();
        assert!(problem_of_key(Flavor::Sgemm, Layout::ALL[0], &bad)
            .unwrap_err()
            .contains("`m`"));
    }
}
