//! Running a launch: blocks one after another, or in parallel waves whose
//! results are committed in block order, each block's warps interleaved at
//! barriers.

mod access;
pub(crate) mod arith;
mod block;
mod cooperative;
mod interp;
pub(crate) mod launch;
pub(crate) mod memory;
mod order;
mod overlay;
pub(crate) mod printf;
mod races;
mod rounding;
mod warp;

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Instant;

use hone_ir::{AddressSpace, Module, Span};
use rayon::prelude::*;

use crate::buffer::Buffer;
use crate::compile;
use crate::config::{KernelArg, LaunchConfig, Options};
use crate::race::{BlockShadow, CrossHit, GridShadow, Summary};
use crate::report::{Fault, FaultKind, RaceAccess, Report, SetupError, Stats, Warning};
use crate::symbols::Symbols;
use crate::trace::{TraceSink, WarpAccess};
use block::{BlockCtx, Gmem};
use launch::Launch;
use overlay::{Overlay, WaveWrites};
use printf::Printed;
use races::RaceLog;
use warp::Warp;

/// Reusable per-thread machinery for running blocks.
struct Worker {
    warps: Vec<Warp>,
    shared: Vec<u8>,
    shadow: Option<BlockShadow>,
    tbuf: WarpAccess,
}

impl Worker {
    fn new(l: &Launch) -> Worker {
        let nwarps = l.cfg.threads_per_block().div_ceil(32) as usize;
        let opts = l.opts;
        Worker {
            warps: (0..nwarps).map(|_| Warp::new()).collect(),
            shared: vec![0; l.shared_bytes as usize],
            shadow: (opts.detect_races || opts.warn_uninitialized_shared)
                .then(|| BlockShadow::new(opts.tolerate_same_value_races)),
            tbuf: WarpAccess {
                span: Span::default(),
                site: 0,
                space: AddressSpace::Global,
                kind: crate::report::AccessKind::Load,
                array: String::new(),
                array_base: 0,
                size: 0,
                block: [0; 3],
                warp: 0,
                lanes: Vec::with_capacity(32),
            },
        }
    }

    fn begin(&mut self, l: &Launch) {
        self.shared.fill(0);
        if let Some(s) = self.shadow.as_mut() {
            s.begin_block(l.shared_cells as usize);
        }
    }
}

/// What the launch has gathered so far.
struct Gathered {
    printed: Printed,
    races: RaceLog,
    faults: Vec<Fault>,
    warnings: Vec<Warning>,
    warned: HashSet<u32>,
    grid: GridShadow,
    cross: Vec<CrossHit>,
    stats: Stats,
}

impl Gathered {
    fn count_block(&mut self, l: &Launch, instructions: u64, operations: u64) {
        self.stats.warp_instructions += instructions;
        self.stats.thread_operations += operations;
        self.stats.blocks += 1;
        self.stats.threads += l.cfg.threads_per_block();
        l.opts.progress.block_done();
    }

    /// After the blocks before `next` are committed: whether the launch
    /// ran past its step limit (summed in block order) or its time, in
    /// which case a fault says so and the launch stops.
    fn past_limits(&mut self, l: &Launch, next: u32) -> bool {
        let limits = &l.opts.limits;
        let steps = self.stats.warp_instructions;
        let (kind, what) = if steps > limits.max_steps {
            let limit = limits.max_steps;
            (
                FaultKind::LaunchStepLimit { steps, limit },
                format!("the launch ran past its step limit of {limit} warp instructions after {next} blocks (raise the limit with --max-steps)"),
            )
        } else if l.deadline.is_some_and(|d| Instant::now() >= d) {
            let seconds = limits.time_limit.unwrap_or_default().as_secs_f64();
            (
                FaultKind::TimeLimit { seconds },
                format!("the launch ran past its time limit of {seconds} s after {next} blocks (raise the limit with --time-limit)"),
            )
        } else {
            return false;
        };
        let f = l.module.func(hone_ir::FuncId(l.prog.kernel));
        let block = l.block_coords(next.saturating_sub(1));
        self.faults.push(Fault {
            kind,
            span: f.span,
            block,
            thread: [0; 3],
            message: format!("{}: {what}", l.module.location(f.span)),
        });
        true
    }

