//! Mutable traversal of lowered IR, for renumbering calls.

use hone_ir::{ArrayLen, Block, Expr, ExprKind, FuncId, Function, Init, StmtKind, Type};

pub(crate) fn remap_calls(f: &mut Function, map: &dyn Fn(FuncId) -> FuncId) {
    for v in &mut f.vars {
        ty(&mut v.ty, map);
    }
    block(&mut f.body, map);
}

fn ty(t: &mut Type, map: &dyn Fn(FuncId) -> FuncId) {
    match t {
        Type::Array(e, len) => {
            ty(e, map);
            if let ArrayLen::Expr(x) = len {
                expr(x, map);
            }
        }
        Type::Pointer(p) => ty(&mut p.pointee, map),
        _ => {}
    }
}

fn block(b: &mut Block, map: &dyn Fn(FuncId) -> FuncId) {
    for s in b {
        match &mut s.kind {
            StmtKind::Decl { init, .. } => {
                if let Some(i) = init {
                    init_(i, map);
                }
            }
            StmtKind::Expr(e) => expr(e, map),
            StmtKind::If { cond, then, els } => {
                expr(cond, map);
                block(then, map);
                if let Some(e) = els {
                    block(e, map);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                block(init, map);
                if let Some(c) = cond {
                    expr(c, map);
                }
                if let Some(s) = step {
                    expr(s, map);
                }
                block(body, map);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                expr(cond, map);
                block(body, map);
            }
            StmtKind::Switch { value, arms } => {
                expr(value, map);
                for a in arms {
                    block(&mut a.body, map);
                }
            }
            StmtKind::Return(Some(e)) => expr(e, map),
            StmtKind::Block(b) => block(b, map),
            StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) => {}
        }
    }
}

fn init_(i: &mut Init, map: &dyn Fn(FuncId) -> FuncId) {
    match i {
        Init::Expr(e) => expr(e, map),
        Init::List(xs) => xs.iter_mut().for_each(|x| init_(x, map)),
    }
}

fn expr(e: &mut Expr, map: &dyn Fn(FuncId) -> FuncId) {
    match &mut e.kind {
        ExprKind::Call(id, args) => {
            *id = map(*id);
            args.iter_mut().for_each(|a| expr(a, map));
        }
        ExprKind::Intrinsic(_, args) => args.iter_mut().for_each(|a| expr(a, map)),
        ExprKind::Unary(_, a)
        | ExprKind::Cast { expr: a, .. }
        | ExprKind::Component(a, _)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::IncDec { target: a, .. } => expr(a, map),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign { lhs: a, rhs: b, .. }
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => {
            expr(a, map);
            expr(b, map);
        }
        ExprKind::Cond(a, b, c) => {
            expr(a, map);
            expr(b, map);
            expr(c, map);
        }
        ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::BoolLit(_)
        | ExprKind::Var(_)
        | ExprKind::Builtin(_)
        | ExprKind::SizeOf(_) => {}
    }
}
