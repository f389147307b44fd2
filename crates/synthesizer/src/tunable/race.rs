//! The race: each contender chunked where that is possible and verified,
//! checked in the emulator against the original kernel before it enters,
//! and the template expressions that launch it.

use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_ir::{Function, Module, Scalar, Type, VarId, VarKind};
use hone_launch::LaunchData;

use super::problem::{param_expr, Shape};
use super::text::shared_text;
use super::{input, read_back, VariantReport, WHOLE};
use crate::data::fill_random;
use crate::emit::{int_arg, DynShared};
use crate::error::SynthError;
use crate::zchunk::{self, CHUNK_PARAM};

/// A kernel entering the race.
pub(super) struct Contender<'a> {
    pub label: String,
    /// Its module, the kernel under the annotated kernel's name.
    pub module: &'a Module,
    pub dynamic: Option<&'a DynShared>,
    /// Whether to try chunking it (the kernel unchanged is not).
    pub chunkable: bool,
    /// Whether it enters chunked and with a register queue along its walk,
    /// or not at all.
    pub queue: bool,
}

/// The variants that entered, and how the template launches them.
pub(super) struct Race {
    pub reports: Vec<VariantReport>,
    /// Per variant: its namespace and its module, the kernel renamed
    /// `hone_variant_V`.
    pub printed: Vec<(String, Module)>,
    /// The grid's z extent, a term per variant.
    pub grid_z: String,
    /// Dynamic shared memory, a term per variant that takes some.
    pub shared: Option<String>,
    /// Contenders that did not enter, and why.
    pub left_out: Vec<String>,
}

/// The most blocks a launch may have along y or z.
const GRID_YZ_MAX: u32 = 65535;

/// The chunk length the kernels take: `ZCHUNK`, 0 standing for the whole walk.
pub(super) fn chunk_arg() -> String {
    format!("(ZCHUNK + (ZCHUNK == 0) * {WHOLE})")
}

/// Runs every contender's checks; adds the per-variant constraints to `shape`.
pub(super) fn run(
    contenders: &[Contender],
    kernel: &str,
    launches: &[LaunchData],
    original: &Module,
    compare: Compare,
    shape: &mut Shape,
) -> Result<Race, SynthError> {
    let chunk_arg = chunk_arg();
    let mut reports: Vec<VariantReport> = Vec::new();
    let mut printed = Vec::new();
    let mut grid_z_terms = Vec::new();
    let mut shared_terms = Vec::new();
    let mut left_out = Vec::new();
    for c in contenders {
        let v = reports.len() as i64;
        if !c.chunkable && reports.first().is_some_and(|r| r.chunked.is_none()) {
            // Variant 0 is already the kernel unchanged.
            continue;
        }
        let f = c
            .module
            .kernel(kernel)
            .expect("contenders hold the kernel")
            .1;
        let (kernel_v, report, trip) = match variant(
            c.module,
            f,
            v,
            &c.label,
            launches,
            original,
            kernel,
            c.dynamic,
            (c.chunkable, c.queue),
            compare,
        )? {
            Ok(entered) => entered,
            Err(why) => {
                left_out.push(format!("{}: {why}", c.label));
                continue;
            }
        };
        match &trip {
            Some(trip) => {
                let Some(trip) = trip(&|id| param_expr(f, &shape.arg_expr, id)) else {
                    return Err(input(format!(
                        "{}: the walk's length is not an expression of the problem sizes",
                        c.label
                    )));
                };
                grid_z_terms.push(format!("(HONE_VARIANT == {v}) * cdiv({trip}, {chunk_arg})"));
            }
            None => {
                grid_z_terms.push(format!("(HONE_VARIANT == {v})"));
                shape
                    .constraints
                    .push(format!("HONE_VARIANT != {v} || ZCHUNK == 0"));
            }
        }
        if let Some(d) = c.dynamic {
            let bytes = shared_text(d, f, &shape.arg_expr, &shape.block).ok_or_else(|| {
                input(format!(
                    "{}: the dynamic shared memory's size is not an expression of the block and problem sizes",
                    c.label
                ))
            })?;
            shared_terms.push(format!("(HONE_VARIANT == {v}) * ({bytes})"));
        }
        let mut m = c.module.clone();
        let (fid, _) = m.kernel(kernel).expect("variant kernels keep their name");
        let mut kv = kernel_v;
        kv.name = format!("hone_variant_{v}");
        m.functions[fid.0 as usize] = kv;
        printed.push((format!("hone_v{v}"), m));
        reports.push(report);
    }
    let grid_z = format!("max(1, {})", grid_z_terms.join(" + "));
    // The launch limits of the second and third grid dimensions: a short
    // chunk of a long walk, or a tall problem, must not ask for more blocks.
    shape
        .constraints
        .push(format!("{} <= {GRID_YZ_MAX}", shape.grid[1]));
    shape.constraints.push(format!("{grid_z} <= {GRID_YZ_MAX}"));
    Ok(Race {
        reports,
        printed,
        grid_z,
        shared: (!shared_terms.is_empty()).then(|| shared_terms.join(" + ")),
        left_out,
    })
}

