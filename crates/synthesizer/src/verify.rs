//! Verification in the emulator: the emitted kernel (as parsed back from
//! its text) against the annotated kernel without annotations, on launches
//! other than the profile's, on random data; outputs compared bit for bit;
//! races looked for in the emitted kernel.

use hone_emulator::{AccessKind, Buffer, FaultKind, Options, Race, Report};
use hone_ir::{AddressSpace, Function, Module, Span};
use serde::Serialize;

use crate::data::fill_random;
use crate::emit::DynShared;
use hone_ir::path::{self as walk, Path};
use hone_launch::LaunchData;

/// One launch's check.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    pub launch: String,
    /// Buffers compared, with their element counts.
    pub compared: Vec<(String, usize)>,
    pub passed: bool,
    /// What went wrong, when something did.
    pub problem: Option<String>,
}

/// The outcome of running every verification launch once.
pub struct Outcome {
    pub checks: Vec<Check>,
    /// Races in shared memory found in the emitted kernel (first per launch).
    pub shared_races: Vec<Race>,
    /// A fault of the emitted kernel, with its kind.
    pub fault: Option<(FaultKind, String)>,
    /// Index of the first launch whose outputs differ (or where the
    /// emitted kernel faults other than at a barrier).
    pub mismatch: Option<usize>,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

pub struct Subject<'a> {
    pub module: &'a Module,
    pub kernel: &'a str,
    pub dynamic: Option<&'a DynShared>,
    /// The parsed emitted kernel (for parameter lookups in length expressions).
    pub function: &'a Function,
}

fn options(tolerate: bool) -> Options {
    Options {
        tolerate_same_value_races: tolerate,
        parallel: false,
        detect_races: true,
        warn_uninitialized_shared: false,
        ..Options::default()
    }
}

/// Runs the original kernel on `launch` with random data of seed `seed`.
pub fn run_original(
    original: &Module,
    kernel: &str,
    launch: &LaunchData,
    seed: u64,
    tolerate: bool,
) -> Result<(Vec<Buffer>, Report), String> {
    let mut buffers = launch.buffers.clone();
    fill_random(&mut buffers, seed);
    let report = hone_emulator::run(
        original,
        kernel,
        &launch.config,
        &launch.args,
        &mut buffers,
        &options(tolerate),
        None,
    )
    .map_err(|e| format!("{}: {e}", launch.name))?;
    Ok((buffers, report))
}

/// Whether the original kernel relies on same-value races (temporal
/// blocking's redundant halo writes): it races without the tolerance and
/// not with it.
pub fn needs_tolerance(
    original: &Module,
    kernel: &str,
    launch: &LaunchData,
) -> Result<bool, String> {
    let (_, strict) = run_original(original, kernel, launch, 1, false)?;
    if strict.races.is_empty() {
        return Ok(false);
    }
    let (_, tolerant) = run_original(original, kernel, launch, 1, true)?;
    Ok(tolerant.races.is_empty())
}

