//! Counts of each site under the ways compiled code may execute it, gathered
//! in the same run as the source's counts: once per loop entry (an access
//! the compiler moved out of a loop), merged with the next accesses of the
//! same warp into one wider access (a vector load or store), and how often
//! an access repeats a value the warp already holds in a register.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{Hash, Hasher};

use hone_emulator::{AccessKind, WarpAccess};
use hone_ir::{AddressSpace, Span};
use serde::Serialize;

use crate::banks::shared_request;
use crate::cc11::check_warp;
use crate::sectors::global_request;

use super::exchange::Exchange;

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
    /// The same, counting again after each barrier: what an access moved
    /// out of a loop costs, since no access is moved across a barrier.
    pub hoisted: Tally,
    /// Under each of [`MERGES`].
    pub merged: [Tally; 2],
    /// Loads whose every lane reads what the same warp last loaded or
    /// stored there at another site, with no store or atomic of the warp to
    /// that memory space in between: values a compiler keeps in registers.
    pub repeats: u64,
    pub requests: u64,
    /// Counting a warp's accesses at consecutive addresses, one right after
    /// the other at different sites (neighbours of an array, `a[i]` and
    /// `a[i + 1]`), as one wider access made by the first of them, up to
    /// each of [`PAIR_WIDTHS`] bytes a lane.
    pub paired: [Tally; 2],
    /// The wider accesses this site's took part in, per width.
    pub pieces: [u64; 2],
    /// The sites whose accesses this one's were made one with.
    pub partners: BTreeSet<u32>,
    /// Whether a warp's access repeated addresses whose values another
    /// thread wrote or read in between (see [`super::exchange`]).
    pub exchanged: bool,
}

/// The accesses of a warp, one right after the other, each at the `size`
/// bytes after its previous one: what a compiler may make one wider access.
/// Stores may come in any order (`a = 0; c = 1; b = 2;` over neighbouring
/// scalars is one wide store): each link's slot is its distance from the
/// first link's address, in accesses.
struct Chain {
    space: AddressSpace,
    kind: AccessKind,
    size: u32,
    links: Vec<(u32, Vec<(u32, u64)>)>,
    slots: Vec<u64>,
}

impl Chain {
    /// The slot `a` takes in the chain, if it continues it.
    fn slot(&self, a: &WarpAccess, lanes: &[(u32, u64)]) -> Option<u64> {
        let first = &self.links[0].1;
        let size = u64::from(a.size);
        let same_shape = a.space == self.space
            && a.kind == self.kind
            && a.size == self.size
            && !self.links.iter().any(|l| l.0 == a.site)
            && first.len() == lanes.len()
            && !lanes.is_empty();
        if !same_shape {
            return None;
        }
        let slot = if a.kind == AccessKind::Store {
            let off = lanes[0].1.checked_sub(first[0].1)?;
            (off % size == 0).then_some(off / size)?
        } else {
            self.links.len() as u64
        };
        let fits = size * (slot + 1) <= WIDEST && !self.slots.contains(&slot);
        let every_lane = first
            .iter()
            .zip(lanes)
            .all(|(f, l)| f.0 == l.0 && f.1 + slot * size == l.1);
        (fits && every_lane).then_some(slot)
    }
}

/// The widest access of a lane, in bytes (a 128-bit load or store).
const WIDEST: u64 = 16;

/// The widths, in bytes a lane, that paired accesses may reach: the
/// compiler makes no access wider than what it knows the data's alignment
/// to be, which the widest instruction of the lines tells.
pub const PAIR_WIDTHS: [u32; 2] = [8, 16];

#[derive(Default)]
struct WarpSite {
    last: Option<u64>,
    /// When `last` was made, on the exchange's clock.
    last_at: u64,
    /// `last`, forgotten at each barrier of the warp.
    since_barrier: Option<u64>,
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
    /// Spans of loads that are alternatives of one another (see
    /// [`super::alternatives`]), by cluster.
    alternatives: HashMap<Span, usize>,
    /// The lanes each warp's cluster has served since its chain last ran.
    selecting: HashMap<(u32, usize), Selecting>,
    /// Per cluster: one request per run of its chain, of every lane whose
    /// arm loads (the compiler's single load, of the address each arm names).
    pub selected: Vec<Tally>,
    /// Each warp's accesses that may pair with its next one of the same
    /// space and kind (the compiler moves accesses of other kinds past them).
    chains: HashMap<(u32, bool, AccessKind), Chain>,
    exchange: Exchange,
    pub sites: BTreeMap<u32, SiteTallies>,
}

