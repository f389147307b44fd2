//! A trace sink that costs every warp request as it streams by and keeps, per
//! access site, only running totals and the few worst requests (for the
//! diagrams), so launches of any size can be analysed.

use std::collections::BTreeMap;

use hone_emulator::{AccessKind, LaunchConfig, TraceSink, WarpAccess};
use hone_ir::{AddressSpace, Span};
use serde::Serialize;

use crate::banks::shared_request;
use crate::cc11::{check_warp, Failed, HALF_WARP};
use crate::compiled::tally::{Tallies, Tally};
use crate::compiled::{Counted, Repeated};
use crate::sectors::global_request;
use crate::Model;

/// One lane of a kept request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SampleLane {
    pub lane: u32,
    pub thread: [u32; 3],
    pub address: u64,
}

/// A warp request kept for a diagram.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sample {
    pub block: [u32; 3],
    pub warp: u32,
    /// Excess of this request under the model that ranks (sectors,
    /// transactions or wavefronts).
    pub excess: u64,
    /// Active lanes, in lane order.
    pub lanes: Vec<SampleLane>,
}

/// How far apart the addresses of consecutive active lanes were, over all
/// requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum LaneStride {
    #[default]
    Unseen,
    /// In every request, each active lane's address was this many bytes past
    /// the previous active lane's.
    Uniform(i64),
    Mixed,
}

/// The threads whose half-warps failed the same set of CC 1.1 conditions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FailRange {
    pub failed: Vec<u8>,
    /// Thread numbers in the grid (block index x threads per block + thread
    /// index in the block), as sorted, disjoint, inclusive ranges.
    pub threads: Vec<(u64, u64)>,
    #[serde(skip)]
    bits: Failed,
}

impl FailRange {
    /// Adds `first..=last`, merging it with the ranges it touches. Returns
    /// false when the range would exceed `max` kept ranges.
    fn insert(&mut self, first: u64, last: u64, max: usize) -> bool {
        let t = &mut self.threads;
        let at = t.partition_point(|r| r.1.saturating_add(1) < first);
        let mut end = at;
        let (mut lo, mut hi) = (first, last);
        while end < t.len() && t[end].0 <= last.saturating_add(1) {
            lo = lo.min(t[end].0);
            hi = hi.max(t[end].1);
            end += 1;
        }
        if at == end && t.len() >= max {
            return false;
        }
        t.splice(at..end, [(lo, hi)]);
        true
    }
}

/// Everything gathered about one access site.
#[derive(Clone, Debug, Serialize)]
pub struct SiteStats {
    pub site: u32,
    pub span: Span,
    pub space: AddressSpace,
    pub kind: AccessKind,
    pub array: String,
    pub array_base: u64,
    /// Bytes per lane.
    pub size: u32,
    /// Thread-level executions (active lanes summed over requests).
    pub executions: u64,
    /// Warp-level requests.
    pub requests: u64,
    pub requested_bytes: u64,
    pub unique_bytes: u64,
    pub sectors: u64,
    pub lines: u64,
    pub ideal_sectors: u64,
    pub wavefronts: u64,
    pub ideal_wavefronts: u64,
    /// Largest n of an n-way bank conflict seen.
    pub max_ways: u64,
    pub half_warps: u64,
    pub coalesced_half_warps: u64,
    /// Half-warps that failed condition 1, 2, 3.
    pub failed_half_warps: [u64; 3],
    pub transactions: u64,
    pub ideal_transactions: u64,
    /// By set of failed conditions.
    pub fail_ranges: Vec<FailRange>,
    /// Thread ranges not kept (beyond the limit per set).
    pub fail_ranges_dropped: u64,
    pub lane_stride: LaneStride,
    pub min_active: u32,
    pub max_active: u32,
    /// Lowest address of each request modulo 256, and how often.
    pub lead_offsets: BTreeMap<u64, u64>,
    /// Constant memory: requests whose active lanes all read one address,
    /// served by one broadcast.
    pub constant_broadcasts: u64,
    /// Constant memory: one per distinct address of each request, the
    /// accesses the constant cache serializes the request into.
    pub constant_replays: u64,
    pub worst: Vec<Sample>,
    /// Whether the counts above are the source's or the compiled code's.
    #[serde(flatten)]
    pub counted: Counted,
    /// The source's counts, where the compiled code's replaced them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Tally>,
    /// Requests the compiled code repeats at the same addresses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeated: Option<Repeated>,
}

