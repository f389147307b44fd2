//! Two nested loops whose threads share the loop that steps along a column:
//! `for (c ..) for (r = threadIdx.x; r < rows; r += blockDim.x) m[r * cols + c]`,
//! so a warp's lanes touch elements a row apart. Where every trip of the two
//! loops touches only its own elements, their order is free, and letting the
//! threads share the other loop (`for (r ..) for (c = threadIdx.x; ..)`)
//! makes the lanes touch consecutive elements. Each pair `(r, c)` is still
//! done exactly once, by another thread. The data layout stays as it is.
//!
//! The shared loop starts at `threadIdx.x` (the block's threads share it,
//! stepping by `blockDim.x`) or at `blockIdx.x * blockDim.x + threadIdx.x`
//! (the grid's, stepping by `blockDim.x * gridDim.x`), plus a start the
//! threads agree on; the other loop steps by one; both count in integers of
//! 32 bits or more. Both bounds are the same for every thread, neither
//! loop's bounds depend on the other's variable, and the body
//!
//! - assigns no variable declared outside it (no sum carried across trips),
//!   and reads nothing that differs between the threads sharing the loops
//!   (`threadIdx.x`, with the grid's threads `blockIdx.x`, or a local made
//!   from them): another thread now runs the trip;
//! - stores to memory only as `a[x * c + y]` (`x`, `y` the loop variables,
//!   `c` at least the number of `y`'s values at the analysed launch), where
//!   every use of `a` in the body is that element, no other pointer the body
//!   uses is derived from the same parameter, and with the grid's threads
//!   `a` is not shared memory: a trip reads and writes only its own
//!   elements;
//! - waits for no other thread and makes no atomic access, shuffle or vote,
//!   calls only functions that write nothing (and are not given a stored
//!   array), and leaves neither loop early.
//!
//! Verification in the emulator (with race detection) checks the rewrite on
//! the launch's inputs and random ones, and the analysis after it whether the
//! lanes now touch consecutive elements.

use std::collections::{HashMap, HashSet};

use hone_emulator::AccessKind;
use hone_ir::path::{each_expr, find_span, parent_block_mut, stmt_at, Child, Path};
use hone_ir::{
    BinaryOp, Block, Builtin, Dim, Expr, ExprKind, Function, Init, Intrinsic, Stmt, StmtKind, Type,
    VarId, VarKind,
};

use super::loops::{
    assigned_in, element_nd, innermost_loop, place_root, writes_through, Kept, CALL_DEPTH,
};
use super::{is_global, Candidate, Ctx};
use crate::collect::SiteStats;
use crate::shape::eval_uniform;
use crate::walk::{bin, inline_locals, int_value, is_pure, lit, strip, visit_block, visit_expr};

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_all(ctx, site).unwrap_or_default()
}

/// Which threads share a loop, from its start.
#[derive(Clone, Copy, PartialEq)]
enum Sharing {
    /// `threadIdx.x`, stepping by `blockDim.x`.
    Block,
    /// `blockIdx.x * blockDim.x + threadIdx.x`, stepping by
    /// `blockDim.x * gridDim.x`.
    Grid,
}

/// `for (T v = init; v < bound; v += step)`, `step` `None` for one.
struct Canonical<'a> {
    var: VarId,
    init: &'a Expr,
    bound: &'a Expr,
    step: Option<&'a Expr>,
    body: &'a Block,
}

fn canonical(s: &Stmt) -> Option<Canonical<'_>> {
    let StmtKind::For {
        init,
        cond: Some(cond),
        step: Some(step),
        body,
    } = &s.kind
    else {
        return None;
    };
    let [Stmt {
        kind: StmtKind::Decl {
            var,
            init: Some(Init::Expr(start)),
        },
        ..
    }] = init.as_slice()
    else {
        return None;
    };
    let is_var = |e: &Expr| matches!(strip(e).kind, ExprKind::Var(v) if v == *var);
    let ExprKind::Binary(BinaryOp::Lt, lhs, bound) = &strip(cond).kind else {
        return None;
    };
    if !is_var(lhs) {
        return None;
    }
    let step = match &strip(step).kind {
        ExprKind::IncDec {
            increment: true,
            target,
            ..
        } if is_var(target) => None,
        ExprKind::Assign {
            op: Some(BinaryOp::Add),
            lhs,
            rhs,
        } if is_var(lhs) => Some(rhs.as_ref()),
        ExprKind::Assign { op: None, lhs, rhs } if is_var(lhs) => match &strip(rhs).kind {
            ExprKind::Binary(BinaryOp::Add, a, b) if is_var(a) => Some(b.as_ref()),
            _ => return None,
        },
        _ => return None,
    };
    let step = step.filter(|e| int_value(e) != Some(1));
    Some(Canonical {
        var: *var,
        init: start,
        bound,
        step,
        body,
    })
}

