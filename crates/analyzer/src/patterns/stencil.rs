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
//! number of times (no `if` around it; only `for` loops around it, whose
//! start, condition and step the whole block agrees on, `threadIdx` in none
//! of them; no `return` but a last one, no `break` or `continue`), and the
//! array one the kernel only reads. The tile is sized for the analysed
//! launch's block, which the fix then needs.

use std::collections::HashMap;

use hone_emulator::AccessKind;
use hone_ir::path::{find_span, parent_block_mut, stmt_at, stmt_exprs, Child, Slot};
use hone_ir::{
    AddressSpace, ArrayLen, BinaryOp, Builtin, Dim, Expr, ExprKind, Stmt, StmtKind, Type, Var,
    VarId, VarKind,
};

use super::loops::{element, free_name, fresh_local, leaves_only_at_end, trap_first, Kept};
use super::{Candidate, Ctx, Rejected, SynthesizerHandle};
use crate::collect::SiteStats;
use crate::shape::{strided, Stride};
use crate::walk::{bin, lit, strip};

/// Synthesized kernels by annotated source, or why there is none: one
/// statement's sites share one.
pub(crate) type Cache = HashMap<String, Result<String, String>>;

/// A candidate, or the reason the synthesizer gave for having none.
pub(crate) fn propose(
    ctx: &Ctx,
    site: &SiteStats,
    synth: &SynthesizerHandle,
    cache: &mut Cache,
) -> (Vec<Candidate>, Vec<Rejected>) {
    let Some(a) = annotate(ctx, site) else {
        return (Vec::new(), Vec::new());
    };
    let title = format!(
        "serve the neighbour reads of `{}` from a shared {} x {} tile (written by hone synth)",
        a.array, a.block[0], a.block[1]
    );
    let written = cache
        .entry(a.text.clone())
        .or_insert_with(|| (synth.0)(&a.text, &ctx.spec.kernel, &ctx.spec.launch))
        .clone()
        .and_then(|source| {
            let name = format!("{}.synthesized.cu", ctx.spec.kernel);
            match hone_frontend::parse_source(&name, &source, &Default::default()) {
                Ok(p) if !p.has_errors() => Ok(p.module),
                Ok(_) => Err("the synthesized kernel does not parse".to_string()),
                Err(e) => Err(e.to_string()),
            }
        });
    let module = match written.and_then(|mut m| {
        guard_block(&mut m, &ctx.spec.kernel, a.block)
            .ok_or_else(|| "the synthesized module has no kernel".to_string())?;
        Ok(m)
    }) {
        Ok(m) => m,
        Err(reason) => {
            let reason = format!("hone synth wrote no kernel: {reason}");
            let pattern = "shared-stencil";
            return (
                Vec::new(),
                vec![Rejected {
                    pattern,
                    title,
                    reason,
                }],
            );
        }
    };
    let (name, [bx, by]) = (&a.array, a.block);
    let candidate = Candidate {
        pattern: "shared-stencil",
        title,
        explanation: format!(
            "The warps read their neighbours' elements of `{name}`: each request straddles a sector \
             more than its data fills, and the rows next to a warp's are read again by the warps \
             of those rows. Each thread copies its own element into a shared tile of the block; \
             `hone synth` wrote, for every read of `{name}` in the statement, the condition under \
             which its element is in the tile and the index there (found from a profile of this \
             launch and checked on other launches), and the rest read global memory as before. \
             The tile is sized for blocks of {bx} x {by} threads, as in this launch: launched \
             with others, the kernel stops with a trap rather than write past it. Where the L1 cache already serves the \
             neighbour reads, the barriers may cost more than the sectors saved: time it \
             (`--measure`)."
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    };
    (vec![candidate], Vec::new())
}

/// Makes the kernel stop with a trap when launched with another block than
/// the one its tile is sized for, where it would write past the tile.
fn guard_block(m: &mut hone_ir::Module, kernel: &str, [bx, by]: [u32; 2]) -> Option<()> {
    trap_first(m, kernel, |span| {
        let differs = |d: Dim, n: u32| {
            bin(
                BinaryOp::Ne,
                hone_ir::build::builtin(Builtin::BlockDim(d), span),
                lit(i64::from(n), span),
            )
        };
        hone_ir::build::logic(BinaryOp::LogicOr, differs(Dim::X, bx), differs(Dim::Y, by))
    })
}

/// The module annotated for the synthesizer at the site's statement.
struct Annotated {
    text: String,
    array: String,
    block: [u32; 2],
}

fn annotate(ctx: &Ctx, site: &SiteStats) -> Option<Annotated> {
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
    // The statement's reads of the array, each with whether it may be
    // skipped (behind `&&`, `||`, `?:`).
    let mut reads: Vec<(&Expr, bool)> = Vec::new();
    for (_, e) in stmt_exprs(stmt) {
        crate::walk::visit_guarded(e, &mut |x, guarded| {
            if let ExprKind::Index(base, _) = &x.kind {
                if matches!(strip(base).kind, ExprKind::Var(v) if v == array) {
                    reads.push((x, guarded));
                }
            }
        });
    }
    // The thread's own element: the one the statement stores, where it has
    // unit stride (a read through a variable, `in[w]`, may look the same
    // and be a neighbour), else a read of the array that always runs, with
    // unit stride and no offset.
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
                .filter(|(_, guarded)| !guarded)
                .filter_map(|(r, _)| element(f, r).map(|(_, i)| i))
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
        let barrier = || hone_ir::build::syncthreads(span);
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
    Some(Annotated {
        text: hone_ir::print::print_module(&annotated),
        array: name,
        block: [bx, by],
    })
}

/// Whether every statement around `path` is a `for` loop whose start,
/// condition and step the whole block agrees on (launch sizes, block
/// indices, parameters no code assigns and the loop's own variable), in a
/// kernel without `return` (but a last one), `break` or `continue`, so that
/// every thread of the block reaches the statement equally often and a
/// barrier before it is safe.
fn uniform_path(ctx: &Ctx, path: &hone_ir::path::Path) -> bool {
    let f = ctx.func;
    let body = &f.body;
    // A `return;` closing the kernel leaves nothing for a barrier to wait on.
    let mut exits = !leaves_only_at_end(body);
    hone_ir::path::each_stmt(body, &mut |s, _| {
        exits |= matches!(s.kind, StmtKind::Break | StmtKind::Continue);
    });
    if exits || path.first().is_none_or(|p| p.0 != Child::Root) {
        return false;
    }
    let kept = Kept::of(f);
    let not_thread = |b: Builtin| !matches!(b, Builtin::ThreadIdx(_));
    let block_wide = |e: &Expr, own: Option<VarId>| {
        kept.made_of_params(e, f, false, &not_thread, &|v| Some(v) == own)
    };
    (1..path.len()).all(|n| {
        if path[n].0 != Child::Body {
            return false;
        }
        let Some(StmtKind::For {
            init, cond, step, ..
        }) = stmt_at(body, &path[..n]).map(|s| &s.kind)
        else {
            return false;
        };
        let own = match init.as_slice() {
            [Stmt {
                kind:
                    StmtKind::Decl {
                        var,
                        init: Some(hone_ir::Init::Expr(start)),
                    },
                ..
            }] if block_wide(start, None) => *var,
            _ => return false,
        };
        let is_own = |e: &Expr| matches!(strip(e).kind, ExprKind::Var(v) if v == own);
        let step_ok = step.as_ref().is_some_and(|s| match &strip(s).kind {
            ExprKind::IncDec { target, .. } => is_own(target),
            ExprKind::Assign { lhs, rhs, .. } => is_own(lhs) && block_wide(rhs, Some(own)),
            _ => false,
        });
        step_ok && cond.as_ref().is_some_and(|c| block_wide(c, Some(own)))
    })
}
