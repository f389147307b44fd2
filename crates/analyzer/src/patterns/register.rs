//! A thread's own element of a shared array, updated on every trip of a loop
//! with barriers (`data[tid] += data[tid + stride]` in a tree reduction):
//! the other threads read it after each barrier, so it must be stored each
//! time, but the compiled code also loads it back each time. The fix keeps a
//! copy in a local variable: read once before the loop, updated with every
//! store, and read instead of the shared element.

use hone_emulator::AccessKind;
use hone_ir::path::{each_expr, find_span, stmt_at};
use hone_ir::{AddressSpace, Expr, ExprKind, Function, StmtKind, VarKind};

use super::loops::{element_nd, fresh_local, indexes, innermost_loop, keeps};
use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::walk::strip;

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    if site.repeated.is_none()
        || site.kind != AccessKind::Load
        || site.space != AddressSpace::Shared
    {
        return None;
    }
    let body = &ctx.func.body;
    let (found, path, _) = find_span(body, site.span, &|e| {
        matches!(
            e.kind,
            ExprKind::Index(..) | ExprKind::Assign { op: Some(_), .. }
        )
    })?;
    let target: Expr = match &found.kind {
        ExprKind::Assign { lhs, .. } => strip(lhs).clone(),
        _ => found.clone(),
    };
    let (array, indices) = element_nd(ctx.func, &target)?;
    // The element is the thread's own: its index differs between lanes.
    if ctx.func.var(array).kind != VarKind::Shared || !indices.iter().any(|i| ctx.varying.expr(i)) {
        return None;
    }
    let loop_path = innermost_loop(body, &path)?;
    let the_loop = stmt_at(body, &loop_path)?;
    // In the loop the element stays where it is and the array is written only
    // there (so no thread writes another's), by assignment.
    let text = |f: &Function, e: &Expr| hone_ir::print::print_expr(&ctx.spec.module, f, e);
    let shown = text(ctx.func, &target);
    let mut safe = keeps(&ctx.spec.module, ctx.func, the_loop, array, &indices);
    each_expr(&vec![the_loop.clone()], &mut |e, _, _| {
        if let ExprKind::Assign { lhs, .. } = &e.kind {
            if indexes(lhs, array) && text(ctx.func, strip(lhs)) != shown {
                safe = false;
            }
        }
    });
    if !safe {
        return None;
    }
    let name = ctx.func.var(array).name.clone();
    let module = ctx.rewrite(|f| {
        let span = stmt_at(&f.body, &loop_path)?.span;
        let var = fresh_local(f, &format!("{name}_r"), &target.ty, span, false);
        let local = hone_ir::build::var(var, &target.ty, target.span);
        let names = f.clone();
        let at = loop_path.last()?.1;
        let block = hone_ir::path::parent_block_mut(&mut f.body, &loop_path)?;
        let mut looped = vec![block.get(at)?.clone()];
        // Bottom-up: the element becomes the copy, then each assignment to
        // the copy also stores it to the element.
        crate::walk::rewrite_block(&mut looped, &mut |e| {
            if matches!(e.kind, ExprKind::Index(..)) && text(&names, e) == shown {
                *e = local.clone();
            } else if matches!(&e.kind, ExprKind::Assign { lhs, .. } if **lhs == local) {
                *e = hone_ir::build::assign(target.clone(), e.clone(), e.span);
            }
        });
        let load = hone_ir::Stmt {
            kind: StmtKind::Decl {
                var,
                init: Some(hone_ir::Init::Expr(target.clone())),
            },
            span,
        };
        block.splice(at..=at, [load, looped.pop()?]);
        Some(())
    })?;
    Some(Candidate {
        pattern: "register-copy",
        title: format!("keep a copy of `{shown}` in a local variable during the loop"),
        explanation: format!(
            "Every trip of the loop reads this thread's element of `{name}` back from shared memory, \
             although only this thread writes it. The other threads read it after each barrier, \
             so every update is still stored, but a local copy updated with each store serves \
             this thread's reads."
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    })
}