fn is_builtin(e: &Expr, b: Builtin) -> bool {
    matches!(strip(e).kind, ExprKind::Builtin(x) if x == b)
}

/// `a op b` in either order.
fn pair_of(e: &Expr, op: BinaryOp, a: Builtin, b: Builtin) -> bool {
    match &strip(e).kind {
        ExprKind::Binary(o, x, y) if *o == op => {
            (is_builtin(x, a) && is_builtin(y, b)) || (is_builtin(x, b) && is_builtin(y, a))
        }
        _ => false,
    }
}

/// How the threads share a loop that starts at `t` (locals replaced).
fn sharing(t: &Expr) -> Option<Sharing> {
    if is_builtin(t, Builtin::ThreadIdx(Dim::X)) {
        return Some(Sharing::Block);
    }
    let ExprKind::Binary(BinaryOp::Add, x, y) = &strip(t).kind else {
        return None;
    };
    let global = |a: &Expr, b: &Expr| {
        pair_of(
            a,
            BinaryOp::Mul,
            Builtin::BlockIdx(Dim::X),
            Builtin::BlockDim(Dim::X),
        ) && is_builtin(b, Builtin::ThreadIdx(Dim::X))
    };
    (global(x, y) || global(y, x)).then_some(Sharing::Grid)
}

fn step_fits(step: &Expr, sharing: Sharing) -> bool {
    match sharing {
        Sharing::Block => is_builtin(step, Builtin::BlockDim(Dim::X)),
        Sharing::Grid => pair_of(
            step,
            BinaryOp::Mul,
            Builtin::BlockDim(Dim::X),
            Builtin::GridDim(Dim::X),
        ),
    }
}

/// The start of a shared loop split into the part the threads agree on (none
/// for zero) and the thread's own part, as written.
fn split_start<'e>(
    start: &'e Expr,
    inits: &HashMap<VarId, Expr>,
) -> Option<(Option<&'e Expr>, &'e Expr, Sharing)> {
    let shared = |e: &Expr| sharing(&inline_locals(e, inits)?);
    if let Some(s) = shared(start) {
        return Some((None, start, s));
    }
    let ExprKind::Binary(BinaryOp::Add, a, b) = &strip(start).kind else {
        return None;
    };
    if let Some(s) = shared(b) {
        return Some((Some(a.as_ref()), b.as_ref(), s));
    }
    shared(a).map(|s| (Some(b.as_ref()), a.as_ref(), s))
}

/// Whether `e` is the same for every thread that shares the loops and in
/// every trip: parameters (no pointers), launch sizes and the indices the
/// sharing threads have in common, with neither loop variable (a local) and
/// no memory read.
fn agreed(e: &Expr, f: &Function, kept: &Kept, how: Sharing) -> bool {
    kept.made_of_params(e, f, false, &|b| !thread_builtin(b, how), &|_| false)
}

/// What the trip's checks need to know of the nest.
struct Trip<'a> {
    body: &'a Block,
    loop_vars: [VarId; 2],
    how: Sharing,
    /// The function's locals that keep their initial values.
    kept: &'a Kept,
    /// Each loop variable's number of values at the analysed launch.
    lengths: [Option<i64>; 2],
}

