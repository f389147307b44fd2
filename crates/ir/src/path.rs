//! Statement paths through function bodies: where a statement is, the
//! expressions it holds, and visits of a body that report both.

use crate::{Block, Expr, ExprKind, Init, Span, Stmt, StmtKind, VarId};

/// Which statement list of a statement a path step enters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Child {
    /// The function body.
    Root,
    Then,
    Else,
    /// Loop bodies and `{ ... }` blocks.
    Body,
    /// A `for` statement's initialisation.
    Init,
    Arm(usize),
}

/// The position of a statement: for each level, the list entered and the
/// index in it. `[(Root, 3), (Body, 1)]` is statement 1 of the body of the
/// fourth top-level statement.
pub type Path = Vec<(Child, usize)>;

/// The statement lists a statement holds, with how each is entered.
pub fn children(s: &Stmt) -> Vec<(Child, &Block)> {
    match &s.kind {
        StmtKind::If { then, els, .. } => {
            let mut v = vec![(Child::Then, then)];
            if let Some(e) = els {
                v.push((Child::Else, e));
            }
            v
        }
        StmtKind::For { init, body, .. } => vec![(Child::Init, init), (Child::Body, body)],
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Block(body) => {
            vec![(Child::Body, body)]
        }
        StmtKind::Switch { arms, .. } => arms
            .iter()
            .enumerate()
            .map(|(i, a)| (Child::Arm(i), &a.body))
            .collect(),
        _ => Vec::new(),
    }
}

fn child_mut(s: &mut Stmt, which: Child) -> Option<&mut Block> {
    match (&mut s.kind, which) {
        (StmtKind::If { then, .. }, Child::Then) => Some(then),
        (StmtKind::If { els, .. }, Child::Else) => els.as_mut(),
        (StmtKind::For { init, .. }, Child::Init) => Some(init),
        (StmtKind::For { body, .. }, Child::Body)
        | (StmtKind::While { body, .. }, Child::Body)
        | (StmtKind::DoWhile { body, .. }, Child::Body)
        | (StmtKind::Block(body), Child::Body) => Some(body),
        (StmtKind::Switch { arms, .. }, Child::Arm(i)) => arms.get_mut(i).map(|a| &mut a.body),
        _ => None,
    }
}

fn child_ref(s: &Stmt, which: Child) -> Option<&Block> {
    children(s)
        .into_iter()
        .find(|(c, _)| *c == which)
        .map(|(_, b)| b)
}

/// The statement list holding the statement at `path`.
pub fn parent_block_mut<'a>(body: &'a mut Block, path: &[(Child, usize)]) -> Option<&'a mut Block> {
    let (_, rest) = path.split_last()?;
    let mut block = body;
    for (i, &(_, idx)) in rest.iter().enumerate() {
        let next = path[i + 1].0;
        block = child_mut(block.get_mut(idx)?, next)?;
    }
    Some(block)
}

pub fn parent_block<'a>(body: &'a Block, path: &[(Child, usize)]) -> Option<&'a Block> {
    let (_, rest) = path.split_last()?;
    let mut block = body;
    for (i, &(_, idx)) in rest.iter().enumerate() {
        let next = path[i + 1].0;
        block = child_ref(block.get(idx)?, next)?;
    }
    Some(block)
}

pub fn stmt_at<'a>(body: &'a Block, path: &[(Child, usize)]) -> Option<&'a Stmt> {
    parent_block(body, path)?.get(path.last()?.1)
}

/// Visits every statement, pre-order, with its path.
pub fn each_stmt<'a>(body: &'a Block, f: &mut dyn FnMut(&'a Stmt, &Path)) {
    fn go<'a>(block: &'a Block, path: &mut Path, via: Child, f: &mut dyn FnMut(&'a Stmt, &Path)) {
        for (i, s) in block.iter().enumerate() {
            path.push((via, i));
            f(s, path);
            for (c, b) in children(s) {
                go(b, path, c, f);
            }
            path.pop();
        }
    }
    go(body, &mut Vec::new(), Child::Root, f);
}

/// How a statement holds an expression: evaluated once per execution of the
/// statement, or on every trip of a loop header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Once,
    LoopHeader,
}

