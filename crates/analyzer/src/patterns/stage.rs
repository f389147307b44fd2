//! Staging an array of structures through shared memory, for a load of
//! whole records by thread (`T s = a[blockIdx.x * blockDim.x + threadIdx.x]`,
//! or one member of such a record): consecutive lanes read records
//! `sizeof(T)` bytes apart, so each of the warp's member loads touches a
//! sector per lane. The block's records are contiguous, so the block copies
//! them first, word by word, with consecutive threads reading consecutive
//! words (every sector read once, whole), into a shared array of the same
//! records; after a barrier each thread reads its record there. The data
//! layout does not change.
//!
//! It applies where every thread of the block reaches the load: a statement
//! of the kernel's body itself (not under a branch or loop) with no `return`
//! before it, so the inserted barrier is reached by all, and the words copied
//! are exactly those of the records the block reads anyway. The shared array
//! is sized for the launch's block.

use std::collections::HashMap;

use hone_emulator::AccessKind;
use hone_ir::build::{builtin, cast, index, int_lit, mk, syncthreads, var};
use hone_ir::{
    AddressSpace, ArrayLen, BinaryOp, Builtin, Dim, Expr, ExprKind, Init, PointerType, Span, Stmt,
    StmtKind, Type, Var, VarId, VarKind,
};

use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::shape::{strided, Stride};
use crate::walk::{bin, inline_locals, is_pure, strip, visit_block};

/// Shared memory the staged records may take (of the 48 KiB a block gets
/// without opting in), leaving room for the kernel's own.
const STAGE_BYTES: u64 = 32 * 1024;

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    let [bx, by, bz] = ctx.spec.launch.config.block;
    if site.space != AddressSpace::Global
        || site.kind != AccessKind::Load
        || site.excess_sectors() == 0
        || by != 1
        || bz != 1
    {
        return None;
    }
    let body = &ctx.func.body;
    // The kernel's own statement holding the load, reached by every thread.
    let k = body.iter().position(|s| holds(s, site.span))?;
    if !matches!(body[k].kind, StmtKind::Decl { .. } | StmtKind::Expr(_))
        || body[..k].iter().any(returns)
    {
        return None;
    }
    let load = find(&body[k], site.span)?;
    if conditional(&body[k], site.span) {
        return None;
    }
    let ExprKind::Index(base, idx) = &load.kind else {
        return None;
    };
    let ExprKind::Var(array) = strip(base).kind else {
        return None;
    };
    let record = load.ty.clone();
    let size = record.size()?;
    let array_ty = &ctx.func.var(array).ty;
    if !matches!(record, Type::Struct(_))
        || !array_ty.is_pointer()
        || size % 4 != 0
        || u64::from(bx) * size > STAGE_BYTES
    {
        return None;
    }
    let assigned = assigned(&ctx.func.body);
    if assigned.contains(&array) {
        return None;
    }
    // The index, with the locals it reads replaced by their values: it must
    // be `threadIdx.x` plus what is the same for the whole block.
    let mut inits: HashMap<VarId, Expr> = HashMap::new();
    for s in &body[..k] {
        if let StmtKind::Decl {
            var,
            init: Some(Init::Expr(e)),
        } = &s.kind
        {
            if is_pure(e) && !assigned.contains(var) {
                inits.insert(*var, e.clone());
            }
        }
    }
    let full = inline_locals(idx, &inits)?;
    let shape = strided(&full, &ctx.varying)?;
    if !matches!(shape.stride, Stride::One)
        || !matches!(
            strip(shape.thread).kind,
            ExprKind::Builtin(Builtin::ThreadIdx(Dim::X))
        )
    {
        return None;
    }
    // The block's first record: the index's terms but `threadIdx.x`.
    let mut first: Option<Expr> = None;
    for &(neg, t) in &shape.offset {
        let t = t.clone();
        first = Some(match (first, neg) {
            (None, false) => t,
            (None, true) => bin(BinaryOp::Sub, int_lit(0, t.span), t),
            (Some(acc), false) => bin(BinaryOp::Add, acc, t),
            (Some(acc), true) => bin(BinaryOp::Sub, acc, t),
        });
    }
    let first = first.unwrap_or_else(|| int_lit(0, idx.span));
    if ctx.varying.expr(&first) {
        return None;
    }
    let words = u64::from(bx) * size / 4;
    let per_record = (size / 4) as i64;
    let span = body[k].span;
    let name = ctx.func.var(array).name.clone();
    let load_span = load.span;
    let module = ctx.rewrite(|f| {
        let stage_ty = Type::Array(Box::new(record.clone()), ArrayLen::Const(u64::from(bx)));
        let stage = VarId(f.vars.len() as u32);
        f.vars
            .push(local("stage", &stage_ty, VarKind::Shared, span));
        let w = VarId(f.vars.len() as u32);
        f.vars.push(local("w", &Type::UINT, VarKind::Local, span));
        let word_ptr = |is_const: bool| {
            Type::Pointer(Box::new(PointerType {
                pointee: Type::UINT,
                pointee_const: is_const,
                restrict: false,
                pointee_volatile: false,
            }))
        };
        let tx = || builtin(Builtin::ThreadIdx(Dim::X), span);
        let wv = || var(w, &Type::UINT, span);
        let stage_v = var(stage, &stage_ty, span);
        let src = cast(var(array, array_ty, span), &word_ptr(true));
        let dst = cast(stage_v.clone(), &word_ptr(false));
        // The block's first record, in words.
        let first_word = bin(BinaryOp::Mul, first.clone(), int_lit(per_record, span));
        let copy = hone_ir::build::assign_stmt(
            index(dst, wv()),
            index(src, bin(BinaryOp::Add, first_word, wv())),
            span,
        );
        let step = mk(
            ExprKind::Assign {
                op: Some(BinaryOp::Add),
                lhs: Box::new(wv()),
                rhs: Box::new(builtin(Builtin::BlockDim(Dim::X), span)),
            },
            Type::UINT,
            span,
        );
        let stage_loop = Stmt {
            kind: StmtKind::For {
                init: vec![Stmt {
                    kind: StmtKind::Decl {
                        var: w,
                        init: Some(Init::Expr(tx())),
                    },
                    span,
                }],
                cond: Some(bin(BinaryOp::Lt, wv(), int_lit(words as i64, span))),
                step: Some(step),
                body: vec![copy],
            },
            span,
        };
        let mine = index(stage_v, tx());
        let mut done = false;
        let stmt = &mut f.body[k];
        let mut one = vec![stmt.clone()];
        hone_ir::visit::rewrite_block(&mut one, &mut |x| {
            if !done && x.span == load_span && matches!(x.kind, ExprKind::Index(..)) {
                *x = mine.clone();
                done = true;
            }
        });
        if !done {
            return None;
        }
        *stmt = one.pop()?;
        let decl = Stmt {
            kind: StmtKind::Decl {
                var: stage,
                init: None,
            },
            span,
        };
        f.body
            .splice(k..k, [decl, stage_loop, syncthreads(span)])
            .for_each(drop);
        Some(())
    })?;
    Some(Candidate {
        pattern: "shared-staging",
        title: format!(
            "copy the block's {bx} records of `{name}` to shared memory word by word, then read each thread's there"
        ),
        explanation: format!(
            "Each thread reads its own {size}-byte record of `{name}`, so the lanes of a warp are {size} bytes apart and \
             every member load touches a sector per lane. The block's records are contiguous: copying them first as \
             4-byte words, consecutive threads taking consecutive words, reads each sector once, whole. After a \
             barrier every thread reads its record from the shared copy. The layout of `{name}` does not change; \
             the shared array is sized for blocks of {bx} threads, as in this launch."
        ),
        module,
        moved_to: Some(("stage".to_string(), AddressSpace::Shared)),
        layouts: Vec::new(),
    })
}

