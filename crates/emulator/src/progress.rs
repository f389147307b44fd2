//! Counters a launch updates while it runs, read by another thread to show
//! how far a long emulation has come.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A handle on a launch's counters. Clones share them; the default handle
/// is detached (nobody reads it), and comparing handles always says equal,
/// since they are no part of what a launch computes.
#[derive(Clone, Debug, Default)]
pub struct Progress(Arc<Counters>);

#[derive(Debug, Default)]
struct Counters {
    blocks_total: AtomicU64,
    blocks_done: AtomicU64,
    warp_instructions: AtomicU64,
}

/// What a [`Progress`] handle reads at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Blocks of the current launch, and those committed so far.
    pub blocks_total: u64,
    pub blocks_done: u64,
    /// Warp instructions executed by every launch made with this handle.
    pub warp_instructions: u64,
}

impl Progress {
    pub fn new() -> Progress {
        Progress::default()
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            blocks_total: self.0.blocks_total.load(Ordering::Relaxed),
            blocks_done: self.0.blocks_done.load(Ordering::Relaxed),
            warp_instructions: self.0.warp_instructions.load(Ordering::Relaxed),
        }
    }

    pub(crate) fn start_launch(&self, blocks: u64) {
        self.0.blocks_total.store(blocks, Ordering::Relaxed);
        self.0.blocks_done.store(0, Ordering::Relaxed);
    }

    pub(crate) fn block_done(&self) {
        self.0.blocks_done.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn add_instructions(&self, n: u64) {
        self.0.warp_instructions.fetch_add(n, Ordering::Relaxed);
    }
}

impl PartialEq for Progress {
    fn eq(&self, _: &Progress) -> bool {
        true
    }
}