/// The lanes a cluster's single load has served in one run of its chain.
struct Selecting {
    space: AddressSpace,
    size: u32,
    lanes: Vec<(u32, u64)>,
}

/// A value a warp holds: where its lanes read or wrote it.
struct Held {
    site: u32,
    /// The buffer or `__shared__` variable it lies in.
    array: String,
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
    /// Also counts each cluster of alternative loads as one load per run of
    /// its chain.
    pub fn with_alternatives(clusters: HashMap<Span, usize>, count: usize) -> Tallies {
        Tallies {
            alternatives: clusters,
            selected: vec![Tally::default(); count],
            ..Tallies::default()
        }
    }

    pub fn observe(&mut self, a: &WarpAccess, lanes: &[(u32, u64)]) {
        if self.block != Some(a.block) {
            self.finish();
            self.block = Some(a.block);
        }
        let shared = a.space == AddressSpace::Shared;
        let hash = access_hash(a.size, lanes);
        let since = self
            .warps
            .get(&(a.site, a.warp))
            .and_then(|s| (s.last == Some(hash)).then_some(s.last_at));
        let exchanged = self
            .exchange
            .access(shared, a.warp, a.kind, a.size, lanes, since);
        if exchanged {
            self.sites.entry(a.site).or_default().exchanged = true;
        }
        let held = self.held.entry((a.warp, shared)).or_default();
        let value = Held {
            site: a.site,
            array: a.array.clone(),
            size: a.size,
            lanes: lanes.to_vec(),
        };
        match a.kind {
            AccessKind::Atomic => {
                held.clear();
                self.close_chains(Some(a.warp));
                return;
            }
            AccessKind::Store => {
                // Distinct `__shared__` variables never overlap, and the
                // compiler knows it; global pointers may all alias.
                if shared {
                    held.retain(|h| h.array != a.array);
                } else {
                    held.clear();
                }
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
        self.chain_step(a, lanes);
        if a.kind == AccessKind::Load {
            self.select_step(a, lanes);
        }
        let site = self.sites.entry(a.site).or_default();
        site.requests += 1;
        let state = self.warps.entry((a.site, a.warp)).or_default();
        if state.last != Some(hash) {
            site.once.add(a.space, a.size, lanes);
        }
        state.last = Some(hash);
        state.last_at = self.exchange.now;
        if state.since_barrier != Some(hash) {
            site.hoisted.add(a.space, a.size, lanes);
        }
        state.since_barrier = Some(hash);
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

    fn select_step(&mut self, a: &WarpAccess, lanes: &[(u32, u64)]) {
        let Some(&c) = self.alternatives.get(&a.span) else {
            return;
        };
        let key = (a.warp, c);
        // A lane served again, or another shape: the chain runs anew.
        let again = self.selecting.get(&key).is_some_and(|s| {
            s.space != a.space
                || s.size != a.size
                || lanes.iter().any(|l| s.lanes.iter().any(|m| m.0 == l.0))
        });
        if again {
            let done = self.selecting.remove(&key);
            self.close_selecting(c, done);
        }
        self.selecting
            .entry(key)
            .or_insert_with(|| Selecting {
                space: a.space,
                size: a.size,
                lanes: Vec::new(),
            })
            .lanes
            .extend_from_slice(lanes);
    }

    fn close_selecting(&mut self, c: usize, s: Option<Selecting>) {
        let (Some(mut s), Some(t)) = (s, self.selected.get_mut(c)) else {
            return;
        };
        s.lanes.sort_unstable();
        t.add(s.space, s.size, &s.lanes);
    }

    /// Costs the chains of `warp`'s alternatives (of every warp for `None`).
    fn close_all_selecting(&mut self, warp: Option<u32>) {
        let mut keys: Vec<(u32, usize)> = self
            .selecting
            .keys()
            .filter(|k| warp.is_none_or(|w| k.0 == w))
            .copied()
            .collect();
        keys.sort_unstable();
        for k in keys {
            let done = self.selecting.remove(&k);
            self.close_selecting(k.1, done);
        }
    }

    fn chain_step(&mut self, a: &WarpAccess, lanes: &[(u32, u64)]) {
        let key = (a.warp, a.space == AddressSpace::Shared, a.kind);
        if let Some(c) = self.chains.get_mut(&key) {
            if let Some(slot) = c.slot(a, lanes) {
                c.links.push((a.site, lanes.to_vec()));
                c.slots.push(slot);
                return;
            }
        }
        let next = Chain {
            space: a.space,
            kind: a.kind,
            size: a.size,
            links: vec![(a.site, lanes.to_vec())],
            slots: vec![0],
        };
        if let Some(done) = self.chains.insert(key, next) {
            self.close_chain(done);
        }
    }

    /// Costs the chains of `warp` (of every warp for `None`).
    fn close_chains(&mut self, warp: Option<u32>) {
        let mut keys: Vec<_> = self
            .chains
            .keys()
            .filter(|k| warp.is_none_or(|w| k.0 == w))
            .copied()
            .collect();
        keys.sort_by_key(|k| (k.0, k.1, k.2 == AccessKind::Store));
        for k in keys {
            if let Some(c) = self.chains.remove(&k) {
                self.close_chain(c);
            }
        }
    }

    /// Costs a chain as the widest aligned pieces it splits into, under
    /// each of [`PAIR_WIDTHS`].
    fn close_chain(&mut self, mut c: Chain) {
        // In address order: the wide access is made at its lowest address.
        let mut order: Vec<usize> = (0..c.links.len()).collect();
        order.sort_by_key(|&i| c.slots[i]);
        c.links = order.iter().map(|&i| c.links[i].clone()).collect();
        c.slots = order.iter().map(|&i| c.slots[i]).collect();
        for (w, &limit) in PAIR_WIDTHS.iter().enumerate() {
            let mut i = 0;
            while i < c.links.len() {
                let k = [4usize, 2]
                    .into_iter()
                    .find(|&k| {
                        let wide = u64::from(c.size) * k as u64;
                        i + k <= c.links.len()
                            && wide <= u64::from(limit)
                            && c.slots[i..i + k].windows(2).all(|p| p[1] == p[0] + 1)
                            && c.links[i].1.iter().all(|l| l.1 % wide == 0)
                    })
                    .unwrap_or(1);
                let (site, lanes) = &c.links[i];
                let t = self.sites.entry(*site).or_default();
                t.paired[w].add(c.space, c.size * k as u32, lanes);
                if k > 1 {
                    let piece: Vec<u32> = c.links[i..i + k].iter().map(|l| l.0).collect();
                    for &s in &piece {
                        let t = self.sites.entry(s).or_default();
                        t.partners.extend(piece.iter().filter(|&&p| p != s));
                        t.pieces[w] += 1;
                    }
                }
                i += k;
            }
        }
    }

    /// A barrier: values read before it are read again after it (another
    /// thread may have written them).
    pub fn barrier(&mut self, block: [u32; 3], warp: u32) {
        if self.block == Some(block) {
            self.held.remove(&(warp, false));
            self.held.remove(&(warp, true));
            self.close_chains(Some(warp));
            self.close_all_selecting(Some(warp));
            for ((_, w), state) in self.warps.iter_mut() {
                if *w == warp {
                    state.since_barrier = None;
                }
            }
        }
    }

    /// Costs what waits to be merged as single accesses; called at the end
    /// of each block and of the launch.
    pub fn finish(&mut self) {
        self.close_all_selecting(None);
        self.close_chains(None);
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
        self.exchange.clear();
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

    fn access(site: u32, kind: AccessKind, array: &str) -> WarpAccess {
        WarpAccess {
            span: hone_ir::Span::default(),
            site,
            space: AddressSpace::Shared,
            kind,
            array: array.to_string(),
            array_base: 0,
            size: 4,
            block: [0, 0, 0],
            warp: 0,
            lanes: Vec::new(),
        }
    }

    #[test]
    fn neighbours_at_two_sites_make_one_wider_access_at_the_first() {
        let mut t = Tallies::default();
        // s[2t], then s[2t + 1]: 8-byte aligned pairs.
        t.observe(&access(1, AccessKind::Load, "s"), &row(0, 8));
        t.observe(&access(2, AccessKind::Load, "s"), &row(4, 8));
        // then a pair that starts off the 8-byte grid
        t.observe(&access(1, AccessKind::Load, "s"), &row(4, 8));
        t.observe(&access(2, AccessKind::Load, "s"), &row(8, 8));
        t.finish();
        let (a, b) = (&t.sites[&1], &t.sites[&2]);
        assert_eq!(a.pieces, [1, 1]);
        assert_eq!(b.pieces, [1, 1]);
        assert_eq!(a.partners.iter().copied().collect::<Vec<_>>(), vec![2]);
        // site 1: one 8-byte request (2 wavefronts), one 4-byte request
        assert_eq!(a.paired[0].requests, 2);
        assert_eq!(a.paired[0].wavefronts, 2 + 2);
        // site 2: only its misaligned access, alone
        assert_eq!(b.paired[0].requests, 1);
        assert_eq!(a.requests + b.requests, 4);
    }

    #[test]
    fn stores_to_neighbouring_scalars_in_any_order_make_one_wide_store() {
        // One lane writes four shared scalars at 0, 8, 12 and 4 (four sites,
        // in that order): one 16-byte store at the lowest address. Loads are
        // paired only in the order they come.
        let lane = |a: u64| vec![(0u32, a)];
        for kind in [AccessKind::Store, AccessKind::Load] {
            let mut t = Tallies::default();
            for (site, addr) in [(1, 0), (2, 8), (3, 12), (4, 4)] {
                t.observe(&access(site, kind, "scalars"), &lane(addr));
            }
            t.finish();
            let pieces: Vec<u64> = (1..=4).map(|s| t.sites[&s].pieces[1]).collect();
            let wide: u64 = (1..=4).map(|s| t.sites[&s].paired[1].requests).sum();
            if kind == AccessKind::Store {
                assert_eq!(pieces, [1, 1, 1, 1]);
                assert_eq!(wide, 1);
                assert_eq!(t.sites[&1].paired[1].requests, 1, "at the lowest address");
            } else {
                // Only 8 then 12, consecutive in order, make one (8-byte).
                assert_eq!(pieces, [0, 1, 1, 0]);
                assert_eq!(wide, 3);
            }
        }
    }

    #[test]
    fn an_access_moved_out_of_a_loop_runs_again_after_a_barrier() {
        let mut t = Tallies::default();
        for _ in 0..3 {
            for _ in 0..4 {
                t.observe(&access(1, AccessKind::Load, "out"), &row(0, 4));
            }
            t.barrier([0, 0, 0], 0);
        }
        t.finish();
        let s = &t.sites[&1];
        assert_eq!(s.requests, 12);
        assert_eq!(s.once.requests, 1, "the same addresses all along");
        assert_eq!(s.hoisted.requests, 3, "once between barriers");
    }

    #[test]
    fn a_store_to_another_shared_variable_keeps_what_the_warp_holds() {
        let mut t = Tallies::default();
        t.observe(&access(1, AccessKind::Load, "len"), &row(0, 0));
        t.observe(&access(2, AccessKind::Store, "tile"), &row(64, 4));
        t.observe(&access(3, AccessKind::Load, "len"), &row(0, 0));
        t.observe(&access(4, AccessKind::Store, "len"), &row(4, 0));
        t.observe(&access(5, AccessKind::Load, "len"), &row(0, 0));
        t.finish();
        assert_eq!(t.sites[&3].repeats, 1, "tile cannot overlap len");
        assert_eq!(t.sites[&5].repeats, 0, "a store to len may have changed it");
    }

    #[test]
    fn the_arms_of_a_chain_make_one_request_of_all_their_lanes() {
        let (north, inner) = (Span::point(0, 20, 1), Span::point(0, 23, 1));
        let groups = HashMap::from([(north, 0), (inner, 0)]);
        let mut t = Tallies::with_alternatives(groups, 1);
        let lanes = |range: std::ops::Range<u32>, base: u64| -> Vec<(u32, u64)> {
            range.map(|l| (l, base + 4 * u64::from(l))).collect()
        };
        for _ in 0..2 {
            let mut a = access(1, AccessKind::Load, "north");
            a.span = north;
            t.observe(&a, &lanes(0..16, 0));
            let mut b = access(2, AccessKind::Load, "tile");
            b.span = inner;
            t.observe(&b, &lanes(16..32, 1024));
        }
        t.finish();
        // Two runs of the chain, each one request of all 32 lanes.
        assert_eq!(t.selected[0].requests, 2);
        assert_eq!(t.sites[&1].requests + t.sites[&2].requests, 4);
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
