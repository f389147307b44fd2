//! Warp-cooperative row walks, for a thread that sums a row of a matrix
//! (`for (j = 0; j < n; j++) acc += A[row * n + j] * x[j]`, one row per
//! thread): the 32 lanes of a warp read 32 rows a row apart at every step.
//! The fix lets the whole warp walk each of its 32 rows in turn, lane `l`
//! taking columns `l, l + 32, ...` so every step reads 32 consecutive
//! elements, sums the lanes' parts with shuffles, and hands each row's sum
//! to the lane that owned the row, which goes on as before. The launch and
//! the data layout do not change; the sum is formed in another order, so the
//! rewrite is verified to agree up to rounding.
//!
//! It applies to kernels of one-dimensional blocks of whole warps whose body
//! is declarations of values (the row, derived from the thread index) and
//! then one `if` (the bounds check) whose branch declares the accumulator,
//! runs the loop and uses the sum.

use std::collections::HashMap;

use hone_emulator::AccessKind;
use hone_ir::build::{builtin, int_lit, mk, var};
use hone_ir::{
    AddressSpace, BinaryOp, Builtin, Dim, Expr, ExprKind, Init, Intrinsic, Scalar, ShflKind, Span,
    Stmt, StmtKind, Type, Var, VarId, VarKind,
};

use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::shape::{strided, Stride};
use crate::walk::{bin, inline_locals, is_pure, rewrite_expr, strip, visit_block};

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

