//! What the loop-level fixes (`local-accumulator`, `hoisted-load`) share:
//! the array element an access names, the loop whose body runs it on every
//! trip, and a fresh local variable.

use hone_ir::path::{stmt_at, Child, Path};
use hone_ir::{Block, Expr, ExprKind, Function, Span, Stmt, StmtKind, Type, Var, VarId, VarKind};

use crate::walk::{is_pure, strip};

fn is_loop(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
    )
}

/// `array[index]` with a pure index into a non-volatile array variable.
pub(crate) fn element<'e>(f: &Function, e: &'e Expr) -> Option<(VarId, &'e Expr)> {
    let ExprKind::Index(base, index) = &e.kind else {
        return None;
    };
    let ExprKind::Var(array) = strip(base).kind else {
        return None;
    };
    (is_pure(index) && !f.var(array).is_volatile).then_some((array, index.as_ref()))
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

/// Adds a local variable named `base` (or `base2`, `base3`, ... where taken).
pub(crate) fn fresh_local(
    f: &mut Function,
    base: &str,
    ty: &Type,
    span: Span,
    is_const: bool,
) -> VarId {
    let id = VarId(f.vars.len() as u32);
    let mut name = base.to_string();
    let mut k = 2;
    while f.vars.iter().any(|v| v.name == name) {
        name = format!("{base}{k}");
        k += 1;
    }
    f.vars.push(Var {
        name,
        ty: ty.clone(),
        kind: VarKind::Local,
        is_const,
        is_volatile: false,
        span,
    });
    id
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

/// Whether a variable of `vars` is declared anywhere in `stmts` (one declared
/// in a loop's body takes a new value on every trip).
pub(crate) fn declares_any(stmts: &Block, vars: &[VarId]) -> bool {
    let mut found = false;
    hone_ir::path::each_stmt(stmts, &mut |s, _| {
        if let StmtKind::Decl { var, .. } = s.kind {
            found |= vars.contains(&var);
        }
    });
    found
}
