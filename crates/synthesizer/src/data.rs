//! The fills the profile (distinct values) and the verification (random
//! values) give a launch's buffers.

use std::collections::HashSet;

use hone_emulator::Buffer;
use hone_ir::Scalar;

/// SplitMix64: small, fast, and the same everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x853c_49e6_748f_ea9b)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Fills all buffers with values distinct across all of them (integers, so
/// they are exact in every type wide enough), as the profile run needs: a
/// value then names the element it came from.
pub fn fill_distinct(buffers: &mut [Buffer], seed: u64) {
    let mut rng = Rng::new(seed);
    let mut used = HashSet::new();
    for b in buffers.iter_mut() {
        b.fill(|s| {
            // Below 2^18, sums of up to 64 values stay exact in `float`
            // (integer data is often staged in a float shared array).
            let range: u64 = match s {
                Scalar::Bool => 2,
                Scalar::I8 | Scalar::U8 => 1 << 7,
                Scalar::I16 | Scalar::U16 => 1 << 15,
                _ => 1 << 18,
            };
            for _ in 0..64 {
                let v = 1 + rng.next_u64() % (range - 1).max(1);
                if used.insert(v) {
                    return v as f64;
                }
            }
            (1 + rng.next_u64() % (range - 1).max(1)) as f64
        });
    }
}

/// Random contents for a verification run: floats in `[0, 1)`, integers in
/// `0..100` (as `hone sim`'s random fill).
pub fn fill_random(buffers: &mut [Buffer], seed: u64) {
    let mut rng = Rng::new(seed);
    for b in buffers.iter_mut() {
        b.fill(|s| {
            if s.is_float() {
                rng.unit()
            } else {
                (rng.next_u64() % 100) as f64
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_fill_has_no_repeats_across_buffers() {
        let mut bufs = vec![
            Buffer::from_f32("a", &[0.0; 500]),
            Buffer::from_i32("b", &[0; 500]),
        ];
        fill_distinct(&mut bufs, 7);
        let mut all: Vec<i64> = bufs[0].to_f64_vec().iter().map(|&v| v as i64).collect();
        all.extend(bufs[1].to_i64_vec());
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(all.iter().all(|&v| v > 0));
    }
}
