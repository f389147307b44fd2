//! Buffer arguments: the element type a launch file names, and the contents
//! its `init` asks for.

use hone_emulator::{encode_component, Buffer};
use hone_ir::{Leaf, Scalar, Type};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::file::{BufferSpec, Init, InitValue};
use crate::launch::LaunchError;

/// A C scalar type (`float`, `unsigned int`, `size_t`, ...), a CUDA vector
/// type (`float4`, `int2`, ...), or a pointer to one (`float *`).
pub fn parse_type(name: &str) -> Result<Type, LaunchError> {
    // `float *`: a buffer of pointers, whose values name buffers.
    if let Some(inner) = name.trim().strip_suffix('*') {
        let inner = inner.trim().trim_start_matches("const ").trim();
        return Ok(Type::ptr(parse_type(inner)?));
    }
    let words: Vec<&str> = name.split_whitespace().collect();
    let scalar = match words.join(" ").as_str() {
        "bool" => Some(Scalar::Bool),
        "char" | "signed char" => Some(Scalar::I8),
        "unsigned char" => Some(Scalar::U8),
        "short" => Some(Scalar::I16),
        "unsigned short" => Some(Scalar::U16),
        "int" => Some(Scalar::I32),
        "unsigned" | "unsigned int" => Some(Scalar::U32),
        "long" | "long long" => Some(Scalar::I64),
        "unsigned long" | "unsigned long long" | "size_t" => Some(Scalar::U64),
        "float" => Some(Scalar::F32),
        "double" => Some(Scalar::F64),
        _ => None,
    };
    if let Some(s) = scalar {
        return Ok(Type::Scalar(s));
    }
    // `uchar4`, `short2`, `float4`, ...: CUDA's prefix of a scalar and a count.
    for s in [
        Scalar::I8,
        Scalar::U8,
        Scalar::I16,
        Scalar::U16,
        Scalar::I32,
        Scalar::U32,
        Scalar::I64,
        Scalar::U64,
        Scalar::F32,
        Scalar::F64,
    ] {
        let Some(prefix) = s.vector_prefix() else {
            continue;
        };
        if let Some(n) = name.strip_prefix(prefix) {
            if let Ok(n @ 2..=4) = n.parse::<u8>() {
                return Ok(Type::Vector(s, n));
            }
        }
    }
    Err(LaunchError::new(format!("unknown buffer type `{name}` (use a C scalar type such as float, int, double, or a vector type such as float4)")))
}

/// Bytes a buffer of `len` elements of `elem` holds, or why it cannot be
/// made within `budget` bytes.
pub(crate) fn buffer_bytes(
    name: &str,
    elem: &Type,
    len: usize,
    budget: u64,
) -> Result<u64, LaunchError> {
    let (size, lanes) = (elem.size().unwrap_or(1), 1u64);
    let bytes = (len as u64)
        .checked_mul(lanes)
        .and_then(|c| c.checked_mul(size))
        .unwrap_or(u64::MAX);
    if bytes > budget {
        return Err(LaunchError::new(format!(
            "buffer `{name}`: {len} elements of `{}` need {bytes} bytes, more than the {budget} bytes of the memory limit left for this launch's buffers (raise the limit with --max-memory)",
            hone_ir::print::print_type(elem)
        )));
    }
    Ok(bytes)
}

pub(crate) fn make_buffer(
    name: &str,
    elem: Type,
    spec: &BufferSpec,
    pointers: &Pointers,
) -> Result<Buffer, LaunchError> {
    let data = fill_bytes(name, &elem, spec.len, &spec.init, pointers)?;
    Ok(Buffer {
        name: name.to_string(),
        elem,
        data,
    })
}

/// What a pointer value of a launch file (`"name"` or `"name+K"`) points
/// to: each buffer of the launch by name, with its index among the
/// launch's buffers and its element type.
#[derive(Default)]
pub(crate) struct Pointers {
    pub buffers: Vec<(String, Type)>,
}

