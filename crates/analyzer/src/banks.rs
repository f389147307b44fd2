//! Shared memory: 32 banks of 4-byte words. A request takes as many
//! wavefronts as the most distinct words any one bank must deliver; lanes that
//! read the same word share it (broadcast).
//!
//! Accesses wider than 4 bytes are processed in 2 phases of 16 lanes, conflicts
//! being counted within a phase: a 128-bit request of 16 lanes reading
//! distinct words takes 2 wavefronts, one in which all lanes read the same
//! 16 bytes takes 1 (so a warp's broadcast of a `float4` takes 2, as Nsight
//! Compute counts on an H100, where 4 phases of 8 lanes would make it 4).
//! With this model a warp reading floats 1, 2, 32 and 33 words apart takes
//! 1, 2, 32 and 1 wavefronts, which is what Nsight Compute counted on an
//! H200 (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum`).

use std::collections::BTreeMap;

use serde::Serialize;

pub const BANKS: u64 = 32;
pub const BANK_WORD: u64 = 4;

/// The cost of one warp-level shared-memory request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SharedRequest {
    pub active: u32,
    pub wavefronts: u64,
    /// Wavefronts the same lanes need when no bank holds two of their words:
    /// per phase, `ceil(distinct words / 32)`.
    pub ideal_wavefronts: u64,
    /// The n of the n-way conflict: most distinct words one bank delivers in
    /// one phase.
    pub ways: u64,
}

impl SharedRequest {
    /// Wavefronts beyond the ideal (Nsight Compute's bank conflicts).
    pub fn conflicts(&self) -> u64 {
        self.wavefronts.saturating_sub(self.ideal_wavefronts)
    }
}

/// Lanes per phase for an access of `size` bytes per lane.
pub fn lanes_per_phase(size: u32) -> u32 {
    match size {
        0..=4 => 32,
        _ => 16,
    }
}

pub fn bank_of(address: u64) -> u64 {
    (address / BANK_WORD) % BANKS
}

/// Costs the request whose active lanes (lane 0..32, byte offset in the
/// block's shared space) each access `size` bytes.
pub fn shared_request(lanes: &[(u32, u64)], size: u32) -> SharedRequest {
    // Every lane reading the same 8 bytes is one wavefront, as Nsight
    // Compute counts a broadcast `LDS.64` on an H100 (16 bytes take two).
    let per_phase = if size == 8 && lanes.windows(2).all(|w| w[0].1 == w[1].1) {
        32
    } else {
        lanes_per_phase(size)
    };
    let size = u64::from(size.max(1));
    let mut phases: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    for &(lane, addr) in lanes {
        let words = phases.entry(lane / per_phase).or_default();
        words.extend(addr / BANK_WORD..=(addr + size - 1) / BANK_WORD);
    }
    let mut out = SharedRequest {
        active: lanes.len() as u32,
        ..SharedRequest::default()
    };
    for words in phases.values_mut() {
        words.sort_unstable();
        words.dedup();
        let mut per_bank = [0u64; BANKS as usize];
        for w in words.iter() {
            per_bank[(w % BANKS) as usize] += 1;
        }
        let ways = per_bank.iter().copied().max().unwrap_or(0);
        out.wavefronts += ways;
        out.ways = out.ways.max(ways);
        out.ideal_wavefronts += (words.len() as u64).div_ceil(BANKS);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strided(stride_bytes: u64, size: u32) -> SharedRequest {
        let lanes: Vec<(u32, u64)> = (0..32).map(|l| (l, l as u64 * stride_bytes)).collect();
        shared_request(&lanes, size)
    }

    #[test]
    fn float_strides_1_2_32_33_take_1_2_32_1_wavefronts() {
        for (stride, want) in [(1u64, 1u64), (2, 2), (32, 32), (33, 1)] {
            let r = strided(4 * stride, 4);
            assert_eq!(r.wavefronts, want, "stride {stride}");
            assert_eq!(r.ways, want, "stride {stride}");
            assert_eq!(r.ideal_wavefronts, 1);
        }
        assert_eq!(strided(4 * 32, 4).conflicts(), 31);
    }

    #[test]
    fn broadcast_of_one_word_is_one_wavefront() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|l| (l, 64)).collect();
        let r = shared_request(&lanes, 4);
        assert_eq!((r.wavefronts, r.ideal_wavefronts, r.ways), (1, 1, 1));
        // two words in the same bank, each read by half the lanes: 2-way
        let lanes: Vec<(u32, u64)> = (0..32).map(|l| (l, if l < 16 { 0 } else { 128 })).collect();
        assert_eq!(shared_request(&lanes, 4).wavefronts, 2);
    }

    #[test]
    fn doubles_take_two_phases_of_sixteen_lanes() {
        // contiguous doubles: each half-warp reads 32 distinct words, one per bank
        let r = strided(8, 8);
        assert_eq!((r.wavefronts, r.ideal_wavefronts, r.ways), (2, 2, 1));
        // doubles 2 apart (16 bytes): a phase covers 64 words, 2 per bank
        let r = strided(16, 8);
        assert_eq!((r.wavefronts, r.ideal_wavefronts), (4, 2));
        // a column of a 32x32 double tile: all 16 lanes of a phase in banks 0-1
        let r = strided(256, 8);
        assert_eq!((r.wavefronts, r.ways), (32, 16));
        // padded to 33 doubles per row: 264 bytes apart, conflict-free
        assert_eq!(strided(264, 8).wavefronts, 2);
    }

    #[test]
    fn a_broadcast_of_eight_bytes_is_one_wavefront() {
        let r = strided(0, 8);
        assert_eq!((r.wavefronts, r.ideal_wavefronts), (1, 1));
        // two addresses: the half-warps again
        let lanes: Vec<(u32, u64)> = (0..32).map(|l| (l, 8 * (l as u64 / 16))).collect();
        assert_eq!(shared_request(&lanes, 8).wavefronts, 2);
    }

    #[test]
    fn float4_takes_two_phases_of_sixteen_lanes() {
        // 64 consecutive words a phase: 2 wavefronts each, no conflict
        let r = strided(16, 16);
        assert_eq!((r.wavefronts, r.ideal_wavefronts, r.ways), (4, 4, 2));
        // float4 32 bytes apart: a phase covers 128 words, half of them read
        let r = strided(32, 16);
        assert_eq!((r.wavefronts, r.ideal_wavefronts, r.ways), (8, 4, 4));
        // every lane reads the same float4: one wavefront a phase
        let r = strided(0, 16);
        assert_eq!((r.wavefronts, r.ideal_wavefronts), (2, 2));
        // only lanes 0..8 active: one phase
        let lanes: Vec<(u32, u64)> = (0..8).map(|l| (l, l as u64 * 16)).collect();
        assert_eq!(shared_request(&lanes, 16).wavefronts, 1);
    }

    #[test]
    fn bytes_in_one_word_share_it() {
        // chars: 32 lanes read 32 consecutive bytes = 8 words in 8 banks
        let lanes: Vec<(u32, u64)> = (0..32).map(|l| (l, l as u64)).collect();
        let r = shared_request(&lanes, 1);
        assert_eq!((r.wavefronts, r.ways), (1, 1));
        assert_eq!(bank_of(4 * 33), 1);
    }
}
