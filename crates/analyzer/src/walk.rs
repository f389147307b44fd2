//! Questions the rewrites ask of index expressions, in the analyzer's words
//! over `hone_ir`'s builders and visits.

use hone_ir::{BinaryOp, Expr, ExprKind, Function, VarId};

pub use hone_ir::build::{binary as bin, int_lit as lit, peel as strip};
pub use hone_ir::visit::{children, rewrite_block, rewrite_expr, visit_block, visit_expr};

/// The variable at the root of an `Index` chain (`a` in `a[i][j]`).
pub fn index_root(e: &Expr) -> Option<VarId> {
    match &strip(e).kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Index(base, _) => index_root(base),
        _ => None,
    }
}

pub use hone_ir::visit::is_pure;

/// Visits `e` and every expression in it, each with whether it may be
/// skipped when `e` is evaluated: on the right of `&&` or `||`, or in an arm
/// of `?:` (their left side and the condition always run).
pub fn visit_guarded<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr, bool)) {
    fn walk<'e>(e: &'e Expr, guarded: bool, f: &mut dyn FnMut(&'e Expr, bool)) {
        f(e, guarded);
        let guard = matches!(
            &e.kind,
            ExprKind::Cond(..) | ExprKind::Binary(BinaryOp::LogicAnd | BinaryOp::LogicOr, ..)
        );
        for (i, child) in children(e).into_iter().enumerate() {
            walk(child, guarded || (guard && i > 0), f);
        }
    }
    walk(e, false, f)
}

/// The constant value of an integer literal (through implicit conversions).
pub fn int_value(e: &Expr) -> Option<i64> {
    match &strip(e).kind {
        ExprKind::IntLit(v) => i64::try_from(*v).ok(),
        ExprKind::Unary(hone_ir::UnaryOp::Neg, a) => int_value(a).map(|v| -v),
        _ => None,
    }
}

/// Whether `v` is used anywhere in `f` other than as the array of an `a[i]`.
pub fn used_other_than_indexed(f: &Function, v: VarId) -> bool {
    let mut indexed_bases: Vec<*const Expr> = Vec::new();
    let mut uses: Vec<*const Expr> = Vec::new();
    visit_block(&f.body, &mut |e| match &e.kind {
        ExprKind::Index(base, _) => {
            let b = strip(base);
            if matches!(b.kind, ExprKind::Var(x) if x == v) {
                indexed_bases.push(b as *const Expr);
            }
        }
        ExprKind::Var(x) if *x == v => uses.push(e as *const Expr),
        _ => {}
    });
    uses.iter().any(|u| !indexed_bases.contains(u))
}

/// `a + c` with the constant folded into a trailing `+ k` / `- k` of `a`.
pub fn add_const(a: Expr, c: i64) -> Expr {
    if c == 0 {
        return a;
    }
    let span = a.span;
    let s = strip(&a);
    if let ExprKind::IntLit(_) = s.kind {
        if let Some(v) = int_value(s) {
            return lit(v + c, span).implicit_cast(a.ty.clone());
        }
    }
    if let ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), x, k) = &s.kind {
        if let Some(k) = int_value(k) {
            let total = if *op == BinaryOp::Add { k + c } else { c - k };
            let x = (**x).clone();
            return match total {
                0 => x,
                t if t > 0 => bin(BinaryOp::Add, x, lit(t, span)),
                t => bin(BinaryOp::Sub, x, lit(-t, span)),
            };
        }
    }
    if c > 0 {
        bin(BinaryOp::Add, a, lit(c, span))
    } else {
        bin(BinaryOp::Sub, a, lit(-c, span))
    }
}

/// `e` with the locals of `inits` replaced by their initial values,
/// repeatedly (a local defined from another); `None` past 16 rounds.
pub fn inline_locals(e: &Expr, inits: &std::collections::HashMap<VarId, Expr>) -> Option<Expr> {
    let mut out = e.clone();
    for _ in 0..16 {
        let mut changed = false;
        rewrite_expr(&mut out, &mut |x| {
            if let ExprKind::Var(v) = x.kind {
                if let Some(init) = inits.get(&v) {
                    *x = init.clone();
                    changed = true;
                }
            }
        });
        if !changed {
            return Some(out);
        }
    }
    None
}
