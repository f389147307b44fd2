//! Putting the synthesized expressions into the kernel.
//!
//! Synthesized nodes carry a marker span (file [`MARK_FILE`], line = marker
//! number) so the printer can label them in comments and messages can name
//! the user's line they came from.

use hone_ir::{Block, Expr, ExprKind, Function, Span, Stmt, StmtKind, Type, VarId, VarKind};

use hone_ir::build::{self, peel};
use hone_ir::path as walk;

/// The file index of spans that mark synthesized code.
pub const MARK_FILE: u32 = u32::MAX - 1;

pub fn mark_span(id: usize) -> Span {
    Span {
        file: MARK_FILE,
        line: id as u32,
        col: 0,
        end_line: 0,
        end_col: 0,
    }
}

pub fn mark_of(s: Span) -> Option<usize> {
    (s.file == MARK_FILE).then_some(s.line as usize)
}

/// Replaces the first `Index` node spanning `span` with `make(original)`.
pub fn replace_read(f: &mut Function, span: Span, make: &dyn Fn(Expr) -> Expr) -> bool {
    let mut done = false;
    walk::rewrite_exprs(&mut f.body, &mut |e| {
        if !done && e.span == span && matches!(e.kind, ExprKind::Index(..)) {
            let orig = std::mem::replace(e, build::lit(0, span));
            *e = make(orig);
            done = true;
            return true;
        }
        false
    });
    done
}

/// Inserts `stmts` before the statement at `path` (or at the end of its list).
pub fn insert_at(f: &mut Function, path: &walk::Path, stmts: Vec<Stmt>) {
    let idx = path.last().expect("non-empty path").1;
    if let Some(block) = walk::parent_block_mut(&mut f.body, path) {
        let idx = idx.min(block.len());
        block.splice(idx..idx, stmts);
    }
}

/// A global array the kernel only writes in order to copy it into shared
/// memory right away: `X[j] = e; S[i] = X[j];` with no other use of `X`.
/// Temporal blocking's `mid` becomes this once its reads are served from
/// shared memory; each pair is folded into `S[i] = e;`.
pub fn fold_intermediates(
    f: &mut Function,
    mark: &mut dyn FnMut(&str, Span) -> Span,
) -> Vec<String> {
    let mut folded = Vec::new();
    for x in f.params.clone() {
        if !matches!(f.var(x).ty, Type::Pointer(_)) {
            continue;
        }
        let Some(pairs) = foldable(f, x) else {
            continue;
        };
        let name = f.var(x).name.clone();
        let elem = f.var(x).ty.pointee().cloned().unwrap_or(Type::FLOAT);
        // Later pairs first, so earlier paths stay valid.
        for path in pairs.into_iter().rev() {
            let block = walk::parent_block_mut(&mut f.body, &path).expect("found above");
            let i = path.last().expect("path").1;
            let store = block.remove(i - 1);
            let StmtKind::Expr(Expr {
                kind: ExprKind::Assign { rhs: value, .. },
                ..
            }) = store.kind
            else {
                unreachable!("checked by foldable")
            };
            let copy = &mut block[i - 1];
            copy.span = mark(&name, copy.span);
            if let StmtKind::Expr(Expr {
                kind: ExprKind::Assign { lhs, rhs, .. },
                ..
            }) = &mut copy.kind
            {
                let v = build::cast(*value, &elem);
                **rhs = build::conv(v, &lhs.ty.clone());
            }
        }
        folded.push(name);
    }
    folded
}

fn is_var(e: &Expr, x: VarId) -> bool {
    matches!(peel(e).kind, ExprKind::Var(v) if v == x)
}

/// `X[j] = e` (plain assignment into global `X`): `(j, e)`.
fn store_to(s: &Stmt, x: VarId) -> Option<(&Expr, &Expr)> {
    let StmtKind::Expr(e) = &s.kind else {
        return None;
    };
    let ExprKind::Assign { op: None, lhs, rhs } = &e.kind else {
        return None;
    };
    let ExprKind::Index(b, j) = &peel(lhs).kind else {
        return None;
    };
    is_var(b, x).then_some((j, rhs))
}

/// `S[i] = X[j]` with `S` shared: `j`.
fn copy_from<'a>(f: &Function, s: &'a Stmt, x: VarId) -> Option<&'a Expr> {
    let StmtKind::Expr(e) = &s.kind else {
        return None;
    };
    let ExprKind::Assign { op: None, lhs, rhs } = &e.kind else {
        return None;
    };
    let ExprKind::Index(sb, _) = &peel(lhs).kind else {
        return None;
    };
    let ExprKind::Var(sv) = peel(sb).kind else {
        return None;
    };
    if !matches!(f.var(sv).kind, VarKind::Shared | VarKind::ExternShared) {
        return None;
    }
    let ExprKind::Index(b, j) = &peel(rhs).kind else {
        return None;
    };
    is_var(b, x).then_some(j)
}

/// The paths of the copies of every store/copy pair of `x`, if every use of
/// `x` is in such a pair.
fn foldable(f: &Function, x: VarId) -> Option<Vec<walk::Path>> {
    let mut uses = 0usize;
    walk::each_expr(&f.body, &mut |e, _, _| {
        if matches!(e.kind, ExprKind::Var(v) if v == x) {
            uses += 1;
        }
    });
    let mut pairs = Vec::new();
    let mut ok = true;
    walk::each_stmt(&f.body, &mut |_, path| {
        let Some(block) = walk::parent_block(&f.body, path) else {
            return;
        };
        let i = path.last().expect("path").1;
        let s = &block[i];
        if let Some(j) = copy_from(f, s, x) {
            let prev = i.checked_sub(1).and_then(|p| block.get(p));
            match prev.and_then(|p| store_to(p, x)) {
                Some((j0, value)) if j0 == j && !mentions(value, x) => pairs.push(path.clone()),
                _ => ok = false,
            }
        }
    });
    // Each pair uses `x` twice; any other use keeps `x`.
    (ok && !pairs.is_empty() && uses == 2 * pairs.len()).then_some(pairs)
}

fn mentions(e: &Expr, x: VarId) -> bool {
    let mut found = false;
    walk::visit(e, &mut |n| {
        found |= matches!(n.kind, ExprKind::Var(v) if v == x)
    });
    found
}

/// Inserts a `__syncthreads()` at `idx` of the list holding the statement
/// at `path` (replacing that statement's index).
pub fn insert_barrier(body: &mut Block, path: &walk::Path, idx: usize, span: Span) -> bool {
    match walk::parent_block_mut(body, path) {
        Some(block) if idx <= block.len() => {
            // The marker goes on the statement only, not on its expression.
            let mut b = build::syncthreads(span);
            if let StmtKind::Expr(e) = &mut b.kind {
                e.span = Span::default();
            }
            block.insert(idx, b);
            true
        }
        _ => false,
    }
}
