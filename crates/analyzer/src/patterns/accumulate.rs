//! Accumulator in memory: a loop that updates the same element on every
//! trip (`y[row] += A[row * n + j] * x[j]`). The compiled code loads and
//! stores it each time, since another pointer might change that memory
//! between trips. The fix keeps the running value in a local variable: read
//! once before the loop, written once after it. The caller's data and its
//! layout stay as they are.

use hone_emulator::AccessKind;
use hone_ir::path::{each_expr, find_span, stmt_at};
use hone_ir::{AddressSpace, Expr, ExprKind, StmtKind};

use super::loops::{element, localize, loop_around};
use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::walk::strip;

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    if site.repeated.is_none()
        || site.kind != AccessKind::Store
        || site.space != AddressSpace::Global
    {
        return None;
    }
    let body = &ctx.func.body;
    let (assign, path, _) = find_span(body, site.span, &|e| {
        matches!(e.kind, ExprKind::Assign { .. })
    })?;
    let ExprKind::Assign { lhs, .. } = &assign.kind else {
        return None;
    };
    let target: Expr = strip(lhs).clone();
    let (array, index) = element(ctx.func, &target)?;
    let loop_path = loop_around(body, &path)?;
    let the_loop = stmt_at(body, &loop_path)?;
    // Inside the loop the element is reached only as `target`, the index's
    // variables keep their values, and nothing leaves the function or calls
    // code that might reach the array.
    let mut index_vars = Vec::new();
    hone_ir::path::vars_read(index, &mut index_vars);
    let mut safe = true;
    let alone = vec![the_loop.clone()];
    each_expr(&alone, &mut |e, _, _| match &e.kind {
        ExprKind::Index(b, _)
            if matches!(strip(b).kind, ExprKind::Var(v) if v == array) && *e != target =>
        {
            safe = false;
        }
        ExprKind::Var(v) if *v == array => {}
        ExprKind::Assign { lhs, .. } | ExprKind::IncDec { target: lhs, .. } => {
            if matches!(strip(lhs).kind, ExprKind::Var(v) if index_vars.contains(&v) || v == array)
            {
                safe = false;
            }
        }
        ExprKind::Call(..) => safe = false,
        _ => {}
    });
    hone_ir::path::each_stmt(&alone, &mut |s, _| {
        if matches!(s.kind, StmtKind::Return(_)) {
            safe = false;
        }
    });
    if !safe {
        return None;
    }
    let name = ctx.func.var(array).name.clone();
    let module = ctx.rewrite(|f| localize(f, &loop_path, &target, "acc", true))?;
    Some(Candidate {
        pattern: "local-accumulator",
        title: format!("keep the running value of `{name}[...]` in a local variable during the loop"),
        explanation: format!(
            "Every trip of the loop loads and stores the same element of `{name}`: the compiler must \
             assume that another pointer may write there between trips, so it cannot keep the value \
             in a register. Reading it once before the loop, updating a local variable, and storing \
             it once after the loop moves the same data once. Declaring the pointers `__restrict__` \
             tells the compiler the same, where the caller never passes overlapping arrays."
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    })
}
