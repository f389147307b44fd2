//! Cases in batches: generation, front end and emulation on all cores, one
//! NVRTC module per batch, then (with a GPU) each kernel launched in order
//! and compared with the emulator's buffers.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use hone_emulator::Buffer;
use hone_gpu::{CompiledModule, Gpu, GpuError, Target};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ast::Kernel;
use crate::check::{self, Difference, Failure, Stage};
use crate::compile;
use crate::device::{DeviceFailure, Loaded};
use crate::gen::Case;

/// What happened to one case.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CaseResult {
    pub index: u64,
    /// `pass`, or the stage that failed (`front_end`, `round_trip`,
    /// `emulator`, `compile`, `gpu`, `mismatch`); `compiler` for a mismatch
    /// that the GPU compiler's optimisations make (a build without them
    /// gives the emulator's values).
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub message: Option<String>,
    /// Which NVRTC input differed from the emulator: `generated` (the
    /// kernel as generated) or `printed` (hone's print of its IR).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub variant: Option<String>,
}

impl CaseResult {
    fn pass(index: u64) -> CaseResult {
        CaseResult {
            index,
            status: "pass".into(),
            message: None,
            variant: None,
        }
    }

    fn failed(index: u64, f: &Failure) -> CaseResult {
        CaseResult {
            index,
            status: stage_name(&f.stage).into(),
            message: Some(f.message.clone()),
            variant: None,
        }
    }
}

pub fn stage_name(s: &Stage) -> &'static str {
    match s {
        Stage::FrontEnd => "front_end",
        Stage::RoundTrip => "round_trip",
        Stage::Emulator => "emulator",
        Stage::Compile => "compile",
        Stage::Gpu => "gpu",
        Stage::Mismatch => "mismatch",
    }
}

/// One case after the CPU half.
pub struct Prepared {
    pub case: Case,
    /// The emulator's buffers, or where the case stopped.
    pub emulated: Result<Vec<Buffer>, Failure>,
    /// The NVRTC inputs (generated, printed) when the case got that far.
    pub sources: Option<(String, String)>,
}

pub fn prepare(case: Case) -> Prepared {
    let module = match check::front_end(&case) {
        Ok(m) => m,
        Err(f) => {
            return Prepared {
                case,
                emulated: Err(f),
                sources: None,
            }
        }
    };
    let emulated = check::emulate(&case, &module);
    let sources = Some((
        compile::generated_source(&case.kernel),
        compile::printed_source(&case.kernel, &module),
    ));
    Prepared {
        case,
        emulated,
        sources,
    }
}

/// A batch after compilation.
pub struct Batch {
    pub number: usize,
    pub items: Vec<Prepared>,
    pub module: Option<CompiledModule>,
    /// Per item: NVRTC's complaint about its generated or printed source.
    pub compile_errors: Vec<Option<String>>,
    pub printed_every: u64,
}

/// Prepares and compiles `cases` in batches of `batch` on all cores (the
/// printed kernel of every `printed_every`-th case too, none for 0),
/// handing each batch to `consume` on the calling thread as soon as it is
/// ready, in order, until it returns false. Without a target nothing is
/// compiled.
pub fn run_batches(
    cases: Vec<Case>,
    batch: usize,
    printed_every: u64,
    target: Option<Target>,
    mut consume: impl FnMut(Batch) -> bool,
) -> Result<(), GpuError> {
    let chunks: Vec<Vec<Case>> = cases.chunks(batch.max(1)).map(|c| c.to_vec()).collect();
    let total = chunks.len();
    let (tx, rx) = mpsc::channel::<Result<Batch, GpuError>>();
    // Workers take batches in order, so they finish roughly in the order
    // the consumer needs them, and stop taking new ones when told.
    let taken = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..rayon::current_num_threads().max(1) {
            let tx = tx.clone();
            let (taken, stop, chunks, target) = (&taken, &stop, &chunks, &target);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let number = taken.fetch_add(1, Ordering::Relaxed);
                let Some(cases) = chunks.get(number) else {
                    break;
                };
                let built = build_batch(number, cases.clone(), printed_every, target.as_ref());
                if tx.send(built).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut waiting = std::collections::BTreeMap::new();
        let mut next = 0;
        let finish = |result| {
            stop.store(true, Ordering::Relaxed);
            result
        };
        while next < total {
            let Ok(b) = rx.recv() else { break };
            let b = match b {
                Ok(b) => b,
                Err(e) => return finish(Err(e)),
            };
            waiting.insert(b.number, b);
            while let Some(b) = waiting.remove(&next) {
                next += 1;
                if !consume(b) {
                    return finish(Ok(()));
                }
            }
        }
        finish(Ok(()))
    })
}

