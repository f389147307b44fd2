//! Strided accesses `a[T * S + C]` where consecutive lanes are `S` elements
//! apart: fields of an array of structures (`S` a constant, `C` the field)
//! and row-per-thread walks of a row-major matrix (`S` the row length, `C`
//! the loop's column). The fix relays the array in tiles of 32 records, field
//! by field (a structure of arrays per warp; for a matrix, each panel of 32
//! rows stored column by column, which swaps the loop and thread dimensions
//! inside the panel), so a warp's 32 lanes read 32 consecutive elements:
//! `a[e]` becomes `a[(k / 32) * 32 S + 32 (e % S) + k % 32]` with `k = e / S`,
//! written `(T / 32) * 32 S + 32 C + T % 32` where `e` has the `T * S + C`
//! shape. It needs no array length, only the stride.

use hone_ir::{BinaryOp, Expr, ExprKind};

use super::{is_global, relayable, Candidate, Ctx, Layout};
use crate::collect::SiteStats;
use crate::shape::{eval_uniform, is_launch_constant, strided, Stride};
use crate::walk::{add_const, bin, int_value, is_pure, lit, rewrite_block, strip};

/// The stride as an expression that can be written at every access.
#[derive(Clone)]
enum StrideExpr {
    Const(i64),
    Expr(Expr),
}

impl StrideExpr {
    fn matches(&self, s: &Stride) -> bool {
        match (self, s) {
            (StrideExpr::Const(a), Stride::Const(b)) => a == b,
            (StrideExpr::Expr(a), Stride::Expr(b)) => a == strip(b),
            _ => false,
        }
    }
    /// `32 * S`
    fn times_32(&self, span: hone_ir::Span) -> Expr {
        match self {
            StrideExpr::Const(s) => lit(32 * s, span),
            StrideExpr::Expr(e) => bin(BinaryOp::Mul, lit(32, span), e.clone()),
        }
    }
    fn expr(&self, span: hone_ir::Span) -> Expr {
        match self {
            StrideExpr::Const(s) => lit(*s, span),
            StrideExpr::Expr(e) => e.clone(),
        }
    }
}

fn sum(terms: &[(bool, &Expr)], span: hone_ir::Span) -> Option<Expr> {
    let mut out: Option<Expr> = None;
    for (neg, t) in terms {
        let t = (*t).clone();
        out = Some(match (out, neg) {
            (None, false) => t,
            (None, true) => bin(BinaryOp::Sub, lit(0, span), t),
            (Some(acc), false) => bin(BinaryOp::Add, acc, t),
            (Some(acc), true) => bin(BinaryOp::Sub, acc, t),
        });
    }
    out
}

/// The relaid index for `idx`.
fn relaid(ctx: &Ctx, idx: &Expr, stride: &StrideExpr) -> Option<Expr> {
    let span = idx.span;
    let c32 = |e: Expr| bin(BinaryOp::Mul, lit(32, span), e);
    if let Some(s) = strided(idx, &ctx.varying).filter(|s| stride.matches(&s.stride)) {
        if s.offset.iter().all(|(_, t)| !ctx.varying.expr(t)) {
            let t = s.thread.clone();
            let mut out = bin(
                BinaryOp::Add,
                bin(
                    BinaryOp::Mul,
                    bin(BinaryOp::Div, t.clone(), lit(32, span)),
                    stride.times_32(span),
                ),
                bin(BinaryOp::Rem, t, lit(32, span)),
            );
            let constant: Option<i64> = s
                .offset
                .iter()
                .map(|(neg, t)| int_value(t).map(|v| if *neg { -v } else { v }))
                .sum();
            match constant {
                Some(c) => out = add_const(out, 32 * c),
                None => {
                    if let Some(c) = sum(&s.offset, span) {
                        out = bin(BinaryOp::Add, out, c32(c));
                    }
                }
            }
            return Some(out);
        }
    }
    // Any other index of the array: the general form, which repeats `idx`.
    if !is_pure(idx) {
        return None;
    }
    let k = bin(BinaryOp::Div, idx.clone(), stride.expr(span));
    Some(bin(
        BinaryOp::Add,
        bin(
            BinaryOp::Add,
            bin(
                BinaryOp::Mul,
                bin(BinaryOp::Div, k.clone(), lit(32, span)),
                stride.times_32(span),
            ),
            c32(bin(BinaryOp::Rem, idx.clone(), stride.expr(span))),
        ),
        bin(BinaryOp::Rem, k, lit(32, span)),
    ))
}

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    if !is_global(site) {
        return None;
    }
    let access = ctx.access(site)?;
    let shape = strided(access.index, &ctx.varying)?;
    if shape.offset.iter().any(|(_, t)| ctx.varying.expr(t)) {
        return None;
    }
    let (stride, value) = match &shape.stride {
        Stride::One => return None,
        Stride::Const(k) => (StrideExpr::Const(*k), *k),
        Stride::Expr(e) if is_launch_constant(e, ctx.func) => {
            let v = eval_uniform(e, ctx.func, &ctx.spec.launch.args, &ctx.spec.launch.config)?;
            (StrideExpr::Expr(strip(e).clone()), v)
        }
        Stride::Expr(_) => return None,
    };
    if value < 2 || !relayable(ctx, access.array) {
        return None;
    }
    let array = access.array;
    let name = ctx.func.var(array).name.clone();
    let mut ok = true;
    let module = ctx.rewrite(|f| {
        rewrite_block(&mut f.body, &mut |e| {
            if let ExprKind::Index(base, index) = &mut e.kind {
                if matches!(strip(base).kind, ExprKind::Var(v) if v == array) {
                    match relaid(ctx, index, &stride) {
                        Some(n) => **index = n,
                        None => ok = false,
                    }
                }
            }
        });
        ok.then_some(())
    })?;
    let thread = hone_ir::print::print_expr(&ctx.spec.module, ctx.func, shape.thread);
    let (pattern, title, explanation) = match &stride {
        StrideExpr::Const(s) => (
            "structure-of-arrays",
            format!("store `{name}` as a structure of arrays in tiles of 32 records of {s} fields"),
            format!(
                "Consecutive threads read elements {s} apart (`{name}` holds records of {s} fields and each \
                 access reads one field), so a warp's request spreads over {s}x the sectors its data needs. \
                 Storing field c of 32 consecutive records contiguously makes each request read 32 \
                 consecutive elements; no array length is needed, only the record size."
            ),
        ),
        StrideExpr::Expr(e) => {
            let s = hone_ir::print::print_expr(&ctx.spec.module, ctx.func, e);
            (
                "row-walk",
                format!("store `{name}` in panels of 32 rows, column by column (swap the loop and thread dimensions)"),
                format!(
                    "Each thread walks its own row of `{name}` ({thread} * {s} + ...), so the 32 lanes of a warp read \
                     32 rows {value} elements apart, one sector each. Storing each panel of 32 rows column-major \
                     puts the 32 lanes' elements next to each other: every request then reads 32 consecutive elements."
                ),
            )
        }
    };
    Some(Candidate {
        pattern,
        title,
        explanation,
        module,
        layouts: vec![(
            ctx.param_buffer(array)?,
            name,
            Layout::Interleave {
                stride: value as u64,
                chunk: 32,
            },
        )],
        moved_to: None,
    })
}