/// Whether the body's trips are independent of each other, of their order
/// and of the thread that runs them (the conditions of the module's
/// description).
fn independent(ctx: &Ctx, trip: &Trip) -> bool {
    let f = ctx.func;
    let body = trip.body;
    let loop_vars = trip.loop_vars;
    // Locals declared in the body, with the initial values of those kept.
    let mut declared = HashSet::new();
    let mut body_inits = HashMap::new();
    hone_ir::path::each_stmt(body, &mut |s, _| {
        if let StmtKind::Decl { var, init } = &s.kind {
            declared.insert(*var);
            if let Some(Init::Expr(e)) = init {
                body_inits.insert(*var, e.clone());
            }
        }
    });
    let reassigned = assigned_in(body);
    body_inits.retain(|v, e| !reassigned.contains(v) && is_pure(e));
    if !leaves_normally(body, false) {
        return false;
    }
    // What a trip reads from outside it must be the same in every thread
    // that shares the loops: another thread now runs the trip. Pointer
    // parameters are, and locals made from them.
    let thread_free = |e: &Expr| {
        trip.kept
            .made_of_params(e, f, true, &|b| !thread_builtin(b, trip.how), &|_| false)
    };
    let same_everywhere =
        |v: VarId| thread_free(&hone_ir::build::var(v, &f.var(v).ty, Default::default()));
    let mut ok = true;
    visit_block(body, &mut |e| match &e.kind {
        ExprKind::Var(v) => {
            ok &= declared.contains(v) || loop_vars.contains(v) || same_everywhere(*v)
        }
        ExprKind::Builtin(b) => ok &= !thread_builtin(*b, trip.how),
        _ => {}
    });
    if !ok {
        return false;
    }
    // Stored arrays, each with the one index (as printed) every access uses.
    let mut stored: HashMap<VarId, Vec<String>> = HashMap::new();
    let print = |e: &Expr| hone_ir::print::print_expr(&ctx.spec.module, f, e);
    let agreed_here = |e: &Expr| {
        inline_locals(e, &body_inits).is_some_and(|e| agreed(&e, f, trip.kept, trip.how))
    };
    each_expr(body, &mut |e, _, _| match &e.kind {
        ExprKind::Assign { lhs: t, .. } | ExprKind::IncDec { target: t, .. } => {
            match place_root(t) {
                // A local of the trip's own, or a member of one.
                Some((v, false)) if declared.contains(&v) => {}
                _ => match element_nd(f, strip(t)) {
                    // A thread's own array would be filled by other threads;
                    // with the grid's threads, a trip moves to another
                    // block, whose shared memory is another.
                    Some((array, indices))
                        if !declared.contains(&array)
                            && (f.var(array).kind != VarKind::Local
                                || f.var(array).ty.is_pointer())
                            && !(trip.how == Sharing::Grid
                                && f.var(array).kind == VarKind::Shared)
                            && indices.len() == 1 =>
                    {
                        // Distinct trips, distinct elements: `x * c + y` with
                        // at least as many elements a row as `y` has values.
                        let injective = inline_locals(indices[0], &body_inits)
                            .and_then(|i| row_major(&i, loop_vars, &agreed_here))
                            .is_some_and(|(c, y)| {
                                let at = loop_vars.iter().position(|v| *v == y);
                                let c = inline_locals(&c, &trip.kept.inits).and_then(|c| {
                                    let l = &ctx.spec.launch;
                                    eval_uniform(&c, f, &l.args, &l.config)
                                });
                                matches!((c, at.and_then(|k| trip.lengths[k])), (Some(c), Some(n)) if c >= n)
                            });
                        ok &= injective;
                        let text: Vec<String> = indices.iter().map(|i| print(i)).collect();
                        match stored.get(&array) {
                            Some(t) if *t != text => ok = false,
                            _ => {
                                stored.insert(array, text);
                            }
                        }
                    }
                    _ => ok = false,
                },
            }
        }
        ExprKind::Call(callee, _) => {
            ok &=
                writes_through(&ctx.spec.module, *callee, CALL_DEPTH).is_some_and(|w| w.is_empty())
        }
        ExprKind::Intrinsic(i, _) => {
            ok &= matches!(i, Intrinsic::Math(_) | Intrinsic::MakeVector);
        }
        _ => {}
    });
    if !ok {
        return false;
    }
    // A stored array appears only as `a[index]` with its store's index (not
    // passed to a call, offset or dereferenced), and no other pointer the
    // trip uses reaches the same memory.
    let mut named = 0usize;
    let mut indexed = 0usize;
    let mut pointers = HashSet::new();
    visit_block(body, &mut |e| match &e.kind {
        ExprKind::Var(v) if stored.contains_key(v) => named += 1,
        ExprKind::Var(v) if f.var(*v).ty.is_pointer() => {
            pointers.insert(*v);
        }
        ExprKind::Index(base, _) => {
            if let (ExprKind::Var(a), Some((_, indices))) = (&strip(base).kind, element_nd(f, e)) {
                if let Some(text) = stored.get(a) {
                    indexed += 1;
                    let here: Vec<String> = indices.iter().map(|i| print(i)).collect();
                    ok &= here == *text;
                }
            }
        }
        _ => {}
    });
    let root = |v: VarId| pointer_root(v, f, &trip.kept.inits);
    for a in stored.keys() {
        let r = root(*a);
        ok &= r.is_some()
            && pointers.iter().all(|p| root(*p) != r)
            && stored.keys().all(|b| b == a || root(*b) != r);
    }
    ok && named == indexed
}

