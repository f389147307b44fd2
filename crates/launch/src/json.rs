//! Buffers as JSON, the form `hone sim --json` and `hone gpu-run --json` share
//! so their outputs compare field by field.

use hone_emulator::Buffer;
use hone_ir::{Leaf, Scalar, Type};
use serde_json::Value;

/// A buffer's contents as JSON numbers: integers exactly, floats in their shortest
/// round-trip form for their own precision, non-finite values as strings.
/// Vectors and structs are flattened into their scalars in memory order
/// (struct padding left out).
pub fn buffer_to_json(b: &Buffer) -> Value {
    if let Type::Scalar(s) | Type::Vector(s, _) = &b.elem {
        let size = s.size() as usize;
        return Value::Array(
            b.data
                .chunks_exact(size)
                .map(|chunk| decode(*s, chunk))
                .collect(),
        );
    }
    let mut leaves = Vec::new();
    b.elem.value_leaves(0, &mut leaves);
    let esize = b.elem.size().unwrap_or(0) as usize;
    if leaves.is_empty() || esize == 0 {
        return Value::Null;
    }
    let mut out = Vec::with_capacity(b.data.len() / esize * leaves.len());
    for elem in b.data.chunks_exact(esize) {
        for &(off, leaf) in &leaves {
            let c = &elem[off as usize..(off + leaf.size() as u64) as usize];
            out.push(match leaf {
                Leaf::Scalar(s) => decode(s, c),
                Leaf::Half => {
                    let v = half::f16::from_le_bytes([c[0], c[1]]);
                    float_json(format!("{v}"), v.is_finite())
                }
                Leaf::Pointer => {
                    let p = u64::from_le_bytes(c.try_into().unwrap());
                    match hone_emulator::pointer_target(p) {
                        Some((i, off)) => Value::String(format!("buffer {i} + {off}")),
                        None => p.into(),
                    }
                }
                Leaf::BFloat16 => {
                    let v = half::bf16::from_le_bytes([c[0], c[1]]);
                    float_json(format!("{v}"), v.is_finite())
                }
            });
        }
    }
    Value::Array(out)
}

fn float_json(text: String, finite: bool) -> Value {
    if !finite {
        return Value::String(text);
    }
    text.parse::<serde_json::Number>()
        .map(Value::Number)
        .unwrap_or(Value::String(text))
}

fn decode(s: Scalar, c: &[u8]) -> Value {
    match s {
        Scalar::Bool => Value::Bool(c[0] != 0),
        Scalar::I8 => (c[0] as i8).into(),
        Scalar::U8 => c[0].into(),
        Scalar::I16 => i16::from_le_bytes([c[0], c[1]]).into(),
        Scalar::U16 => u16::from_le_bytes([c[0], c[1]]).into(),
        Scalar::I32 => i32::from_le_bytes(c.try_into().unwrap()).into(),
        Scalar::U32 => u32::from_le_bytes(c.try_into().unwrap()).into(),
        Scalar::I64 => i64::from_le_bytes(c.try_into().unwrap()).into(),
        Scalar::U64 => u64::from_le_bytes(c.try_into().unwrap()).into(),
        Scalar::F32 => {
            let v = f32::from_le_bytes(c.try_into().unwrap());
            float_json(format!("{v}"), v.is_finite())
        }
        Scalar::F64 => {
            let v = f64::from_le_bytes(c.try_into().unwrap());
            float_json(format!("{v}"), v.is_finite())
        }
    }
}
