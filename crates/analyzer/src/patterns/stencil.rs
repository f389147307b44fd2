//! Neighbour reads of a stencil (`in[c - 1]`, `in[c + nx]`) served from a
//! shared-memory tile of the block, written by the synthesizer. A warp's
//! reads of its neighbours' elements straddle sectors (one more sector a
//! request for `c ± 1`) and read the same elements as the next rows' warps.
//! Here the analyzer annotates the kernel the way `hone synth` takes it, as a
//! user would write it by hand (SHA, the thesis's shared-memory
//! annotation): every thread copies its own element `in[c]` into a tile of
//! the block's shape before the statement that reads the neighbours, waits
//! for the block, and the statement's reads of `in` are marked `__opt__`.
//! The synthesizer then finds, from a profile of the launch, for each marked
//! read the condition under which its element is in the tile and the tile
//! index, and checks the kernel it writes on other launches. That kernel is
//! verified and analysed again here like any other fix.
//!
//! The statement must be one that every thread of the block runs the same
//! number of times (no `if` around it, loops with bounds the block agrees
//! on, no `return`, `break` or `continue` in the kernel's loops), and the
//! array one the kernel only reads. The tile is sized for the analysed
//! launch's block, which the fix then needs.

use std::collections::HashMap;

use hone_emulator::AccessKind;
use hone_ir::path::{find_span, parent_block_mut, stmt_at, stmt_exprs, Child, Slot};
use hone_ir::{
    AddressSpace, ArrayLen, BinaryOp, Builtin, Dim, Expr, ExprKind, Intrinsic, Stmt, StmtKind,
    Type, Var, VarId, VarKind,
};

use super::loops::{element, fresh_local};
use super::{Candidate, Ctx, SynthesizerHandle};
use crate::collect::SiteStats;
use crate::shape::{strided, Stride};
use crate::walk::{bin, lit, strip, visit_expr};

/// Synthesized kernels by annotated source: one statement's sites share one.
pub(crate) type Cache = HashMap<String, Option<String>>;

pub(crate) fn propose(
    ctx: &Ctx,
    site: &SiteStats,
    synth: &SynthesizerHandle,
    cache: &mut Cache,
) -> Vec<Candidate> {
    propose_one(ctx, site, synth, cache).into_iter().collect()
}

