//! SYMV under hone's tuning engine: a job file names the kernel with
//! `library = "dsymv_lower"` (or `ssymv_upper`, ...), its parameters are
//! the atomic kernel's plus `ALG` (0: atomic, 1: L+U) and the L+U kernel's
//! `NB`, so that one search space, one sieve and one rule cover both
//! algorithms.
//!
//! Evaluations run in hone's supervised GPU worker through the library
//! layer's generic extension ([`crate::routine::tuning`]); [`SymvTune`] is
//! what SYMV supplies to it.

use hone_gpu::pool::Compiled;
use hone_gpu::{nvrtc, Gpu, GpuError, ModuleCache, TimingOptions};
use hone_tuner::job::ParamSpec;
use hone_tuner::{Invalid, Measurement, ParamValue, ProblemKey};

use super::device::{compiler, probe_vector_atomics};
use super::traffic::{flops, symv_bytes};
use super::{
    Algorithm, DeviceLimits, Precision, RunOptions, SymvError, SymvKernel, SymvOutcome, SymvRunner,
    Uplo,
};
use crate::routine::tuning::{timing_of, Compiler, Tunable};

/// The worker extension's name.
pub const EXTENSION: &str = "symv";

/// The parameter that picks the algorithm in a job's space.
pub const ALG: &str = "ALG";

/// The L+U kernel's parameters; the rest of a configuration is the atomic
/// kernel's (and is ignored for L+U).
const LU_PARAMS: [&str; 2] = ["BLOCK_SIZE", "NB"];

/// The precision and storage a job's `library` names: `dsymv_lower`,
/// `ssymv_upper`, `dsymv_l`, ...
pub fn library_target(name: &str) -> Option<(Precision, Uplo)> {
    let (routine, uplo) = name.split_once('_')?;
    let precision = match routine.to_ascii_lowercase().as_str() {
        "dsymv" => Precision::Double,
        "ssymv" => Precision::Single,
        _ => return None,
    };
    Some((precision, uplo.parse().ok()?))
}

/// The `library` name of a precision and storage.
pub fn library_name(precision: Precision, uplo: Uplo) -> String {
    format!("{}symv_{uplo}", precision.blas_prefix())
}

/// The kernel a tuner configuration stands for. `ALG` = 1 takes BLOCK_SIZE
/// and NB for the L+U kernel; `ALG` = 0 (or absent) takes every other
/// parameter for the atomic kernel (an `NB` there must be 0, the job's
/// placeholder).
pub fn kernel_of(
    precision: Precision,
    uplo: Uplo,
    config: &hone_tuner::Config,
) -> super::Result<SymvKernel> {
    let mut ints = hone_gpu::tuning::runtime_config(config).map_err(SymvError::Config)?;
    let alg = ints.remove(ALG).unwrap_or(0);
    let algorithm = match alg {
        0 => Algorithm::Atomic,
        1 => Algorithm::LowerUpper,
        other => {
            return Err(SymvError::Config(format!(
                "{ALG} = {other}: expected 0 (atomic) or 1 (L+U)"
            )))
        }
    };
    let config = match algorithm {
        Algorithm::Atomic => {
            if let Some(nb) = ints.remove("NB").filter(|&nb| nb != 0) {
                return Err(SymvError::Config(format!(
                    "NB = {nb} with {ALG} = 0: NB belongs to the L+U kernel"
                )));
            }
            ints
        }
        Algorithm::LowerUpper => ints
            .into_iter()
            .filter(|(k, _)| LU_PARAMS.contains(&k.as_str()))
            .collect(),
    };
    Ok(SymvKernel::new(precision, uplo, algorithm, config))
}