fn build_batch(
    number: usize,
    cases: Vec<Case>,
    printed_every: u64,
    target: Option<&Target>,
) -> Result<Batch, GpuError> {
    let items: Vec<Prepared> = cases.into_par_iter().map(prepare).collect();
    let mut compile_errors = vec![None; items.len()];
    let mut module = None;
    if let Some(target) = target {
        let mut sources = Vec::new();
        let mut owners = Vec::new();
        for (i, p) in items.iter().enumerate() {
            if let Some((g, pr)) = &p.sources {
                sources.push(g.clone());
                owners.push(i);
                if with_printed(p.case.index, printed_every) {
                    sources.push(pr.clone());
                    owners.push(i);
                }
            }
        }
        let (m, errs) = compile::compile_many(&sources, &format!("batch{number}.cu"), target)?;
        module = m;
        for (owner, err) in owners.into_iter().zip(errs) {
            if let Some(e) = err {
                compile_errors[owner] = Some(e);
            }
        }
    }
    Ok(Batch {
        number,
        items,
        module,
        compile_errors,
        printed_every,
    })
}

/// Whether case `index` runs its printed kernel too.
pub fn with_printed(index: u64, every: u64) -> bool {
    every != 0 && index.is_multiple_of(every)
}

/// The CPU half's verdict on a prepared case (no GPU): pass when the front
/// end, round trip, emulator and, when compiled, NVRTC all accepted it.
pub fn cpu_result(p: &Prepared, compile_error: &Option<String>) -> CaseResult {
    match (&p.emulated, compile_error) {
        (Err(f), _) => CaseResult::failed(p.case.index, f),
        (Ok(_), Some(e)) => CaseResult {
            index: p.case.index,
            status: "compile".into(),
            message: Some(e.clone()),
            variant: None,
        },
        (Ok(_), None) => CaseResult::pass(p.case.index),
    }
}

/// Runs a compiled batch on the GPU. Returns the results in order, and
/// whether the context is still usable afterwards (a sticky fault ends the
/// batch at the faulting case).
pub fn run_on_gpu(gpu: &Gpu, target: &Target, batch: &Batch) -> (Vec<CaseResult>, bool) {
    let mut results = Vec::with_capacity(batch.items.len());
    let loaded = match &batch.module {
        Some(m) => match Loaded::load(gpu, m) {
            Ok(l) => Some(l),
            Err(e) => {
                for p in &batch.items {
                    results.push(CaseResult {
                        index: p.case.index,
                        status: "gpu".into(),
                        message: Some(format!("loading the batch's module: {}", e.message)),
                        variant: None,
                    });
                }
                return (results, !e.sticky);
            }
        },
        None => None,
    };
    for (p, err) in batch.items.iter().zip(&batch.compile_errors) {
        let verdict = cpu_result(p, err);
        let (Ok(emulated), "pass", Some(loaded)) = (&p.emulated, verdict.status.as_str(), &loaded)
        else {
            results.push(verdict);
            continue;
        };
        let printed = with_printed(p.case.index, batch.printed_every);
        match gpu_compare(gpu, target, loaded, p, emulated, printed) {
            Ok(r) => results.push(r),
            Err(e) => {
                results.push(CaseResult {
                    index: p.case.index,
                    status: "gpu".into(),
                    message: Some(e.message.clone()),
                    variant: None,
                });
                if e.sticky {
                    return (results, false);
                }
            }
        }
    }
    (results, true)
}

