//! Delta debugging of a kernel: smaller versions of it (statements removed,
//! branches and loops flattened, expressions replaced by a subexpression or
//! a constant, a smaller launch), largest reductions first, keeping the first
//! that is still interesting, until none is or the time is up.

use std::time::{Duration, Instant};

use crate::ast::*;
use hone_ir::Arith;

/// Every kernel one step smaller than `k`, the largest reductions first.
pub fn candidates(k: &Kernel) -> Vec<Kernel> {
    let mut out = Vec::new();
    if k.grid > 1 {
        out.push(Kernel {
            grid: 1,
            ..k.clone()
        });
    }
    if k.block > 32 {
        out.push(Kernel {
            block: 32,
            ..k.clone()
        });
    }
    // Chunks of the top level, halving down to single statements.
    let n = k.body.len();
    let mut size = n / 2;
    while size > 1 {
        let mut start = 0;
        while start < n {
            let mut body = k.body.clone();
            body.drain(start..(start + size).min(n));
            out.push(Kernel { body, ..k.clone() });
            start += size;
        }
        size /= 2;
    }
    for body in list_variants(&k.body) {
        out.push(Kernel { body, ..k.clone() });
    }
    out
}

/// Versions of a statement list: each statement removed, then each replaced
/// by a smaller form.
fn list_variants(list: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    for i in 0..list.len() {
        let mut v = list.to_vec();
        v.remove(i);
        out.push(v);
    }
    for (i, s) in list.iter().enumerate() {
        for replacement in stmt_variants(s) {
            let mut v = list[..i].to_vec();
            v.extend(replacement);
            v.extend_from_slice(&list[i + 1..]);
            out.push(v);
        }
    }
    out
}

/// Smaller forms of one statement (each a list: flattening gives several).
fn stmt_variants(s: &Stmt) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    match s {
        Stmt::Assign(t, n, e) => {
            for e in expr_variants(e) {
                out.push(vec![Stmt::Assign(*t, *n, e)]);
            }
        }
        Stmt::If(c, then, els) => {
            out.push(then.clone());
            if !els.is_empty() {
                out.push(els.clone());
                out.push(vec![Stmt::If(c.clone(), then.clone(), Vec::new())]);
            }
            for c in cond_variants(c) {
                out.push(vec![Stmt::If(c, then.clone(), els.clone())]);
            }
            for t in list_variants(then) {
                out.push(vec![Stmt::If(c.clone(), t, els.clone())]);
            }
            for e in list_variants(els) {
                out.push(vec![Stmt::If(c.clone(), then.clone(), e)]);
            }
        }
        Stmt::Loop(k, trips, body) => {
            // The body once, its counter 0, where it neither breaks nor
            // continues (those need a loop around them).
            if !has_jump(body) {
                out.push(
                    body.iter()
                        .map(|s| subst_loop_stmt(s, *k))
                        .collect::<Vec<_>>(),
                );
            }
            if *trips != Trips::Const(1) {
                out.push(vec![Stmt::Loop(*k, Trips::Const(1), body.clone())]);
            }
            if let Trips::Varying(e) = trips {
                for e in expr_variants(e) {
                    out.push(vec![Stmt::Loop(*k, Trips::Varying(e), body.clone())]);
                }
            }
            for b in list_variants(body) {
                out.push(vec![Stmt::Loop(*k, trips.clone(), b)]);
            }
        }
        Stmt::Break(c) => {
            for c in cond_variants(c) {
                out.push(vec![Stmt::Break(c)]);
            }
        }
        Stmt::Continue(c) => {
            for c in cond_variants(c) {
                out.push(vec![Stmt::Continue(c)]);
            }
        }
        Stmt::Shuffle {
            ty,
            dst,
            kind,
            value,
            lane,
            width,
        } => {
            let make = |value: Expr, lane: Expr, width: u32| Stmt::Shuffle {
                ty: *ty,
                dst: *dst,
                kind: *kind,
                value,
                lane,
                width,
            };
            out.push(vec![Stmt::Assign(*ty, *dst, value.clone())]);
            if *width != 32 {
                out.push(vec![make(value.clone(), lane.clone(), 32)]);
            }
            for v in expr_variants(value) {
                out.push(vec![make(v, lane.clone(), *width)]);
            }
            for l in expr_variants(lane) {
                out.push(vec![make(value.clone(), l, *width)]);
            }
        }
        Stmt::Vote { dst, kind, cond } => {
            for c in cond_variants(cond) {
                out.push(vec![Stmt::Vote {
                    dst: *dst,
                    kind: *kind,
                    cond: c,
                }]);
            }
        }
        Stmt::Exchange {
            ty,
            dst,
            value,
            offset,
        } => {
            out.push(vec![Stmt::Assign(*ty, *dst, value.clone())]);
            for v in expr_variants(value) {
                out.push(vec![Stmt::Exchange {
                    ty: *ty,
                    dst: *dst,
                    value: v,
                    offset: offset.clone(),
                }]);
            }
            for o in expr_variants(offset) {
                out.push(vec![Stmt::Exchange {
                    ty: *ty,
                    dst: *dst,
                    value: value.clone(),
                    offset: o,
                }]);
            }
        }
        Stmt::SharedAtomic {
            ty,
            dst,
            op,
            init,
            value,
        } => {
            for v in expr_variants(value) {
                out.push(vec![Stmt::SharedAtomic {
                    ty: *ty,
                    dst: *dst,
                    op: *op,
                    init: *init,
                    value: v,
                }]);
            }
        }
        Stmt::GlobalAtomic {
            ty,
            op,
            slot,
            value,
        } => {
            for v in expr_variants(value) {
                out.push(vec![Stmt::GlobalAtomic {
                    ty: *ty,
                    op: *op,
                    slot: *slot,
                    value: v,
                }]);
            }
        }
    }
    out
}

