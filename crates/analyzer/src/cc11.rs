//! The coalescing rules of compute capability 1.0/1.1 that the profiling-support
//! paper checks, per half-warp of 16 threads:
//!
//! 1. the word size is 4, 8 or 16 bytes;
//! 2. the addresses of the threads that access ascend contiguously with the
//!    thread index (each next accessing thread takes the word right after the
//!    previous one's, so a gap left by a thread that does not access breaks
//!    the run, as in the paper's figure 6);
//! 3. the first accessing thread's address is aligned to 16 x the word size
//!    (64 bytes for 4-byte words).
//!
//! A half-warp meeting all three is served by one transaction (two for 16-byte
//! words); otherwise every accessing thread gets a transaction of its own.

use serde::Serialize;

/// Threads in a half-warp.
pub const HALF_WARP: u32 = 16;

/// Which of the three conditions failed, as a bit set (bit `k - 1` for
/// condition `k`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Failed(pub u8);

impl Failed {
    pub fn has(self, condition: u8) -> bool {
        (1..=3).contains(&condition) && self.0 & (1 << (condition - 1)) != 0
    }
    fn set(&mut self, condition: u8) {
        self.0 |= 1 << (condition - 1);
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The failed condition numbers, ascending.
    pub fn list(self) -> Vec<u8> {
        (1..=3).filter(|&c| self.has(c)).collect()
    }
    pub fn union(self, other: Failed) -> Failed {
        Failed(self.0 | other.0)
    }
}

/// One half-warp's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HalfWarpCheck {
    /// Accessing threads (the rest are "unknown": they did not execute the access).
    pub active: u32,
    pub failed: Failed,
    /// Lowest lane (0..16 within the half-warp) that accessed.
    pub first_lane: u32,
    pub first_address: u64,
    /// First lane whose address does not follow its predecessor's (condition 2).
    pub break_lane: Option<u32>,
    pub transactions: u32,
    pub ideal_transactions: u32,
}

impl HalfWarpCheck {
    pub fn coalesced(&self) -> bool {
        self.failed.is_empty()
    }
}

/// Alignment condition 3 asks of the first address.
pub fn segment_bytes(size: u32) -> u64 {
    16 * u64::from(size.max(1))
}

/// Checks one half-warp whose accessing lanes (lane within the half-warp,
/// byte address) are given in any order. `None` when no lane accessed.
pub fn check_half_warp(size: u32, lanes: &[(u32, u64)]) -> Option<HalfWarpCheck> {
    let mut sorted = lanes.to_vec();
    sorted.sort_unstable();
    let &(first_lane, first_address) = sorted.first()?;
    let mut failed = Failed::default();
    if !matches!(size, 4 | 8 | 16) {
        failed.set(1);
    }
    let step = u64::from(size);
    let break_lane = sorted
        .windows(2)
        .find(|w| w[1].1 != w[0].1.wrapping_add(step))
        .map(|w| w[1].0);
    if break_lane.is_some() {
        failed.set(2);
    }
    if first_address % segment_bytes(size) != 0 {
        failed.set(3);
    }
    let active = sorted.len() as u32;
    // 16-byte accesses of more than 8 lanes fill two 128-byte transactions.
    let ideal = if size == 16 && active > 8 { 2 } else { 1 };
    Some(HalfWarpCheck {
        active,
        failed,
        first_lane,
        first_address,
        break_lane,
        transactions: if failed.is_empty() { ideal } else { active },
        ideal_transactions: ideal,
    })
}