/// The expressions a statement holds directly (not those of nested statements).
pub fn stmt_exprs(s: &Stmt) -> Vec<(Slot, &Expr)> {
    fn inits<'a>(i: &'a Init, out: &mut Vec<(Slot, &'a Expr)>) {
        match i {
            Init::Expr(e) => out.push((Slot::Once, e)),
            Init::List(items) => items.iter().for_each(|i| inits(i, out)),
        }
    }
    let mut out = Vec::new();
    match &s.kind {
        StmtKind::Decl { init: Some(i), .. } => inits(i, &mut out),
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => out.push((Slot::Once, e)),
        StmtKind::If { cond, .. } => out.push((Slot::Once, cond)),
        StmtKind::Switch { value, .. } => out.push((Slot::Once, value)),
        StmtKind::For { cond, step, .. } => {
            out.extend(cond.iter().map(|e| (Slot::LoopHeader, e)));
            out.extend(step.iter().map(|e| (Slot::LoopHeader, e)));
        }
        StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => {
            out.push((Slot::LoopHeader, cond))
        }
        _ => {}
    }
    out
}

pub fn stmt_exprs_mut(s: &mut Stmt) -> Vec<&mut Expr> {
    fn inits<'a>(i: &'a mut Init, out: &mut Vec<&'a mut Expr>) {
        match i {
            Init::Expr(e) => out.push(e),
            Init::List(items) => items.iter_mut().for_each(|i| inits(i, out)),
        }
    }
    let mut out = Vec::new();
    match &mut s.kind {
        StmtKind::Decl { init: Some(i), .. } => inits(i, &mut out),
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => out.push(e),
        StmtKind::If { cond, .. } => out.push(cond),
        StmtKind::Switch { value, .. } => out.push(value),
        StmtKind::For { cond, step, .. } => {
            out.extend(cond.iter_mut());
            out.extend(step.iter_mut());
        }
        StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => out.push(cond),
        _ => {}
    }
    out
}

/// The direct sub-expressions of `e`.
pub use crate::visit::children as sub_exprs;
use crate::visit::children_mut as sub_exprs_mut;

/// Pre-order visit of `e` and its sub-expressions.
pub use crate::visit::visit_expr as visit;

/// Pre-order visit that may rewrite; when `f` returns true the node was
/// replaced and its new children are not visited.
pub fn visit_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr) -> bool) {
    if f(e) {
        return;
    }
    for s in sub_exprs_mut(e) {
        visit_mut(s, f);
    }
}

/// Every expression of a body, with the path of its statement.
pub fn each_expr<'a>(body: &'a Block, f: &mut dyn FnMut(&'a Expr, &Path, Slot)) {
    each_stmt(body, &mut |s, path| {
        for (slot, e) in stmt_exprs(s) {
            visit(e, &mut |x| f(x, path, slot));
        }
    });
}

/// Rewrites expressions anywhere in a body (see [`visit_mut`]).
pub fn rewrite_exprs(body: &mut Block, f: &mut dyn FnMut(&mut Expr) -> bool) {
    for s in body.iter_mut() {
        for e in stmt_exprs_mut(s) {
            visit_mut(e, f);
        }
        let kids: Vec<Child> = children(s).into_iter().map(|(c, _)| c).collect();
        for c in kids {
            if let Some(b) = child_mut(s, c) {
                rewrite_exprs(b, f);
            }
        }
    }
}

/// Variables read anywhere in `e` (not counting plain assignment targets).
pub fn vars_read(e: &Expr, out: &mut Vec<VarId>) {
    match &e.kind {
        ExprKind::Var(v) => {
            if !out.contains(v) {
                out.push(*v)
            }
        }
        ExprKind::Assign { op: None, lhs, rhs } => {
            if !matches!(lhs.kind, ExprKind::Var(_)) {
                vars_read(lhs, out);
            }
            vars_read(rhs, out);
        }
        _ => sub_exprs(e).into_iter().for_each(|s| vars_read(s, out)),
    }
}

/// The first expression (pre-order) spanning exactly `span` that `pred`
/// accepts, with its statement's path.
pub fn find_span<'a>(
    body: &'a Block,
    span: Span,
    pred: &dyn Fn(&Expr) -> bool,
) -> Option<(&'a Expr, Path, Slot)> {
    let mut hit = None;
    each_expr(body, &mut |e, path, slot| {
        if hit.is_none() && e.span == span && pred(e) {
            hit = Some((e, path.clone(), slot));
        }
    });
    hit
}