/// The loop found: where it sits and what it sums.
struct RowLoop {
    /// Index of the statement of the body holding it.
    top: usize,
    /// Whether that statement is an `if` (the loop is in its branch).
    guarded: bool,
    /// Index of the loop in its block.
    at: usize,
    acc: VarId,
    acc_ty: Type,
    j: VarId,
    j_ty: Type,
    start: Expr,
    end: Expr,
    term: Expr,
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    let [bx, by, bz] = ctx.spec.launch.config.block;
    if site.space != AddressSpace::Global
        || site.kind != AccessKind::Load
        || site.excess_sectors() == 0
        || by != 1
        || bz != 1
        || bx % 32 != 0
    {
        return None;
    }
    let body = &ctx.func.body;
    let found = find_loop(body, site.span)?;
    // The values the loop's parts read, with the locals replaced by their
    // definitions, so they can be formed for another lane's row.
    let mut inits: HashMap<VarId, Expr> = HashMap::new();
    for s in &body[..found.top] {
        match &s.kind {
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(e)),
            } if is_pure(e) => {
                inits.insert(*var, e.clone());
            }
            _ => return None,
        }
    }
    if assigns_any(body, &inits) {
        return None;
    }
    let term = inline_locals(&found.term, &inits)?;
    // The site must walk rows: consecutive lanes a row apart.
    let mut walks = false;
    hone_ir::visit::visit_expr(&found.term, &mut |e| {
        if e.span == site.span {
            if let ExprKind::Index(_, idx) = &e.kind {
                let full = inline_locals(idx, &inits);
                walks |= full
                    .as_ref()
                    .and_then(|f| strided(f, &ctx.varying))
                    .is_some_and(|s| !matches!(s.stride, Stride::One));
            }
        }
    });
    if !walks {
        return None;
    }
    let cond = if found.guarded {
        let StmtKind::If { cond, .. } = &body[found.top].kind else {
            return None;
        };
        Some(inline_locals(cond, &inits)?)
    } else {
        None
    };
    let start = inline_locals(&found.start, &inits)?;
    let end = inline_locals(&found.end, &inits)?;
    // The warp walks its rows' columns together: the same for every row.
    if ctx.varying.expr(&start) || ctx.varying.expr(&end) {
        return None;
    }
    let span = body[found.top].span;
    let name = ctx.func.var(found.acc).name.clone();
    let module = ctx.rewrite(|f| {
        let new_var = |f: &mut hone_ir::Function, name: &str, ty: &Type| {
            let id = VarId(f.vars.len() as u32);
            f.vars.push(Var {
                name: name.into(),
                ty: ty.clone(),
                kind: VarKind::Local,
                is_const: false,
                is_volatile: false,
                span,
            });
            id
        };
        let int = Type::INT;
        let mine = new_var(f, "mine", &found.acc_ty);
        // One accumulator per row of the warp, in registers: the loops over
        // the rows are written out.
        let parts: Vec<VarId> = (0..32)
            .map(|r| new_var(f, &format!("part{r}"), &found.acc_ty))
            .collect();
        let j2 = new_var(f, "j", &found.j_ty);
        let o = new_var(f, "o", &int);
        let v = |id: VarId, ty: &Type| var(id, ty, span);
        let tx = || builtin(Builtin::ThreadIdx(Dim::X), span);
        let lane = || bin(BinaryOp::Rem, tx(), int_lit(32, span));
        // An expression of the thread that owns the warp's row r.
        let for_owner = |e: &Expr, r: i64| {
            let owner = bin(
                BinaryOp::Add,
                bin(BinaryOp::Sub, tx(), lane()),
                int_lit(r, span),
            );
            let mut e = e.clone();
            rewrite_expr(&mut e, &mut |x| {
                if matches!(x.kind, ExprKind::Builtin(Builtin::ThreadIdx(Dim::X))) {
                    *x = owner.clone();
                }
                if x.kind == ExprKind::Var(found.j) {
                    *x = v(j2, &found.j_ty);
                }
            });
            e
        };
        let zero = || cast_to(int_lit(0, span), &found.acc_ty);
        let decl = |id: VarId, init: Option<Expr>| Stmt {
            kind: StmtKind::Decl {
                var: id,
                init: init.map(Init::Expr),
            },
            span,
        };
        let stmt = |e: Expr| Stmt {
            kind: StmtKind::Expr(e),
            span,
        };
        let add_to = |target: Expr, e: Expr| {
            let ty = target.ty.clone();
            stmt(mk(
                ExprKind::Assign {
                    op: Some(BinaryOp::Add),
                    lhs: Box::new(target),
                    rhs: Box::new(cast_to(e, &ty)),
                },
                ty,
                span,
            ))
        };
        let acc = |id: VarId| v(id, &found.acc_ty);
        // Every lane adds its columns of each of the warp's rows: 32
        // independent coalesced loads per step.
        let adds: Vec<Stmt> = parts
            .iter()
            .enumerate()
            .map(|(r, &p)| {
                let add = add_to(acc(p), for_owner(&term, r as i64));
                match &cond {
                    Some(c) => Stmt {
                        kind: StmtKind::If {
                            cond: for_owner(c, r as i64),
                            then: vec![add],
                            els: None,
                        },
                        span,
                    },
                    None => add,
                }
            })
            .collect();
        let walk = Stmt {
            kind: StmtKind::For {
                init: vec![decl(
                    j2,
                    Some(cast_to(
                        bin(BinaryOp::Add, start.clone(), lane()),
                        &found.j_ty,
                    )),
                )],
                cond: Some(bin(BinaryOp::Lt, v(j2, &found.j_ty), end.clone())),
                step: Some(mk(
                    ExprKind::Assign {
                        op: Some(BinaryOp::Add),
                        lhs: Box::new(v(j2, &found.j_ty)),
                        rhs: Box::new(cast_to(int_lit(32, span), &found.j_ty)),
                    },
                    found.j_ty.clone(),
                    span,
                )),
                body: adds,
            },
            span,
        };
        // Each row's sum over the lanes, kept by the row's owner.
        let mut gather = Vec::new();
        for (r, &p) in parts.iter().enumerate() {
            let shfl = mk(
                ExprKind::Intrinsic(
                    Intrinsic::Shfl(ShflKind::Xor),
                    vec![
                        mk(ExprKind::IntLit(0xffff_ffff), Type::UINT, span),
                        acc(p),
                        v(o, &int),
                    ],
                ),
                found.acc_ty.clone(),
                span,
            );
            let halve = mk(
                ExprKind::Assign {
                    op: Some(BinaryOp::Shr),
                    lhs: Box::new(v(o, &int)),
                    rhs: Box::new(int_lit(1, span)),
                },
                int.clone(),
                span,
            );
            gather.push(Stmt {
                kind: StmtKind::For {
                    init: vec![decl(o, Some(int_lit(16, span)))],
                    cond: Some(bin(BinaryOp::Gt, v(o, &int), int_lit(0, span))),
                    step: Some(halve),
                    body: vec![add_to(acc(p), shfl)],
                },
                span,
            });
            gather.push(Stmt {
                kind: StmtKind::If {
                    cond: bin(BinaryOp::Eq, lane(), int_lit(r as i64, span)),
                    then: vec![stmt(hone_ir::build::assign(acc(mine), acc(p), span))],
                    els: None,
                },
                span,
            });
        }
        // The owner adds the row's sum where its loop was.
        let block = match &mut f.body[found.top].kind {
            StmtKind::If { then, .. } => then,
            _ => return None,
        };
        block[found.at] = add_to(acc(found.acc), acc(mine));
        let mut head = vec![decl(mine, Some(zero()))];
        head.extend(parts.iter().map(|&p| decl(p, Some(zero()))));
        head.push(walk);
        head.extend(gather);
        f.body.splice(found.top..found.top, head).for_each(drop);
        Some(())
    })?;
    Some(Candidate {
        pattern: "warp-row",
        title: format!("let each warp walk its 32 rows in turn, summing `{name}` across the lanes"),
        explanation: format!(
            "Each thread sums one row into `{name}`, so at every step the 32 lanes of a warp read 32 elements a row \
             apart, one sector each. Walking the warp's rows one at a time with the whole warp, lane l taking \
             elements l, l + 32, ..., makes every step read 32 consecutive elements; the lanes' parts are added \
             with shuffles and the row's owner continues with the sum. The launch and the data layout do not \
             change. The sum is formed in another order, so results may differ in the last bits."
        ),
        module,
        layouts: Vec::new(),
        reassociates: true,
    })
}

