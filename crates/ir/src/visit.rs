//! Traversals of the IR that every stage needs: the children of an expression,
//! read-only visits of every expression of a block, and bottom-up rewrites.

use crate::{Block, Expr, ExprKind, Init, Stmt, StmtKind};

/// Children of an expression, in evaluation order.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::Cast { expr: a, .. }
        | ExprKind::Component(a, _)
        | ExprKind::Field(a, _)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::IncDec { target: a, .. } => vec![a],
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => vec![a, b],
        ExprKind::Assign { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Cond(a, b, c) => vec![a, b, c],
        ExprKind::Call(_, args) | ExprKind::Intrinsic(_, args) | ExprKind::Aggregate(args) => {
            args.iter().collect()
        }
        ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::BoolLit(_)
        | ExprKind::Var(_)
        | ExprKind::Global(_)
        | ExprKind::Builtin(_)
        | ExprKind::SizeOf(_)
        | ExprKind::StrLit(_) => Vec::new(),
    }
}

pub fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match &mut e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::Cast { expr: a, .. }
        | ExprKind::Component(a, _)
        | ExprKind::Field(a, _)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::IncDec { target: a, .. } => vec![a],
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => vec![a, b],
        ExprKind::Assign { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Cond(a, b, c) => vec![a, b, c],
        ExprKind::Call(_, args) | ExprKind::Intrinsic(_, args) | ExprKind::Aggregate(args) => {
            args.iter_mut().collect()
        }
        ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::BoolLit(_)
        | ExprKind::Var(_)
        | ExprKind::Global(_)
        | ExprKind::Builtin(_)
        | ExprKind::SizeOf(_)
        | ExprKind::StrLit(_) => Vec::new(),
    }
}

/// Calls `f` on `e` and every expression inside it, parents first.
pub fn visit_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    for c in children(e) {
        visit_expr(c, f);
    }
}

/// Whether evaluating `e` has no side effect (no store, call, barrier,
/// atomic or other intrinsic but a math function), so evaluating it twice is
/// evaluating it once.
pub fn is_pure(e: &Expr) -> bool {
    let mut pure = true;
    visit_expr(e, &mut |x| match &x.kind {
        ExprKind::Assign { .. } | ExprKind::IncDec { .. } | ExprKind::Call(..) => pure = false,
        ExprKind::Intrinsic(i, _) if !matches!(i, crate::Intrinsic::Math(_)) => pure = false,
        _ => {}
    });
    pure
}

/// The blocks `s` holds directly: an `if`'s arms, a loop's body, a
/// `switch`'s cases, a nested block.
pub fn child_blocks(s: &Stmt) -> Vec<&Block> {
    match &s.kind {
        StmtKind::If { then, els, .. } => std::iter::once(then).chain(els).collect(),
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. } => {
            vec![body]
        }
        StmtKind::Switch { arms, .. } => arms.iter().map(|a| &a.body).collect(),
        StmtKind::Block(b) => vec![b],
        _ => Vec::new(),
    }
}

/// Calls `f` on every expression of `block`, parents first.
pub fn visit_block<'a>(block: &'a Block, f: &mut dyn FnMut(&'a Expr)) {
    for s in block {
        match &s.kind {
            StmtKind::Decl { init, .. } => {
                if let Some(i) = init {
                    visit_init(i, f);
                }
            }
            StmtKind::Expr(e) => visit_expr(e, f),
            StmtKind::If { cond, then, els } => {
                visit_expr(cond, f);
                visit_block(then, f);
                if let Some(b) = els {
                    visit_block(b, f);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                visit_block(init, f);
                if let Some(c) = cond {
                    visit_expr(c, f);
                }
                if let Some(c) = step {
                    visit_expr(c, f);
                }
                visit_block(body, f);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                visit_expr(cond, f);
                visit_block(body, f);
            }
            StmtKind::Switch { value, arms } => {
                visit_expr(value, f);
                for a in arms {
                    visit_block(&a.body, f);
                }
            }
            StmtKind::Return(Some(e)) => visit_expr(e, f),
            StmtKind::Block(b) => visit_block(b, f),
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => {}
        }
    }
}

fn visit_init<'a>(i: &'a Init, f: &mut dyn FnMut(&'a Expr)) {
    match i {
        Init::Expr(e) => visit_expr(e, f),
        Init::List(l) => l.iter().for_each(|i| visit_init(i, f)),
    }
}

/// Rewrites every expression of `e` bottom-up: `f` sees each node after its
/// children were rewritten, and may replace it.
pub fn rewrite_expr(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    for c in children_mut(e) {
        rewrite_expr(c, f);
    }
    f(e);
}

/// Rewrites every expression of `block` bottom-up.
pub fn rewrite_block(block: &mut Block, f: &mut dyn FnMut(&mut Expr)) {
    for s in block.iter_mut() {
        match &mut s.kind {
            StmtKind::Decl { init, .. } => {
                if let Some(i) = init {
                    rewrite_init(i, f);
                }
            }
            StmtKind::Expr(e) => rewrite_expr(e, f),
            StmtKind::If { cond, then, els } => {
                rewrite_expr(cond, f);
                rewrite_block(then, f);
                if let Some(b) = els {
                    rewrite_block(b, f);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                rewrite_block(init, f);
                if let Some(c) = cond {
                    rewrite_expr(c, f);
                }
                if let Some(c) = step {
                    rewrite_expr(c, f);
                }
                rewrite_block(body, f);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                rewrite_expr(cond, f);
                rewrite_block(body, f);
            }
            StmtKind::Switch { value, arms } => {
                rewrite_expr(value, f);
                for a in arms {
                    rewrite_block(&mut a.body, f);
                }
            }
            StmtKind::Return(Some(e)) => rewrite_expr(e, f),
            StmtKind::Block(b) => rewrite_block(b, f),
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => {}
        }
    }
}

fn rewrite_init(i: &mut Init, f: &mut dyn FnMut(&mut Expr)) {
    match i {
        Init::Expr(e) => rewrite_expr(e, f),
        Init::List(l) => l.iter_mut().for_each(|i| rewrite_init(i, f)),
    }
}