/// Launches the generated kernel of a case (and, with `printed`, hone's
/// print of it) and compares the buffers with the emulator's. A kernel that
/// differs is built again without the GPU compiler's optimisations
/// ([`UNOPTIMISED`]): when that build gives the emulator's values, the
/// optimised code is what differs, and the case is `compiler`.
pub fn gpu_compare(
    gpu: &Gpu,
    target: &Target,
    loaded: &Loaded,
    p: &Prepared,
    emulated: &[Buffer],
    printed: bool,
) -> Result<CaseResult, DeviceFailure> {
    let case = &p.case;
    let inputs = check::buffers(case);
    let k = &case.kernel;
    let mut variants = vec![("generated", k.name.clone())];
    if printed {
        variants.push(("printed", compile::printed_name(k)));
    }
    for (variant, name) in variants {
        let out = loaded.run(gpu, &name, k.grid, k.block, &inputs)?;
        let Some(d) = check::compare(emulated, &out) else {
            continue;
        };
        let source = p.sources.as_ref().map(|(generated, printed)| {
            if variant == "printed" {
                printed
            } else {
                generated
            }
        });
        let unoptimised = match source {
            Some(source) => {
                agreeing_unoptimised_build(gpu, target, source, &name, case, &inputs, emulated)?
            }
            None => None,
        };
        let (status, message) = match unoptimised {
            Some(build) => (
                "compiler",
                format!(
                    "{}; built with {build}, the GPU gives the emulator's values",
                    describe(&d)
                ),
            ),
            None => ("mismatch", describe(&d)),
        };
        return Ok(CaseResult {
            index: case.index,
            status: status.into(),
            message: Some(message),
            variant: Some(variant.into()),
        });
    }
    Ok(CaseResult::pass(case.index))
}

/// NVRTC options that turn the GPU compiler's optimisations off, tried in
/// turn: ptxas's alone first, which names the stage, then every stage's.
pub const UNOPTIMISED: &[(&str, &str)] = &[
    ("`--ptxas-options=-O0`", "--ptxas-options=-O0"),
    ("`-G` (no optimisation)", "-G"),
];

/// The first build of [`UNOPTIMISED`] whose run on `inputs` gives the
/// emulator's buffers; `None` when none does (or none compiles).
fn agreeing_unoptimised_build(
    gpu: &Gpu,
    target: &Target,
    source: &str,
    name: &str,
    case: &Case,
    inputs: &[Buffer],
    emulated: &[Buffer],
) -> Result<Option<&'static str>, DeviceFailure> {
    for (build, option) in UNOPTIMISED {
        let mut options = compile::options();
        options.extra.push(option.to_string());
        let Ok(module) = hone_gpu::nvrtc::compile(source, "unoptimised.cu", &options, target)
        else {
            continue;
        };
        let loaded = Loaded::load(gpu, &module)?;
        let out = loaded.run(gpu, name, case.kernel.grid, case.kernel.block, inputs)?;
        if check::compare(emulated, &out).is_none() {
            return Ok(Some(build));
        }
    }
    Ok(None)
}

pub fn describe(d: &Difference) -> String {
    let thread = d
        .thread
        .map(|t| format!(" (thread {t})"))
        .unwrap_or_default();
    format!(
        "{}[{}]{thread}: emulator {}, GPU {}; {} element(s) differ",
        d.buffer, d.index, d.emulator, d.gpu, d.count
    )
}

/// A kernel renamed, for a module holding several versions of one case.
pub fn renamed(kernel: &Kernel, name: String) -> Kernel {
    Kernel {
        name,
        ..kernel.clone()
    }
}
