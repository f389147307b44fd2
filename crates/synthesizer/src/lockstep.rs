//! Statement-level lockstep for the profile run.
//!
//! The thesis profiles with Kani-CUDA, which runs every statement for all
//! threads of a block before the next one. hone's emulator runs a warp up to
//! the next barrier; with blocks of more than one warp a warp can run ahead
//! (say into the next loop trip, overwriting shared memory) before another
//! has read. A barrier after every statement that all threads of a block
//! execute gives back the lockstep view: what a thread reads in shared
//! memory is what every thread has written in the statements before.
//!
//! "All threads execute it" is decided conservatively: control flow whose
//! conditions depend on `threadIdx`, on memory, or on variables computed
//! from those, is thread-dependent, and nothing inside it gets a barrier.

use std::collections::HashSet;

use hone_ir::{Block, Builtin, Expr, ExprKind, Function, Init, Stmt, StmtKind, VarId};

use hone_ir::build::{self, peel};
use hone_ir::path as walk;

/// Variables whose value may differ between the threads of a block.
fn varying_vars(f: &Function) -> HashSet<VarId> {
    let mut varying = HashSet::new();
    loop {
        let before = varying.len();
        scan(&f.body, false, &mut varying);
        if varying.len() == before {
            return varying;
        }
    }
}

fn scan(block: &Block, ctx: bool, varying: &mut HashSet<VarId>) {
    for s in block {
        match &s.kind {
            StmtKind::Decl { var, init } => {
                let v = ctx || init.as_ref().is_some_and(|i| init_varies(i, varying));
                if v {
                    varying.insert(*var);
                }
            }
            StmtKind::If { cond, then, els } => {
                let c = ctx || varies(cond, varying);
                note_assigns(cond, ctx, varying);
                scan(then, c, varying);
                if let Some(e) = els {
                    scan(e, c, varying);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                scan(init, ctx, varying);
                let c = ctx
                    || cond.as_ref().is_some_and(|e| varies(e, varying))
                    || step.as_ref().is_some_and(|e| varies(e, varying))
                    || init.iter().any(|s| stmt_varies(s, varying))
                    || leaves_early(body, varying);
                if let Some(st) = step {
                    note_assigns(st, c, varying);
                }
                scan(body, c, varying);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                let c = ctx || varies(cond, varying) || leaves_early(body, varying);
                scan(body, c, varying);
            }
            StmtKind::Switch { arms, .. } => {
                for a in arms {
                    scan(&a.body, true, varying);
                }
            }
            StmtKind::Block(b) => scan(b, ctx, varying),
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => note_assigns(e, ctx, varying),
            _ => {}
        }
    }
}

fn init_varies(i: &Init, varying: &HashSet<VarId>) -> bool {
    match i {
        Init::Expr(e) => varies(e, varying),
        Init::List(items) => items.iter().any(|i| init_varies(i, varying)),
    }
}

fn stmt_varies(s: &Stmt, varying: &HashSet<VarId>) -> bool {
    walk::stmt_exprs(s)
        .into_iter()
        .any(|(_, e)| varies(e, varying))
}

/// Marks the targets of assignments in `e` varying when the value or the
/// context is.
fn note_assigns(e: &Expr, ctx: bool, varying: &mut HashSet<VarId>) {
    walk::visit(e, &mut |x| {
        let target = match &x.kind {
            ExprKind::Assign { lhs, rhs, .. } => Some((lhs, ctx || varies(rhs, varying))),
            ExprKind::IncDec { target, .. } => Some((target, ctx)),
            _ => None,
        };
        if let Some((t, v)) = target {
            if let ExprKind::Var(id) = peel(t).kind {
                if v {
                    varying.insert(id);
                }
            }
        }
    });
}

/// Whether `e` may differ between threads: it reads `threadIdx`, memory,
/// a varying variable, or calls something.
fn varies(e: &Expr, varying: &HashSet<VarId>) -> bool {
    let mut v = false;
    walk::visit(e, &mut |x| {
        v |= match &x.kind {
            ExprKind::Builtin(Builtin::ThreadIdx(_)) => true,
            ExprKind::Var(id) => varying.contains(id),
            ExprKind::Index(..)
            | ExprKind::Deref(_)
            | ExprKind::Call(..)
            | ExprKind::Intrinsic(..) => true,
            _ => false,
        }
    });
    v
}

/// Whether a loop body can be left by some threads only (a `break`,
/// `continue` or `return` under thread-dependent control).
fn leaves_early(body: &Block, varying: &HashSet<VarId>) -> bool {
    fn go(b: &Block, ctx: bool, varying: &HashSet<VarId>) -> bool {
        b.iter().any(|s| match &s.kind {
            StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) => ctx,
            StmtKind::If { cond, then, els } => {
                let c = ctx || varies(cond, varying);
                go(then, c, varying) || els.as_ref().is_some_and(|e| go(e, c, varying))
            }
            StmtKind::Block(inner) => go(inner, ctx, varying),
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. } => {
                // Their own `break`s stay inside them; a `return` does not.
                returns(body) && ctx
            }
            StmtKind::Switch { .. } => returns(std::slice::from_ref(s)),
            _ => false,
        })
    }
    go(body, false, varying)
}

