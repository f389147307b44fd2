//! Every-S-th-thread access (the paper's figures 6 and 11): a guard
//! `if (E % S == 0)` lets one thread in S work, and that thread reads
//! `a[E]`, `a[E + 1]`, ..., `a[E + S - 1]`, so the active lanes of a warp are
//! S elements apart. The fix remaps the work to runs of 32 contiguous threads:
//! the guard becomes `E % (32 S) < 32` and `a[E + c]` becomes `a[E + 32 c]`.
//! Thread `E` then does the work of the old thread
//! `S * (32 * (E / (32 S)) + E % 32)`, so the arrays must be relaid to match:
//! field `c` of 32 consecutive S-element records becomes contiguous.

use hone_ir::{BinaryOp, Block, Expr, ExprKind, Span, Stmt, StmtKind, UnaryOp, VarId};

use super::{is_global, relayable, Candidate, Ctx, Layout};
use crate::collect::SiteStats;
use crate::shape::Varying;
use crate::walk::{add_const, bin, int_value, lit, rewrite_block, strip, visit_block};

/// `E % S == 0` (or `(E & (S - 1)) == 0`, `!(E % S)`) with `E` varying across lanes.
fn guard(cond: &Expr, v: &Varying) -> Option<(Expr, i64)> {
    let c = strip(cond);
    let tested = match &c.kind {
        ExprKind::Binary(BinaryOp::Eq, a, b) if int_value(b) == Some(0) => strip(a),
        ExprKind::Binary(BinaryOp::Eq, a, b) if int_value(a) == Some(0) => strip(b),
        ExprKind::Unary(UnaryOp::Not, a) => strip(a),
        _ => return None,
    };
    let (e, s) = match &tested.kind {
        ExprKind::Binary(BinaryOp::Rem, e, s) => (strip(e), int_value(s)?),
        ExprKind::Binary(BinaryOp::BitAnd, e, m) => {
            let m = int_value(m)?;
            if m < 1 || (m + 1) & m != 0 {
                return None;
            }
            (strip(e), m + 1)
        }
        _ => return None,
    };
    ((2..=32).contains(&s) && v.expr(e) && crate::walk::is_pure(e)).then(|| (e.clone(), s))
}

fn contains_span(block: &Block, span: Span) -> bool {
    let mut found = false;
    visit_block(block, &mut |e| found |= e.span == span);
    found
}

/// The guarded `if` (no `else`) whose body holds the site.
fn find_guard<'b>(block: &'b mut Block, span: Span, v: &Varying) -> Option<&'b mut Stmt> {
    for s in block.iter_mut() {
        let hit = matches!(&s.kind, StmtKind::If { cond, then, els: None }
            if guard(cond, v).is_some() && contains_span(then, span));
        if hit {
            return Some(s);
        }
        let inner: Vec<&mut Block> = match &mut s.kind {
            StmtKind::If { then, els, .. } => std::iter::once(then).chain(els.as_mut()).collect(),
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. } => vec![body],
            StmtKind::Block(b) => vec![b],
            _ => Vec::new(),
        };
        for b in inner {
            if let Some(found) = find_guard(b, span, v) {
                return Some(found);
            }
        }
    }
    None
}

/// `idx` as `E + c` with `0 <= c < s`.
fn offset_from(idx: &Expr, e: &Expr, s: i64) -> Option<i64> {
    let mut terms = Vec::new();
    crate::shape::terms(idx, false, &mut terms);
    let mut seen_e = false;
    let mut c = 0i64;
    for (neg, t) in terms {
        if !neg && !seen_e && t == strip(e) {
            seen_e = true;
        } else {
            let k = int_value(t)?;
            c += if neg { -k } else { k };
        }
    }
    (seen_e && (0..s).contains(&c)).then_some(c)
}

/// Arrays indexed in `block`, with each index.
fn indexed(block: &Block) -> Vec<(VarId, Expr)> {
    let mut out = Vec::new();
    visit_block(block, &mut |x| {
        if let ExprKind::Index(base, i) = &x.kind {
            if let ExprKind::Var(a) = strip(base).kind {
                out.push((a, (**i).clone()));
            }
        }
    });
    out
}

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    if !is_global(site) {
        return None;
    }
    let mut body = ctx.func.body.clone();
    let stmt = find_guard(&mut body, site.span, &ctx.varying)?;
    let StmtKind::If { cond, then, .. } = &stmt.kind else {
        return None;
    };
    let (e, s) = guard(cond, &ctx.varying)?;
    if u64::from(site.max_active) * s as u64 > 32 {
        return None;
    }
    // Every pointer parameter indexed under the guard is relaid; each of its
    // accesses must be `E + c`, and none may happen outside the guard.
    let inside = indexed(then);
    let everywhere = indexed(&ctx.func.body);
    let mut arrays: Vec<VarId> = Vec::new();
    for (a, idx) in &inside {
        if !ctx.func.params.contains(a) {
            continue;
        }
        if !relayable(ctx, *a) {
            return None;
        }
        offset_from(idx, &e, s)?;
        if !arrays.contains(a) {
            arrays.push(*a);
        }
    }
    let inside_count = |a: VarId| inside.iter().filter(|(x, _)| *x == a).count();
    let all_count = |a: VarId| everywhere.iter().filter(|(x, _)| *x == a).count();
    if arrays.is_empty() || arrays.iter().any(|&a| inside_count(a) != all_count(a)) {
        return None;
    }
    let span = cond.span;
    let module = ctx.rewrite(|f| {
        let stmt = find_guard(&mut f.body, site.span, &ctx.varying)?;
        let StmtKind::If { cond, then, .. } = &mut stmt.kind else {
            return None;
        };
        *cond = bin(
            BinaryOp::Lt,
            bin(BinaryOp::Rem, e.clone(), lit(32 * s, span)),
            lit(32, span),
        );
        rewrite_block(then, &mut |x| {
            if let ExprKind::Index(base, i) = &mut x.kind {
                if matches!(strip(base).kind, ExprKind::Var(a) if arrays.contains(&a)) {
                    if let Some(c) = offset_from(i, &e, s) {
                        let mut moved = e.clone();
                        moved.span = i.span;
                        **i = add_const(moved, 32 * c);
                    }
                }
            }
        });
        Some(())
    })?;
    let names: Vec<String> = arrays
        .iter()
        .map(|a| format!("`{}`", ctx.func.var(*a).name))
        .collect();
    let e_text = hone_ir::print::print_expr(&ctx.spec.module, ctx.func, &e);
    let layouts = arrays
        .iter()
        .map(|a| {
            Some((
                ctx.param_buffer(*a)?,
                ctx.func.var(*a).name.clone(),
                Layout::Interleave {
                    stride: s as u64,
                    chunk: 32,
                },
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Candidate {
        pattern: "thread-remap",
        title: format!("remap the work to runs of 32 contiguous threads (`{e_text} % {} < 32`, as in figure 11)", 32 * s),
        explanation: format!(
            "Only threads with {e_text} % {s} == 0 access memory, each reading {s} neighbouring elements, \
             so the active lanes of a warp are {s} elements apart and touch {s}x the sectors their data needs. \
             Letting the first 32 of every {} threads do the work, with offset c becoming 32 * c, gives every \
             warp 32 consecutive elements per access. {} must be relaid so that the data each thread now \
             reads is the data the old thread read.",
            32 * s,
            names.join(", ")
        ),
        module,
        layouts,
        moved_to: None,
    })
}
