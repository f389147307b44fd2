//! Streaming access trace: one record per warp-level memory instruction.

use hone_ir::{AddressSpace, Span};
use serde::Serialize;

pub use crate::report::AccessKind;

/// A value moved by an access, typed as the access was.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Value {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Pointer(u64),
    /// Components of a vector access (`float4`), in order.
    Vector(Vec<Value>),
}

impl Value {
    /// The value as `f64` (the first component for vectors).
    pub fn as_f64(&self) -> f64 {
        match self {
            Value::Bool(b) => *b as u8 as f64,
            Value::Int(v) => *v as f64,
            Value::UInt(v) | Value::Pointer(v) => *v as f64,
            Value::Float(v) => *v,
            Value::Vector(c) => c.first().map_or(0.0, Value::as_f64),
        }
    }
}

/// One lane's part of a warp access.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneAccess {
    pub lane: u32,
    pub thread: [u32; 3],
    /// Byte address. Global buffers sit at distinct 256-byte-aligned base
    /// addresses, like `cudaMalloc`'s; shared and local addresses are byte
    /// offsets within the block's (thread's) space.
    pub address: u64,
    /// Loaded value, stored value, or for atomics the value written.
    pub value: Value,
}

/// One warp-level memory instruction: the addresses of all active lanes of one
/// request, which is what coalescing and bank-conflict analyses need.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WarpAccess {
    pub span: Span,
    /// Identifies the memory instruction (stable across runs of one module).
    pub site: u32,
    pub space: AddressSpace,
    pub kind: AccessKind,
    /// Buffer or variable name.
    pub array: String,
    /// Address of the array's first byte, in the same numbering as `address`.
    pub array_base: u64,
    /// Bytes per lane.
    pub size: u32,
    pub block: [u32; 3],
    pub warp: u32,
    /// Active lanes only, in lane order.
    pub lanes: Vec<LaneAccess>,
}

/// Receives the trace as the launch runs, in a deterministic order.
pub trait TraceSink {
    fn warp_access(&mut self, access: &WarpAccess);
    /// A warp of `block` reached `__syncthreads()` (or a grid barrier): a
    /// point no compiler moves memory accesses across.
    fn barrier(&mut self, _block: [u32; 3], _warp: u32) {}
}

/// A sink that keeps everything (for tests and small launches).
#[derive(Default, Debug)]
pub struct CollectTrace {
    pub accesses: Vec<WarpAccess>,
}

impl TraceSink for CollectTrace {
    fn warp_access(&mut self, access: &WarpAccess) {
        self.accesses.push(access.clone());
    }
}

impl<F: FnMut(&WarpAccess)> TraceSink for F {
    fn warp_access(&mut self, access: &WarpAccess) {
        self(access)
    }
}
