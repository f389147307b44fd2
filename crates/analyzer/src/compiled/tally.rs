//! Counts of each site under the ways compiled code may execute it, gathered
//! in the same run as the source's counts: once per loop entry (an access
//! the compiler moved out of a loop), merged with the next accesses of the
//! same warp into one wider access (a vector load or store), and how often
//! an access repeats a value the warp already holds in a register.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

use hone_emulator::{AccessKind, WarpAccess};
use hone_ir::AddressSpace;
use serde::Serialize;

use crate::banks::shared_request;
use crate::cc11::check_warp;
use crate::sectors::global_request;

/// The request counts of one site under one way of executing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub requests: u64,
    pub requested_bytes: u64,
    pub unique_bytes: u64,
    pub sectors: u64,
    pub lines: u64,
    pub ideal_sectors: u64,
    pub transactions: u64,
    pub ideal_transactions: u64,
    pub wavefronts: u64,
    pub ideal_wavefronts: u64,
}

impl Tally {
    /// Costs one warp request of `size` bytes per lane.
    pub fn add(&mut self, space: AddressSpace, size: u32, lanes: &[(u32, u64)]) {
        self.requests += 1;
        if space == AddressSpace::Shared {
            let r = shared_request(lanes, size);
            self.wavefronts += r.wavefronts;
            self.ideal_wavefronts += r.ideal_wavefronts;
            return;
        }
        let r = global_request(lanes.iter().map(|l| l.1), size);
        self.requested_bytes += r.requested_bytes;
        self.unique_bytes += r.unique_bytes;
        self.sectors += r.sectors;
        self.lines += r.lines;
        self.ideal_sectors += r.ideal_sectors;
        for c in check_warp(size, lanes.iter().copied())
            .into_iter()
            .flatten()
        {
            self.transactions += u64::from(c.transactions);
            self.ideal_transactions += u64::from(c.ideal_transactions);
        }
    }
}

/// Merge factors tried: two or four accesses of a warp as one 2x or 4x wider.
pub const MERGES: [u32; 2] = [2, 4];

/// What was gathered for one site besides its source counts.
#[derive(Clone, Debug, Default)]
pub struct SiteTallies {
    /// Counting a warp's access only when its addresses differ from the
    /// warp's previous access at this site.
    pub once: Tally,
    /// Under each of [`MERGES`].
    pub merged: [Tally; 2],
    /// Loads whose every lane reads what the same warp last loaded or
    /// stored there at another site, with no store or atomic of the warp to
    /// that memory space in between: values a compiler keeps in registers.
    pub repeats: u64,
    pub requests: u64,
}

#[derive(Default)]
struct WarpSite {
    last: Option<u64>,
    /// Accesses waiting to be merged, per merge factor.
    pending: [Vec<Vec<(u32, u64)>>; 2],
}

/// The sink's companion: sees every access the collector costs.
#[derive(Default)]
pub struct Tallies {
    block: Option<[u32; 3]>,
    warps: HashMap<(u32, u32), WarpSite>,
    /// Values each warp holds per space: (hash of the access, site).
    held: HashMap<(u32, bool), Vec<Held>>,
    /// Space and size of each site.
    shape: HashMap<u32, (AddressSpace, u32)>,
    pub sites: BTreeMap<u32, SiteTallies>,
}

/// A value a warp holds: where its lanes read or wrote it.
struct Held {
    site: u32,
    size: u32,
    lanes: Vec<(u32, u64)>,
}

impl Held {
    /// Whether every lane of `lanes` holds its address's value here (a
    /// branch's lanes reuse what the whole warp loaded before it).
    fn covers(&self, size: u32, lanes: &[(u32, u64)]) -> bool {
        if size != self.size || lanes.len() > self.lanes.len() {
            return false;
        }
        // Both in lane order: one walk finds each lane's entry.
        let mut mine = self.lanes.iter();
        lanes
            .iter()
            .all(|l| mine.by_ref().find(|m| m.0 == l.0) == Some(l))
    }
}

/// Values remembered per warp and space; older ones are forgotten (a
/// compiler has only so many registers too).
const HELD: usize = 64;

