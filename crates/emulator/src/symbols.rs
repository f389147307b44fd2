//! File-scope `__device__` and `__constant__` variables: their storage for a
//! launch, filled from the module's initializers and settable by name, as
//! `cudaMemcpyToSymbol` sets them on a device.

use hone_ir::{BinaryOp, Expr, ExprKind, GlobalSpace, Init, Module, Scalar, Type, UnaryOp};

use crate::buffer::Buffer;
use crate::compile::leaves;
use crate::exec::arith::{canon, convert_bits};
use crate::exec::memory::write_le;
use crate::report::SetupError;

/// One buffer per entry of `Module::globals`, in order. `__shared__` entries
/// have an empty buffer: their storage is per block.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbols {
    pub buffers: Vec<Buffer>,
}

impl Symbols {
    /// Storage for every file-scope variable of `module`, holding its
    /// initializer (zero where it has none, as C's static storage).
    pub fn new(module: &Module) -> Result<Symbols, SetupError> {
        Symbols::within(module, crate::config::DEFAULT_MAX_MEMORY)
    }

    /// [`Symbols::new`] refusing variables of more than `max_bytes`
    /// together before allocating them.
    pub fn within(module: &Module, max_bytes: u64) -> Result<Symbols, SetupError> {
        let mut total = 0u64;
        for g in module
            .globals
            .iter()
            .filter(|g| g.space != GlobalSpace::Shared)
        {
            total = total.saturating_add(g.ty.size().unwrap_or(0));
        }
        if total > max_bytes {
            return Err(SetupError::MemoryLimit {
                bytes: total,
                limit: max_bytes,
                what: "in `__device__` and `__constant__` variables".into(),
            });
        }
        let mut buffers = Vec::with_capacity(module.globals.len());
        for g in &module.globals {
            if g.space == GlobalSpace::Shared {
                buffers.push(Buffer {
                    name: g.name.clone(),
                    elem: g.ty.clone(),
                    data: Vec::new(),
                });
                continue;
            }
            let bad = |message: String| SetupError::Unsupported {
                location: module.location(g.span),
                message,
            };
            let size =
                g.ty.size()
                    .ok_or_else(|| bad(format!("`{}` has no constant size", g.name)))?;
            let mut data = vec![0u8; size as usize];
            if let Some(init) = &g.init {
                fill(&g.ty, init, &mut data)
                    .map_err(|m| bad(format!("initializer of `{}`: {m}", g.name)))?;
            }
            buffers.push(Buffer {
                name: g.name.clone(),
                elem: g.ty.clone(),
                data,
            });
        }
        Ok(Symbols { buffers })
    }