fn returns(b: &[Stmt]) -> bool {
    let mut r = false;
    for s in b {
        if matches!(s.kind, StmtKind::Return(_)) {
            r = true;
        }
        for (_, inner) in walk::children(s) {
            r |= returns(inner);
        }
    }
    r
}

fn is_barrier(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Intrinsic(hone_ir::Intrinsic::SyncThreads, _)))
}

/// Adds a `__syncthreads()` after every statement all threads of a block
/// run, except after those `skip` accepts (the instrumentation's stores).
/// Returns false, changing nothing, when some thread may leave the kernel
/// early (a `return` under thread-dependent control).
pub fn add_barriers(f: &mut Function, skip: &dyn Fn(&Stmt) -> bool) -> bool {
    let varying = varying_vars(f);
    if leaves_early(&f.body, &varying) {
        return false;
    }
    insert(&mut f.body, &varying, skip);
    true
}

fn insert(block: &mut Block, varying: &HashSet<VarId>, skip: &dyn Fn(&Stmt) -> bool) {
    let mut out = Vec::with_capacity(block.len() * 2);
    for mut s in std::mem::take(block) {
        match &mut s.kind {
            StmtKind::If { cond, then, els } if !varies(cond, varying) => {
                insert(then, varying, skip);
                if let Some(e) = els {
                    insert(e, varying, skip);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let uniform = !cond.as_ref().is_some_and(|e| varies(e, varying))
                    && !step.as_ref().is_some_and(|e| varies(e, varying))
                    && !init.iter().any(|s| stmt_varies(s, varying))
                    && !leaves_early(body, varying);
                if uniform {
                    insert(body, varying, skip);
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond }
                if !varies(cond, varying) && !leaves_early(body, varying) =>
            {
                insert(body, varying, skip);
            }
            StmtKind::Block(b) => insert(b, varying, skip),
            _ => {}
        }
        let after = !(is_barrier(&s)
            || skip(&s)
            || matches!(
                s.kind,
                StmtKind::Break
                    | StmtKind::Continue
                    | StmtKind::Return(_)
                    | StmtKind::Decl { init: None, .. }
            ));
        let span = s.span;
        out.push(s);
        if after {
            out.push(build::syncthreads(span));
        }
    }
    *block = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(src: &str) -> Function {
        let p = hone_frontend::parse_source("k.cu", src, &Default::default()).unwrap();
        p.module.functions[0].clone()
    }

    fn count_barriers(b: &Block) -> usize {
        b.iter()
            .map(|s| {
                is_barrier(s) as usize
                    + walk::children(s)
                        .into_iter()
                        .map(|(_, b)| count_barriers(b))
                        .sum::<usize>()
            })
            .sum()
    }

    #[test]
    fn barriers_go_after_uniform_statements_only() {
        let mut f = kernel(
            "__global__ void k(float *a, int n) {
                int i = threadIdx.x;
                for (int k = 0; k < n; ++k) {
                    a[i] = k;
                    if (i == 0) { a[i] = 1; }
                }
                for (int m = i; m < n; m += 32) { a[m] = 2; }
            }",
        );
        assert!(add_barriers(&mut f, &|_| false));
        // After: `int i`, the k loop, the m loop, and in the k loop's body
        // after `a[i] = k` and after the `if`; none inside the `if` or the
        // thread-dependent m loop.
        assert_eq!(count_barriers(&f.body), 5);
        let StmtKind::For { body, .. } = &f.body[4].kind else {
            panic!("{:?}", f.body[4])
        };
        assert_eq!(count_barriers(body), 0);
    }

    #[test]
    fn early_return_under_thread_dependent_control_disables_it() {
        let mut f = kernel("__global__ void k(float *a, int n) { int i = threadIdx.x; if (i >= n) return; a[i] = 0; }");
        assert!(!add_barriers(&mut f, &|_| false));
    }
}
