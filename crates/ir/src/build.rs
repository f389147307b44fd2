//! Typed construction of the expressions and statements that stages insert
//! when they rewrite a kernel, with C's conversions made explicit the way the
//! front end makes them, so the printed text reads back to the same tree.

use crate::{
    BinaryOp, Builtin, Expr, ExprKind, Intrinsic, Scalar, Span, Stmt, StmtKind, Type, UnaryOp,
    VarId,
};

pub fn mk(kind: ExprKind, ty: Type, span: Span) -> Expr {
    Expr { kind, ty, span }
}

/// C's usual arithmetic conversions of two operand types.
pub fn usual(a: Scalar, b: Scalar) -> Scalar {
    Scalar::usual_arithmetic(a, b)
}

/// `e` converted to `to`, with an implicit cast when the types differ.
pub fn conv(e: Expr, to: &Type) -> Expr {
    e.implicit_cast(to.clone())
}

/// An explicit `(T)e`, or `e` itself when it already has type `to`.
pub fn cast(e: Expr, to: &Type) -> Expr {
    if &e.ty == to {
        return e;
    }
    let span = e.span;
    mk(
        ExprKind::Cast {
            implicit: false,
            expr: Box::new(e),
        },
        to.clone(),
        span,
    )
}

/// A non-negative `int` literal (a `long long` one when it does not fit).
pub fn lit(v: u64, span: Span) -> Expr {
    let ty = if v <= i32::MAX as u64 {
        Type::INT
    } else {
        Type::Scalar(Scalar::I64)
    };
    mk(ExprKind::IntLit(v), ty, span)
}

/// An integer literal of type `int` (`long long` when it needs 64 bits);
/// a negative one is the negation of its magnitude, as C spells it.
pub fn int_lit(v: i64, span: Span) -> Expr {
    let magnitude = lit(v.unsigned_abs(), span);
    if v >= 0 {
        return magnitude;
    }
    mk(
        ExprKind::Unary(UnaryOp::Neg, Box::new(magnitude.clone())),
        magnitude.ty,
        span,
    )
}

pub fn builtin(b: Builtin, span: Span) -> Expr {
    let ty = match b {
        Builtin::WarpSize => Type::INT,
        _ => Type::UINT,
    };
    mk(ExprKind::Builtin(b), ty, span)
}

pub fn var(id: VarId, ty: &Type, span: Span) -> Expr {
    mk(ExprKind::Var(id), ty.clone(), span)
}

fn scalar(e: &Expr) -> Scalar {
    e.ty.scalar().unwrap_or(Scalar::I32)
}

/// `a op b` for an arithmetic operator, operands converted as C does.
pub fn arith(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    let t = Type::Scalar(usual(scalar(&a), scalar(&b)));
    let span = a.span;
    mk(
        ExprKind::Binary(op, Box::new(conv(a, &t)), Box::new(conv(b, &t))),
        t,
        span,
    )
}

/// `a op b` for a comparison; a `bool`.
pub fn compare(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    let t = Type::Scalar(usual(scalar(&a), scalar(&b)));
    let span = a.span;
    mk(
        ExprKind::Binary(op, Box::new(conv(a, &t)), Box::new(conv(b, &t))),
        Type::BOOL,
        span,
    )
}

/// `a op b` for any arithmetic or comparison operator.
pub fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    if op.is_comparison() {
        compare(op, a, b)
    } else {
        arith(op, a, b)
    }
}

/// `a && b` or `a || b` of two conditions.
pub fn logic(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    let span = a.span;
    mk(
        ExprKind::Binary(
            op,
            Box::new(conv(a, &Type::BOOL)),
            Box::new(conv(b, &Type::BOOL)),
        ),
        Type::BOOL,
        span,
    )
}

/// `c ? a : b` where both branches already have the same type.
pub fn select(c: Expr, a: Expr, b: Expr) -> Expr {
    let ty = a.ty.clone();
    let span = a.span;
    let b = conv(b, &ty);
    mk(
        ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
        ty,
        span,
    )
}

/// `base[idx]` where `base` is an array or pointer variable expression.
pub fn index(base: Expr, idx: Expr) -> Expr {
    let elem = base.ty.pointee().cloned().unwrap_or(Type::INT);
    let span = idx.span;
    mk(ExprKind::Index(Box::new(base), Box::new(idx)), elem, span)
}

/// `lhs = rhs`, of the target's type; `rhs` must have that type already.
pub fn assign(lhs: Expr, rhs: Expr, span: Span) -> Expr {
    let ty = lhs.ty.clone();
    let kind = ExprKind::Assign {
        op: None,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    };
    mk(kind, ty, span)
}

/// `lhs = rhs;` as a statement, `rhs` converted to the target's type.
pub fn assign_stmt(lhs: Expr, rhs: Expr, span: Span) -> Stmt {
    let rhs = conv(rhs, &lhs.ty);
    Stmt {
        kind: StmtKind::Expr(assign(lhs, rhs, span)),
        span,
    }
}

pub fn syncthreads(span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Expr(mk(
            ExprKind::Intrinsic(Intrinsic::SyncThreads, Vec::new()),
            Type::Void,
            span,
        )),
        span,
    }
}

/// `__trap();`
pub fn trap(span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Expr(mk(
            ExprKind::Intrinsic(Intrinsic::Trap, Vec::new()),
            Type::Void,
            span,
        )),
        span,
    }
}

pub fn if_stmt(cond: Expr, then: Vec<Stmt>, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::If {
            cond,
            then,
            els: None,
        },
        span,
    }
}

/// Strips implicit conversions.
pub fn peel(e: &Expr) -> &Expr {
    e.without_implicit_casts()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_literals_are_negated_magnitudes() {
        let e = int_lit(-3, Span::default());
        assert_eq!(e.ty, Type::INT);
        match &e.kind {
            ExprKind::Unary(UnaryOp::Neg, inner) => {
                assert!(matches!(inner.kind, ExprKind::IntLit(3)))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            int_lit(1 << 40, Span::default()).ty,
            Type::Scalar(Scalar::I64)
        );
    }

    #[test]
    fn usual_conversions_follow_c() {
        use Scalar::*;
        assert_eq!(usual(I32, U32), U32);
        assert_eq!(usual(I16, U8), I32);
        assert_eq!(usual(I64, U32), I64);
        assert_eq!(usual(U64, I64), U64);
        assert_eq!(usual(I32, I64), I64);
        assert_eq!(usual(F32, I32), F32);
    }
}