type TripText = Box<dyn Fn(&dyn Fn(VarId) -> Option<String>) -> Option<String>>;

/// A contender that entered (its kernel, report and walk length), or why it
/// did not.
type Entry = Result<(Function, VariantReport, Option<TripText>), String>;

/// How variants are compared with the original kernel.
#[derive(Clone, Copy)]
pub(super) struct Compare<'a> {
    /// Same-value writes from several threads are not races.
    pub tolerate: bool,
    /// Intermediates the synthesized kernel no longer writes.
    pub folded: &'a [String],
}

/// One variant: chunked where that is possible and verified, otherwise as
/// it is with the chunk parameter unused.
#[allow(clippy::too_many_arguments)]
fn variant(
    module: &Module,
    f: &Function,
    v: i64,
    label: &str,
    launches: &[LaunchData],
    original: &Module,
    kernel: &str,
    dynamic: Option<&DynShared>,
    (chunkable, queue): (bool, bool),
    compare: Compare,
) -> Result<Entry, SynthError> {
    let mut report = VariantReport {
        variant: v,
        name: label.to_string(),
        chunked: None,
        unchunked_because: None,
        accumulated: Vec::new(),
        checks: Vec::new(),
        queue: Vec::new(),
    };
    let chunked = if chunkable {
        zchunk::chunk(module, f).map_err(|e| report.unchunked_because = Some(e))
    } else {
        report.unchunked_because =
            Some("the kernel as it is, in the race beside its chunked form".into());
        Err(())
    };
    // A queue is made on the chunked walk, or the contender does not enter.
    let chunked = match (chunked, queue) {
        (Ok(mut c), true) => {
            let first = launches
                .first()
                .ok_or_else(|| input("no verification launches"))?;
            match crate::queue::queue(module, &c.kernel, kernel, first, dynamic) {
                Ok(q) => {
                    c.kernel = q.kernel;
                    report.queue = q.pairs;
                    Ok(c)
                }
                Err(why) => return Ok(Err(why)),
            }
        }
        (Err(()), true) => {
            let why = report.unchunked_because.take().unwrap_or_default();
            return Ok(Err(format!("its walk cannot be chunked ({why})")));
        }
        (c, false) => c,
    };
    if let Ok(c) = chunked {
        // The buffers behind the accumulated pointer parameters.
        let zeroed: Vec<usize> = c
            .accumulated
            .iter()
            .filter_map(|name| f.params.iter().position(|&p| f.var(p).name == *name))
            .filter_map(|i| match launches.first()?.args.get(i)? {
                KernelArg::Buffer(b) => Some(*b),
                _ => None,
            })
            .collect();
        let trip_of = |l: &LaunchData| c.trip_count(&|id| int_arg(&f.params, &l.args, id));
        match check(
            module,
            &c.kernel,
            launches,
            original,
            kernel,
            dynamic,
            &trip_of,
            &[1, 2, 3, 0],
            &zeroed,
            compare,
        ) {
            Ok(checks) => {
                report.chunked = Some(c.inductions.clone());
                report.accumulated = zeroed
                    .iter()
                    .map(|&b| launches[0].buffers[b].name.clone())
                    .collect();
                report.checks = checks;
                let chunked = c.clone();
                let trip: TripText = Box::new(move |name| chunked.trip_text(name));
                return Ok(Ok((c.kernel, report, Some(trip))));
            }
            // Not entered, and why: its chunked form without the queue
            // fails the same way where the walk is too short to check.
            Err(e) if queue => return Ok(Err(e)),
            Err(e) => report.unchunked_because = Some(e),
        }
    }
    // Unchunked: the chunk parameter is taken and ignored.
    let mut g = f.clone();
    let id = g.add_var(hone_ir::Var::new(
        CHUNK_PARAM,
        Type::INT,
        VarKind::Param,
        f.span,
    ));
    g.params.push(id);
    report.checks = check(
        module,
        &g,
        launches,
        original,
        kernel,
        dynamic,
        &|_| Some(1),
        &[0],
        &[],
        compare,
    )
    .map_err(|e| SynthError::Input(format!("{label}: {e}")))?;
    Ok(Ok((g, report, None)))
}

