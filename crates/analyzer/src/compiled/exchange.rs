//! Which repeated accesses carry values between threads.
//!
//! A thread that loads an address again, or stores to it again, repeats
//! traffic a register could have saved, unless another thread wrote the
//! address in between (the load reads a new value) or read it (the store
//! hands on a new value): a shared array refilled each iteration behind a
//! barrier, a tree reduction's partial sums, a scan's running totals.
//! Keeping such a value in a register would change what the kernel
//! computes, so those sites are not redundant traffic.

use std::collections::HashMap;

use hone_emulator::AccessKind;

/// A thread of the block: its warp and lane.
type Thread = (u32, u32);

/// The last accesses of one 4-byte word.
#[derive(Clone, Copy, Default)]
struct Word {
    /// The last write, by whom and when.
    write: Option<(Thread, u64)>,
    /// The last reads of two different threads (a reader's own accesses
    /// say nothing about the others').
    reads: [Option<(Thread, u64)>; 2],
}

impl Word {
    fn read(&mut self, by: Thread, at: u64) {
        match self.reads {
            [Some((t, _)), _] if t == by => self.reads[0] = Some((by, at)),
            [first, _] => self.reads = [Some((by, at)), first],
        }
    }

    /// Whether another thread than `by` accessed the word after `since` in
    /// a way that makes `by`'s access of `kind` necessary.
    fn exchanged(&self, by: Thread, since: u64, kind: AccessKind) -> bool {
        let other = |a: Option<(Thread, u64)>| a.is_some_and(|(t, at)| t != by && at > since);
        // Any thread's write in between: a load reads a new value; a store
        // puts back what another thread overwrote.
        other(self.write) || (kind != AccessKind::Load && self.reads.iter().any(|r| other(*r)))
    }
}

/// The words a block touched, per memory space (shared or not).
#[derive(Default)]
pub(super) struct Exchange {
    /// Accesses seen, in the emulator's order: the clock of `since`.
    pub now: u64,
    words: HashMap<(bool, u64), Word>,
}

impl Exchange {
    /// Records one warp access and says whether any of its lanes repeats a
    /// value another thread exchanged since `since` (the warp's previous
    /// access at the site, at the same addresses).
    pub fn access(
        &mut self,
        shared: bool,
        warp: u32,
        kind: AccessKind,
        size: u32,
        lanes: &[(u32, u64)],
        since: Option<u64>,
    ) -> bool {
        self.now += 1;
        let mut exchanged = false;
        for &(lane, addr) in lanes {
            let by = (warp, lane);
            for w in (addr & !3..addr + u64::from(size.max(1))).step_by(4) {
                let word = self.words.entry((shared, w)).or_default();
                if let Some(since) = since {
                    exchanged |= word.exchanged(by, since, kind);
                }
                if kind != AccessKind::Store {
                    word.read(by, self.now);
                }
                if kind != AccessKind::Load {
                    word.write = Some((by, self.now));
                }
            }
        }
        exchanged
    }

    /// A new block: its threads are not the last block's.
    pub fn clear(&mut self) {
        self.words.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(addrs: &[u64]) -> Vec<(u32, u64)> {
        addrs
            .iter()
            .enumerate()
            .map(|(l, &a)| (l as u32, a))
            .collect()
    }

    #[test]
    fn a_thread_reloading_its_own_value_exchanges_nothing() {
        let mut x = Exchange::default();
        let a = lanes(&[0, 4, 8]);
        x.access(true, 0, AccessKind::Load, 4, &a, None);
        let first = x.now;
        x.access(true, 0, AccessKind::Store, 4, &a, None);
        assert!(!x.access(true, 0, AccessKind::Load, 4, &a, Some(first)));
    }

    #[test]
    fn another_threads_write_makes_a_reload_necessary() {
        let mut x = Exchange::default();
        x.access(true, 0, AccessKind::Load, 4, &lanes(&[0, 4]), None);
        let first = x.now;
        // Warp 1's lane 0 writes word 4, which warp 0's lane 1 reads.
        x.access(true, 1, AccessKind::Store, 4, &lanes(&[4]), None);
        assert!(x.access(true, 0, AccessKind::Load, 4, &lanes(&[0, 4]), Some(first)));
    }

    #[test]
    fn a_store_read_by_another_thread_hands_a_value_on() {
        let mut x = Exchange::default();
        let a = lanes(&[0, 4]);
        x.access(true, 0, AccessKind::Store, 4, &a, None);
        let first = x.now;
        x.access(true, 2, AccessKind::Load, 4, &lanes(&[4]), None);
        assert!(x.access(true, 0, AccessKind::Store, 4, &a, Some(first)));
        // Read before the first store: nothing handed on by the second.
        let second = x.now;
        assert!(!x.access(true, 0, AccessKind::Store, 4, &a, Some(second)));
    }

    #[test]
    fn spaces_and_blocks_are_apart() {
        let mut x = Exchange::default();
        x.access(false, 0, AccessKind::Load, 4, &lanes(&[0]), None);
        let first = x.now;
        x.access(true, 1, AccessKind::Store, 4, &lanes(&[0]), None);
        assert!(!x.access(false, 0, AccessKind::Load, 4, &lanes(&[0]), Some(first)));
        x.access(false, 1, AccessKind::Store, 4, &lanes(&[0]), None);
        x.clear();
        let now = x.now;
        assert!(!x.access(false, 0, AccessKind::Load, 4, &lanes(&[0]), Some(now - 1)));
    }
}