fn has_jump(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Break(_) | Stmt::Continue(_) => true,
        Stmt::If(_, a, b) => has_jump(a) || has_jump(b),
        // A nested loop's jumps are its own.
        _ => false,
    })
}

fn cond_variants(c: &Cond) -> Vec<Cond> {
    let mut out = Vec::new();
    match c {
        Cond::Cmp(op, a, b) => {
            for a in expr_variants(a) {
                out.push(Cond::Cmp(*op, Box::new(a), b.clone()));
            }
            for b in expr_variants(b) {
                out.push(Cond::Cmp(*op, a.clone(), Box::new(b)));
            }
        }
        Cond::Not(inner) => {
            out.push((**inner).clone());
            out.extend(
                cond_variants(inner)
                    .into_iter()
                    .map(|c| Cond::Not(Box::new(c))),
            );
        }
        Cond::And(a, b) | Cond::Or(a, b) => {
            out.push((**a).clone());
            out.push((**b).clone());
            let make = |x: Cond, y: Cond| match c {
                Cond::And(..) => Cond::And(Box::new(x), Box::new(y)),
                _ => Cond::Or(Box::new(x), Box::new(y)),
            };
            for x in cond_variants(a) {
                out.push(make(x, (**b).clone()));
            }
            for y in cond_variants(b) {
                out.push(make((**a).clone(), y));
            }
        }
    }
    out
}