/// Runs `g` (a variant of `kernel` in `module`) printed and read back, on
/// every launch with every chunk length, against the original kernel: all
/// buffers bit-equal, no faults, no races.
#[allow(clippy::too_many_arguments)]
fn check(
    module: &Module,
    g: &Function,
    launches: &[LaunchData],
    original: &Module,
    kernel: &str,
    dynamic: Option<&DynShared>,
    trip_of: &dyn Fn(&LaunchData) -> Option<i64>,
    chunks: &[i64],
    zeroed: &[usize],
    compare: Compare,
) -> Result<Vec<String>, String> {
    let mut m = module.clone();
    let (fid, _) = m.kernel(kernel).ok_or("variant kernel missing")?;
    m.functions[fid.0 as usize] = g.clone();
    let m = read_back(&m, kernel)?;
    let (_, pf) = m.kernel(kernel).expect("read_back checks the kernel");
    let options = hone_emulator::Options {
        tolerate_same_value_races: compare.tolerate,
        parallel: false,
        detect_races: true,
        warn_uninitialized_shared: false,
        ..hone_emulator::Options::default()
    };
    if launches.is_empty() {
        return Err("no verification launches".into());
    }
    // Chunks of 1, 2 and 3 planes split a walk only where it is longer:
    // with shorter walks the chunk starts would go unchecked.
    let longest = chunks.iter().copied().max().unwrap_or(0);
    if longest > 0 {
        let walk = launches.iter().filter_map(trip_of).max().unwrap_or(0);
        if walk <= longest {
            return Err(format!(
                "the verification launches walk at most {walk} planes, too few to check chunks of up to {longest}"
            ));
        }
    }
    let mut done = Vec::new();
    for (i, l) in launches.iter().enumerate() {
        let seed = 0x2000 + i as u64;
        // Outputs that chunks add into start at zero for the original too,
        // so that the elements no thread writes agree.
        let mut want: Vec<Buffer> = l.buffers.clone();
        fill_random(&mut want, seed);
        for &b in zeroed {
            want[b].data.fill(0);
        }
        hone_emulator::run(
            original, kernel, &l.config, &l.args, &mut want, &options, None,
        )
        .map_err(|e| format!("{}: {e}", l.name))?;
        let trip = trip_of(l).ok_or("the walk's length is not computable")?;
        for &zc in chunks {
            let mut config: LaunchConfig = l.config.clone();
            let len = if zc == 0 { WHOLE } else { zc };
            config.grid[2] = u32::try_from(((trip + len - 1) / len).max(1)).map_err(|_| "grid")?;
            if let Some(d) = dynamic {
                config.dynamic_shared_bytes = d.launch_bytes(&pf.params, &config, &l.args)?;
            }
            let mut args = l.args.clone();
            args.push(KernelArg::Int(len));
            let mut buffers: Vec<Buffer> = l.buffers.clone();
            fill_random(&mut buffers, seed);
            for &b in zeroed {
                buffers[b].data.fill(0);
            }
            let report =
                hone_emulator::run(&m, kernel, &config, &args, &mut buffers, &options, None)
                    .map_err(|e| format!("{}: {e}", l.name))?;
            let what = format!(
                "{} with {} plane(s) per chunk",
                l.name,
                if zc == 0 {
                    "all".to_string()
                } else {
                    zc.to_string()
                }
            );
            if let Some(f) = report.faults.first() {
                return Err(format!("{what}: faults: {}", f.message));
            }
            // Temporal blocking as written stores the halos of its global
            // intermediate from several threads; a load racing a store is
            // still a race (a chunk reading planes another chunk makes).
            let halo_stores = |r: &hone_emulator::Race| {
                compare.folded.contains(&r.array)
                    && r.first.kind == hone_emulator::AccessKind::Store
                    && r.second.kind == hone_emulator::AccessKind::Store
            };
            if let Some(r) = report.races.iter().find(|r| !halo_stores(r)) {
                return Err(format!("{what}: races ({})", r.describe(&m)));
            }
            for (i, (w, g)) in want.iter().zip(&buffers).enumerate() {
                if compare.folded.contains(&w.name) {
                    continue;
                }
                // Sums added up by chunks round in another order.
                let same = if zeroed.contains(&i) {
                    close(w, g)
                } else {
                    w.data == g.data
                };
                if !same {
                    return Err(format!(
                        "{what}: `{}` differs from the kernel as written",
                        w.name
                    ));
                }
            }
            done.push(format!(
                "{what}: outputs {}, no races",
                if zeroed.is_empty() {
                    "bit-equal"
                } else {
                    "bit-equal (sums within 1e-5)"
                }
            ));
        }
    }
    Ok(done)
}

/// Floating-point buffers equal within a relative 1e-5 of the largest
/// magnitude; others bit-equal.
fn close(want: &Buffer, got: &Buffer) -> bool {
    let values = |b: &Buffer| -> Option<Vec<f64>> {
        match &b.elem {
            Type::Scalar(Scalar::F32) => Some(
                b.data
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64)
                    .collect(),
            ),
            Type::Scalar(Scalar::F64) => Some(
                b.data
                    .chunks_exact(8)
                    .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
                    .collect(),
            ),
            _ => None,
        }
    };
    match (values(want), values(got)) {
        (Some(w), Some(g)) if w.len() == g.len() => {
            let scale = w
                .iter()
                .fold(0.0f64, |m, x| m.max(x.abs()))
                .max(f64::MIN_POSITIVE);
            w.iter().zip(&g).all(|(a, b)| (a - b).abs() <= 1e-5 * scale)
        }
        _ => want.data == got.data,
    }
}