    fn merge_summary(
        &mut self,
        l: &Launch,
        lin: u32,
        summary: impl IntoIterator<Item = (u64, Summary)>,
    ) {
        if !l.opts.detect_races {
            return;
        }
        self.cross.clear();
        self.grid.merge(lin, summary, &mut self.cross);
        record_cross(l, &self.cross, &mut self.races);
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    module: &Module,
    kernel: &str,
    cfg: &LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    symbols: &mut Symbols,
    opts: &Options,
    trace: Option<&mut dyn TraceSink>,
) -> Result<Report, SetupError> {
    if symbols.buffers.len() != module.globals.len() {
        return Err(SetupError::Unsupported {
            location: "launch".into(),
            message: format!(
                "{} symbol buffers given for a module with {} file-scope variables",
                symbols.buffers.len(),
                module.globals.len()
            ),
        });
    }
    if module.globals.is_empty() {
        let n = buffers.len();
        return run_buffers(module, kernel, cfg, args, buffers, n, opts, trace);
    }
    // The variables are global objects after the launch's buffers; the
    // buffers move in and out without copying their bytes.
    let empty = |b: &Buffer| Buffer {
        name: b.name.clone(),
        elem: b.elem.clone(),
        data: Vec::new(),
    };
    let nbuf = buffers.len();
    let mut all: Vec<Buffer> = buffers
        .iter_mut()
        .chain(symbols.buffers.iter_mut())
        .map(|b| {
            let e = empty(b);
            std::mem::replace(b, e)
        })
        .collect();
    let r = run_buffers(module, kernel, cfg, args, &mut all, nbuf, opts, trace);
    for (dst, src) in buffers
        .iter_mut()
        .chain(symbols.buffers.iter_mut())
        .zip(all)
    {
        *dst = src;
    }
    r
}

/// A launch over `buffers`, of which those from `symbols_at` on are the
/// module's file-scope variables, with its order check.
#[allow(clippy::too_many_arguments)]
fn run_buffers(
    module: &Module,
    kernel: &str,
    cfg: &LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    symbols_at: usize,
    opts: &Options,
    trace: Option<&mut dyn TraceSink>,
) -> Result<Report, SetupError> {
    let prog = compile::compile(module, kernel)?;
    let inputs = order::inputs(buffers, opts);
    let mut report = run_program(module, &prog, cfg, args, buffers, symbols_at, opts, trace)?;
    if let Some(inputs) = inputs.filter(|_| order::needed(&prog, &report)) {
        order::check(
            module,
            &prog,
            cfg,
            args,
            buffers,
            inputs,
            symbols_at,
            opts,
            &mut report,
        )?;
    }
    Ok(report)
}

/// One run of a compiled launch.
#[allow(clippy::too_many_arguments)]
fn run_program(
    module: &Module,
    prog: &compile::Program,
    cfg: &LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    symbols_at: usize,
    opts: &Options,
    mut trace: Option<&mut dyn TraceSink>,
) -> Result<Report, SetupError> {
    let start = Instant::now();
    let launch = Launch::new(module, prog, cfg, opts, args, buffers, symbols_at)?;
    let mut g = Gathered {
        printed: Printed::default(),
        races: RaceLog::new(opts.max_races),
        faults: Vec::new(),
        warnings: Vec::new(),
        warned: HashSet::new(),
        grid: GridShadow::new(opts.tolerate_same_value_races),
        cross: Vec::new(),
        stats: Stats::default(),
    };
    let blocks = cfg.block_count() as u32;
    opts.progress.start_launch(blocks as u64);
    // Global atomics make blocks depend on each other's order; a trace must
    // arrive in order.
    let parallel = opts.parallel
        && trace.is_none()
        && !prog.uses_atomics
        && blocks > 1
        && rayon::current_num_threads() > 1;
    let mut next = 0;
    if prog.grid_sync {
        cooperative::check_resident(&launch)?;
        cooperative::run(&launch, buffers, &mut g, trace.take());
        next = blocks;
    }
    if parallel && !prog.grid_sync {
        next = run_parallel(&launch, buffers, &mut g);
    }
    if next < blocks && g.faults.is_empty() {
        let mut wk = Worker::new(&launch);
        for lin in next..blocks {
            wk.begin(&launch);
            let mut ctx = BlockCtx {
                l: &launch,
                block: launch.block_coords(lin),
                shared: &mut wk.shared,
                gmem: Gmem::Direct(buffers),
                shadow: wk.shadow.as_mut(),
                trace: match trace {
                    Some(ref mut t) => Some(&mut **t),
                    None => None,
                },
                tbuf: &mut wk.tbuf,
                races: &mut g.races,
                faults: &mut g.faults,
                warnings: &mut g.warnings,
                warned_sites: &mut g.warned,
                printed: &mut g.printed,
                epoch: 0,
                warp_instructions: 0,
                thread_operations: 0,
                until_check: 0,
                unreported: 0,
            };
            let ok = ctx.run_block(&mut wk.warps);
            let (instructions, operations) = (ctx.warp_instructions, ctx.thread_operations);
            g.count_block(&launch, instructions, operations);
            if let Some(s) = wk.shadow.as_ref() {
                g.merge_summary(&launch, lin, s.summary());
            }
            if !ok || g.past_limits(&launch, lin + 1) {
                break;
            }
        }
    }
    let mut report = Report {
        completed: g.faults.is_empty(),
        faults: g.faults,
        warnings: g.warnings,
        stats: g.stats,
        races: Vec::new(),
        order_dependent: Vec::new(),
        printed: g.printed.text,
    };
    report.stats.printf_dropped = g.printed.dropped;
    report.stats.races_dropped = g.races.dropped;
    report.races = g.races.races;
    report.stats.seconds = start.elapsed().as_secs_f64();
    report.stats.operations_per_second = if report.stats.seconds > 0.0 {
        report.stats.thread_operations as f64 / report.stats.seconds
    } else {
        0.0
    };
    Ok(report)
}

/// A block run on its own against the committed buffers.
struct BlockOut {
    ok: bool,
    overlay: Overlay,
    races: RaceLog,
    faults: Vec<Fault>,
    warnings: Vec<Warning>,
    printed: Printed,
    summary: Vec<(u64, Summary)>,
    instructions: u64,
    operations: u64,
}

fn run_isolated(l: &Launch, lin: u32, base: &[Buffer], wk: &mut Worker) -> BlockOut {
    wk.begin(l);
    let mut overlay = Overlay::default();
    let mut races = RaceLog::new(usize::MAX);
    let mut faults = Vec::new();
    let mut warnings = Vec::new();
    let mut warned = HashSet::new();
    let mut printed = Printed::default();
    let mut ctx = BlockCtx {
        l,
        block: l.block_coords(lin),
        shared: &mut wk.shared,
        gmem: Gmem::Overlay {
            base,
            overlay: &mut overlay,
        },
        shadow: wk.shadow.as_mut(),
        trace: None,
        tbuf: &mut wk.tbuf,
        races: &mut races,
        faults: &mut faults,
        warnings: &mut warnings,
        warned_sites: &mut warned,
        printed: &mut printed,
        epoch: 0,
        warp_instructions: 0,
        thread_operations: 0,
        until_check: 0,
        unreported: 0,
    };
    let ok = ctx.run_block(&mut wk.warps);
    let (instructions, operations) = (ctx.warp_instructions, ctx.thread_operations);
    let summary = match wk.shadow.as_ref() {
        Some(s) if l.opts.detect_races => s.summary().collect(),
        _ => Vec::new(),
    };
    BlockOut {
        ok,
        overlay,
        races,
        faults,
        warnings,
        printed,
        summary,
        instructions,
        operations,
    }
}

/// Runs blocks in waves on all cores and commits each wave in block order.
/// Returns the first block still to run sequentially (all of them once a
/// block of a wave depended on an earlier one), or the block count.
fn run_parallel(l: &Launch, buffers: &mut [Buffer], g: &mut Gathered) -> u32 {
    let blocks = l.cfg.block_count() as u32;
    let wave = (4 * rayon::current_num_threads() as u32).max(8);
    // Same-value tolerance compares against memory as earlier blocks left it,
    // so overlapping writes must then run in order too.
    let writes_matter = l.opts.detect_races && l.opts.tolerate_same_value_races;
    let pool: Mutex<Vec<Worker>> = Mutex::new(Vec::new());
    let mut lin = 0;
    while lin < blocks {
        let end = (lin + wave).min(blocks);
        let base: &[Buffer] = buffers;
        let outs: Vec<BlockOut> = (lin..end)
            .into_par_iter()
            .map(|b| {
                // Workers keep their grown tables from block to block.
                let mut wk = pool
                    .lock()
                    .ok()
                    .and_then(|mut p| p.pop())
                    .unwrap_or_else(|| Worker::new(l));
                let out = run_isolated(l, b, base, &mut wk);
                if let Ok(mut p) = pool.lock() {
                    p.push(wk);
                }
                out
            })
            .collect();
        let mut written = WaveWrites::new();
        for (i, out) in outs.into_iter().enumerate() {
            let b = lin + i as u32;
            if out.overlay.conflicts(&written, writes_matter) {
                return b;
            }
            out.overlay.commit(buffers, &mut written);
            g.stats.ran_parallel = true;
            g.count_block(l, out.instructions, out.operations);
            g.races.absorb(out.races);
            for w in out.warnings {
                // A site warns once per launch, at its first block.
                if g.warned.insert(w.site) {
                    g.warnings.push(w);
                }
            }
            g.printed.absorb(out.printed);
            g.merge_summary(l, b, out.summary);
            if !out.ok {
                g.faults.extend(out.faults);
                return blocks;
            }
            if g.past_limits(l, b + 1) {
                return blocks;
            }
        }
        lin = end;
    }
    blocks
}

fn record_cross(l: &Launch, hits: &[CrossHit], races: &mut RaceLog) {
    for h in hits {
        let Some((buf, off)) = l.granule_home(h.granule) else {
            continue;
        };
        let g = &l.globals[buf as usize];
        let side = |(acc, block): (crate::race::Who, u32)| RaceAccess {
            span: l
                .prog
                .sites
                .get(acc.site as usize)
                .map(|s| s.span)
                .unwrap_or_default(),
            block: l.block_coords(block),
            thread: l.thread_coords(acc.tid as u32),
            kind: acc.kind(),
        };
        races.add(
            AddressSpace::Global,
            buf,
            &g.name,
            off,
            g.base_addr + off,
            (h.first.0.site, side(h.first)),
            (h.second.0.site, side(h.second)),
        );
    }
}