impl SiteStats {
    fn new(a: &WarpAccess) -> SiteStats {
        SiteStats {
            site: a.site,
            span: a.span,
            space: a.space,
            kind: a.kind,
            array: a.array.clone(),
            array_base: a.array_base,
            size: a.size,
            executions: 0,
            requests: 0,
            requested_bytes: 0,
            unique_bytes: 0,
            sectors: 0,
            lines: 0,
            ideal_sectors: 0,
            wavefronts: 0,
            ideal_wavefronts: 0,
            max_ways: 0,
            half_warps: 0,
            coalesced_half_warps: 0,
            failed_half_warps: [0; 3],
            transactions: 0,
            ideal_transactions: 0,
            fail_ranges: Vec::new(),
            fail_ranges_dropped: 0,
            lane_stride: LaneStride::Unseen,
            min_active: u32::MAX,
            max_active: 0,
            lead_offsets: BTreeMap::new(),
            constant_broadcasts: 0,
            constant_replays: 0,
            worst: Vec::new(),
            counted: Counted::Source,
            source: None,
            repeated: None,
        }
    }

    fn counts(&self) -> Tally {
        Tally {
            requests: self.requests,
            requested_bytes: self.requested_bytes,
            unique_bytes: self.unique_bytes,
            sectors: self.sectors,
            lines: self.lines,
            ideal_sectors: self.ideal_sectors,
            transactions: self.transactions,
            ideal_transactions: self.ideal_transactions,
            wavefronts: self.wavefronts,
            ideal_wavefronts: self.ideal_wavefronts,
        }
    }

    /// Counts the site as the compiled code executes it; the source's counts
    /// are kept in `source`.
    pub fn replace_counts(&mut self, t: Tally) {
        if self.source.is_none() {
            self.source = Some(self.counts());
        }
        self.requests = t.requests;
        self.requested_bytes = t.requested_bytes;
        self.unique_bytes = t.unique_bytes;
        self.sectors = t.sectors;
        self.lines = t.lines;
        self.ideal_sectors = t.ideal_sectors;
        self.transactions = t.transactions;
        self.ideal_transactions = t.ideal_transactions;
        self.wavefronts = t.wavefronts;
        self.ideal_wavefronts = t.ideal_wavefronts;
    }

    pub fn excess_sectors(&self) -> u64 {
        self.sectors.saturating_sub(self.ideal_sectors)
    }
    pub fn excess_wavefronts(&self) -> u64 {
        self.wavefronts.saturating_sub(self.ideal_wavefronts)
    }
    /// Constant-memory replays beyond one per request.
    pub fn excess_constant(&self) -> u64 {
        self.constant_replays.saturating_sub(self.requests)
    }
    pub fn excess_transactions(&self) -> u64 {
        self.transactions.saturating_sub(self.ideal_transactions)
    }
    /// Union of the CC 1.1 conditions failed anywhere.
    pub fn cc11_failed(&self) -> Vec<u8> {
        (1..=3u8)
            .filter(|&c| self.failed_half_warps[c as usize - 1] > 0)
            .collect()
    }
    /// The excess the given model ranks this site by.
    pub fn excess(&self, model: Model) -> u64 {
        match (self.space, model) {
            (AddressSpace::Shared, _) => self.excess_wavefronts(),
            (AddressSpace::Constant, _) => self.excess_constant(),
            (_, Model::Sm90) => self.excess_sectors(),
            (_, Model::Cc11) => self.excess_transactions(),
        }
    }
}

/// Thread ranges kept per set of failed conditions; further ones are only counted.
const MAX_FAIL_RANGES: usize = 256;