/// The parameter a pointer variable is derived from (itself, or through the
/// kept initial values of locals: `float *mine = m + k`).
fn pointer_root(v: VarId, f: &Function, inits: &HashMap<VarId, Expr>) -> Option<VarId> {
    let mut at = v;
    for _ in 0..16 {
        if f.var(at).kind == VarKind::Param {
            return Some(at);
        }
        let mut next = None;
        visit_expr(inits.get(&at)?, &mut |x| {
            if let ExprKind::Var(p) = x.kind {
                if next.is_none() && f.var(p).ty.is_pointer() {
                    next = Some(p);
                }
            }
        });
        at = next?;
    }
    None
}

/// The builtins that differ between the threads sharing the loops.
fn thread_builtin(b: Builtin, how: Sharing) -> bool {
    matches!(b, Builtin::ThreadIdx(Dim::X))
        || (how == Sharing::Grid && matches!(b, Builtin::BlockIdx(Dim::X)))
}

/// `index` as `x * c + y + d`: one loop variable `y` alone, the other `x`
/// times `c`, `c` and the other terms `d` agreed; gives `(c, y)`.
fn row_major(
    index: &Expr,
    vars: [VarId; 2],
    agreed: &dyn Fn(&Expr) -> bool,
) -> Option<(Expr, VarId)> {
    let mut terms = Vec::new();
    crate::shape::terms(index, false, &mut terms);
    let is = |e: &Expr, v: VarId| matches!(strip(e).kind, ExprKind::Var(x) if x == v);
    let (mut unit, mut scaled) = (None, None);
    for (neg, t) in terms {
        let mut names = Vec::new();
        hone_ir::path::vars_read(t, &mut names);
        let hits: Vec<VarId> = vars.iter().copied().filter(|v| names.contains(v)).collect();
        match hits.as_slice() {
            [] if agreed(t) => {}
            [v] if !neg => match &strip(t).kind {
                ExprKind::Var(_) if is(t, *v) && unit.is_none() => unit = Some(*v),
                ExprKind::Binary(BinaryOp::Mul, a, b) if scaled.is_none() => {
                    let c = if is(a, *v) {
                        b
                    } else if is(b, *v) {
                        a
                    } else {
                        return None;
                    };
                    if !agreed(c) {
                        return None;
                    }
                    scaled = Some((*v, (**c).clone()));
                }
                _ => return None,
            },
            _ => return None,
        }
    }
    let (y, (x, c)) = (unit?, scaled?);
    (x != y).then_some((c, y))
}

/// Whether no statement of `block` leaves the loop it is the body of
/// (`break` outside a nested loop or `switch`, `return`); `continue` ends
/// only the trip.
fn leaves_normally(block: &Block, nested: bool) -> bool {
    block.iter().all(|s| match &s.kind {
        StmtKind::Return(_) => false,
        StmtKind::Break => nested,
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. } => leaves_normally(body, true),
        StmtKind::Switch { arms, .. } => arms.iter().all(|a| leaves_normally(&a.body, true)),
        StmtKind::If { then, els, .. } => {
            leaves_normally(then, nested) && els.as_ref().is_none_or(|e| leaves_normally(e, nested))
        }
        StmtKind::Block(b) => leaves_normally(b, nested),
        _ => true,
    })
}