fn local(name: &str, ty: &Type, kind: VarKind, span: Span) -> Var {
    Var {
        name: name.into(),
        ty: ty.clone(),
        kind,
        is_const: false,
        is_volatile: false,
        span,
    }
}

/// Whether an expression of `s` has the span `at`.
fn holds(s: &Stmt, at: Span) -> bool {
    find(s, at).is_some()
}

/// The `Index` expression of `s` with the span `at`.
fn find(s: &Stmt, at: Span) -> Option<Expr> {
    let one = vec![s.clone()];
    let mut found = None;
    visit_block(&one, &mut |e| {
        if found.is_none() && e.span == at && matches!(e.kind, ExprKind::Index(..)) {
            found = Some(e.clone());
        }
    });
    found
}

/// Whether the expression at `at` is evaluated only on a condition: an arm
/// of `?:`, or the right side of `&&` or `||`.
fn conditional(s: &Stmt, at: Span) -> bool {
    let one = vec![s.clone()];
    let mut found = false;
    visit_block(&one, &mut |e| {
        let guarded: Vec<&Expr> = match &e.kind {
            ExprKind::Cond(_, a, b) => vec![a, b],
            ExprKind::Binary(BinaryOp::LogicAnd | BinaryOp::LogicOr, _, b) => vec![b],
            _ => return,
        };
        for g in guarded {
            hone_ir::visit::visit_expr(g, &mut |x| found |= x.span == at);
        }
    });
    found
}

/// Whether `s` is or holds a `return`.
fn returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::If { then, els, .. } => {
            then.iter().any(returns) || els.iter().flatten().any(returns)
        }
        StmtKind::For { init, body, .. } => init.iter().chain(body).any(returns),
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => body.iter().any(returns),
        StmtKind::Switch { arms, .. } => arms.iter().flat_map(|a| &a.body).any(returns),
        StmtKind::Block(b) => b.iter().any(returns),
        _ => false,
    }
}

/// Variables some statement assigns after declaring them.
fn assigned(body: &Vec<Stmt>) -> Vec<VarId> {
    let mut out = Vec::new();
    visit_block(body, &mut |e| {
        let target = match &e.kind {
            ExprKind::Assign { lhs, .. } => lhs,
            ExprKind::IncDec { target, .. } => target,
            _ => return,
        };
        if let ExprKind::Var(v) = strip(target).kind {
            out.push(v);
        }
    });
    out
}