/// The sink. Local-memory accesses are ignored.
pub struct Collector {
    model: Model,
    keep_worst: usize,
    block_dim: [u32; 3],
    grid_dim: [u32; 3],
    pub sites: BTreeMap<u32, SiteStats>,
    /// Counts under the compiled code's ways of executing each site, when
    /// asked for.
    pub tallies: Option<Tallies>,
}

impl Collector {
    pub fn new(model: Model, cfg: &LaunchConfig, keep_worst: usize) -> Collector {
        Collector {
            model,
            keep_worst,
            block_dim: cfg.block,
            grid_dim: cfg.grid,
            sites: BTreeMap::new(),
            tallies: None,
        }
    }

    /// Also gathers the counts [`crate::compiled`] chooses from.
    pub fn with_tallies(mut self, tallies: Tallies) -> Collector {
        self.tallies = Some(tallies);
        self
    }

    fn thread_number(&self, block: [u32; 3], thread: [u32; 3]) -> u64 {
        let [gx, gy, _] = self.grid_dim.map(u64::from);
        let [bx, by, bz] = self.block_dim.map(u64::from);
        let b = u64::from(block[0]) + gx * (u64::from(block[1]) + gy * u64::from(block[2]));
        let t = u64::from(thread[0]) + bx * (u64::from(thread[1]) + by * u64::from(thread[2]));
        b * bx * by * bz + t
    }
}

/// The address step between consecutive active lanes, when it is the same
/// for all of them.
fn observe_stride(lanes: &[(u32, u64)]) -> Option<i64> {
    let mut steps = lanes.windows(2).map(|w| w[1].1 as i64 - w[0].1 as i64);
    let first = steps.next()?;
    steps.all(|s| s == first).then_some(first)
}

impl TraceSink for Collector {
    fn barrier(&mut self, block: [u32; 3], warp: u32) {
        if let Some(t) = &mut self.tallies {
            t.barrier(block, warp);
        }
    }

    fn warp_access(&mut self, a: &WarpAccess) {
        if a.space == AddressSpace::Local || a.lanes.is_empty() {
            return;
        }
        let lanes: Vec<(u32, u64)> = a.lanes.iter().map(|l| (l.lane, l.address)).collect();
        if let Some(t) = &mut self.tallies {
            if a.space != AddressSpace::Constant {
                t.observe(a, &lanes);
            }
        }
        let first_thread = a.lanes[0].thread;
        let first_lane = a.lanes[0].lane;
        let block_first = self.thread_number(a.block, first_thread) - u64::from(first_lane);
        let threads_in_block = self
            .block_dim
            .iter()
            .map(|&d| u64::from(d))
            .product::<u64>();
        let block_start = self.thread_number(a.block, [0; 3]);
        let model = self.model;
        let site = self
            .sites
            .entry(a.site)
            .or_insert_with(|| SiteStats::new(a));
        site.requests += 1;
        site.executions += lanes.len() as u64;
        site.min_active = site.min_active.min(lanes.len() as u32);
        site.max_active = site.max_active.max(lanes.len() as u32);
        let lowest = lanes.iter().map(|l| l.1).min().unwrap_or(0);
        *site.lead_offsets.entry(lowest % 256).or_insert(0) += 1;
        site.lane_stride = match (site.lane_stride, observe_stride(&lanes)) {
            (_, None) if lanes.len() > 1 => LaneStride::Mixed,
            (s, None) => s,
            (LaneStride::Unseen, Some(s)) => LaneStride::Uniform(s),
            (LaneStride::Uniform(p), Some(s)) if p == s => LaneStride::Uniform(p),
            _ => LaneStride::Mixed,
        };
        let excess = match a.space {
            AddressSpace::Constant => {
                let r = constant_request(&lanes);
                site.constant_replays += r;
                if r == 1 {
                    site.constant_broadcasts += 1;
                }
                r - 1
            }
            AddressSpace::Shared => {
                let r = shared_request(&lanes, a.size);
                site.wavefronts += r.wavefronts;
                site.ideal_wavefronts += r.ideal_wavefronts;
                site.max_ways = site.max_ways.max(r.ways);
                r.conflicts()
            }
            _ => {
                let r = global_request(lanes.iter().map(|l| l.1), a.size);
                site.requested_bytes += r.requested_bytes;
                site.unique_bytes += r.unique_bytes;
                site.sectors += r.sectors;
                site.lines += r.lines;
                site.ideal_sectors += r.ideal_sectors;
                let mut cc_excess = 0;
                for (h, check) in check_warp(a.size, lanes.iter().copied())
                    .into_iter()
                    .enumerate()
                {
                    let Some(c) = check else { continue };
                    site.half_warps += 1;
                    site.transactions += u64::from(c.transactions);
                    site.ideal_transactions += u64::from(c.ideal_transactions);
                    cc_excess += u64::from(c.transactions.saturating_sub(c.ideal_transactions));
                    if c.coalesced() {
                        site.coalesced_half_warps += 1;
                        continue;
                    }
                    for cond in c.failed.list() {
                        site.failed_half_warps[cond as usize - 1] += 1;
                    }
                    let first = block_first + h as u64 * u64::from(HALF_WARP);
                    let last =
                        (first + u64::from(HALF_WARP) - 1).min(block_start + threads_in_block - 1);
                    let set = match site.fail_ranges.iter().position(|r| r.bits == c.failed) {
                        Some(i) => i,
                        None => {
                            site.fail_ranges.push(FailRange {
                                failed: c.failed.list(),
                                threads: Vec::new(),
                                bits: c.failed,
                            });
                            site.fail_ranges.sort_by_key(|r| r.bits);
                            site.fail_ranges
                                .iter()
                                .position(|r| r.bits == c.failed)
                                .unwrap_or(0)
                        }
                    };
                    if !site.fail_ranges[set].insert(first, last, MAX_FAIL_RANGES) {
                        site.fail_ranges_dropped += 1;
                    }
                }
                match model {
                    Model::Sm90 => r.excess_sectors(),
                    Model::Cc11 => cc_excess,
                }
            }
        };
        keep_worst(site, self.keep_worst, excess, a);
    }
}

