//! One block in flight: the context its warps run in (shared memory, global
//! memory view, race shadow, trace, reports) and the barrier scheduler.

use std::collections::HashSet;

use hone_ir::{AddressSpace, Span};

use super::launch::Launch;
use super::overlay::Overlay;
use super::races::RaceLog;
use super::warp::{Warp, WarpState};
use crate::buffer::Buffer;
use crate::compile::ops::MemTy;
use crate::race::BlockShadow;
use crate::report::{Fault, FaultKind, Warning};
use crate::trace::{TraceSink, Value, WarpAccess};

pub(crate) enum Stop {
    Barrier(u32),
    GridBarrier(u32),
    Done,
    Fault,
}

/// Where a block stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockEnd {
    Done,
    Fault,
    /// Every warp waits at a grid barrier (the site of the first warp's).
    GridBarrier(u32),
}

/// Global memory as a block sees it.
pub(crate) enum Gmem<'b> {
    /// The buffers themselves (blocks run one after another).
    Direct(&'b mut [Buffer]),
    /// The committed buffers plus this block's private writes (blocks run in parallel).
    Overlay {
        base: &'b [Buffer],
        overlay: &'b mut Overlay,
    },
}

pub(crate) struct BlockCtx<'a, 'b> {
    pub l: &'a Launch<'a>,
    pub block: [u32; 3],
    pub shared: &'b mut [u8],
    pub gmem: Gmem<'b>,
    pub shadow: Option<&'b mut BlockShadow>,
    pub trace: Option<&'b mut dyn TraceSink>,
    pub tbuf: &'b mut WarpAccess,
    pub races: &'b mut RaceLog,
    pub faults: &'b mut Vec<Fault>,
    pub warnings: &'b mut Vec<Warning>,
    pub warned_sites: &'b mut HashSet<u32>,
    pub printed: &'b mut super::printf::Printed,
    pub epoch: u32,
    pub warp_instructions: u64,
    pub thread_operations: u64,
    /// Instructions until the next check of the launch's limits.
    pub until_check: u64,
    /// Instructions not yet added to the launch's progress.
    pub unreported: u64,
}

impl<'a, 'b> BlockCtx<'a, 'b> {
    pub fn thread_of(&self, tid: u32) -> [u32; 3] {
        self.l.thread_coords(tid)
    }

    pub fn site_span(&self, site: u32) -> Span {
        self.l
            .prog
            .sites
            .get(site as usize)
            .map(|s| s.span)
            .unwrap_or_default()
    }

    pub fn fault(
        &mut self,
        kind: FaultKind,
        span: Span,
        thread: [u32; 3],
        message: String,
    ) -> Stop {
        let location = self.l.module.location(span);
        self.faults.push(Fault {
            kind,
            span,
            block: self.block,
            thread,
            message: format!(
                "{location}: {message} (block {:?}, thread {:?})",
                self.block, thread
            ),
        });
        Stop::Fault
    }

    pub fn access_fault(
        &mut self,
        w: &Warp,
        lane: usize,
        kind: FaultKind,
        site: u32,
        what: &str,
    ) -> Stop {
        let span = self.site_span(site);
        let message = match &kind {
            FaultKind::OutOfBounds {
                array,
                space,
                index,
                length,
                ..
            } => format!(
                "out-of-bounds {what} of `{array}` ({}): index {index}, length {length}",
                space_name(*space)
            ),
            FaultKind::MisalignedAccess {
                array,
                offset,
                align,
            } => {
                format!("misaligned {what} of `{array}`: byte offset {offset} is not a multiple of {align}")
            }
            FaultKind::NullOrInvalidPointer { address } => {
                format!("{what} through a null or invalid pointer (0x{address:x})")
            }
            _ => what.to_string(),
        };
        self.fault(kind, span, w.thread(lane), message)
    }

    /// Runs every warp of the block to completion, synchronizing them at
    /// barriers. Returns false if a fault stopped the block.
    pub fn run_block(&mut self, warps: &mut [Warp]) -> bool {
        self.start_block(warps);
        match self.resume_block(warps) {
            BlockEnd::Done => true,
            BlockEnd::Fault => false,
            // Only a cooperative launch (`run_cooperative`) runs kernels
            // with grid barriers.
            BlockEnd::GridBarrier(_) => unreachable!("grid barrier outside a cooperative launch"),
        }
    }