impl Pointers {
    /// The emulator's address that `text` names.
    fn resolve(&self, text: &str) -> Result<u64, String> {
        let (name, k) = match text.split_once('+') {
            Some((n, k)) => (
                n.trim(),
                k.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("`{text}`: expected NAME or NAME+ELEMENTS"))?,
            ),
            None => (text.trim(), 0),
        };
        let Some(i) = self.buffers.iter().position(|(n, _)| n == name) else {
            let known: Vec<&str> = self.buffers.iter().map(|(n, _)| n.as_str()).collect();
            return Err(format!(
                "`{text}` names no buffer of the launch (it has: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        };
        let size = self.buffers[i].1.size().unwrap_or(1);
        Ok(hone_emulator::buffer_pointer(i, k * size))
    }
}

/// `len` values of `elem` as `init` asks, scalar by scalar in memory order
/// (vector components and struct members in turn; padding stays zero).
/// Pointers take the buffer a value names (`"values"`), or null.
pub(crate) fn fill_bytes(
    name: &str,
    elem: &Type,
    len: usize,
    init: &Init,
    pointers: &Pointers,
) -> Result<Vec<u8>, LaunchError> {
    let mut leaves = Vec::new();
    elem.value_leaves(0, &mut leaves);
    let esize = elem.size().unwrap_or(0) as usize;
    if leaves.is_empty() || esize == 0 {
        return Err(LaunchError::new(format!(
            "`{name}`: values of `{}` are not supported",
            hone_ir::print::print_type(elem)
        )));
    }
    let lanes = leaves.len();
    // The caller has checked `len` elements against the memory limit, so the
    // sizes fit; values are made one at a time, never as a second copy.
    let count = len * lanes;
    if let Init::Values { values } = init {
        if values.len() != count {
            return Err(LaunchError::new(format!(
                "`{name}`: {} values given for {} elements{}",
                values.len(),
                len,
                if lanes > 1 {
                    format!(" of {lanes} scalars")
                } else {
                    String::new()
                }
            )));
        }
    }
    let mut value: Box<dyn FnMut(usize) -> Result<f64, LaunchError> + '_> = match init {
        Init::Named(n) if n == "zeros" => Box::new(|_| Ok(0.0)),
        Init::Named(n) if n == "iota" => Box::new(|k| Ok(k as f64)),
        Init::Named(n) => return Err(LaunchError::new(format!("buffer `{name}`: unknown init `{n}` (zeros, iota, {{\"random\": SEED}}, {{\"values\": [...]}})"))),
        Init::Random { random } => {
            let mut rng = ChaCha8Rng::seed_from_u64(*random);
            let leaves = &leaves;
            Box::new(move |k| {
                Ok(if leaves[k % lanes].1.is_float() {
                    rng.gen::<f64>()
                } else {
                    rng.gen_range(0..100) as f64
                })
            })
        }
        Init::Values { values } => Box::new(|k| match &values[k] {
            InitValue::Number(v) => Ok(*v),
            InitValue::Pointer(p) => Err(LaunchError::new(format!(
                "`{name}`: value {k} is `{p}`, but that place holds a number, not a pointer"
            ))),
        }),
    };
    let mut data = vec![0; len * esize];
    for k in 0..count {
        let (off, leaf) = leaves[k % lanes];
        let at = (k / lanes) * esize + off as usize;
        let out = &mut data[at..at + leaf.size() as usize];
        match leaf {
            Leaf::Pointer => {
                let p = match init {
                    Init::Values { values } => match &values[k] {
                        InitValue::Pointer(text) => pointers
                            .resolve(text)
                            .map_err(|e| LaunchError::new(format!("`{name}`: value {k}: {e}")))?,
                        InitValue::Number(v) if *v == 0.0 => 0,
                        InitValue::Number(v) => {
                            return Err(LaunchError::new(format!(
                                "`{name}`: value {k} is {v}, but that place holds a pointer: name a buffer (\"NAME\" or \"NAME+K\") or give 0"
                            )))
                        }
                    },
                    // Only named buffers make pointers; anything else is null.
                    _ => 0,
                };
                out.copy_from_slice(&p.to_le_bytes());
            }
            Leaf::Scalar(s) => encode_component(s, value(k)?, out),
            Leaf::Half => out.copy_from_slice(&half::f16::from_f64(value(k)?).to_le_bytes()),
            Leaf::BFloat16 => out.copy_from_slice(&half::bf16::from_f64(value(k)?).to_le_bytes()),
        }
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_types_of_every_scalar_parse() {
        assert_eq!(parse_type("uchar4").unwrap(), Type::Vector(Scalar::U8, 4));
        assert_eq!(parse_type("short2").unwrap(), Type::Vector(Scalar::I16, 2));
        assert_eq!(
            parse_type("ulonglong2").unwrap(),
            Type::Vector(Scalar::U64, 2)
        );
        assert_eq!(parse_type("float3").unwrap(), Type::Vector(Scalar::F32, 3));
        assert!(parse_type("uchar5").is_err());
        assert!(parse_type("bool2").is_err());
    }

    #[test]
    fn buffers_past_the_budget_are_refused_by_name() {
        let f = Type::Scalar(Scalar::F64);
        assert_eq!(buffer_bytes("a", &f, 10, 80).unwrap(), 80);
        let e = buffer_bytes(
            "huge",
            &f,
            1_000_000_000_000,
            hone_emulator::DEFAULT_MAX_MEMORY,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("buffer `huge`") && e.contains("8000000000000 bytes"),
            "{e}"
        );
        // No overflow on absurd lengths.
        let v = Type::Vector(Scalar::F64, 4);
        assert!(buffer_bytes("x", &v, usize::MAX, u64::MAX - 1).is_err());
    }
}
