//! A load the loop repeats at the same address (`t -= id[0]` on every trip
//! of a sliding window): the compiled code loads it again each time, since a
//! store through another pointer in the loop might change that memory. The
//! fix loads it once into a local variable before the loop. The caller's
//! data and its layout stay as they are.

use hone_emulator::AccessKind;
use hone_ir::path::{each_expr, find_span, stmt_at, Slot};
use hone_ir::{AddressSpace, Expr, ExprKind, Intrinsic, StmtKind, Type, VarId, VarKind};

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
    // Volatile memory is read anew by every load, and a pointer copied or
    // an address taken may let the loop write the element unseen.
    if pointee_volatile(ctx, array) || !only_dereferenced(ctx.func, array) {
        return None;
    }
    // A load in a `for` or `while` condition runs before every trip and the
    // first, where it is not behind `&&`, `||` or `?:` (a `do`'s condition
    // and a `for`'s step run only after a trip, which may leave the loop
    // first). In the body, the statement runs on every trip, the load
    // unguarded within it.
    let loop_path = match slot {
        Slot::LoopHeader => {
            let cond = match &stmt_at(body, &path)?.kind {
                StmtKind::For { cond: Some(c), .. } | StmtKind::While { cond: c, .. } => c,
                _ => return None,
            };
            runs_always(cond, site.span).then_some(path)?
        }
        Slot::Once => {
            let held = stmt_at(body, &path)?;
            let always = hone_ir::path::stmt_exprs(held)
                .iter()
                .any(|(_, e)| runs_always(e, site.span));
            always.then_some(())?;
            loop_around(body, &path)?
        }
    };
    let the_loop = stmt_at(body, &loop_path)?;
    // Inside the loop the element stays where it is, nothing stores to the
    // array, and no thread waits for others (which may write it between
    // trips), unless the kernel writes the array nowhere (its pointer is
    // never copied or passed on, so no thread can: lavaMD's box records,
    // read in a loop with barriers).
    let read_only = ctx.func.name == ctx.spec.kernel && !stored_anywhere(ctx.func, array);
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
        ) if !read_only => safe = false,
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
        moved_to: None,
    })
}

/// Whether the expression at `span` in `e` is evaluated whenever `e` is: not
/// on the right of `&&` or `||`, nor in an arm of `?:`.
fn runs_always(e: &Expr, span: hone_ir::Span) -> bool {
    let mut always = None;
    crate::walk::visit_guarded(e, &mut |x, guarded| {
        let load = matches!(
            x.kind,
            ExprKind::Index(..) | ExprKind::Field(..) | ExprKind::Deref(..)
        );
        if always.is_none() && load && x.span == span {
            always = Some(!guarded);
        }
    });
    always == Some(true)
}

fn pointee_volatile(ctx: &Ctx, array: VarId) -> bool {
    matches!(&ctx.func.var(array).ty, Type::Pointer(p) if p.pointee_volatile)
}

/// Whether `array` is used only to read or write through it (`a[i]`, `*a`,
/// their members), never copied, passed on, or its elements' addresses
/// taken, so that every write to its memory in the function names it.
pub(crate) fn only_dereferenced(f: &hone_ir::Function, array: VarId) -> bool {
    fn walk(e: &Expr, array: VarId, as_base: bool, ok: &mut bool) {
        // Moving the pointer along itself (`id = &id[x]`, `p += k`) makes no
        // second name for its memory.
        if let ExprKind::Assign { op, lhs, rhs } = &e.kind {
            if matches!(strip(lhs).kind, ExprKind::Var(v) if v == array) {
                let own_offset = match (op, &strip(rhs).kind) {
                    // `p += k`, `p -= k`: the right side is the offset.
                    (Some(hone_ir::BinaryOp::Add | hone_ir::BinaryOp::Sub), _) => {
                        Some(rhs.as_ref())
                    }
                    (Some(_), _) => None,
                    (None, rhs) => match rhs {
                        ExprKind::AddrOf(inner) => match &strip(inner).kind {
                            ExprKind::Index(b, i) => {
                                matches!(strip(b).kind, ExprKind::Var(v) if v == array)
                                    .then_some(i.as_ref())
                            }
                            _ => None,
                        },
                        ExprKind::Binary(hone_ir::BinaryOp::Add | hone_ir::BinaryOp::Sub, b, i) => {
                            matches!(strip(b).kind, ExprKind::Var(v) if v == array)
                                .then_some(i.as_ref())
                        }
                        // `p = q`: a second name.
                        _ => None,
                    },
                };
                match own_offset {
                    Some(i) => walk(i, array, false, ok),
                    None => *ok = false,
                }
                return;
            }
        }
        match &e.kind {
            ExprKind::Var(v) if *v == array && !as_base => *ok = false,
            ExprKind::AddrOf(inner) => {
                if place_root(inner).is_none_or(|(v, _)| v == array) {
                    *ok &= place_root(inner).is_some_and(|(v, _)| v != array);
                }
                walk(inner, array, false, ok);
            }
            ExprKind::Index(base, index) => {
                walk(base, array, true, ok);
                walk(index, array, false, ok);
            }
            ExprKind::Deref(inner) => walk(inner, array, true, ok),
            _ => {
                for c in crate::walk::children(e) {
                    walk(c, array, false, ok);
                }
            }
        }
    }
    let mut ok = true;
    hone_ir::path::each_stmt(&f.body, &mut |s, _| {
        for (_, e) in hone_ir::path::stmt_exprs(s) {
            walk(e, array, false, &mut ok);
        }
    });
    ok
}

/// Whether `f` stores to `array`'s memory anywhere (an element, a member of
/// one, `*p`).
pub(crate) fn stored_anywhere(f: &hone_ir::Function, array: VarId) -> bool {
    let mut stored = false;
    each_expr(&f.body, &mut |e, _, _| {
        if let ExprKind::Assign { lhs: t, .. } | ExprKind::IncDec { target: t, .. } = &e.kind {
            stored |= indexes(t, array) || place_root(t) == Some((array, true));
        }
    });
    stored
}