    /// The storage of the variable `name`.
    pub fn get(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// Overwrites the first bytes of `name` with `bytes` (`cudaMemcpyToSymbol`
    /// with offset 0); the rest keeps its value.
    pub fn set(&mut self, name: &str, bytes: &[u8]) -> Result<(), String> {
        let b = self
            .buffers
            .iter_mut()
            .find(|b| b.name == name)
            .ok_or_else(|| {
                format!("the module has no `__device__` or `__constant__` variable `{name}`")
            })?;
        if b.data.is_empty() && !bytes.is_empty() {
            return Err(format!("`{name}` is `__shared__`; the host cannot set it"));
        }
        if bytes.len() > b.data.len() {
            return Err(format!(
                "{} bytes given for `{name}`, which holds {}",
                bytes.len(),
                b.data.len()
            ));
        }
        b.data[..bytes.len()].copy_from_slice(bytes);
        Ok(())
    }
}

/// Writes the constant initializer `init` of a `ty` into `out`.
fn fill(ty: &Type, init: &Init, out: &mut [u8]) -> Result<(), String> {
    match (ty, init) {
        (Type::Array(elem, _), Init::List(items)) => {
            let size = elem.size().ok_or("array element without a size")? as usize;
            for (k, item) in items.iter().enumerate() {
                let part = out
                    .get_mut(k * size..(k + 1) * size)
                    .ok_or("more initializers than elements")?;
                fill(elem, item, part)?;
            }
            Ok(())
        }
        (Type::Struct(st), Init::List(items)) => {
            for (f, item) in st.fields.iter().zip(items) {
                let size = f.ty.size().ok_or("member without a size")? as usize;
                let off = f.offset as usize;
                fill(&f.ty, item, &mut out[off..off + size])?;
            }
            Ok(())
        }
        (Type::Vector(s, _), Init::List(items)) => {
            let size = s.size() as usize;
            for (k, item) in items.iter().enumerate() {
                let part = out
                    .get_mut(k * size..(k + 1) * size)
                    .ok_or("more initializers than components")?;
                fill(&Type::Scalar(*s), item, part)?;
            }
            Ok(())
        }
        (_, Init::List(items)) if items.len() == 1 => fill(ty, &items[0], out),
        (_, Init::Expr(e)) => {
            let mut parts = Vec::new();
            leaves(ty, 0, &mut parts);
            let values = constant_values(e)?;
            if values.len() != parts.len() {
                return Err("initializer does not match the variable's type".into());
            }
            for ((off, lt), v) in parts.into_iter().zip(values) {
                let s = match lt {
                    Type::Scalar(s) => s,
                    _ => return Err("initializer of a pointer or vector member".into()),
                };
                let off = off as usize;
                write_le(&mut out[off..off + s.size() as usize], v);
            }
            Ok(())
        }
        _ => Err("unsupported initializer".into()),
    }
}

/// The value of a constant expression as the bits of its scalars (one per
/// struct member for an aggregate).
fn constant_values(e: &Expr) -> Result<Vec<u64>, String> {
    if let ExprKind::Aggregate(items) = &e.kind {
        let mut out = Vec::new();
        for i in items {
            out.extend(constant_values(i)?);
        }
        return Ok(out);
    }
    let s = e.ty.scalar().ok_or("initializer that is not a constant")?;
    Ok(vec![constant(e, s)?])
}

/// Bits of a constant scalar expression of type `s` (canonical form).
fn constant(e: &Expr, s: Scalar) -> Result<u64, String> {
    let not_constant = || "initializer that is not a constant".to_string();
    Ok(match &e.kind {
        ExprKind::IntLit(v) => canon(s, *v),
        ExprKind::BoolLit(b) => canon(s, *b as u64),
        ExprKind::FloatLit(f) => convert_bits(Scalar::F64, s, f.to_bits()),
        ExprKind::Cast { expr, .. } => {
            let from = expr.ty.scalar().ok_or_else(not_constant)?;
            convert_bits(from, s, constant(expr, from)?)
        }
        ExprKind::Unary(UnaryOp::Plus, a) => constant(a, s)?,
        ExprKind::Unary(UnaryOp::Neg, a) => {
            let v = constant(a, s)?;
            if s.is_float() {
                let f = convert_bits(s, Scalar::F64, v);
                convert_bits(Scalar::F64, s, (-f64::from_bits(f)).to_bits())
            } else {
                canon(s, v.wrapping_neg())
            }
        }
        ExprKind::Binary(op, a, b) if a.ty == e.ty && b.ty == e.ty => {
            let (x, y) = (constant(a, s)?, constant(b, s)?);
            if s.is_float() {
                let x = f64::from_bits(convert_bits(s, Scalar::F64, x));
                let y = f64::from_bits(convert_bits(s, Scalar::F64, y));
                let r = match op {
                    BinaryOp::Add => x + y,
                    BinaryOp::Sub => x - y,
                    BinaryOp::Mul => x * y,
                    BinaryOp::Div => x / y,
                    _ => return Err(not_constant()),
                };
                // Rounded once to `s`, as a compiler folds it in that type.
                if s == Scalar::F32 {
                    let r32 = match op {
                        BinaryOp::Add => x as f32 + y as f32,
                        BinaryOp::Sub => x as f32 - y as f32,
                        BinaryOp::Mul => x as f32 * y as f32,
                        _ => x as f32 / y as f32,
                    };
                    r32.to_bits() as u64
                } else {
                    r.to_bits()
                }
            } else {
                let (x, y) = (x as i64, y as i64);
                let r = match op {
                    BinaryOp::Add => x.wrapping_add(y),
                    BinaryOp::Sub => x.wrapping_sub(y),
                    BinaryOp::Mul => x.wrapping_mul(y),
                    BinaryOp::Div if y != 0 => x.wrapping_div(y),
                    BinaryOp::Rem if y != 0 => x.wrapping_rem(y),
                    BinaryOp::Shl => x.wrapping_shl(y as u32),
                    BinaryOp::BitAnd => x & y,
                    BinaryOp::BitOr => x | y,
                    BinaryOp::BitXor => x ^ y,
                    _ => return Err(not_constant()),
                };
                canon(s, r as u64)
            }
        }
        _ => return Err(not_constant()),
    })
}
