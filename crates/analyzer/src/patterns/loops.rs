//! What the loop-level fixes (`local-accumulator`, `hoisted-load`,
//! `register-copy`) share: the array element an access names, the loop
//! around it, whether the loop keeps the element where it is, and a fresh
//! local variable.

use hone_ir::path::{stmt_at, Child, Path};
use hone_ir::{
    Block, Expr, ExprKind, Function, Intrinsic, Span, Stmt, StmtKind, Type, Var, VarId, VarKind,
};

use crate::walk::{index_root, is_pure, strip};

pub(crate) fn is_loop(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
    )
}

/// `array[index]`, [`element_nd`] of a one-dimensional array.
pub(crate) fn element<'e>(f: &Function, e: &'e Expr) -> Option<(VarId, &'e Expr)> {
    match element_nd(f, e)? {
        (array, indices) if indices.len() == 1 => Some((array, indices[0])),
        _ => None,
    }
}

/// The path of the loop whose own body holds the statement at `path`, so
/// that the statement runs on every trip (one under an `if` may be guarded
/// against an index out of bounds where it does not).
pub(crate) fn loop_around(body: &Block, path: &Path) -> Option<Path> {
    let loop_path = path[..path.len().checked_sub(1)?].to_vec();
    if path.last()?.0 != Child::Body || loop_path.is_empty() {
        return None;
    }
    is_loop(stmt_at(body, &loop_path)?).then_some(loop_path)
}

/// The path of the innermost loop around the statement at `path`, which may
/// sit under an `if` in it.
pub(crate) fn innermost_loop(body: &Block, path: &Path) -> Option<Path> {
    (1..path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| stmt_at(body, p).is_some_and(is_loop))
}

/// `array[i][j]...`, an element (not a row) of a non-volatile array
/// variable of one or more dimensions, with pure indexes (outermost first).
pub(crate) fn element_nd<'e>(f: &Function, e: &'e Expr) -> Option<(VarId, Vec<&'e Expr>)> {
    if matches!(e.ty, Type::Array(..)) {
        return None;
    }
    let mut indices = Vec::new();
    let mut at = e;
    while let ExprKind::Index(base, index) = &at.kind {
        if !is_pure(index) {
            return None;
        }
        indices.push(index.as_ref());
        at = strip(base);
    }
    let ExprKind::Var(array) = at.kind else {
        return None;
    };
    indices.reverse();
    (!indices.is_empty() && !f.var(array).is_volatile).then_some((array, indices))
}

/// Whether `e` names an element or a row of `array` (`array[...]`, any
/// number of dimensions).
pub(crate) fn indexes(e: &Expr, array: VarId) -> bool {
    matches!(&strip(e).kind, ExprKind::Index(..)) && index_root(e) == Some(array)
}

/// Whether `the_loop` leaves `array` and the variables of `indices` as they
/// are, so that `array[i][j]...` names one element on every trip: none is
/// assigned, incremented or (an index variable) declared in it, no element
/// is incremented or has its address taken, and it calls no other code and
/// makes no atomic access (either may write the element).
pub(crate) fn keeps(the_loop: &Stmt, array: VarId, indices: &[&Expr]) -> bool {
    let mut index_vars = Vec::new();
    for index in indices {
        hone_ir::path::vars_read(index, &mut index_vars);
    }
    let moved = |e: &Expr| matches!(strip(e).kind, ExprKind::Var(v) if index_vars.contains(&v) || v == array);
    let mut kept = true;
    let alone = vec![the_loop.clone()];
    hone_ir::path::each_expr(&alone, &mut |e, _, _| match &e.kind {
        ExprKind::Assign { lhs, .. } if moved(lhs) => kept = false,
        ExprKind::IncDec { target, .. } if moved(target) || indexes(target, array) => kept = false,
        ExprKind::AddrOf(inner) if indexes(inner, array) => kept = false,
        ExprKind::Call(..) | ExprKind::Intrinsic(Intrinsic::Atomic(_), _) => kept = false,
        _ => {}
    });
    hone_ir::path::each_stmt(&alone, &mut |s, _| {
        if let StmtKind::Decl { var, .. } = s.kind {
            kept &= !index_vars.contains(&var);
        }
    });
    kept
}

/// Adds a local variable named `base` (or `base2`, `base3`, ... where taken).
pub(crate) fn fresh_local(
    f: &mut Function,
    base: &str,
    ty: &Type,
    span: Span,
    is_const: bool,
) -> VarId {
    let mut name = base.to_string();
    let mut k = 2;
    while f.vars.iter().any(|v| v.name == name) {
        name = format!("{base}{k}");
        k += 1;
    }
    f.add_var(Var {
        is_const,
        ..Var::new(name, ty.clone(), VarKind::Local, span)
    })
}

/// Rewrites the loop at `loop_path` of `f` to use a local variable named
/// after `base` for the element `target`: declared and read before the loop,
/// used in its place inside it, and written back after it where `write_back`.
pub(crate) fn localize(
    f: &mut Function,
    loop_path: &Path,
    target: &Expr,
    base: &str,
    write_back: bool,
) -> Option<()> {
    let span = stmt_at(&f.body, loop_path)?.span;
    let var = fresh_local(f, base, &target.ty, span, !write_back);
    let local = hone_ir::build::var(var, &target.ty, target.span);
    let at = loop_path.last()?.1;
    let block = hone_ir::path::parent_block_mut(&mut f.body, loop_path)?;
    let mut looped = vec![block.get(at)?.clone()];
    crate::walk::rewrite_block(&mut looped, &mut |e| {
        if e == target {
            *e = local.clone();
        }
    });
    let load = Stmt {
        kind: StmtKind::Decl {
            var,
            init: Some(hone_ir::Init::Expr(target.clone())),
        },
        span,
    };
    let mut stmts = vec![load, looped.pop()?];
    if write_back {
        stmts.push(hone_ir::build::assign_stmt(target.clone(), local, span));
    }
    block.splice(at..=at, stmts);
    Some(())
}