/// Smaller versions of an expression of the same type: a child of its type,
/// zero, then each child made smaller.
pub fn expr_variants(e: &Expr) -> Vec<Expr> {
    let t = ty_of(e);
    let mut out: Vec<Expr> = children(e)
        .into_iter()
        .filter(|c| ty_of(c) == t)
        .cloned()
        .collect();
    let zero = Expr::Const(t, 0);
    if !matches!(e, Expr::Const(..)) && *e != zero {
        out.push(zero);
    }
    if !matches!(e, Expr::Var(..) | Expr::Const(..)) {
        out.push(Expr::Var(t, 0));
    }
    match e {
        Expr::Var(..) | Expr::Const(..) | Expr::Special(_) | Expr::LoopVar(_) => {}
        Expr::Input(t, i) => {
            for i in expr_variants(i) {
                out.push(Expr::Input(*t, Box::new(i)));
            }
        }
        Expr::Un(op, t, a) => {
            for a in expr_variants(a) {
                out.push(Expr::Un(*op, *t, Box::new(a)));
            }
        }
        Expr::Bin(op, t, a, b) => {
            for x in expr_variants(a) {
                out.push(Expr::Bin(*op, *t, Box::new(x), b.clone()));
            }
            for y in expr_variants(b) {
                out.push(Expr::Bin(*op, *t, a.clone(), Box::new(y)));
            }
        }
        Expr::Cast(t, a) => {
            for a in expr_variants(a) {
                out.push(Expr::Cast(*t, Box::new(a)));
            }
        }
        Expr::Narrow(n, a) => {
            for a in expr_variants(a) {
                out.push(Expr::Narrow(*n, Box::new(a)));
            }
        }
        Expr::Select(t, c, a, b) => {
            for c in cond_variants(c) {
                out.push(Expr::Select(*t, Box::new(c), a.clone(), b.clone()));
            }
            for x in expr_variants(a) {
                out.push(Expr::Select(*t, c.clone(), Box::new(x), b.clone()));
            }
            for y in expr_variants(b) {
                out.push(Expr::Select(*t, c.clone(), a.clone(), Box::new(y)));
            }
        }
        Expr::Math(m, t, args) => {
            for (i, a) in args.iter().enumerate() {
                for x in expr_variants(a) {
                    let mut v = args.clone();
                    v[i] = x;
                    out.push(Expr::Math(*m, *t, v));
                }
            }
        }
    }
    out
}

fn children(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Var(..) | Expr::Const(..) | Expr::Special(_) | Expr::LoopVar(_) => Vec::new(),
        Expr::Input(_, a) | Expr::Un(_, _, a) | Expr::Cast(_, a) | Expr::Narrow(_, a) => vec![a],
        Expr::Bin(_, _, a, b) | Expr::Select(_, _, a, b) => vec![a, b],
        Expr::Math(_, _, args) => args.iter().collect(),
    }
}

fn subst_loop_stmt(s: &Stmt, k: usize) -> Stmt {
    let e = |x: &Expr| subst_loop(x, k);
    let c = |x: &Cond| subst_loop_cond(x, k);
    let l = |xs: &[Stmt]| xs.iter().map(|s| subst_loop_stmt(s, k)).collect::<Vec<_>>();
    match s {
        Stmt::Assign(t, n, x) => Stmt::Assign(*t, *n, e(x)),
        Stmt::If(x, a, b) => Stmt::If(c(x), l(a), l(b)),
        Stmt::Loop(j, trips, body) => Stmt::Loop(
            *j,
            match trips {
                Trips::Varying(x) => Trips::Varying(e(x)),
                t => t.clone(),
            },
            l(body),
        ),
        Stmt::Break(x) => Stmt::Break(c(x)),
        Stmt::Continue(x) => Stmt::Continue(c(x)),
        Stmt::Shuffle {
            ty,
            dst,
            kind,
            value,
            lane,
            width,
        } => Stmt::Shuffle {
            ty: *ty,
            dst: *dst,
            kind: *kind,
            value: e(value),
            lane: e(lane),
            width: *width,
        },
        Stmt::Vote { dst, kind, cond } => Stmt::Vote {
            dst: *dst,
            kind: *kind,
            cond: c(cond),
        },
        Stmt::Exchange {
            ty,
            dst,
            value,
            offset,
        } => Stmt::Exchange {
            ty: *ty,
            dst: *dst,
            value: e(value),
            offset: e(offset),
        },
        Stmt::SharedAtomic {
            ty,
            dst,
            op,
            init,
            value,
        } => Stmt::SharedAtomic {
            ty: *ty,
            dst: *dst,
            op: *op,
            init: *init,
            value: e(value),
        },
        Stmt::GlobalAtomic {
            ty,
            op,
            slot,
            value,
        } => Stmt::GlobalAtomic {
            ty: *ty,
            op: *op,
            slot: *slot,
            value: e(value),
        },
    }
}