/// The values a tuning job searches: the templates' for the Hopper
/// parameters, narrower for the paper's four (the ranges where the
/// exploratory sweep, `bench/results/symv/sweep`, found every per-size
/// winner), and SYNC pinned to native atomics (the paper's mutexes were
/// 13-15% slower there).
fn tuned_values(precision: Precision) -> Vec<(&'static str, Vec<i64>)> {
    let vec = match precision {
        Precision::Double => vec![1, 2],
        Precision::Single => vec![2, 4],
    };
    vec![
        ("BLOCK_SIZE", vec![32, 64, 128, 256]),
        ("UX", vec![8, 12, 16]),
        ("MULTIPLICITY", vec![2, 4, 8]),
        ("MX", vec![0, 1]),
        ("VEC", vec),
        ("STEPS", vec![1, 2]),
        ("NP", vec![1, 2, 4, 8, 16, 32]),
        ("SYNC", vec![0]),
        ("LDHINT", vec![0, 1]),
        ("SCHED", vec![0, 1]),
    ]
}

/// The space a job tunes for `precision` and `uplo`: both algorithms in one
/// space ([`ALG`]), with the templates' constraints, each guarded by the
/// algorithm it belongs to. The L+U kernel's unused parameters are pinned to
/// their first values so that each L+U kernel appears once; NB is 0 for the
/// atomic kernel, whose blocks below 64 threads never win.
pub fn job_space(precision: Precision, uplo: Uplo) -> (Vec<ParamSpec>, Vec<String>) {
    let atomic = super::symv_template(precision, uplo, Algorithm::Atomic);
    let lu = super::symv_template(precision, uplo, Algorithm::LowerUpper);
    let param = |name: &str, values: &[i64]| ParamSpec {
        name: name.to_string(),
        values: values.iter().map(|&v| ParamValue::Int(v)).collect(),
        range: None,
    };
    let tuned = tuned_values(precision);
    let nb: Vec<i64> = std::iter::once(0)
        .chain(lu.param("NB").map_or(Vec::new(), |p| p.values.clone()))
        .collect();
    let params = std::iter::once(param(ALG, &[0, 1]))
        .chain(tuned.iter().map(|(n, v)| param(n, v)))
        .chain(std::iter::once(param("NB", &nb)))
        .collect();
    let pins: Vec<String> = tuned
        .iter()
        .filter(|(n, v)| !LU_PARAMS.contains(n) && v.len() > 1)
        .map(|(n, v)| format!("{n} == {}", v[0]))
        .collect();
    let constraints = [
        format!("{ALG} == 0 || ({})", pins.join(" && ")),
        format!("{ALG} == 0 || (NB > 0 && {})", lu.constraints.join(" && ")),
        format!("{ALG} == 1 || (NB == 0 && BLOCK_SIZE >= 64)"),
    ]
    .into_iter()
    .chain(
        atomic
            .constraints
            .iter()
            .map(|c| format!("{ALG} == 1 || {c}")),
    )
    .collect();
    (params, constraints)
}

/// Checks a job's parameters (name, values) against the SYMV templates of
/// `precision` and `uplo`, so that a misspelt parameter or a value outside
/// the template stops the job before it starts rather than making every
/// configuration invalid.
pub fn check_job_params(
    precision: Precision,
    uplo: Uplo,
    params: &[(String, Vec<i64>)],
) -> Result<(), String> {
    let atomic = super::symv_template(precision, uplo, Algorithm::Atomic);
    let lu = super::symv_template(precision, uplo, Algorithm::LowerUpper);
    for (name, values) in params {
        let allowed: Vec<i64> = if name == ALG {
            vec![0, 1]
        } else {
            let mut v: Vec<i64> = [&atomic, &lu]
                .iter()
                .filter_map(|t| t.param(name))
                .flat_map(|p| p.values.clone())
                .collect();
            if v.is_empty() {
                let mut known: Vec<&str> = atomic
                    .params
                    .iter()
                    .chain(&lu.params)
                    .map(|p| p.name.as_str())
                    .collect();
                known.sort_unstable();
                known.dedup();
                return Err(format!(
                    "`{name}` is not a parameter of the SYMV kernels ({ALG}, {})",
                    known.join(", ")
                ));
            }
            if name == "NB" {
                // The atomic kernel's placeholder.
                v.push(0);
            }
            v
        };
        if let Some(bad) = values.iter().find(|v| !allowed.contains(v)) {
            return Err(format!(
                "{name} = {bad} is not among the kernels' values {allowed:?}"
            ));
        }
    }
    Ok(())
}

