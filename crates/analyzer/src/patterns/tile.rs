//! Staging through shared memory, for a store that walks a column (a
//! transpose: `out[x * n + y] = value` with `x` varying across the lanes).
//! Every thread first puts its value in a tile, `tile[threadIdx.y][threadIdx.x]`;
//! after a barrier, the threads of the block write the tile's elements out in
//! the transposed order, so a warp writes whole runs of `blockDim.y`
//! consecutive elements instead of 32 scattered ones. The new thread
//! `t = 32 threadIdx.y + threadIdx.x` writes the element of the old thread
//! `(t / blockDim.y, t % blockDim.y)`, whose index is the old index with
//! `threadIdx.x`, `threadIdx.y` replaced. The tile rows are padded with
//! `32 / blockDim.y` words so both tile accesses are free of bank conflicts.
//! The data layout does not change. It applies to kernels whose body is
//! declarations followed by that one store, launched with blocks of 32 x B
//! threads, B dividing 32.

use std::collections::HashMap;

use hone_ir::{
    ArrayLen, BinaryOp, Builtin, Dim, Expr, ExprKind, Init, Intrinsic, Span, Stmt, StmtKind, Type,
    Var, VarId, VarKind,
};

use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::shape::{strided, Stride};
use crate::walk::{bin, inline_locals, is_pure, lit, rewrite_expr, strip};

fn builtin(b: Builtin, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Builtin(b),
        ty: Type::UINT,
        span,
    }
}

fn index(base: Expr, i: Expr, ty: Type) -> Expr {
    let span = base.span;
    Expr {
        kind: ExprKind::Index(Box::new(base), Box::new(i)),
        ty,
        span,
    }
}

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    let [bx, by, bz] = ctx.spec.launch.config.block;
    if site.space != hone_ir::AddressSpace::Global
        || site.kind != hone_emulator::AccessKind::Store
        || bx != 32
        || bz != 1
        || by < 2
        || 32 % by != 0
    {
        return None;
    }
    let body = &ctx.func.body;
    let (last, decls) = body.split_last()?;
    let StmtKind::Expr(store) = &last.kind else {
        return None;
    };
    let ExprKind::Assign { op: None, lhs, rhs } = &store.kind else {
        return None;
    };
    if store.span != site.span || !is_pure(rhs) {
        return None;
    }
    let lhs = strip(lhs);
    let ExprKind::Index(dst, dst_index) = &lhs.kind else {
        return None;
    };
    // The store must walk a column: consecutive lanes a row apart.
    let shape = strided(dst_index, &ctx.varying)?;
    if matches!(shape.stride, Stride::One) {
        return None;
    }
    let mut inits = HashMap::new();
    for s in decls {
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
    // Locals must keep their initial values: the store is the only statement
    // after the declarations and assigns none of them.
    if inits.contains_key(&match strip(dst).kind {
        ExprKind::Var(v) => v,
        _ => return None,
    }) {
        return None;
    }
    let elem = lhs.ty.clone();
    let span = store.span;
    // t = threadIdx.y * 32 + threadIdx.x, a new local; the old thread (t / by, t % by).
    let t_id = VarId(ctx.func.vars.len() as u32 + 1);
    let t_init = bin(
        BinaryOp::Add,
        bin(
            BinaryOp::Mul,
            builtin(Builtin::ThreadIdx(Dim::Y), span),
            lit(32, span),
        ),
        builtin(Builtin::ThreadIdx(Dim::X), span),
    );
    let t = Expr {
        kind: ExprKind::Var(t_id),
        ty: t_init.ty.clone(),
        span,
    };
    let old_x = bin(BinaryOp::Div, t.clone(), lit(i64::from(by), span));
    let old_y = bin(BinaryOp::Rem, t, lit(i64::from(by), span));
    let mut new_index = inline_locals(dst_index, &inits)?;
    rewrite_expr(&mut new_index, &mut |x| match x.kind {
        ExprKind::Builtin(Builtin::ThreadIdx(Dim::X)) => *x = old_x.clone(),
        ExprKind::Builtin(Builtin::ThreadIdx(Dim::Y)) => *x = old_y.clone(),
        _ => {}
    });

    let pad = u64::from(32 / by);
    let row_ty = Type::Array(Box::new(elem.clone()), ArrayLen::Const(32 + pad));
    let tile_ty = Type::Array(Box::new(row_ty.clone()), ArrayLen::Const(u64::from(by)));
    let dst_expr = (**dst).clone();
    let module = ctx.rewrite(|f| {
        let tile = f.add_var(Var::new("tile", tile_ty.clone(), VarKind::Shared, span));
        let tile_var = Expr {
            kind: ExprKind::Var(tile),
            ty: tile_ty.clone(),
            span,
        };
        let cell = |row: Expr, col: Expr| {
            index(
                index(tile_var.clone(), row, row_ty.clone()),
                col,
                elem.clone(),
            )
        };
        let assign = |l: Expr, r: Expr| Stmt {
            kind: StmtKind::Expr(Expr {
                ty: l.ty.clone(),
                kind: ExprKind::Assign {
                    op: None,
                    lhs: Box::new(l),
                    rhs: Box::new(r),
                },
                span,
            }),
            span,
        };
        let put = assign(
            cell(
                builtin(Builtin::ThreadIdx(Dim::Y), span),
                builtin(Builtin::ThreadIdx(Dim::X), span),
            ),
            (**rhs).clone(),
        );
        let barrier = Stmt {
            kind: StmtKind::Expr(Expr {
                kind: ExprKind::Intrinsic(Intrinsic::SyncThreads, Vec::new()),
                ty: Type::Void,
                span,
            }),
            span,
        };
        let write = assign(
            index(dst_expr.clone(), new_index.clone(), elem.clone()),
            cell(old_y.clone(), old_x.clone()),
        );
        f.body.pop();
        f.body.insert(
            0,
            Stmt {
                kind: StmtKind::Decl {
                    var: tile,
                    init: None,
                },
                span,
            },
        );
        let added = f.add_var(Var::new("t", t_init.ty.clone(), VarKind::Local, span));
        debug_assert_eq!(added, t_id, "`t` follows `tile`");
        let t_decl = Stmt {
            kind: StmtKind::Decl {
                var: t_id,
                init: Some(Init::Expr(t_init.clone())),
            },
            span,
        };
        f.body.extend([put, barrier, t_decl, write]);
        Some(())
    })?;
    let name = ctx.func.var(match strip(dst).kind {
        ExprKind::Var(v) => v,
        _ => return None,
    });
    Some(Candidate {
        pattern: "shared-tile",
        title: format!(
            "stage the values through a shared {by} x {} tile and write `{}` in transposed order",
            32 + pad,
            name.name
        ),
        explanation: format!(
            "The 32 lanes of a warp store 32 elements of `{}` a row apart, one sector each. Putting each thread's \
             value in a shared tile first, then letting the block write the tile out transposed, makes every warp \
             store {} runs of {by} consecutive elements. The tile's rows are padded by {pad} word(s) so neither \
             tile access has bank conflicts. Written for blocks of 32 x {by} threads, as in this launch.",
            name.name,
            32 / by
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    })
}