/// The accesses the constant cache serves a warp request in: one per distinct
/// address among the active lanes (a single one is a broadcast).
pub fn constant_request(lanes: &[(u32, u64)]) -> u64 {
    let mut addrs: Vec<u64> = lanes.iter().map(|l| l.1).collect();
    addrs.sort_unstable();
    addrs.dedup();
    addrs.len().max(1) as u64
}

/// Keeps the `k` requests with the largest excess, the earliest among equals.
fn keep_worst(site: &mut SiteStats, k: usize, excess: u64, a: &WarpAccess) {
    if k == 0 {
        return;
    }
    if site.worst.len() >= k && site.worst.iter().all(|s| s.excess >= excess) {
        return;
    }
    let sample = Sample {
        block: a.block,
        warp: a.warp,
        excess,
        lanes: a
            .lanes
            .iter()
            .map(|l| SampleLane {
                lane: l.lane,
                thread: l.thread,
                address: l.address,
            })
            .collect(),
    };
    let at = site
        .worst
        .iter()
        .position(|s| s.excess < excess)
        .unwrap_or(site.worst.len());
    site.worst.insert(at, sample);
    site.worst.truncate(k);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_ranges_merge_touching_and_overlapping_threads() {
        let mut r = FailRange {
            failed: vec![2],
            threads: Vec::new(),
            bits: Failed(2),
        };
        assert!(r.insert(32, 47, 8));
        assert!(r.insert(0, 15, 8));
        assert!(r.insert(0, 15, 8));
        assert_eq!(r.threads, vec![(0, 15), (32, 47)]);
        assert!(r.insert(16, 31, 8));
        assert_eq!(r.threads, vec![(0, 47)]);
        assert!(r.insert(64, 79, 2));
        assert!(!r.insert(100, 115, 2), "a third range exceeds the limit");
        assert!(r.insert(80, 95, 2), "merging never needs room");
        assert_eq!(r.threads, vec![(0, 47), (64, 95)]);
    }
}
