//! A load the loop repeats at the same address (`t -= id[0]` on every trip
//! of a sliding window): the compiled code loads it again each time, since a
//! store through another pointer in the loop might change that memory. The
//! fix loads it once into a local variable before the loop. The caller's
//! data and its layout stay as they are.

use hone_emulator::AccessKind;
use hone_ir::path::{each_expr, find_span, stmt_at};
use hone_ir::{AddressSpace, Expr, ExprKind, Intrinsic};

use super::loops::{element, indexes, keeps, localize, loop_around};
use super::{Candidate, Ctx};
use crate::collect::SiteStats;

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    if site.repeated.is_none()
        || site.kind != AccessKind::Load
        || site.space != AddressSpace::Global
    {
        return None;
    }
    let body = &ctx.func.body;
    let (target, path, _) = find_span(body, site.span, &|e| matches!(e.kind, ExprKind::Index(..)))?;
    let target: Expr = target.clone();
    let (array, index) = element(ctx.func, &target)?;
    let loop_path = loop_around(body, &path)?;
    let the_loop = stmt_at(body, &loop_path)?;
    // Inside the loop the element stays where it is, nothing stores to the
    // array, and no thread waits for others (which may write it between
    // trips).
    let mut safe = keeps(&ctx.spec.module, ctx.func, the_loop, array, &[index]);
    each_expr(&vec![the_loop.clone()], &mut |e, _, _| match &e.kind {
        ExprKind::Assign { lhs, .. } if indexes(lhs, array) => safe = false,
        ExprKind::Intrinsic(
            Intrinsic::SyncThreads
            | Intrinsic::GridSync
            | Intrinsic::SyncWarp
            | Intrinsic::ThreadFence,
            _,
        ) => safe = false,
        _ => {}
    });
    if !safe {
        return None;
    }
    let name = ctx.func.var(array).name.clone();
    let shown = hone_ir::print::print_expr(&ctx.spec.module, ctx.func, &target);
    let module = ctx.rewrite(|f| localize(f, &loop_path, &target, &format!("{name}_v"), false))?;
    Some(Candidate {
        pattern: "hoisted-load",
        title: format!("load `{shown}` once, before the loop"),
        explanation: format!(
            "Every trip of the loop loads the same element of `{name}`: the compiler must assume \
             that a store through another pointer in the loop may change it, so it loads it again \
             each time. Loading it once into a local variable before the loop moves it once. This \
             holds where no other pointer the loop writes through overlaps that element (declaring \
             the pointers `__restrict__` tells the compiler the same), and the element must exist \
             even where the loop makes no trip."
        ),
        module,
        layouts: Vec::new(),
    })
}