/// Runs every launch on the original and the subject and compares.
pub fn check(
    original: &Module,
    subject: &Subject,
    launches: &[LaunchData],
    excluded: &[String],
    tolerate: bool,
    describe: &dyn Fn(Span) -> String,
) -> Outcome {
    let mut out = Outcome {
        checks: Vec::new(),
        shared_races: Vec::new(),
        fault: None,
        mismatch: None,
    };
    for (i, launch) in launches.iter().enumerate() {
        let seed = 0x1000 + i as u64;
        let mut check = Check {
            launch: launch.name.clone(),
            compared: Vec::new(),
            passed: false,
            problem: None,
        };
        let (want, orig_report) =
            match run_original(original, subject.kernel, launch, seed, tolerate) {
                Ok(x) => x,
                Err(e) => {
                    check.problem = Some(e);
                    out.checks.push(check);
                    continue;
                }
            };
        if let Some(f) = orig_report.faults.first() {
            check.problem = Some(format!(
                "the annotated kernel itself faults on this launch ({}); the derived sizes do not suit it, give verification launches explicitly",
                f.message
            ));
            out.checks.push(check);
            continue;
        }
        let mut buffers = launch.buffers.clone();
        fill_random(&mut buffers, seed);
        let mut config = launch.config.clone();
        if let Some(d) = subject.dynamic {
            match d.launch_bytes(&subject.function.params, &config, &launch.args) {
                Ok(b) => config.dynamic_shared_bytes = b,
                Err(e) => {
                    check.problem = Some(e);
                    out.checks.push(check);
                    continue;
                }
            }
        }
        let report = match hone_emulator::run(
            subject.module,
            subject.kernel,
            &config,
            &launch.args,
            &mut buffers,
            &options(tolerate),
            None,
        ) {
            Ok(r) => r,
            Err(e) => {
                check.problem = Some(format!("{}: {e}", launch.name));
                out.checks.push(check);
                continue;
            }
        };
        if let Some(f) = report.faults.first() {
            check.problem = Some(format!(
                "the synthesized kernel faults: {} at {}",
                fault_text(&f.kind),
                describe(f.span)
            ));
            if out.fault.is_none() {
                out.fault = Some((f.kind.clone(), check.problem.clone().unwrap_or_default()));
            }
            // A wrong index can fault as well as give wrong values.
            if !matches!(f.kind, FaultKind::BarrierDivergence) && out.mismatch.is_none() {
                out.mismatch = Some(i);
            }
            out.checks.push(check);
            continue;
        }
        let mut problems = Vec::new();
        for (w, g) in want.iter().zip(&buffers) {
            if excluded.contains(&w.name) {
                continue;
            }
            check.compared.push((w.name.clone(), w.len()));
            if w.data != g.data {
                let size = w.elem_size();
                let at = w
                    .data
                    .chunks(size)
                    .zip(g.data.chunks(size))
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                let (wv, gv) = (element(w, at), element(g, at));
                problems.push(format!(
                    "`{}` differs first at element {at}: {gv} instead of {wv}",
                    w.name
                ));
            }
        }
        if !problems.is_empty() && out.mismatch.is_none() {
            out.mismatch = Some(i);
        }
        let original_races: Vec<(String, AddressSpace)> = orig_report
            .races
            .iter()
            .map(|r| (r.array.clone(), r.space))
            .collect();
        for r in &report.races {
            if r.space == AddressSpace::Shared {
                if !out
                    .shared_races
                    .iter()
                    .any(|x| x.first.span == r.first.span && x.second.span == r.second.span)
                {
                    out.shared_races.push(r.clone());
                }
                problems.push(format!(
                    "race on shared `{}`: {} at {} and {} at {}",
                    r.array,
                    kind(r.first.kind),
                    describe(r.first.span),
                    kind(r.second.kind),
                    describe(r.second.span)
                ));
            } else if !original_races.contains(&(r.array.clone(), r.space)) {
                problems.push(format!(
                    "race on global `{}` that the original kernel does not have",
                    r.array
                ));
            }
        }
        check.passed = problems.is_empty() && report.completed;
        if !report.completed && problems.is_empty() {
            problems.push("did not complete".into());
        }
        check.problem = (!problems.is_empty()).then(|| problems.join("; "));
        out.checks.push(check);
    }
    out
}

fn kind(k: AccessKind) -> &'static str {
    match k {
        AccessKind::Load => "read",
        AccessKind::Store => "write",
        AccessKind::Atomic => "atomic",
    }
}

fn element(b: &Buffer, i: usize) -> String {
    let v = b.to_f64_vec();
    let per = v.len() / b.len().max(1);
    v.get(i * per)
        .map_or_else(|| "?".into(), |x| format!("{x}"))
}

pub fn fault_text(k: &FaultKind) -> String {
    match k {
        FaultKind::OutOfBounds {
            array,
            index,
            length,
            ..
        } => format!("index {index} outside `{array}` ({length} elements)"),
        FaultKind::BarrierDivergence => "barrier divergence".into(),
        other => format!("{other:?}"),
    }
}

/// The innermost statement whose own expressions include one spanning `span`.
fn stmt_of(f: &Function, span: Span) -> Option<Path> {
    let mut hit = None;
    walk::each_stmt(&f.body, &mut |s, path| {
        let mut here = false;
        for (_, e) in walk::stmt_exprs(s) {
            walk::visit(e, &mut |x| here |= x.span == span);
        }
        if here {
            hit = Some(path.clone());
        }
    });
    hit
}

/// Where a `__syncthreads()` orders the two accesses of a race: right after
/// the statement holding the first access, in the innermost statement list
/// holding both. Returns that list's statement path prefix and the index to
/// insert at; `outward` moves the barrier that many lists further out (when
/// the innermost one is not run by every thread).
pub fn barrier_position(f: &Function, race: &Race, outward: usize) -> Option<(Path, usize)> {
    let p1 = stmt_of(f, race.first.span)?;
    let p2 = stmt_of(f, race.second.span)?;
    if p1 == p2 {
        return None;
    }
    let mut level = 0;
    while level < p1.len() && level < p2.len() && p1[level] == p2[level] {
        level += 1;
    }
    if level >= p1.len() || level >= p2.len() || p1[level].0 != p2[level].0 {
        // One statement contains the other, or they sit in different lists
        // of one statement (then/else): order around the whole statement.
        level = level.checked_sub(1)?;
    }
    let level = level.checked_sub(outward)?;
    let mut at: Path = p1[..=level].to_vec();
    let idx = at[level].1 + 1;
    at[level].1 = idx;
    Some((at, idx))
}