fn propose_all(ctx: &Ctx, site: &SiteStats) -> Option<Vec<Candidate>> {
    if !is_global(site) || site.excess_sectors() == 0 || site.kind == AccessKind::Atomic {
        return None;
    }
    let body = &ctx.func.body;
    let (_, path, _) = find_span(body, site.span, &|e| {
        matches!(e.kind, ExprKind::Index(..) | ExprKind::Assign { .. })
    })?;
    let inner_path = innermost_loop(body, &path)?;
    let outer_path: Path = inner_path[..inner_path.len() - 1].to_vec();
    if inner_path.last()? != &(Child::Body, 0) || outer_path.is_empty() {
        return None;
    }
    let outer_stmt = stmt_at(body, &outer_path)?;
    let outer = canonical(outer_stmt)?;
    if outer.body.len() != 1 {
        return None;
    }
    let inner = canonical(&outer.body[0])?;
    let kept = Kept::of(ctx.func);
    let inits = &kept.inits;
    // Which loop the threads share; the other steps by one.
    let (shared, serial) = match (
        split_start(outer.init, inits),
        split_start(inner.init, inits),
    ) {
        (None, Some(_)) => (&inner, &outer),
        (Some(_), None) => (&outer, &inner),
        _ => return None,
    };
    let (base, thread_part, how) = split_start(shared.init, inits)?;
    if serial.step.is_some() || !step_fits(&inline_locals(shared.step?, inits)?, how) {
        return None;
    }
    let loop_vars = [shared.var, serial.var];
    let agreed = |e: &Expr| agreed(e, ctx.func, &kept, how);
    if !base.is_none_or(agreed)
        || ![shared.bound, serial.init, serial.bound]
            .into_iter()
            .all(agreed)
    {
        return None;
    }
    // The walk must be strided by the shared loop and run along the other.
    let mut names = Vec::new();
    hone_ir::path::vars_read(&inline_locals(ctx.access(site)?.index, inits)?, &mut names);
    if !names.contains(&serial.var) {
        return None;
    }
    // Both loops count in integers of 32 bits or more: the swapped and
    // merged loops step them by the number of threads.
    let wide = |v: VarId| {
        ctx.func
            .var(v)
            .ty
            .scalar()
            .is_some_and(|s| s.is_integer() && s.size() >= 4)
    };
    if !wide(shared.var) || !wide(serial.var) {
        return None;
    }
    let spec = &ctx.spec.launch;
    let at_launch = |e: &Expr| {
        inline_locals(e, inits).and_then(|e| eval_uniform(&e, ctx.func, &spec.args, &spec.config))
    };
    let length = |bound: &Expr, start: Option<&Expr>| {
        at_launch(bound)?.checked_sub(start.map_or(Some(0), at_launch)?)
    };
    let lengths = [
        length(shared.bound, base),
        length(serial.bound, Some(serial.init)),
    ];
    let trip = Trip {
        body: inner.body,
        loop_vars,
        how,
        kept: &kept,
        lengths,
    };
    if !independent(ctx, &trip) {
        return None;
    }
    let nest = Nest {
        body: inner.body,
        outer_path,
        span: outer_stmt.span,
        inner_span: outer.body[0].span,
        shared,
        serial,
        base,
        thread_part,
        how,
    };
    // Swapped, the threads share the other loop's values: offered where,
    // at the analysed launch, there are as many of them, so that no
    // thread loses its work (a grid sized for the rows would otherwise
    // leave most threads idle). The merged loop keeps every thread busy.
    let as_many = matches!(lengths, [Some(a), Some(b)] if b >= a);
    let swapped = as_many.then(|| interchanged(ctx, &nest)).flatten();
    Some(swapped.into_iter().chain(merged(ctx, &nest)).collect())
}

/// A matched nest: the loop the threads share and the serial one.
struct Nest<'a> {
    /// The inner loop's body, the trip.
    body: &'a Block,
    outer_path: Path,
    span: hone_ir::Span,
    inner_span: hone_ir::Span,
    shared: &'a Canonical<'a>,
    serial: &'a Canonical<'a>,
    base: Option<&'a Expr>,
    thread_part: &'a Expr,
    how: Sharing,
}

