//! Folding of integer constant expressions (array lengths, case labels,
//! `__launch_bounds__`), done on lowered IR so it uses the same typing.

use hone_ir::{BinaryOp, Expr, ExprKind, Scalar, Type, UnaryOp, VarId};

/// Truncates `v` to the width of `s` and sign-extends signed types.
pub(crate) fn wrap(v: i128, s: Scalar) -> i128 {
    match s {
        Scalar::Bool => (v != 0) as i128,
        Scalar::I8 => v as i8 as i128,
        Scalar::U8 => v as u8 as i128,
        Scalar::I16 => v as i16 as i128,
        Scalar::U16 => v as u16 as i128,
        Scalar::I32 => v as i32 as i128,
        Scalar::U32 => v as u32 as i128,
        Scalar::I64 => v as i64 as i128,
        Scalar::U64 | Scalar::F32 | Scalar::F64 => v as u64 as i128,
    }
}

/// Value of an integer constant expression, or `None` when it is not one.
pub(crate) fn eval(e: &Expr, var: &dyn Fn(VarId) -> Option<i128>) -> Option<i128> {
    let s = int_scalar(&e.ty)?;
    let v = match &e.kind {
        ExprKind::IntLit(v) => *v as i128,
        ExprKind::BoolLit(b) => *b as i128,
        ExprKind::Var(id) => var(*id)?,
        ExprKind::Unary(op, a) => {
            let a = eval(a, var)?;
            match op {
                UnaryOp::Neg => a.checked_neg()?,
                UnaryOp::Plus => a,
                UnaryOp::Not => (a == 0) as i128,
                UnaryOp::BitNot => !a,
            }
        }
        ExprKind::Binary(op, a, b) => binary(*op, a, b, var)?,
        ExprKind::Cond(c, a, b) => {
            if eval(c, var)? != 0 {
                eval(a, var)?
            } else {
                eval(b, var)?
            }
        }
        ExprKind::Cast { expr, .. } => match &expr.ty {
            Type::Scalar(f) if f.is_float() => match &expr.kind {
                ExprKind::FloatLit(x) if x.is_finite() => x.trunc() as i128,
                _ => return None,
            },
            _ => eval(expr, var)?,
        },
        ExprKind::SizeOf(t) => t.size()? as i128,
        _ => return None,
    };
    Some(wrap(v, s))
}

fn binary(op: BinaryOp, a: &Expr, b: &Expr, var: &dyn Fn(VarId) -> Option<i128>) -> Option<i128> {
    use BinaryOp::*;
    let x = eval(a, var)?;
    if op == LogicAnd && x == 0 {
        return Some(0);
    }
    if op == LogicOr && x != 0 {
        return Some(1);
    }
    let y = eval(b, var)?;
    let width = int_scalar(&a.ty).map(|s| s.size() * 8).unwrap_or(32) as i128;
    Some(match op {
        Add => x + y,
        Sub => x - y,
        Mul => x.checked_mul(y)?,
        Div => x.checked_div(y)?,
        Rem => x.checked_rem(y)?,
        Shl if (0..width).contains(&y) => x << y,
        Shr if (0..width).contains(&y) => x >> y,
        Shl | Shr => return None,
        BitAnd => x & y,
        BitOr => x | y,
        BitXor => x ^ y,
        LogicAnd | LogicOr => (y != 0) as i128,
        Eq => (x == y) as i128,
        Ne => (x != y) as i128,
        Lt => (x < y) as i128,
        Le => (x <= y) as i128,
        Gt => (x > y) as i128,
        Ge => (x >= y) as i128,
    })
}

fn int_scalar(t: &Type) -> Option<Scalar> {
    t.scalar().filter(|s| s.is_integer())
}

/// Value of a floating-point constant expression (literals, casts, signs and
/// the four operations, each rounded to its type), or `None`.
pub(crate) fn eval_float(e: &Expr) -> Option<f64> {
    let round = |v: f64| match e.ty {
        Type::Scalar(Scalar::F32) => v as f32 as f64,
        _ => v,
    };
    let v = match &e.kind {
        ExprKind::FloatLit(v) => *v,
        ExprKind::IntLit(_) | ExprKind::BoolLit(_) => {
            let s = int_scalar(&e.ty)?;
            let i = eval(e, &|_| None)?;
            if s.is_signed() {
                i as i64 as f64
            } else {
                i as u64 as f64
            }
        }
        ExprKind::Cast { expr, .. } if e.ty.scalar().is_some_and(|s| s.is_float()) => {
            eval_float(expr)?
        }
        ExprKind::Unary(UnaryOp::Neg, a) => -eval_float(a)?,
        ExprKind::Unary(UnaryOp::Plus, a) => eval_float(a)?,
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval_float(a)?, eval_float(b)?);
            match op {
                BinaryOp::Add => x + y,
                BinaryOp::Sub => x - y,
                BinaryOp::Mul => x * y,
                BinaryOp::Div => x / y,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(round(v))
}