impl Tallies {
    pub fn observe(&mut self, a: &WarpAccess, lanes: &[(u32, u64)]) {
        if self.block != Some(a.block) {
            self.finish();
            self.block = Some(a.block);
        }
        let shared = a.space == AddressSpace::Shared;
        let hash = access_hash(a.size, lanes);
        let held = self.held.entry((a.warp, shared)).or_default();
        let value = Held {
            site: a.site,
            size: a.size,
            lanes: lanes.to_vec(),
        };
        match a.kind {
            AccessKind::Atomic => {
                held.clear();
                return;
            }
            AccessKind::Store => {
                held.clear();
                held.push(value);
            }
            AccessKind::Load => {
                let repeat = held
                    .iter()
                    .any(|h| h.site != a.site && h.covers(a.size, lanes));
                if repeat {
                    self.sites.entry(a.site).or_default().repeats += 1;
                }
                if held.len() >= HELD {
                    held.remove(0);
                }
                held.push(value);
            }
        }
        self.shape.insert(a.site, (a.space, a.size));
        let site = self.sites.entry(a.site).or_default();
        site.requests += 1;
        let state = self.warps.entry((a.site, a.warp)).or_default();
        if state.last != Some(hash) {
            site.once.add(a.space, a.size, lanes);
        }
        state.last = Some(hash);
        for (i, &m) in MERGES.iter().enumerate() {
            merge_step(
                &mut state.pending[i],
                &mut site.merged[i],
                a.space,
                a.size,
                m,
                lanes,
            );
        }
    }

    /// A barrier: values read before it are read again after it (another
    /// thread may have written them).
    pub fn barrier(&mut self, block: [u32; 3], warp: u32) {
        if self.block == Some(block) {
            self.held.remove(&(warp, false));
            self.held.remove(&(warp, true));
        }
    }

    /// Costs what waits to be merged as single accesses; called at the end
    /// of each block and of the launch.
    pub fn finish(&mut self) {
        for ((site, _), state) in self.warps.drain() {
            let Some(&(space, size)) = self.shape.get(&site) else {
                continue;
            };
            let Some(t) = self.sites.get_mut(&site) else {
                continue;
            };
            for (i, pending) in state.pending.into_iter().enumerate() {
                for p in pending {
                    t.merged[i].add(space, size, &p);
                }
            }
        }
        self.held.clear();
    }
}

fn access_hash(size: u32, lanes: &[(u32, u64)]) -> u64 {
    let mut h = DefaultHasher::new();
    size.hash(&mut h);
    lanes.hash(&mut h);
    h.finish()
}

/// One access of a warp at a site, merged `m` at a time: a run of accesses
/// whose lanes are the same and each reads the `size` bytes after its
/// previous one, starting aligned to `m * size`, is one access of
/// `m * size` bytes per lane.
fn merge_step(
    pending: &mut Vec<Vec<(u32, u64)>>,
    tally: &mut Tally,
    space: AddressSpace,
    size: u32,
    m: u32,
    lanes: &[(u32, u64)],
) {
    let wide = u64::from(size) * u64::from(m);
    if let Some(first) = pending.first() {
        let k = pending.len() as u64;
        let continues = first.len() == lanes.len()
            && first
                .iter()
                .zip(lanes)
                .all(|(f, l)| f.0 == l.0 && f.1 + k * u64::from(size) == l.1);
        if !continues {
            for p in pending.drain(..) {
                tally.add(space, size, &p);
            }
        }
    }
    if pending.is_empty() && !lanes.iter().all(|l| l.1 % wide == 0) {
        tally.add(space, size, lanes);
        return;
    }
    pending.push(lanes.to_vec());
    if pending.len() as u32 == m {
        let first = pending.swap_remove(0);
        pending.clear();
        tally.add(space, size * m, &first);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(base: u64, step: u64) -> Vec<(u32, u64)> {
        (0..32).map(|l| (l, base + u64::from(l) * step)).collect()
    }

    #[test]
    fn four_consecutive_aligned_reads_are_one_wide_read() {
        let mut pending = Vec::new();
        let mut t = Tally::default();
        for c in 0..8u64 {
            merge_step(
                &mut pending,
                &mut t,
                AddressSpace::Shared,
                4,
                4,
                &row(c * 4, 128),
            );
        }
        assert!(pending.is_empty());
        assert_eq!(t.requests, 2);
        // 16 bytes a lane, rows 128 bytes apart: 8 lanes a phase, all in
        // banks 0-3, so 8 wavefronts per phase, 4 phases.
        assert_eq!(t.wavefronts, 2 * 32);
    }

    #[test]
    fn misaligned_or_broken_runs_stay_single() {
        let mut pending = Vec::new();
        let mut t = Tally::default();
        merge_step(&mut pending, &mut t, AddressSpace::Global, 4, 2, &row(4, 4));
        assert_eq!(t.requests, 1, "not aligned to 8 bytes: counted alone");
        merge_step(&mut pending, &mut t, AddressSpace::Global, 4, 2, &row(0, 8));
        merge_step(
            &mut pending,
            &mut t,
            AddressSpace::Global,
            4,
            2,
            &row(64, 8),
        );
        assert_eq!(t.requests, 2, "the second does not continue the first");
        assert_eq!(pending.len(), 1);
    }
}