impl Nest<'_> {
    fn names(&self, f: &Function) -> (String, String) {
        (
            f.var(self.shared.var).name.clone(),
            f.var(self.serial.var).name.clone(),
        )
    }

    fn who(&self) -> &'static str {
        match self.how {
            Sharing::Block => "block's",
            Sharing::Grid => "grid's",
        }
    }

    /// The module with the nest replaced by the statement `build` makes
    /// (it may add variables to the function).
    fn replaced(
        &self,
        ctx: &Ctx,
        build: impl FnOnce(&mut Function) -> Stmt,
    ) -> Option<hone_ir::Module> {
        let at = self.outer_path.last()?.1;
        ctx.rewrite(|f| {
            let stmt = build(f);
            let block = parent_block_mut(&mut f.body, &self.outer_path)?;
            *block.get_mut(at)? = stmt;
            Some(())
        })
    }
}

fn decl(v: VarId, e: Expr, span: hone_ir::Span) -> Stmt {
    Stmt {
        kind: StmtKind::Decl {
            var: v,
            init: Some(Init::Expr(e)),
        },
        span,
    }
}

/// `v += by`.
fn step_by(f: &Function, v: VarId, by: &Expr, span: hone_ir::Span) -> Expr {
    Expr {
        kind: ExprKind::Assign {
            op: Some(BinaryOp::Add),
            lhs: Box::new(hone_ir::build::var(v, &f.var(v).ty, span)),
            rhs: Box::new(by.clone()),
        },
        ty: f.var(v).ty.clone(),
        span,
    }
}

