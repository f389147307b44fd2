//! Global-memory buffers handed to a launch: typed views over little-endian bytes.

use hone_ir::{Scalar, Type};
use serde::{Deserialize, Serialize};

/// One global allocation (what `cudaMalloc` returns). `elem` is a scalar or
/// vector type; `data` holds `len() * elem size` bytes, little-endian.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Buffer {
    pub name: String,
    pub elem: Type,
    pub data: Vec<u8>,
}

macro_rules! from_slice {
    ($fn:ident, $t:ty, $scalar:expr) => {
        pub fn $fn(name: &str, values: &[$t]) -> Buffer {
            Buffer {
                name: name.to_string(),
                elem: Type::Scalar($scalar),
                data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            }
        }
    };
}

macro_rules! to_vec {
    ($fn:ident, $t:ty) => {
        /// The raw bytes read as this type (whatever `elem` says).
        pub fn $fn(&self) -> Vec<$t> {
            const N: usize = std::mem::size_of::<$t>();
            self.data
                .chunks_exact(N)
                .map(|c| <$t>::from_le_bytes(c.try_into().expect("chunk size")))
                .collect()
        }
    };
}

impl Buffer {
    from_slice!(from_f32, f32, Scalar::F32);
    from_slice!(from_f64, f64, Scalar::F64);
    from_slice!(from_i32, i32, Scalar::I32);
    from_slice!(from_u32, u32, Scalar::U32);
    from_slice!(from_i64, i64, Scalar::I64);
    from_slice!(from_u64, u64, Scalar::U64);
    from_slice!(from_u8, u8, Scalar::U8);

    to_vec!(to_f32_vec, f32);
    to_vec!(to_i32_vec, i32);
    to_vec!(to_u32_vec, u32);
    to_vec!(to_u64_vec, u64);

    /// `len` zero-filled elements of `elem` (a scalar or vector type).
    pub fn zeros(name: &str, elem: Type, len: usize) -> Buffer {
        let size = elem.size().unwrap_or(1) as usize;
        Buffer {
            name: name.to_string(),
            elem,
            data: vec![0; size * len],
        }
    }

    /// Element size in bytes.
    pub fn elem_size(&self) -> usize {
        self.elem.size().unwrap_or(1).max(1) as usize
    }

    /// Number of elements of `elem`.
    pub fn len(&self) -> usize {
        self.data.len() / self.elem_size()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Scalar type of the elements (the component type for vectors).
    pub fn component(&self) -> Scalar {
        match &self.elem {
            Type::Scalar(s) | Type::Vector(s, _) => *s,
            _ => Scalar::U8,
        }
    }

    /// Overwrites every component with values from `next`, given the component type.
    pub fn fill(&mut self, mut next: impl FnMut(Scalar) -> f64) {
        let s = self.component();
        for chunk in self.data.chunks_exact_mut(s.size() as usize) {
            encode_component(s, next(s), chunk);
        }
    }

    /// Every component as `f64`, in memory order (vectors are flattened).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        let s = self.component();
        self.data
            .chunks_exact(s.size() as usize)
            .map(|c| component_f64(s, c))
            .collect()
    }

    /// Every component as `i64` (floats truncated toward zero), in memory order.
    pub fn to_i64_vec(&self) -> Vec<i64> {
        let s = self.component();
        self.data
            .chunks_exact(s.size() as usize)
            .map(|c| {
                if s.is_float() {
                    component_f64(s, c) as i64
                } else {
                    let mut b = [0u8; 8];
                    b[..c.len()].copy_from_slice(c);
                    let raw = u64::from_le_bytes(b);
                    let bits = 8 * c.len() as u32;
                    if s.is_signed() && bits < 64 {
                        ((raw << (64 - bits)) as i64) >> (64 - bits)
                    } else {
                        raw as i64
                    }
                }
            })
            .collect()
    }
}

/// Writes `v` converted to `s` (as C converts a `double`) into `out`, which
/// is `s.size()` bytes long.
pub fn encode_component(s: Scalar, v: f64, out: &mut [u8]) {
    match s {
        Scalar::Bool => out[0] = (v != 0.0) as u8,
        Scalar::I8 => out.copy_from_slice(&(v as i8).to_le_bytes()),
        Scalar::U8 => out.copy_from_slice(&(v as u8).to_le_bytes()),
        Scalar::I16 => out.copy_from_slice(&(v as i16).to_le_bytes()),
        Scalar::U16 => out.copy_from_slice(&(v as u16).to_le_bytes()),
        Scalar::I32 => out.copy_from_slice(&(v as i32).to_le_bytes()),
        Scalar::U32 => out.copy_from_slice(&(v as u32).to_le_bytes()),
        Scalar::I64 => out.copy_from_slice(&(v as i64).to_le_bytes()),
        Scalar::U64 => out.copy_from_slice(&(v as u64).to_le_bytes()),
        Scalar::F32 => out.copy_from_slice(&(v as f32).to_le_bytes()),
        Scalar::F64 => out.copy_from_slice(&v.to_le_bytes()),
    }
}

/// One component of type `s` read from its little-endian bytes.
pub fn component_f64(s: Scalar, c: &[u8]) -> f64 {
    let mut b = [0u8; 8];
    b[..c.len()].copy_from_slice(c);
    let raw = u64::from_le_bytes(b);
    match s {
        Scalar::F32 => f32::from_bits(raw as u32) as f64,
        Scalar::F64 => f64::from_bits(raw),
        _ => {
            let bits = 8 * c.len() as u32;
            if s.is_signed() && bits < 64 {
                (((raw << (64 - bits)) as i64) >> (64 - bits)) as f64
            } else if s.is_signed() {
                raw as i64 as f64
            } else {
                raw as f64
            }
        }
    }
}
