//! Accumulator in memory: a loop that updates the same element on every
//! trip (`y[row] += A[row * n + j] * x[j]`). The compiled code loads and
//! stores it each time, since another pointer might change that memory
//! between trips. The fix keeps the running value in a local variable: read
//! once before the loop, written once after it. The caller's data and its
//! layout stay as they are.

use hone_emulator::AccessKind;
use hone_ir::path::{each_expr, find_span, parent_block_mut, stmt_at, Child};
use hone_ir::{AddressSpace, Expr, ExprKind, Init, Stmt, StmtKind, Var, VarKind};

use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::walk::{is_pure, rewrite_block, strip};

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn is_loop(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
    )
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
    let ExprKind::Index(base, index) = &target.kind else {
        return None;
    };
    let ExprKind::Var(array) = strip(base).kind else {
        return None;
    };
    if !is_pure(index) || ctx.func.var(array).is_volatile {
        return None;
    }
    // The update must be a statement of the loop's own body, so it runs on
    // every trip (a guarded one may index out of bounds where it does not).
    let loop_path = path[..path.len().checked_sub(1)?].to_vec();
    if path.last()?.0 != Child::Body || loop_path.is_empty() {
        return None;
    }
    let the_loop = stmt_at(body, &loop_path)?;
    if !is_loop(the_loop) {
        return None;
    }
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
    let span = the_loop.span;
    let module = ctx.rewrite(|f| {
        let acc = hone_ir::VarId(f.vars.len() as u32);
        let taken = |n: &str| f.vars.iter().any(|v| v.name == n);
        let mut acc_name = "acc".to_string();
        let mut k = 2;
        while taken(&acc_name) {
            acc_name = format!("acc{k}");
            k += 1;
        }
        f.vars.push(Var {
            name: acc_name,
            ty: target.ty.clone(),
            kind: VarKind::Local,
            is_const: false,
            is_volatile: false,
            span,
        });
        let local = hone_ir::build::var(acc, &target.ty, target.span);
        let (parent_path, at) = (loop_path.clone(), loop_path.last()?.1);
        let block = parent_block_mut(&mut f.body, &parent_path)?;
        let mut looped = vec![block.get(at)?.clone()];
        rewrite_block(&mut looped, &mut |e| {
            if *e == target {
                *e = local.clone();
            }
        });
        let load = Stmt {
            kind: StmtKind::Decl {
                var: acc,
                init: Some(Init::Expr(target.clone())),
            },
            span,
        };
        let store = hone_ir::build::assign_stmt(target.clone(), local.clone(), span);
        block.splice(at..=at, [load, looped.pop()?, store]);
        Some(())
    })?;
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
    })
}
