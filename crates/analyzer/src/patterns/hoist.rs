//! A load the loop repeats at the same address (`t -= id[0]` on every trip
//! of a sliding window): the compiled code loads it again each time, since a
//! store through another pointer in the loop might change that memory. The
//! fix loads it once into a local variable before the loop. The caller's
//! data and its layout stay as they are.

use hone_emulator::AccessKind;
use hone_ir::path::{each_expr, find_span, stmt_at, Slot};
use hone_ir::{AddressSpace, Expr, ExprKind, Intrinsic, StmtKind, VarKind};

use super::loops::{element, indexes, keeps, localize, loop_around, place_root};
use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::walk::strip;

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
    // An element (`a[i]`), a member of one (`nodes[tid].starting`), or what
    // a pointer parameter points to (`*factor`, element 0).
    let (target, path, slot) = find_span(body, site.span, &|e| {
        matches!(
            e.kind,
            ExprKind::Index(..) | ExprKind::Field(..) | ExprKind::Deref(..)
        )
    })?;
    let target: Expr = target.clone();
    let zero = crate::walk::lit(0, target.span);
    let mut inner = &target;
    while let ExprKind::Field(record, _) = &inner.kind {
        inner = strip(record);
    }
    let (array, index) = match &inner.kind {
        ExprKind::Deref(p) => match strip(p).kind {
            ExprKind::Var(v) if ctx.func.var(v).kind == VarKind::Param => (v, &zero),
            _ => return None,
        },
        _ => element(ctx.func, inner)?,
    };
    // A load in a `for` or `while` loop's condition or step runs on every
    // trip and before the first (a `do`'s only after a trip, which may leave
    // the loop first).
    let loop_path = match slot {
        Slot::LoopHeader => {
            let s = stmt_at(body, &path)?;
            matches!(s.kind, StmtKind::For { .. } | StmtKind::While { .. }).then_some(path)?
        }
        Slot::Once => loop_around(body, &path)?,
    };
    let the_loop = stmt_at(body, &loop_path)?;
    // Inside the loop the element stays where it is, nothing stores to the
    // array, and no thread waits for others (which may write it between
    // trips).
    let mut safe = keeps(&ctx.spec.module, ctx.func, the_loop, array, &[index]);
    each_expr(&vec![the_loop.clone()], &mut |e, _, _| match &e.kind {
        // A store to the array's memory: an element, a member of one, `*p`.
        ExprKind::Assign { lhs: t, .. } | ExprKind::IncDec { target: t, .. }
            if indexes(t, array) || place_root(t) == Some((array, true)) =>
        {
            safe = false
        }
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
