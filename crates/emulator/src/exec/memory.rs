//! Pointer values and the objects they point into.
//!
//! A pointer is `(object id << 40) + 2^39 + byte offset`: it carries which
//! object it was derived from, so an access past the end of one buffer is
//! reported against that buffer even if another one happens to lie there,
//! and pointer arithmetic is plain integer arithmetic.

pub(crate) const OFF_BITS: u32 = 40;
const BIAS: u64 = 1 << 39;
const OFF_MASK: u64 = (1 << OFF_BITS) - 1;
/// Object ids with this bit name a local variable: depth of its frame in
/// bits 12..23, index among the function's local variables in bits 0..12.
pub(crate) const LOCAL_BIT: u32 = 1 << 23;
pub(crate) const LOCAL_DEPTH_SHIFT: u32 = 12;
pub(crate) const LOCAL_INDEX_MASK: u32 = (1 << LOCAL_DEPTH_SHIFT) - 1;
/// Shared variables have ids from here; global buffers are 1..=n; 0 is null.
pub(crate) const SHARED_BASE: u32 = 1 << 22;

#[inline(always)]
pub(crate) fn make_ptr(obj: u32, off: i64) -> u64 {
    ((obj as u64) << OFF_BITS).wrapping_add(BIAS.wrapping_add(off as u64))
}

#[inline(always)]
pub(crate) fn split_ptr(p: u64) -> (u32, i64) {
    ((p >> OFF_BITS) as u32, (p & OFF_MASK) as i64 - BIAS as i64)
}

/// The emulator's address of byte `offset` of the launch's buffer `index`
/// (an index into the buffers given to [`crate::run`]), as a launch file's
/// pointer values are written into memory.
pub fn buffer_pointer(index: usize, offset: u64) -> u64 {
    make_ptr(index as u32 + 1, offset as i64)
}

/// The buffer index and byte offset an address of [`buffer_pointer`]'s
/// form points to; `None` for null and for shared or local memory.
pub fn pointer_target(p: u64) -> Option<(usize, i64)> {
    let (obj, off) = split_ptr(p);
    (1..SHARED_BASE)
        .contains(&obj)
        .then(|| (obj as usize - 1, off))
}

/// A global buffer as the launch sees it.
#[derive(Clone, Debug)]
pub(crate) struct GlobalObj {
    pub name: String,
    pub len: u64,
    /// Device-like address of byte 0 (256-byte aligned, like `cudaMalloc`).
    pub base_addr: u64,
    pub granule_shift: u32,
    /// First race-shadow cell of this buffer.
    pub shadow_base: u64,
    /// `Global`, or `Constant` for a `__constant__` variable.
    pub space: hone_ir::AddressSpace,
}

/// A `__shared__` variable laid out in the block's shared space.
#[derive(Clone, Debug)]
pub(crate) struct SharedObj {
    pub name: String,
    pub offset: u64,
    pub len: u64,
    pub granule_shift: u32,
    pub shadow_base: u64,
}

#[inline(always)]
pub(crate) fn read_le(b: &[u8]) -> u64 {
    match b.len() {
        1 => b[0] as u64,
        2 => u16::from_le_bytes([b[0], b[1]]) as u64,
        4 => u32::from_le_bytes(b.try_into().expect("4 bytes")) as u64,
        8 => u64::from_le_bytes(b.try_into().expect("8 bytes")),
        n => {
            let mut x = [0u8; 8];
            x[..n].copy_from_slice(b);
            u64::from_le_bytes(x)
        }
    }
}

#[inline(always)]
pub(crate) fn write_le(b: &mut [u8], v: u64) {
    match b.len() {
        1 => b[0] = v as u8,
        2 => b.copy_from_slice(&(v as u16).to_le_bytes()),
        4 => b.copy_from_slice(&(v as u32).to_le_bytes()),
        8 => b.copy_from_slice(&v.to_le_bytes()),
        n => b.copy_from_slice(&v.to_le_bytes()[..n]),
    }
}
