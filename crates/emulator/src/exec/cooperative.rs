//! Launches of kernels that synchronize the grid (`grid.sync()`). Such a
//! launch is cooperative on the GPU: every block is resident at once, so the
//! blocks run here interleaved, each up to the grid barrier, and all go on
//! together once every block has arrived. The blocks run one after another
//! on the buffers themselves (a block reads what earlier phases of every
//! block wrote), never in parallel waves.

use hone_ir::FuncId;

use super::block::{BlockCtx, BlockEnd, Gmem};
use super::launch::Launch;
use super::{Gathered, Worker};
use crate::buffer::Buffer;
use crate::race::GridShadow;
use crate::report::{Fault, FaultKind, SetupError};
use crate::trace::TraceSink;

/// The device whose limits a cooperative launch is held to: an H100 SXM.
const SMS: u64 = 132;
const THREADS_PER_SM: u64 = 2048;
const BLOCKS_PER_SM: u64 = 32;
const SHARED_PER_SM: u64 = 228 * 1024;

/// How many blocks of this launch an H100 holds at once (registers aside,
/// which the emulator does not allocate).
fn resident_blocks(l: &Launch) -> u64 {
    let warps = l.cfg.threads_per_block().div_ceil(32).max(1);
    let by_threads = THREADS_PER_SM / (warps * 32);
    let by_shared = SHARED_PER_SM
        .checked_div(l.shared_bytes)
        .unwrap_or(BLOCKS_PER_SM);
    SMS * BLOCKS_PER_SM.min(by_threads).min(by_shared)
}

/// Refuses a grid larger than a cooperative launch may be, as the driver does.
pub(super) fn check_resident(l: &Launch) -> Result<(), SetupError> {
    let max = resident_blocks(l);
    let blocks = l.cfg.block_count();
    if blocks <= max {
        return Ok(());
    }
    Err(SetupError::CooperativeTooLarge {
        kernel: l.module.func(FuncId(l.prog.kernel)).name.clone(),
        blocks,
        threads: l.cfg.threads_per_block(),
        shared: l.shared_bytes,
        sms: SMS,
        max,
    })
}

/// One resident block between phases.
struct Resident {
    wk: Worker,
    epoch: u32,
    done: bool,
}

/// Runs every block of the launch, phase by phase between grid barriers.
pub(super) fn run(
    l: &Launch,
    buffers: &mut [Buffer],
    g: &mut Gathered,
    mut trace: Option<&mut dyn TraceSink>,
) {
    let blocks = l.cfg.block_count() as u32;
    let mut res: Vec<Resident> = (0..blocks)
        .map(|_| {
            let mut wk = Worker::new(l);
            wk.begin(l);
            Resident {
                wk,
                epoch: 0,
                done: false,
            }
        })
        .collect();
    let mut first = true;
    // The first block that finished, and the first still waiting.
    let mut exited: Option<u32> = None;
    loop {
        let mut waiting: Option<(u32, u32)> = None;
        for lin in 0..blocks {
            let r = &mut res[lin as usize];
            if r.done {
                continue;
            }
            let mut ctx = BlockCtx {
                l,
                block: l.block_coords(lin),
                shared: &mut r.wk.shared,
                gmem: Gmem::Direct(buffers),
                shadow: r.wk.shadow.as_mut(),
                trace: match trace {
                    Some(ref mut t) => Some(&mut **t),
                    None => None,
                },
                tbuf: &mut r.wk.tbuf,
                races: &mut g.races,
                faults: &mut g.faults,
                warnings: &mut g.warnings,
                warned_sites: &mut g.warned,
                printed: &mut g.printed,
                epoch: r.epoch,
                warp_instructions: 0,
                thread_operations: 0,
                until_check: 0,
                unreported: 0,
            };
            if first {
                ctx.start_block(&mut r.wk.warps);
            }
            let end = ctx.resume_block(&mut r.wk.warps);
            r.epoch = ctx.epoch;
            g.stats.warp_instructions += ctx.warp_instructions;
            g.stats.thread_operations += ctx.thread_operations;
            if let Some(s) = r.wk.shadow.as_ref() {
                let summary: Vec<_> = s.summary().collect();
                g.merge_summary(l, lin, summary);
            }
            match end {
                BlockEnd::Fault => {
                    g.count_block(l, 0, 0);
                    return;
                }
                BlockEnd::Done => {
                    r.done = true;
                    exited.get_or_insert(lin);
                    g.count_block(l, 0, 0);
                }
                BlockEnd::GridBarrier(site) => {
                    waiting.get_or_insert((lin, site));
                }
            }
            if g.past_limits(l, lin + 1) {
                return;
            }
        }
        let Some((lin, site)) = waiting else {
            return;
        };
        if let Some(gone) = exited {
            let span = l
                .prog
                .sites
                .get(site as usize)
                .map(|s| s.span)
                .unwrap_or_default();
            let block = l.block_coords(lin);
            g.faults.push(Fault {
                kind: FaultKind::BarrierDivergence,
                span,
                block,
                thread: [0; 3],
                message: format!(
                    "{}: grid barrier divergence: block {block:?} waits at grid.sync() while the threads of block {:?} have exited (the launch would never finish)",
                    l.module.location(span),
                    l.block_coords(gone)
                ),
            });
            return;
        }
        // Everything before the barrier is ordered before everything after it.
        for r in &mut res {
            if let Some(s) = r.wk.shadow.as_mut() {
                s.grid_barrier();
            }
        }
        g.grid = GridShadow::new(l.opts.tolerate_same_value_races);
        first = false;
    }
}