fn propose_one(
    ctx: &Ctx,
    site: &SiteStats,
    synth: &SynthesizerHandle,
    cache: &mut Cache,
) -> Option<Candidate> {
    let [bx, by, bz] = ctx.spec.launch.config.block;
    if site.space != AddressSpace::Global
        || site.kind != AccessKind::Load
        || site.excess_sectors() == 0
        || bz != 1
        || bx * by > 1024
    {
        return None;
    }
    let f = ctx.func;
    let body = &f.body;
    let (load, path, slot) =
        find_span(body, site.span, &|e| matches!(e.kind, ExprKind::Index(..)))?;
    if slot != Slot::Once {
        return None;
    }
    let (array, _) = element(f, load)?;
    let elem = match &f.var(array).ty {
        Type::Pointer(p) if !p.pointee_volatile && f.var(array).kind == VarKind::Param => {
            p.pointee.clone()
        }
        _ => return None,
    };
    if elem.scalar().is_none()
        || super::hoist::stored_anywhere(f, array)
        || !super::hoist::only_dereferenced(f, array)
        || !uniform_path(ctx, &path)
    {
        return None;
    }
    let stmt = stmt_at(body, &path)?;
    let mut reads: Vec<&Expr> = Vec::new();
    for (_, e) in stmt_exprs(stmt) {
        visit_expr(e, &mut |x| {
            if let ExprKind::Index(base, _) = &x.kind {
                if matches!(strip(base).kind, ExprKind::Var(v) if v == array) {
                    reads.push(x);
                }
            }
        });
    }
    // The thread's own element: the one the statement stores, where it has
    // unit stride, else a read of the array with unit stride and no offset.
    let own = |index: &Expr| {
        strided(index, &ctx.varying)
            .is_some_and(|s| matches!(s.stride, Stride::One) && s.offset.is_empty())
    };
    let stored = match &stmt.kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Assign { lhs, .. },
            ..
        }) => match &strip(lhs).kind {
            ExprKind::Index(_, i) if own(i) => Some(i.as_ref()),
            _ => None,
        },
        _ => None,
    };
    let centre = stored
        .or_else(|| {
            reads
                .iter()
                .filter_map(|r| element(f, r).map(|(_, i)| i))
                .find(|i| own(i))
        })?
        .clone();
    if reads.len() < 2 {
        return None;
    }
    let in_loop = path.len() > 1;
    let span = stmt.span;
    let name = f.var(array).name.clone();
    let array_ty = f.var(array).ty.clone();
    let tile_len = u64::from(bx) * u64::from(by);
    let mut annotated = ctx.spec.module.clone();
    {
        let g = &mut annotated.functions[ctx.func_index];
        let tile_ty = Type::Array(Box::new(elem.clone()), ArrayLen::Const(tile_len));
        let tile_name = free_name(g, &format!("sb_{name}"));
        let tile = g.add_var(Var::new(tile_name, tile_ty.clone(), VarKind::Shared, span));
        let x = hone_ir::build::builtin(Builtin::ThreadIdx(Dim::X), span);
        let slot_init = if by == 1 {
            x
        } else {
            bin(
                BinaryOp::Add,
                x,
                bin(
                    BinaryOp::Mul,
                    hone_ir::build::builtin(Builtin::ThreadIdx(Dim::Y), span),
                    lit(i64::from(bx), span),
                ),
            )
        };
        let slot = fresh_local(g, &format!("{name}_sb"), &Type::INT, span, true);
        // The statement's reads of the array, marked for the synthesizer: a
        // variable named `__opt__in` prints as the annotation.
        let marked = g.add_var(Var::new(
            format!("__opt__{name}"),
            array_ty.clone(),
            VarKind::Local,
            span,
        ));
        let at = path.last()?.1;
        let block = parent_block_mut(&mut g.body, &path)?;
        let mut s = block.get(at)?.clone();
        for e in hone_ir::path::stmt_exprs_mut(&mut s) {
            crate::walk::rewrite_expr(e, &mut |x| {
                if let ExprKind::Index(base, _) = &mut x.kind {
                    if matches!(strip(base).kind, ExprKind::Var(v) if v == array) {
                        **base = hone_ir::build::var(marked, &array_ty, base.span);
                    }
                }
            });
        }
        let cell = hone_ir::build::mk(
            ExprKind::Index(
                Box::new(hone_ir::build::var(tile, &tile_ty, span)),
                Box::new(hone_ir::build::var(slot, &Type::INT, span)),
            ),
            elem.clone(),
            span,
        );
        let own_element = hone_ir::build::mk(
            ExprKind::Index(
                Box::new(hone_ir::build::var(array, &array_ty, span)),
                Box::new(centre),
            ),
            elem.clone(),
            span,
        );
        let barrier = || Stmt {
            kind: StmtKind::Expr(hone_ir::build::mk(
                ExprKind::Intrinsic(Intrinsic::SyncThreads, Vec::new()),
                Type::Void,
                span,
            )),
            span,
        };
        let mut stmts = vec![
            hone_ir::build::assign_stmt(cell, own_element, span),
            barrier(),
            s,
        ];
        if in_loop {
            stmts.push(barrier());
        }
        block.splice(at..=at, stmts);
        let decl = |var: VarId, init: Option<Expr>| Stmt {
            kind: StmtKind::Decl {
                var,
                init: init.map(hone_ir::Init::Expr),
            },
            span,
        };
        g.body
            .splice(0..0, [decl(tile, None), decl(slot, Some(slot_init))]);
    }
    let text = hone_ir::print::print_module(&annotated);
    let source = cache
        .entry(text.clone())
        .or_insert_with(|| (synth.0)(&text, &ctx.spec.kernel, &ctx.spec.launch).ok())
        .clone()?;
    let parsed = hone_frontend::parse_source(
        &format!("{}.synthesized.cu", ctx.spec.kernel),
        &source,
        &Default::default(),
    )
    .ok()?;
    if parsed.has_errors() {
        return None;
    }
    Some(Candidate {
        pattern: "shared-stencil",
        title: format!(
            "serve the neighbour reads of `{name}` from a shared {bx} x {by} tile (written by hone synth)"
        ),
        explanation: format!(
            "The warps read their neighbours' elements of `{name}`: each request straddles a sector \
             more than its data fills, and the rows next to a warp's are read again by the warps \
             of those rows. Each thread copies its own element into a shared tile of the block; \
             `hone synth` wrote, for every read of `{name}` in the statement, the condition under \
             which its element is in the tile and the index there (found from a profile of this \
             launch and checked on other launches), and the rest read global memory as before. \
             The tile is sized for blocks of {bx} x {by} threads, as in this launch. Where the L1 \
             cache already serves the neighbour reads, the barriers may cost more than the \
             sectors saved: time it (`--measure`)."
        ),
        module: parsed.module,
        layouts: Vec::new(),
    })
}

/// Whether every statement around `path` is a loop whose condition the
/// block agrees on, in a kernel without `return` (but a last one) and loops
/// without `break` or `continue`, so that all threads reach the statement equally often and
/// a barrier before it is safe.
fn uniform_path(ctx: &Ctx, path: &hone_ir::path::Path) -> bool {
    let body = &ctx.func.body;
    // A `return;` closing the kernel leaves nothing for a barrier to wait on.
    let last = body.last().map(|s| s as *const Stmt);
    let mut exits = false;
    hone_ir::path::each_stmt(body, &mut |s, _| {
        exits |= matches!(s.kind, StmtKind::Break | StmtKind::Continue)
            || (matches!(s.kind, StmtKind::Return(_)) && Some(s as *const Stmt) != last);
    });
    if exits {
        return false;
    }
    (1..path.len()).all(|n| {
        if path[n].0 != Child::Body {
            return false;
        }
        match stmt_at(body, &path[..n]).map(|s| &s.kind) {
            Some(StmtKind::For { cond, step, .. }) => {
                cond.as_ref().is_none_or(|c| !ctx.varying.expr(c))
                    && step.as_ref().is_none_or(|c| !ctx.varying.expr(c))
            }
            Some(StmtKind::While { cond, .. }) => !ctx.varying.expr(cond),
            _ => false,
        }
    }) && path.first().is_some_and(|p| p.0 == Child::Root)
}

/// `base`, or `base2`, `base3`, ... where a variable has that name.
fn free_name(f: &hone_ir::Function, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 2;
    while f.vars.iter().any(|v| v.name == name) {
        name = format!("{base}{k}");
        k += 1;
    }
    name
}
