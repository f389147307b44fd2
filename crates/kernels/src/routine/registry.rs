//! Every routine the library ships. A new routine adds one line here, and
//! one more if `hone tune` tunes it.

use hone_gpu::{DeviceProps, IsolatedEvaluator, ModuleCache, WorkerExtension};
use hone_tuner::JobSpec;

use super::tuning::{inherit, open_job, LibraryJob, LibraryWorker, Tunable, TuneOptions};
use super::Routine;

static ROUTINES: &[&dyn Routine] = &[
    &crate::symv::routine::SymvRoutine,
    &crate::gemm::routine::GemmRoutine,
    &crate::gemm::emulated::EmulatedRoutine::DGEMM,
    &crate::gemm::emulated::EmulatedRoutine::DDGEMM,
    &crate::fft::routine::FftRoutine,
];

/// A library job's evaluator and its device, or why the device failed.
pub type Opened = hone_gpu::Result<(Box<dyn LibraryJob>, DeviceProps)>;

static TUNABLE: &[Tuning] = &[
    Tuning::of::<crate::symv::tuning::SymvTune>(),
    Tuning::of::<crate::gemm::tuning::GemmTune>(),
];

/// A tunable routine's entry points: the generic tuning code, instantiated
/// once per routine, behind plain functions so that programs running jobs
/// need not name the routines.
pub struct Tuning {
    /// The `library` names of jobs this routine tunes.
    pub names: fn() -> Vec<String>,
    accepts: fn(&str) -> bool,
    prepare: fn(&mut JobSpec, &str) -> Result<(), String>,
    open: fn(&str, IsolatedEvaluator, TuneOptions, ModuleCache) -> Option<Opened>,
    /// The worker extension that measures this routine's kernels.
    pub worker: fn() -> Box<dyn WorkerExtension>,
}

impl Tuning {
    const fn of<T: Tunable>() -> Tuning {
        Tuning {
            names: T::names,
            accepts: |library| T::target(library).is_some(),
            prepare: |spec, library| match T::target(library) {
                Some(target) => inherit::<T>(spec, target),
                None => Ok(()),
            },
            open: |library, worker, options, cache| {
                T::target(library).map(|t| open_job::<T>(t, worker, options, cache))
            },
            worker: || Box::new(LibraryWorker::<T>::new()),
        }
    }
}

/// The tunable routines.
pub fn tunable() -> &'static [Tuning] {
    TUNABLE
}

fn tuning_of(library: &str) -> Result<&'static Tuning, String> {
    TUNABLE
        .iter()
        .find(|t| (t.accepts)(library))
        .ok_or_else(|| {
            let known: Vec<String> = TUNABLE.iter().flat_map(|t| (t.names)()).collect();
            format!(
                "unknown library kernel `{library}` (hone's library has {})",
                known.join(", ")
            )
        })
}

/// Gives a job that names a library routine (`library = "dgemm_nn"`) the
/// routine's space, or checks the space it states; other jobs are left as
/// written.
pub fn prepare_library_job(spec: &mut JobSpec) -> Result<(), String> {
    let Some(library) = spec.kernel.library.clone() else {
        return Ok(());
    };
    (tuning_of(&library)?.prepare)(spec, &library)
}

/// The evaluator of a job on the library routine `library`, measuring in
/// `worker`.
pub fn open_library_job(
    library: &str,
    worker: IsolatedEvaluator,
    options: TuneOptions,
    cache: ModuleCache,
) -> Result<Opened, String> {
    let t = tuning_of(library)?;
    Ok((t.open)(library, worker, options, cache).expect("the routine accepted the name"))
}

/// Every routine's worker extension, for the GPU worker to register.
pub fn worker_extensions() -> Vec<Box<dyn WorkerExtension>> {
    TUNABLE.iter().map(|t| (t.worker)()).collect()
}

/// The shipped routines, in listing order.
pub fn routines() -> &'static [&'static dyn Routine] {
    ROUTINES
}

/// The routine called `name`, or an error listing the known ones.
pub fn find(name: &str) -> super::Result<&'static dyn Routine> {
    routines()
        .iter()
        .copied()
        .find(|r| r.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            super::LibError::Usage(format!(
                "unknown routine `{name}` (hone ships: {})",
                routines()
                    .iter()
                    .map(|r| r.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routines_are_found_by_name_and_unknown_ones_listed() {
        assert_eq!(find("SYMV").unwrap().name(), "symv");
        let e = find("trsv").err().unwrap().to_string();
        assert!(e.contains("`trsv`") && e.contains("symv"), "{e}");
        let mut names: Vec<_> = routines().iter().map(|r| r.name()).collect();
        names.dedup();
        assert_eq!(names.len(), routines().len());
    }

    #[test]
    fn library_jobs_find_their_routine_and_unknown_ones_are_listed() {
        let job = |library: &str| {
            JobSpec::from_toml(
                &format!(
                    "name = \"j\"\nsizes = [512]\nstrategy = {{ kind = \"exhaustive\" }}\n\
                     [kernel]\nname = \"j\"\nlibrary = \"{library}\"\n"
                ),
                "j.toml",
            )
            .unwrap()
        };
        for library in ["dsymv_lower", "ssymv_upper", "dgemm_tn", "sgemm_3xtf32_nn"] {
            let mut spec = job(library);
            prepare_library_job(&mut spec).unwrap();
            assert!(!spec.params.is_empty(), "{library}: no space inherited");
        }
        let e = prepare_library_job(&mut job("zgemm_nn")).unwrap_err();
        assert!(
            e.contains("`zgemm_nn`") && e.contains("dsymv_lower") && e.contains("dgemm_nn"),
            "{e}"
        );
        let names: Vec<String> = worker_extensions()
            .iter()
            .map(|w| w.name().to_string())
            .collect();
        assert_eq!(names, ["symv", "gemm"]);
    }
}