/// SYMV's side of the generic tuning extension.
pub struct SymvTune;

fn to_gpu_error(e: SymvError) -> GpuError {
    match e {
        SymvError::Gpu(g) => g,
        other => GpuError::Worker(other.to_string()),
    }
}

impl Tunable for SymvTune {
    const EXTENSION: &'static str = EXTENSION;
    type Target = (Precision, Uplo);
    type Kernel = SymvKernel;
    type Runner = SymvRunner<'static>;

    fn target(library: &str) -> Option<(Precision, Uplo)> {
        library_target(library)
    }

    fn names() -> Vec<String> {
        Precision::ALL
            .iter()
            .flat_map(|&p| Uplo::ALL.iter().map(move |&u| library_name(p, u)))
            .collect()
    }

    fn job_space((precision, uplo): (Precision, Uplo)) -> (Vec<ParamSpec>, Vec<String>) {
        job_space(precision, uplo)
    }

    fn check_params(
        (precision, uplo): (Precision, Uplo),
        params: &[(String, Vec<i64>)],
    ) -> Result<(), String> {
        check_job_params(precision, uplo, params)
    }

    fn kernel_of(
        (precision, uplo): (Precision, Uplo),
        config: &hone_tuner::Config,
    ) -> Result<SymvKernel, String> {
        kernel_of(precision, uplo, config).map_err(|e| e.to_string())
    }

    fn size_of(key: &ProblemKey) -> Option<u64> {
        key.single_size()
    }