    /// Puts every warp of the block at the kernel's start.
    pub fn start_block(&mut self, warps: &mut [Warp]) {
        let prog = self.l.prog;
        for (i, w) in warps.iter_mut().enumerate() {
            w.reset(prog, i as u32, self.l.cfg.block, &self.l.params);
        }
    }

    /// Runs the block's warps until they finish, fault, or all wait at a
    /// grid barrier.
    pub fn resume_block(&mut self, warps: &mut [Warp]) -> BlockEnd {
        let end = self.run_warps(warps);
        self.l.opts.progress.add_instructions(self.unreported);
        self.unreported = 0;
        end
    }

    fn run_warps(&mut self, warps: &mut [Warp]) -> BlockEnd {
        let reversed = self.l.opts.schedule.reversed;
        let n = warps.len();
        loop {
            for k in 0..n {
                let w = &mut warps[if reversed { n - 1 - k } else { k }];
                if w.state != WarpState::Runnable {
                    continue;
                }
                match self.run_warp(w) {
                    Stop::Barrier(site) => w.state = WarpState::AtBarrier(site),
                    Stop::GridBarrier(site) => w.state = WarpState::AtGridBarrier(site),
                    Stop::Done => w.state = WarpState::Done,
                    Stop::Fault => return BlockEnd::Fault,
                }
            }
            let waiting: Vec<(usize, u32, bool)> = warps
                .iter()
                .enumerate()
                .filter_map(|(i, w)| match w.state {
                    WarpState::AtBarrier(s) => Some((i, s, false)),
                    WarpState::AtGridBarrier(s) => Some((i, s, true)),
                    _ => None,
                })
                .collect();
            let Some(&(first, site, grid)) = waiting.first() else {
                return BlockEnd::Done;
            };
            let name = if grid {
                "grid.sync()"
            } else {
                "__syncthreads()"
            };
            let lane = warps[first].active.trailing_zeros() as usize;
            let thread = warps[first].thread(lane.min(31));
            if waiting.len() < warps.len() {
                let done = warps
                    .iter()
                    .position(|w| w.state == WarpState::Done)
                    .expect("some warp finished");
                let span = self.site_span(site);
                self.fault(
                    FaultKind::BarrierDivergence,
                    span,
                    thread,
                    format!(
                        "barrier divergence: warp {first} waits at {name} while the threads of warp {done} have exited"
                    ),
                );
                return BlockEnd::Fault;
            }
            // Warps of one block meet at one barrier; a grid barrier is one
            // barrier wherever it is written, since it counts blocks.
            if let Some(&(other, other_site, other_grid)) = waiting
                .iter()
                .find(|(_, s, g)| *g != grid || (!grid && *s != site))
            {
                let other_name = if other_grid {
                    "grid.sync()"
                } else {
                    "__syncthreads()"
                };
                let span = self.site_span(site);
                let other_loc = self.l.module.location(self.site_span(other_site));
                self.fault(
                    FaultKind::BarrierDivergence,
                    span,
                    thread,
                    format!(
                        "barrier divergence: warp {first} waits here while warp {other} waits at the {other_name} of {other_loc}"
                    ),
                );
                return BlockEnd::Fault;
            }
            self.epoch += 1;
            for w in warps.iter_mut() {
                w.state = WarpState::Runnable;
            }
            if grid {
                return BlockEnd::GridBarrier(site);
            }
        }
    }

    pub fn value_of(ty: MemTy, bits: &[u64]) -> Value {
        let one = |b: u64| -> Value {
            if ty.pointer {
                return Value::Pointer(b);
            }
            match ty.scalar {
                hone_ir::Scalar::Bool => Value::Bool(b != 0),
                hone_ir::Scalar::F32 => Value::Float(f32::from_bits(b as u32) as f64),
                hone_ir::Scalar::F64 => Value::Float(f64::from_bits(b)),
                s if s.is_signed() => Value::Int(b as i64),
                _ => Value::UInt(b),
            }
        };
        if ty.n == 1 {
            one(bits[0])
        } else {
            Value::Vector(bits.iter().map(|&b| one(b)).collect())
        }
    }
}

pub(crate) fn space_name(s: AddressSpace) -> &'static str {
    match s {
        AddressSpace::Global => "global",
        AddressSpace::Shared => "shared",
        AddressSpace::Local => "local",
        AddressSpace::Constant => "constant",
    }
}