fn subst_loop_cond(c: &Cond, k: usize) -> Cond {
    match c {
        Cond::Cmp(op, a, b) => {
            Cond::Cmp(*op, Box::new(subst_loop(a, k)), Box::new(subst_loop(b, k)))
        }
        Cond::Not(a) => Cond::Not(Box::new(subst_loop_cond(a, k))),
        Cond::And(a, b) => Cond::And(
            Box::new(subst_loop_cond(a, k)),
            Box::new(subst_loop_cond(b, k)),
        ),
        Cond::Or(a, b) => Cond::Or(
            Box::new(subst_loop_cond(a, k)),
            Box::new(subst_loop_cond(b, k)),
        ),
    }
}

fn subst_loop(e: &Expr, k: usize) -> Expr {
    let s = |x: &Expr| Box::new(subst_loop(x, k));
    match e {
        Expr::LoopVar(j) if *j == k => Expr::Const(Arith::I32, 0),
        Expr::Var(..) | Expr::Const(..) | Expr::Special(_) | Expr::LoopVar(_) => e.clone(),
        Expr::Input(t, a) => Expr::Input(*t, s(a)),
        Expr::Un(op, t, a) => Expr::Un(*op, *t, s(a)),
        Expr::Bin(op, t, a, b) => Expr::Bin(*op, *t, s(a), s(b)),
        Expr::Cast(t, a) => Expr::Cast(*t, s(a)),
        Expr::Narrow(n, a) => Expr::Narrow(*n, s(a)),
        Expr::Select(t, c, a, b) => Expr::Select(*t, Box::new(subst_loop_cond(c, k)), s(a), s(b)),
        Expr::Math(m, t, args) => {
            Expr::Math(*m, *t, args.iter().map(|a| subst_loop(a, k)).collect())
        }
    }
}

/// Reduces `start` with `interesting`, which is asked about a window of
/// candidates at a time and answers the position of the first interesting
/// one. Stops when no candidate is interesting or `budget` has passed.
/// Returns the smallest kernel found and the number of steps taken.
pub fn reduce(
    start: Kernel,
    budget: Duration,
    window: usize,
    mut interesting: impl FnMut(&[Kernel]) -> Option<usize>,
) -> (Kernel, usize) {
    let began = Instant::now();
    let mut current = start;
    let mut steps = 0;
    'outer: while began.elapsed() < budget {
        let all = candidates(&current);
        for w in all.chunks(window.max(1)) {
            if began.elapsed() >= budget {
                break 'outer;
            }
            if let Some(i) = interesting(w) {
                current = w[i].clone();
                steps += 1;
                continue 'outer;
            }
        }
        break;
    }
    (current, steps)
}

/// A measure of a kernel's size (statements plus expression nodes).
pub fn size(k: &Kernel) -> usize {
    fn e(x: &Expr) -> usize {
        1 + children(x).into_iter().map(e).sum::<usize>()
            + match x {
                Expr::Select(_, c, ..) => cs(c),
                _ => 0,
            }
    }
    fn cs(c: &Cond) -> usize {
        match c {
            Cond::Cmp(_, a, b) => 1 + e(a) + e(b),
            Cond::Not(a) => 1 + cs(a),
            Cond::And(a, b) | Cond::Or(a, b) => 1 + cs(a) + cs(b),
        }
    }
    fn st(s: &Stmt) -> usize {
        1 + match s {
            Stmt::Assign(_, _, x) => e(x),
            Stmt::If(c, a, b) => {
                cs(c) + a.iter().map(st).sum::<usize>() + b.iter().map(st).sum::<usize>()
            }
            Stmt::Loop(_, t, b) => {
                (match t {
                    Trips::Varying(x) => e(x),
                    Trips::Const(_) => 0,
                }) + b.iter().map(st).sum::<usize>()
            }
            Stmt::Break(c) | Stmt::Continue(c) => cs(c),
            Stmt::Shuffle { value, lane, .. } => e(value) + e(lane),
            Stmt::Vote { cond, .. } => cs(cond),
            Stmt::Exchange { value, offset, .. } => e(value) + e(offset),
            Stmt::SharedAtomic { value, .. } | Stmt::GlobalAtomic { value, .. } => e(value),
        }
    }
    k.body.iter().map(st).sum()
}