/// Splits a warp request (lane 0..32, address) into its two half-warps and
/// checks each; entries are `None` for a half-warp with no accessing lane.
pub fn check_warp(
    size: u32,
    lanes: impl IntoIterator<Item = (u32, u64)>,
) -> [Option<HalfWarpCheck>; 2] {
    let mut halves: [Vec<(u32, u64)>; 2] = [Vec::new(), Vec::new()];
    for (lane, addr) in lanes {
        let h = (lane / HALF_WARP).min(1) as usize;
        halves[h].push((lane % HALF_WARP, addr));
    }
    [
        check_half_warp(size, &halves[0]),
        check_half_warp(size, &halves[1]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(u32) -> Option<u64>) -> Vec<(u32, u64)> {
        (0..32).filter_map(|l| f(l).map(|a| (l, a))).collect()
    }

    const BASE: u64 = 0x0010_0000;

    #[test]
    fn figure3_read_one_word_past_the_boundary_fails_condition_3() {
        // d_b[id + 1]: every lane active, contiguous, starting at +4.
        let [a, b] = check_warp(4, lanes(|l| Some(BASE + 4 * (l as u64 + 1))));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.failed.list(), vec![3]);
        assert_eq!(a.first_address, BASE + 4);
        assert_eq!(b.failed.list(), vec![3]);
        assert_eq!((a.transactions, a.ideal_transactions), (16, 1));
    }

    #[test]
    fn one_lane_of_sixteen_bytes_needs_one_transaction() {
        let c = check_half_warp(16, &[(1, 16)]).unwrap();
        assert!(!c.coalesced());
        assert_eq!((c.transactions, c.ideal_transactions), (1, 1));
    }

    #[test]
    fn figure4_read_sixteen_words_on_is_coalesced() {
        let [a, b] = check_warp(4, lanes(|l| Some(BASE + 4 * (l as u64 + 16))));
        assert!(a.unwrap().coalesced() && b.unwrap().coalesced());
        assert_eq!(a.unwrap().transactions, 1);
    }

    #[test]
    fn figure6_even_threads_fail_contiguity_and_the_plus_one_read_also_alignment() {
        // d_A[id] and d_B[id] for even id only.
        let even = lanes(|l| (l % 2 == 0).then(|| BASE + 4 * l as u64));
        let [a, _] = check_warp(4, even);
        let a = a.unwrap();
        assert_eq!(a.failed.list(), vec![2]);
        assert_eq!(a.active, 8);
        assert_eq!(a.break_lane, Some(2));
        // d_A[id + 1] for even id: first address BASE + 4, as the paper's figure 10 shows.
        let plus_one = lanes(|l| (l % 2 == 0).then(|| BASE + 4 * (l as u64 + 1)));
        let [a, b] = check_warp(4, plus_one);
        assert_eq!(a.unwrap().failed.list(), vec![2, 3]);
        assert_eq!(a.unwrap().first_address, 0x0010_0004);
        assert_eq!(b.unwrap().failed.list(), vec![2, 3]);
    }

    #[test]
    fn figure11_runs_of_32_threads_are_coalesced() {
        // id % 64 < 32: whole warps active, reading d_A[id] and d_A[id + 32].
        for offset in [0u64, 32] {
            let [a, b] = check_warp(4, lanes(|l| Some(BASE + 4 * (l as u64 + offset))));
            assert!(a.unwrap().coalesced() && b.unwrap().coalesced());
        }
        // the warps with id % 64 >= 32 do not access at all
        assert_eq!(check_warp(4, Vec::new()), [None, None]);
    }

    #[test]
    fn word_size_and_alignment_scale_with_the_type() {
        // chars fail condition 1 even when contiguous and aligned
        let [a, _] = check_warp(1, lanes(|l| Some(BASE + l as u64)));
        assert_eq!(a.unwrap().failed.list(), vec![1]);
        // doubles need 128-byte alignment: 64 is not enough
        let [a, _] = check_warp(8, lanes(|l| Some(BASE + 64 + 8 * l as u64)));
        assert_eq!(a.unwrap().failed.list(), vec![3]);
        let [a, _] = check_warp(8, lanes(|l| Some(BASE + 128 + 8 * l as u64)));
        assert!(a.unwrap().coalesced());
        // float4 needs 256 and counts two transactions when coalesced
        let [a, _] = check_warp(16, lanes(|l| Some(BASE + 256 + 16 * l as u64)));
        assert_eq!(a.unwrap().transactions, 2);
    }

    #[test]
    fn a_partial_half_warp_that_stays_contiguous_is_coalesced() {
        // a bounds check leaves lanes 10..16 idle: no gap, aligned start
        let [a, _] = check_warp(4, lanes(|l| (l < 10).then(|| BASE + 4 * l as u64)));
        assert!(a.unwrap().coalesced());
        // descending addresses break the ascending order
        let [a, _] = check_warp(4, lanes(|l| Some(BASE + 4 * (31 - l as u64))));
        assert!(a.unwrap().failed.has(2));
    }
}
