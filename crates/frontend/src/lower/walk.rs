//! Renumbering of calls in lowered IR, after functions are dropped.

use hone_ir::visit::{rewrite_block, rewrite_expr};
use hone_ir::{ArrayLen, Expr, ExprKind, FuncId, Function, Type};

pub(crate) fn remap_calls(f: &mut Function, map: &dyn Fn(FuncId) -> FuncId) {
    let mut renumber = |e: &mut Expr| {
        if let ExprKind::Call(id, _) = &mut e.kind {
            *id = map(*id);
        }
    };
    // Launch-time array lengths sit in variable types, outside the body.
    for v in &mut f.vars {
        array_lengths(&mut v.ty, &mut renumber);
    }
    rewrite_block(&mut f.body, &mut renumber);
}

fn array_lengths(t: &mut Type, f: &mut dyn FnMut(&mut Expr)) {
    match t {
        Type::Array(elem, len) => {
            array_lengths(elem, f);
            if let ArrayLen::Expr(x) = len {
                rewrite_expr(x, f);
            }
        }
        Type::Pointer(p) => array_lengths(&mut p.pointee, f),
        _ => {}
    }
}
