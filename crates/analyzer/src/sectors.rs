//! Global memory on sm_70 and later: a warp-level request is served in
//! 32-byte sectors of 128-byte cache lines. What a request costs is the number
//! of distinct sectors its active lanes touch; what it could have cost is the
//! number of sectors its distinct bytes would fill if they were packed and
//! aligned.

use serde::Serialize;

/// Bytes in an L1/L2 sector, the unit of global-memory traffic.
pub const SECTOR_BYTES: u64 = 32;
/// Bytes in a cache line (four sectors).
pub const LINE_BYTES: u64 = 128;

/// The cost of one warp-level global request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GlobalRequest {
    /// Lanes that took part.
    pub active: u32,
    /// Bytes the lanes asked for, counting a byte once per lane that asked.
    pub requested_bytes: u64,
    /// Distinct bytes asked for.
    pub unique_bytes: u64,
    pub sectors: u64,
    pub lines: u64,
    /// `ceil(unique_bytes / 32)`: the sectors a packed, aligned layout needs.
    pub ideal_sectors: u64,
}

impl GlobalRequest {
    /// Sectors moved beyond the ideal.
    pub fn excess_sectors(&self) -> u64 {
        self.sectors.saturating_sub(self.ideal_sectors)
    }
}

/// Fraction of the moved bytes that some lane asked for. Bytes several lanes
/// read (broadcasts) are counted once, so the figure never exceeds 1.
pub fn efficiency(unique_bytes: u64, sectors: u64) -> f64 {
    if sectors == 0 {
        1.0
    } else {
        unique_bytes as f64 / (sectors * SECTOR_BYTES) as f64
    }
}

/// Costs the request whose active lanes access `size` bytes at each of
/// `addresses`.
pub fn global_request(addresses: impl IntoIterator<Item = u64>, size: u32) -> GlobalRequest {
    let size = u64::from(size.max(1));
    let mut starts: Vec<u64> = addresses.into_iter().collect();
    let active = starts.len() as u32;
    starts.sort_unstable();
    let mut unique = 0u64;
    let mut covered_to = 0u64;
    let mut sectors: Vec<u64> = Vec::with_capacity(starts.len() * 2);
    for (i, &a) in starts.iter().enumerate() {
        let end = a + size;
        let from = if i == 0 { a } else { a.max(covered_to) };
        if end > from {
            unique += end - from;
        }
        covered_to = if i == 0 { end } else { covered_to.max(end) };
        sectors.extend(a / SECTOR_BYTES..=(end - 1) / SECTOR_BYTES);
    }
    sectors.sort_unstable();
    sectors.dedup();
    let mut lines: Vec<u64> = sectors
        .iter()
        .map(|s| s * SECTOR_BYTES / LINE_BYTES)
        .collect();
    lines.dedup();
    GlobalRequest {
        active,
        requested_bytes: u64::from(active) * size,
        unique_bytes: unique,
        sectors: sectors.len() as u64,
        lines: lines.len() as u64,
        ideal_sectors: unique.div_ceil(SECTOR_BYTES),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strided(base: u64, stride: u64, lanes: u64) -> Vec<u64> {
        (0..lanes).map(|l| base + l * stride).collect()
    }

    #[test]
    fn aligned_contiguous_floats_fill_four_sectors_of_one_line() {
        let r = global_request(strided(0x1000, 4, 32), 4);
        assert_eq!((r.sectors, r.lines, r.ideal_sectors), (4, 1, 4));
        assert_eq!((r.requested_bytes, r.unique_bytes), (128, 128));
        assert_eq!(r.excess_sectors(), 0);
        assert_eq!(efficiency(r.unique_bytes, r.sectors), 1.0);
    }

    #[test]
    fn offset_by_one_word_spills_into_a_fifth_sector_and_second_line() {
        let r = global_request(strided(0x1004, 4, 32), 4);
        // bytes 0x1004..0x1084: sectors 0x1000, 0x1020, 0x1040, 0x1060, 0x1080
        assert_eq!((r.sectors, r.lines, r.ideal_sectors), (5, 2, 4));
        assert_eq!(r.excess_sectors(), 1);
        assert!((efficiency(r.unique_bytes, r.sectors) - 128.0 / 160.0).abs() < 1e-12);
    }

    #[test]
    fn stride_two_words_touches_twice_the_sectors() {
        let r = global_request(strided(0, 8, 32), 4);
        // 32 words spread over 256 bytes: 8 sectors, 2 lines, 128 bytes used
        assert_eq!((r.sectors, r.lines, r.ideal_sectors), (8, 2, 4));
    }

    #[test]
    fn column_walk_touches_one_sector_per_lane() {
        // 32 rows of a 64-float matrix, same column: 256 bytes apart.
        let r = global_request(strided(0x2000 + 12, 256, 32), 4);
        assert_eq!((r.sectors, r.lines, r.ideal_sectors), (32, 32, 4));
        assert_eq!(r.excess_sectors(), 28);
    }

    #[test]
    fn array_of_structures_field_read_uses_a_third_of_each_sector() {
        // float x of struct {float x, y, z}: 12 bytes apart, 32 lanes = 384 bytes.
        let r = global_request(strided(0, 12, 32), 4);
        assert_eq!(r.sectors, 12);
        assert_eq!(r.ideal_sectors, 4);
        assert_eq!(r.lines, 3);
    }

    #[test]
    fn broadcast_counts_bytes_once() {
        let r = global_request(vec![0x40; 32], 4);
        assert_eq!((r.sectors, r.ideal_sectors, r.unique_bytes), (1, 1, 4));
        assert_eq!(r.requested_bytes, 128);
        assert!(efficiency(r.unique_bytes, r.sectors) <= 1.0);
    }

    #[test]
    fn vector_accesses_count_all_their_bytes() {
        // float4, contiguous: 512 bytes = 16 sectors in 4 lines.
        let r = global_request(strided(0, 16, 32), 16);
        assert_eq!((r.sectors, r.lines, r.ideal_sectors), (16, 4, 16));
        // doubles with a partial warp: 10 lanes, 80 bytes from 0x18: sectors 0..=3
        let r = global_request(strided(0x18, 8, 10), 8);
        assert_eq!((r.active, r.sectors, r.ideal_sectors), (10, 4, 3));
    }
}