fn cast_to(e: Expr, ty: &Type) -> Expr {
    hone_ir::build::conv(e, ty)
}

/// The row loop holding the site: a statement of the body, or in the branch
/// of an `if` that is one, summing a local into an accumulator.
fn find_loop(body: &[Stmt], at: Span) -> Option<RowLoop> {
    let holds = |s: &Stmt| {
        let one = vec![s.clone()];
        let mut found = false;
        visit_block(&one, &mut |e| found |= e.span == at);
        found
    };
    let top = body.iter().position(holds)?;
    // Nothing after the statement: the sum is used inside it.
    if top + 1 != body.len() {
        return None;
    }
    let (block, guarded) = match &body[top].kind {
        StmtKind::If {
            then, els: None, ..
        } => (then.as_slice(), true),
        _ => return None,
    };
    let at_loop = block.iter().position(holds)?;
    let StmtKind::For {
        init,
        cond: Some(cond),
        step: Some(step),
        body: loop_body,
    } = &block[at_loop].kind
    else {
        return None;
    };
    // for (j = start; j < end; j++)
    let (j, start) = match init.as_slice() {
        [Stmt {
            kind:
                StmtKind::Decl {
                    var,
                    init: Some(Init::Expr(e)),
                },
            ..
        }] => (*var, e.clone()),
        _ => return None,
    };
    let ExprKind::Binary(BinaryOp::Lt, lhs, end) = &strip(cond).kind else {
        return None;
    };
    if strip(lhs).kind != ExprKind::Var(j) || !is_pure(end) {
        return None;
    }
    let unit_step = match &step.kind {
        ExprKind::IncDec {
            increment: true,
            target,
            ..
        } => strip(target).kind == ExprKind::Var(j),
        _ => false,
    };
    if !unit_step {
        return None;
    }
    // acc += term;
    let [Stmt {
        kind:
            StmtKind::Expr(Expr {
                kind:
                    ExprKind::Assign {
                        op: Some(BinaryOp::Add),
                        lhs: acc,
                        rhs: term,
                    },
                ty: acc_ty,
                ..
            }),
        ..
    }] = loop_body.as_slice()
    else {
        return None;
    };
    let ExprKind::Var(acc) = strip(acc).kind else {
        return None;
    };
    if !matches!(
        acc_ty,
        Type::Scalar(Scalar::F32 | Scalar::F64 | Scalar::I32)
    ) || !is_pure(term)
    {
        return None;
    }
    // The accumulator is a local of the branch, declared before the loop.
    let declared = block[..at_loop]
        .iter()
        .any(|s| matches!(&s.kind, StmtKind::Decl { var, .. } if *var == acc));
    if !declared {
        return None;
    }
    let mut reads_acc = false;
    hone_ir::visit::visit_expr(term, &mut |e| reads_acc |= e.kind == ExprKind::Var(acc));
    if reads_acc {
        return None;
    }
    let j_ty = match init.as_slice() {
        [s] => match &s.kind {
            StmtKind::Decl { .. } => start.ty.clone(),
            _ => return None,
        },
        _ => return None,
    };
    Some(RowLoop {
        top,
        guarded,
        at: at_loop,
        acc,
        acc_ty: acc_ty.clone(),
        j,
        j_ty,
        start,
        end: (**end).clone(),
        term: (**term).clone(),
    })
}

/// Whether any statement assigns one of the locals of `inits`.
fn assigns_any(body: &Vec<Stmt>, inits: &HashMap<VarId, Expr>) -> bool {
    let mut found = false;
    visit_block(body, &mut |e| {
        let target = match &e.kind {
            ExprKind::Assign { lhs, .. } => lhs,
            ExprKind::IncDec { target, .. } => target,
            _ => return,
        };
        if let ExprKind::Var(v) = strip(target).kind {
            found |= inits.contains_key(&v);
        }
    });
    found
}
