//! Changes of data layout that some fixes need: where element `j` of a
//! buffer goes, and the buffer rebuilt that way.

use hone_emulator::Buffer;
use serde::Serialize;

/// A map from old to new element positions of one array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Layout {
    /// Element `j` moves to `j + pad`; the first `pad` elements are padding.
    Shift { pad: u64 },
    /// Records of `stride` elements, grouped by `chunk` records: element
    /// `j = k * stride + c` (field `c` of record `k`) moves to
    /// `(k / chunk) * chunk * stride + c * chunk + k % chunk`, so field `c`
    /// of `chunk` consecutive records is contiguous.
    Interleave { stride: u64, chunk: u64 },
}

impl Layout {
    pub fn map(&self, j: u64) -> u64 {
        match *self {
            Layout::Shift { pad } => j + pad,
            Layout::Interleave { stride, chunk } => {
                let (k, c) = (j / stride, j % stride);
                (k / chunk) * chunk * stride + c * chunk + k % chunk
            }
        }
    }

    /// Elements the relaid array needs for `len` original ones.
    pub fn new_len(&self, len: u64) -> u64 {
        match *self {
            Layout::Shift { pad } => len + pad,
            Layout::Interleave { stride, chunk } => {
                len.div_ceil(stride).div_ceil(chunk) * chunk * stride
            }
        }
    }

    /// What the caller must change, in words.
    pub fn describe(&self, array: &str) -> String {
        match *self {
            Layout::Shift { pad } => format!(
                "allocate {pad} more elements for `{array}` and store element j at j + {pad} \
                 (the first {pad} elements are padding)"
            ),
            Layout::Interleave { stride, chunk } => format!(
                "element j of `{array}` moves to (k / {chunk}) * {} + (j % {stride}) * {chunk} + k % {chunk}, \
                 k = j / {stride} (field c of {chunk} consecutive {stride}-element records made contiguous); \
                 allocate a multiple of {} elements",
                chunk * stride,
                chunk * stride
            ),
        }
    }

    /// `b` relaid: a new buffer (padding zeroed) holding every element of `b`
    /// at its new position.
    pub fn apply(&self, b: &Buffer) -> Buffer {
        let size = b.elem_size();
        let len = b.len() as u64;
        let mut data = vec![0u8; self.new_len(len) as usize * size];
        for j in 0..len {
            let to = self.map(j) as usize * size;
            let from = j as usize * size;
            data[to..to + size].copy_from_slice(&b.data[from..from + size]);
        }
        Buffer {
            name: b.name.clone(),
            elem: b.elem.clone(),
            data,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleave_is_a_bijection_into_its_new_length() {
        for (stride, len) in [(2u64, 256u64), (3, 100), (64, 64 * 40), (5, 7)] {
            let l = Layout::Interleave { stride, chunk: 32 };
            let n = l.new_len(len);
            let mut seen = vec![false; n as usize];
            for j in 0..len {
                let t = l.map(j);
                assert!(t < n, "stride {stride} len {len}: {j} -> {t} >= {n}");
                assert!(!seen[t as usize], "two elements map to {t}");
                seen[t as usize] = true;
            }
        }
    }

    #[test]
    fn interleave_of_pairs_matches_figure_11() {
        // Thread 2k of figure 6 reads (2k, 2k+1); in figure 11 the thread
        // 64 (k / 32) + k % 32 reads (id, id + 32).
        let l = Layout::Interleave {
            stride: 2,
            chunk: 32,
        };
        for k in 0..200u64 {
            let id = 64 * (k / 32) + k % 32;
            assert_eq!(l.map(2 * k), id);
            assert_eq!(l.map(2 * k + 1), id + 32);
        }
    }

    #[test]
    fn shift_pads_the_front() {
        let b = Buffer::from_i32("x", &[1, 2, 3]);
        let r = Layout::Shift { pad: 2 }.apply(&b);
        assert_eq!(r.to_i32_vec(), vec![0, 0, 1, 2, 3]);
    }
}
