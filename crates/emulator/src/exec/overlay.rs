//! Private views of global memory for blocks that run in parallel.
//!
//! A block running alongside others reads the buffers as committed before its
//! wave and keeps its own writes in an overlay; it also records which bytes it
//! took from the buffers. Overlays are committed in block order, which gives
//! exactly the sequential result unless a block read (or overwrote) bytes an
//! earlier block of the same wave wrote; the launch then goes on sequentially.

use std::collections::HashMap;

use super::memory::read_le;
use crate::buffer::Buffer;

const PAGE: usize = 256;
const WORDS: usize = PAGE / 64;

struct Page {
    key: u64,
    data: [u8; PAGE],
    written: [u64; WORDS],
    /// Bytes taken from the committed buffers (not from this block's writes).
    read: [u64; WORDS],
}

#[derive(Default)]
pub(crate) struct Overlay {
    pages: Vec<Page>,
    index: HashMap<u64, u32>,
    last: Option<(u64, u32)>,
}

#[inline(always)]
fn key(buf: u32, off: usize) -> u64 {
    ((buf as u64) << 48) | (off / PAGE) as u64
}

#[inline(always)]
fn bit(mask: &[u64; WORDS], i: usize) -> bool {
    mask[i / 64] >> (i % 64) & 1 != 0
}

impl Overlay {
    fn page(&mut self, k: u64) -> &mut Page {
        let idx = match self.last {
            Some((lk, i)) if lk == k => i,
            _ => {
                let n = self.pages.len() as u32;
                let i = *self.index.entry(k).or_insert(n);
                if i == n {
                    self.pages.push(Page {
                        key: k,
                        data: [0; PAGE],
                        written: [0; WORDS],
                        read: [0; WORDS],
                    });
                }
                self.last = Some((k, i));
                i
            }
        };
        &mut self.pages[idx as usize]
    }

    /// Reads `size` bytes at `off` of buffer `buf`; `mark` records bytes taken
    /// from the committed buffers (race-shadow peeks pass false).
    pub fn read(&mut self, base: &[Buffer], buf: u32, off: usize, size: usize, mark: bool) -> u64 {
        // Accesses are naturally aligned and at most 32 bytes: never across a page.
        let p = self.page(key(buf, off));
        let o = off % PAGE;
        let mut out = [0u8; 8];
        for (k, byte) in out.iter_mut().enumerate().take(size) {
            *byte = if bit(&p.written, o + k) {
                p.data[o + k]
            } else {
                if mark {
                    p.read[(o + k) / 64] |= 1 << ((o + k) % 64);
                }
                base[buf as usize].data[off + k]
            };
        }
        read_le(&out[..size])
    }

    pub fn write(&mut self, buf: u32, off: usize, size: usize, v: u64) {
        let p = self.page(key(buf, off));
        let o = off % PAGE;
        p.data[o..o + size].copy_from_slice(&v.to_le_bytes()[..size]);
        for k in o..o + size {
            p.written[k / 64] |= 1 << (k % 64);
        }
    }

    /// Whether this block depends on bytes in `written` (the writes of the
    /// blocks before it in its wave): it read them, or, with `writes_too`,
    /// overwrote them.
    pub fn conflicts(&self, written: &HashMap<u64, [u64; WORDS]>, writes_too: bool) -> bool {
        self.pages.iter().any(|p| {
            written.get(&p.key).is_some_and(|w| {
                (0..WORDS).any(|i| {
                    let mine = p.read[i] | if writes_too { p.written[i] } else { 0 };
                    mine & w[i] != 0
                })
            })
        })
    }

    /// Applies the writes to the buffers and adds them to `written`.
    pub fn commit(&self, buffers: &mut [Buffer], written: &mut HashMap<u64, [u64; WORDS]>) {
        for p in &self.pages {
            if p.written.iter().all(|&w| w == 0) {
                continue;
            }
            let buf = (p.key >> 48) as usize;
            let start = ((p.key & ((1 << 48) - 1)) as usize) * PAGE;
            let data = &mut buffers[buf].data;
            for i in 0..PAGE {
                if bit(&p.written, i) {
                    data[start + i] = p.data[i];
                }
            }
            let acc = written.entry(p.key).or_insert([0; WORDS]);
            for (a, w) in acc.iter_mut().zip(&p.written) {
                *a |= w;
            }
        }
    }
}

/// The written-bytes masks a wave accumulates, keyed like overlay pages.
pub(crate) type WaveWrites = HashMap<u64, [u64; WORDS]>;