    fn open(gpu: &'static Gpu) -> Result<SymvRunner<'static>, GpuError> {
        SymvRunner::new(gpu, ModuleCache::open_default()).map_err(to_gpu_error)
    }

    fn compiler(
        props: &hone_gpu::DeviceProps,
        cache: ModuleCache,
    ) -> Result<Compiler<SymvKernel>, GpuError> {
        let target = nvrtc::target_for(props.compute_capability)?;
        let nvrtc_version = nvrtc::version()?;
        let limits = DeviceLimits::from_props(props);
        let vector_atomics = probe_vector_atomics(&target);
        // The worker compiles the same jobs and finds them in the cache.
        let compile = compiler(limits, vector_atomics, cache, target, nvrtc_version);
        Ok(Box::new(move |kernel: &SymvKernel| {
            let c = compile(kernel);
            Compiled {
                cache_hit: c.cache_hit,
                result: c.result.map(|_| ()),
            }
        }))
    }

    fn measure(
        runner: &mut SymvRunner<'static>,
        kernel: &SymvKernel,
        key: &ProblemKey,
        timing: &TimingOptions,
        check: bool,
        progress: &mut dyn FnMut(&str, u32),
    ) -> Result<Measurement, GpuError> {
        let Some(n) = key.single_size() else {
            return Ok(hone_tuner::measure::not_one_size(key));
        };
        let Ok(n) = usize::try_from(n) else {
            return Ok(Invalid::constraint(format!("n = {n} is too large")).into());
        };
        let options = RunOptions {
            timing: timing.clone(),
            timed_runs: 1,
            check,
            ..RunOptions::default()
        };
        // A compile failure is the outcome's to report; only the device can
        // fail here.
        let _ = runner.kernel(kernel).map_err(to_gpu_error)?;
        progress("data", 0);
        match runner.data(kernel.precision, kernel.uplo, n, &options) {
            Ok(_) => {}
            Err(SymvError::Gpu(e)) => return Err(e),
            Err(other) => return Ok(Invalid::runtime(other.to_string()).into()),
        }
        progress("run", launches(&options));
        let outcome = match runner.measure(kernel, &options) {
            Ok(o) => o,
            Err(SymvError::Gpu(e)) => return Err(e),
            Err(other) => return Ok(Invalid::runtime(other.to_string()).into()),
        };
        Ok(match outcome {
            SymvOutcome::Valid(m) => Measurement::Ok(
                timing_of(&m.times[0])
                    .with_work(Some(symv_bytes(n, kernel.precision.size())), Some(flops(n))),
            ),
            SymvOutcome::Invalid { kind, reason } => Measurement::invalid(kind, reason),
        })
    }
}

/// Launches one evaluation makes after its data is ready, for the
/// supervisor's deadline: the two checks (each a fill and a product), then
/// per timed run the warm-up and timed products and an L2 flush before each.
fn launches(options: &RunOptions) -> u32 {
    let t = &options.timing;
    let per_run = t.warmup.saturating_add(t.reps.saturating_mul(2));
    4u32.saturating_add(options.timed_runs.max(1).saturating_mul(per_run))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hone_tuner::{InvalidKind, JobSpec};

    fn tuner_config(pairs: &[(&str, i64)]) -> hone_tuner::Config {
        hone_tuner::Config::new(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), ParamValue::Int(*v)))
                .collect(),
        )
    }

    #[test]
    fn library_names_round_trip() {
        for p in Precision::ALL {
            for u in Uplo::ALL {
                assert_eq!(library_target(&library_name(p, u)), Some((p, u)));
            }
        }
        assert_eq!(
            library_target("dsymv_L"),
            Some((Precision::Double, Uplo::Lower))
        );
        assert_eq!(library_target("zsymv_lower"), None);
        assert_eq!(library_target("dsymv"), None);
    }

    #[test]
    fn alg_picks_the_kernel_and_its_parameters() {
        let atomic = tuner_config(&[
            ("ALG", 0),
            ("NB", 0),
            ("BLOCK_SIZE", 128),
            ("UX", 8),
            ("NP", 4),
        ]);
        let k = kernel_of(Precision::Double, Uplo::Lower, &atomic).unwrap();
        assert_eq!(k.algorithm, Algorithm::Atomic);
        assert_eq!(
            k.config,
            super::super::config([("BLOCK_SIZE", 128), ("UX", 8), ("NP", 4)])
        );
        let lu = tuner_config(&[("ALG", 1), ("NB", 8), ("BLOCK_SIZE", 64), ("UX", 8)]);
        let k = kernel_of(Precision::Single, Uplo::Upper, &lu).unwrap();
        assert_eq!(k.algorithm, Algorithm::LowerUpper);
        assert_eq!(
            k.config,
            super::super::config([("BLOCK_SIZE", 64), ("NB", 8)])
        );
        assert_eq!(k.uplo, Uplo::Upper);
        // No ALG: the atomic kernel.
        let plain = tuner_config(&[("BLOCK_SIZE", 64)]);
        assert_eq!(
            kernel_of(Precision::Double, Uplo::Lower, &plain)
                .unwrap()
                .algorithm,
            Algorithm::Atomic
        );
        let bad = tuner_config(&[("ALG", 2)]);
        assert!(kernel_of(Precision::Double, Uplo::Lower, &bad).is_err());
        let stray = tuner_config(&[("ALG", 0), ("NB", 8)]);
        let e = kernel_of(Precision::Double, Uplo::Lower, &stray).unwrap_err();
        assert!(e.to_string().contains("NB"), "{e}");
    }

    /// A job's parameters with their integer values.
    fn int_params(spec: &hone_tuner::JobSpec) -> Vec<(String, Vec<i64>)> {
        spec.params
            .iter()
            .map(|ps| {
                let v = ps.values.iter().map(|v| v.as_int().unwrap()).collect();
                (ps.name.clone(), v)
            })
            .collect()
    }

    #[test]
    fn job_parameters_are_checked_against_the_templates() {
        let p = |pairs: &[(&str, &[i64])]| -> Vec<(String, Vec<i64>)> {
            pairs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_vec()))
                .collect()
        };
        let (d, l) = (Precision::Double, Uplo::Lower);
        check_job_params(
            d,
            l,
            &p(&[("ALG", &[0, 1]), ("UX", &[8, 16]), ("NB", &[0, 4])]),
        )
        .unwrap();
        let e = check_job_params(d, l, &p(&[("UXX", &[8])])).unwrap_err();
        assert!(e.contains("`UXX`") && e.contains("UX"), "{e}");
        let e = check_job_params(d, l, &p(&[("UX", &[7])])).unwrap_err();
        assert!(e.contains("UX = 7"), "{e}");
        let e = check_job_params(d, l, &p(&[("ALG", &[2])])).unwrap_err();
        assert!(e.contains("ALG = 2"), "{e}");
        // VEC = 4 exists for single precision only.
        assert!(check_job_params(d, l, &p(&[("VEC", &[4])])).is_err());
        check_job_params(Precision::Single, l, &p(&[("VEC", &[4])])).unwrap();
        // The routines' own job spaces pass.
        for pr in Precision::ALL {
            for u in Uplo::ALL {
                let mut spec = hone_tuner::JobSpec::from_toml(
                    "name = \"j\"\nsizes = [512]\nstrategy = { kind = \"exhaustive\" }\n[kernel]\nname = \"j\"\n[[param]]\nname = \"ALG\"\nvalues = [0]",
                    "j.toml",
                )
                .unwrap();
                spec.params = job_space(pr, u).0;
                check_job_params(pr, u, &int_params(&spec)).unwrap();
            }
        }
    }

    #[test]
    fn kernels_outside_their_template_are_constraints_before_compiling() {
        let limits = DeviceLimits::h100_sxm();
        let lu = |nb| {
            SymvKernel::new(
                Precision::Double,
                Uplo::Lower,
                Algorithm::LowerUpper,
                super::super::config([("BLOCK_SIZE", 64), ("NB", nb)]),
            )
        };
        let refused = |k: &SymvKernel| {
            super::super::device::compile_job(k, &limits, false)
                .err()
                .expect("refused before compiling")
        };
        let not_among = refused(&lu(0));
        assert_eq!(not_among.kind, InvalidKind::Constraint, "{not_among}");
        assert!(
            not_among.reason.contains("is not among its values"),
            "{not_among}"
        );
        let missing = refused(&SymvKernel::new(
            Precision::Double,
            Uplo::Lower,
            Algorithm::Atomic,
            super::super::config([("BLOCK_SIZE", 64)]),
        ));
        assert_eq!(missing.kind, InvalidKind::Constraint, "{missing}");
        assert!(missing.reason.contains("is missing"), "{missing}");
        assert!(super::super::device::compile_job(&lu(8), &limits, false).is_ok());
    }

    #[test]
    fn requests_survive_the_wire() {
        let k = SymvKernel::new(
            Precision::Double,
            Uplo::Lower,
            Algorithm::LowerUpper,
            super::super::config([("BLOCK_SIZE", 64), ("NB", 8)]),
        );
        let r = crate::routine::tuning::Request {
            kernel: k.clone(),
            key: "n=1000".parse().unwrap(),
            timing: TimingOptions::default(),
            check: true,
        };
        let v = serde_json::to_value(&r).unwrap();
        let back: crate::routine::tuning::Request<SymvKernel> = serde_json::from_value(v).unwrap();
        assert_eq!(back.kernel, k);
        assert_eq!(SymvTune::size_of(&back.key), Some(1000));
    }

    #[test]
    fn a_job_naming_a_routine_inherits_its_space() {
        let text = |extra: &str| {
            format!(
                "name = \"j\"\nsizes = [512]\nstrategy = {{ kind = \"exhaustive\" }}\n{extra}\n\
                 [kernel]\nname = \"j\"\nlibrary = \"ssymv_upper\"\n"
            )
        };
        let mut spec = JobSpec::from_toml(&text("constraints = [\"UX <= 12\"]"), "j.toml").unwrap();
        crate::routine::tuning::inherit::<SymvTune>(&mut spec, (Precision::Single, Uplo::Upper))
            .unwrap();
        let (params, constraints) = job_space(Precision::Single, Uplo::Upper);
        assert_eq!(spec.params, params);
        // The routine's constraints first, the job's own after them.
        assert_eq!(spec.constraints[..constraints.len()], constraints[..]);
        assert_eq!(
            spec.constraints.last().map(String::as_str),
            Some("UX <= 12")
        );
        assert!(constraints
            .iter()
            .any(|c| c.starts_with("ALG == 1 || MULTIPLICITY * (4 * ")));
        // A job that states its parameters keeps them, checked.
        let mut own =
            JobSpec::from_toml(&text("[[param]]\nname = \"UX\"\nvalues = [7]"), "j.toml").unwrap();
        let e =
            crate::routine::tuning::inherit::<SymvTune>(&mut own, (Precision::Single, Uplo::Upper))
                .unwrap_err();
        assert!(e.contains("UX = 7"), "{e}");
        // Without a routine, a job needs parameters.
        let none = "name = \"j\"\nsizes = [512]\nstrategy = { kind = \"exhaustive\" }\n[kernel]\nname = \"j\"\n";
        assert!(JobSpec::from_toml(none, "j.toml").is_err());
    }

    #[test]
    fn job_files_agree_with_the_templates_constraints() {
        use super::super::symv_template;
        use std::collections::HashSet;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kernels/symv/tune");
        let limits = DeviceLimits::h100_sxm();
        let mut props = hone_tuner::DeviceProps::new();
        for (k, v) in limits.named() {
            props.set(k, v);
        }
        for p in Precision::ALL {
            for u in Uplo::ALL {
                let name = library_name(p, u);
                let mut spec = hone_tuner::JobSpec::load(dir.join(format!("{name}.toml"))).unwrap();
                assert_eq!(spec.kernel.library.as_deref(), Some(name.as_str()));
                crate::routine::tuning::inherit::<SymvTune>(&mut spec, (p, u)).unwrap();
                let valid = hone_tuner::Space::new(spec.space_spec(), props.clone())
                    .unwrap()
                    .enumerate();
                let mut kernels = HashSet::new();
                let mut lu = 0;
                for i in 0..valid.len() {
                    let k = kernel_of(p, u, &valid.config(i)).unwrap();
                    let t = symv_template(p, u, k.algorithm);
                    assert!(
                        t.is_valid(&k.config, &limits).unwrap(),
                        "{name}: {}",
                        k.label()
                    );
                    lu += usize::from(k.algorithm == Algorithm::LowerUpper);
                    assert!(kernels.insert(k), "{name}: a kernel appears twice");
                }
                // Every combination of the job's values that the template
                // accepts is a kernel of the job's space.
                let lists = int_params(&spec);
                let total: usize = lists.iter().map(|l| l.1.len()).product();
                let mut accepted = 0;
                for mut index in 0..total {
                    let mut entries = Vec::new();
                    for (n, vs) in lists.iter().rev() {
                        entries
                            .push((n.clone(), hone_tuner::ParamValue::Int(vs[index % vs.len()])));
                        index /= vs.len();
                    }
                    let c = hone_tuner::Config::new(entries);
                    let Ok(k) = kernel_of(p, u, &c) else { continue };
                    if k.algorithm == Algorithm::Atomic && k.config["BLOCK_SIZE"] < 64 {
                        continue;
                    }
                    let t = symv_template(p, u, k.algorithm);
                    if t.is_valid(&k.config, &limits).unwrap_or(false) {
                        accepted += 1;
                        assert!(kernels.contains(&k), "{name}: {} is missing", k.label());
                    }
                }
                assert!(accepted >= kernels.len());
                assert_eq!(lu, 16, "{name}: every L+U kernel once");
                assert!(valid.len() > 2_000, "{name}: {} valid", valid.len());
                println!("{name}: {} valid ({lu} L+U)", valid.len());
            }
        }
    }
}