/// The two loops swapped: the shared loop's variable steps by one from the
/// agreed start, the serial loop's is shared, from its start plus the
/// thread's part.
fn interchanged(ctx: &Ctx, n: &Nest) -> Option<Candidate> {
    let (f, span) = (ctx.func, n.span);
    let var_expr = |v: VarId| hone_ir::build::var(v, &f.var(v).ty, span);
    let new_outer_init = n.base.cloned().unwrap_or_else(|| lit(0, span));
    let new_inner_init = match int_value(n.serial.init) {
        Some(0) => n.thread_part.clone(),
        _ => bin(BinaryOp::Add, n.serial.init.clone(), n.thread_part.clone()),
    };
    let cond = |c: &Canonical| bin(BinaryOp::Lt, var_expr(c.var), c.bound.clone());
    let increment = Expr {
        kind: ExprKind::IncDec {
            increment: true,
            prefix: false,
            target: Box::new(var_expr(n.shared.var)),
        },
        ty: f.var(n.shared.var).ty.clone(),
        span,
    };
    let new_inner = Stmt {
        kind: StmtKind::For {
            init: vec![decl(n.serial.var, new_inner_init, span)],
            cond: Some(cond(n.serial)),
            step: Some(step_by(f, n.serial.var, n.shared.step?, span)),
            body: n.body.clone(),
        },
        span: n.inner_span,
    };
    let new_outer = Stmt {
        kind: StmtKind::For {
            init: vec![decl(n.shared.var, new_outer_init, span)],
            cond: Some(cond(n.shared)),
            step: Some(increment),
            body: vec![new_inner],
        },
        span,
    };
    let module = n.replaced(ctx, |_| new_outer)?;
    let (s, t) = n.names(f);
    let who = n.who();
    Some(Candidate {
        pattern: "loop-interchange",
        title: format!("let the threads share the loop over `{t}`, and walk `{s}` in each thread"),
        explanation: format!(
            "The {who} threads share the loop over `{s}`, so the lanes of a warp are `{s}` apart \
             while each walks `{t}` alone. Every trip of the two loops reads and writes only its \
             own elements, so their order is free: sharing the loop over `{t}` among the same \
             threads and walking `{s}` in each one does every `({s}, {t})` once, and a warp's \
             lanes now touch neighbouring elements. This holds where the arrays the loops read \
             do not overlap those they write (declaring the pointers `__restrict__` says so). \
             Offered where `{t}` takes at least as many values as `{s}` at the analysed launch, \
             so no thread loses its work; where it takes fewer, only the merged loop is."
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    })
}

/// One loop over every pair, shared as the old one was, the serial
/// variable the faster: `for (long long k = t; s_end > s0 && t_end > t0 &&
/// k < (long long)ns * nt; k += step)`
/// with `s = base + k / nt`, `t = start + k % nt`. As many threads have work
/// as before or more, at a division a trip.
fn merged(ctx: &Ctx, n: &Nest) -> Option<Candidate> {
    let (f, span) = (ctx.func, n.span);
    let length = |c: &Canonical, start: Option<&Expr>| match start {
        Some(s) if int_value(s) != Some(0) => bin(BinaryOp::Sub, c.bound.clone(), s.clone()),
        _ => c.bound.clone(),
    };
    let shared_len = length(n.shared, n.base);
    let serial_len = length(n.serial, Some(n.serial.init));
    // The count of pairs runs in 64-bit integers: rows x cols may not fit
    // the loops' own type.
    let ty = Type::Scalar(hone_ir::Scalar::I64);
    let mut body = n.body.clone();
    let from = |start: Option<&Expr>, e: Expr| match start {
        Some(s) if int_value(s) != Some(0) => bin(BinaryOp::Add, s.clone(), e),
        _ => e,
    };
    let (shared_var, serial_var) = (n.shared.var, n.serial.var);
    let (base, serial_start) = (n.base, n.serial.init);
    let (thread_part, step) = (n.thread_part.clone(), n.shared.step?.clone());
    let (shared_bound, serial_bound) = (n.shared.bound.clone(), n.serial.bound.clone());
    let module = n.replaced(ctx, |g| {
        let k = super::loops::fresh_local(g, "k", &ty, span, false);
        let k_expr = hone_ir::build::var(k, &ty, span);
        body.insert(
            0,
            decl(
                serial_var,
                from(
                    Some(serial_start),
                    bin(BinaryOp::Rem, k_expr.clone(), serial_len.clone()),
                ),
                span,
            ),
        );
        body.insert(
            0,
            decl(
                shared_var,
                from(base, bin(BinaryOp::Div, k_expr.clone(), serial_len.clone())),
                span,
            ),
        );
        // No trip where either loop made none (compared, not subtracted:
        // an unsigned length would wrap).
        let nonempty = hone_ir::build::logic(
            BinaryOp::LogicAnd,
            bin(
                BinaryOp::Gt,
                shared_bound,
                base.cloned().unwrap_or_else(|| lit(0, span)),
            ),
            bin(BinaryOp::Gt, serial_bound, serial_start.clone()),
        );
        let wide = Expr {
            kind: ExprKind::Cast {
                implicit: false,
                expr: Box::new(shared_len.clone()),
            },
            ty: ty.clone(),
            span,
        };
        let cond = hone_ir::build::logic(
            BinaryOp::LogicAnd,
            nonempty,
            bin(
                BinaryOp::Lt,
                k_expr.clone(),
                bin(BinaryOp::Mul, wide, serial_len.clone()),
            ),
        );
        Stmt {
            kind: StmtKind::For {
                init: vec![decl(k, thread_part, span)],
                cond: Some(cond),
                step: Some(step_by(g, k, &step, span)),
                body,
            },
            span,
        }
    })?;
    let (s, t) = n.names(f);
    let who = n.who();
    Some(Candidate {
        pattern: "loop-interchange",
        title: format!(
            "merge the two loops into one the threads share, over every (`{s}`, `{t}`), `{t}` the faster"
        ),
        explanation: format!(
            "The {who} threads share the loop over `{s}`, so the lanes of a warp are `{s}` apart \
             while each walks `{t}` alone. Every trip of the two loops reads and writes only its \
             own elements, so their order is free: one loop over every pair, shared by the same \
             threads, with `{t}` from the remainder and `{s}` from the quotient, lets a warp's \
             lanes touch neighbouring elements, and keeps at least as many threads busy as \
             before, at an integer division a trip (the pairs are counted in 64-bit integers). \
             This holds where the arrays the loops read do not overlap those they write \
             (declaring the pointers `__restrict__` says so)."
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    })
}
