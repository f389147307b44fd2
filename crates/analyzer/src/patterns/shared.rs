//! Shared-memory bank conflicts. Two fixes that keep the data private to the
//! kernel, so the caller changes nothing:
//!
//! - padding, the 3-D FFT paper's rule restated for 32 banks of 4 bytes: one
//!   element of padding after every 128 bytes (a row of 32 words), so that
//!   elements one row apart fall in different banks. `T s[R][C]` becomes
//!   `T s[R][C + p]` with p elements making one word; a one-dimensional
//!   `s[e]` becomes `s[e + e / W]` with W elements per 128 bytes.
//! - an XOR swizzle: `s[r][c]` becomes `s[r][c ^ (r % W)]` (one-dimensional:
//!   `s[e ^ ((e / W) % W)]`), a permutation inside every row that sends the
//!   same column of W consecutive rows to W different banks.

use hone_ir::{ArrayLen, BinaryOp, Expr, ExprKind, Type, VarId, VarKind};

use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::walk::{bin, index_root, is_pure, lit, rewrite_block, strip, used_other_than_indexed};

/// A shared array of constant shape: element type, element size, dimensions
/// (outermost first).
struct Shape {
    elem: Type,
    size: u64,
    dims: Vec<u64>,
}

fn shape_of(ty: &Type) -> Option<Shape> {
    let mut dims = Vec::new();
    let mut t = ty;
    while let Type::Array(e, len) = t {
        let ArrayLen::Const(n) = len else { return None };
        dims.push(*n);
        t = e;
    }
    let size = t.size()?;
    (!dims.is_empty() && matches!(t, Type::Scalar(_) | Type::Vector(..))).then(|| Shape {
        elem: t.clone(),
        size,
        dims,
    })
}

fn array_type(elem: &Type, dims: &[u64]) -> Type {
    dims.iter().rev().fold(elem.clone(), |t, &n| {
        Type::Array(Box::new(t), ArrayLen::Const(n))
    })
}

/// The shared array the site accesses, if the patterns can rewrite it.
fn target(ctx: &Ctx, site: &SiteStats) -> Option<(VarId, Shape)> {
    if site.space != hone_ir::AddressSpace::Shared || site.excess_wavefronts() == 0 {
        return None;
    }
    let v = ctx
        .func
        .vars
        .iter()
        .position(|x| x.kind == VarKind::Shared && x.name == site.array)
        .map(|i| VarId(i as u32))?;
    // Only plain `s[i]...` uses: no pointers into the array escape.
    if used_other_than_indexed(ctx.func, v) {
        return None;
    }
    Some((v, shape_of(&ctx.func.var(v).ty)?))
}

/// Elements per 128-byte row of banks.
fn per_row(size: u64) -> u64 {
    (128 / size).max(1)
}

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    let Some((v, shape)) = target(ctx, site) else {
        return Vec::new();
    };
    [padding(ctx, v, &shape), swizzle(ctx, v, &shape)]
        .into_iter()
        .flatten()
        .collect()
}

/// Rewrites the full-depth accesses `s[i0]...[ik]` of `v` with `f(indices)`,
/// and retypes the variable and its partial indexings to `new_ty`.
fn rewrite_accesses(
    ctx: &Ctx,
    v: VarId,
    new_ty: &Type,
    depth: usize,
    f: &dyn Fn(&mut Vec<Expr>) -> Option<()>,
) -> Option<hone_ir::Module> {
    let mut ok = true;
    let module = ctx.rewrite(|func| {
        func.vars[v.0 as usize].ty = new_ty.clone();
        rewrite_block(&mut func.body, &mut |e| {
            if index_root(e) != Some(v) {
                return;
            }
            match &mut e.kind {
                ExprKind::Var(_) => e.ty = new_ty.clone(),
                ExprKind::Index(base, _) => {
                    // base was retyped already (bottom-up): this node is one level in.
                    if let Some(inner) = base.ty.pointee() {
                        e.ty = inner.clone();
                    }
                }
                _ => {}
            }
            // Collect the indices of a full-depth access, outermost first.
            let mut chain = Vec::new();
            let mut cur: &Expr = e;
            while let ExprKind::Index(b, i) = &cur.kind {
                chain.push((**i).clone());
                cur = strip(b);
            }
            if chain.len() != depth {
                return;
            }
            chain.reverse();
            if f(&mut chain).is_none() {
                ok = false;
                return;
            }
            // Write the indices back, innermost last.
            let mut cur: &mut Expr = e;
            for i in chain.into_iter().rev() {
                let ExprKind::Index(b, idx) = &mut cur.kind else {
                    break;
                };
                **idx = i;
                cur = b.as_mut();
            }
        });
        ok.then_some(())
    })?;
    Some(module)
}

fn padding(ctx: &Ctx, v: VarId, shape: &Shape) -> Option<Candidate> {
    let name = &ctx.func.var(v).name;
    let w = per_row(shape.size);
    // One word of padding, at least one element.
    let pad = (4 / shape.size).max(1);
    let depth = shape.dims.len();
    let (module, what) = if depth >= 2 {
        let mut dims = shape.dims.clone();
        let last = dims.len() - 1;
        dims[last] += pad;
        let ty = array_type(&shape.elem, &dims);
        let m = rewrite_accesses(ctx, v, &ty, depth, &|_| Some(()))?;
        let decl = dims.iter().map(|d| format!("[{d}]")).collect::<String>();
        (
            m,
            format!("declare `{name}{decl}`: {pad} element(s) of padding at the end of every row"),
        )
    } else {
        let len = shape.dims[0] + shape.dims[0].div_ceil(w) * pad;
        let ty = array_type(&shape.elem, &[len]);
        let m = rewrite_accesses(ctx, v, &ty, 1, &|ix| {
            let e = ix[0].clone();
            if !is_pure(&e) {
                return None;
            }
            let span = e.span;
            let rows = bin(BinaryOp::Div, e.clone(), lit(w as i64, span));
            let extra = if pad == 1 {
                rows
            } else {
                bin(BinaryOp::Mul, rows, lit(pad as i64, span))
            };
            ix[0] = bin(BinaryOp::Add, e, extra);
            Some(())
        })?;
        (m, format!("index `{name}[e + e / {w}]` in an array of {len}: padding after every {w} elements"))
    };
    Some(Candidate {
        pattern: "shared-padding",
        title: format!("pad `{name}` against bank conflicts: {what}"),
        explanation: format!(
            "Lanes of a warp reach words of `{name}` that lie a multiple of 128 bytes apart, which share a bank \
             and are served one after another. With padding after every 128 bytes (the FFT paper's rule for 16 \
             banks, restated for 32) elements one row apart land in neighbouring banks."
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    })
}

fn swizzle(ctx: &Ctx, v: VarId, shape: &Shape) -> Option<Candidate> {
    let name = &ctx.func.var(v).name;
    let w = per_row(shape.size);
    let depth = shape.dims.len();
    let cols = *shape.dims.last()?;
    // XOR keeps a column inside its aligned group of `g` columns.
    let g = if cols % w == 0 {
        w
    } else if cols.is_power_of_two() && cols < w {
        cols
    } else {
        return None;
    };
    if g < 2 {
        return None;
    }
    let ty = ctx.func.var(v).ty.clone();
    let (module, what) = if depth >= 2 {
        let m = rewrite_accesses(ctx, v, &ty, depth, &|ix| {
            let n = ix.len();
            let r = ix[n - 2].clone();
            if !is_pure(&r) {
                return None;
            }
            let span = r.span;
            let c = ix[n - 1].clone();
            ix[n - 1] = bin(
                BinaryOp::BitXor,
                c,
                bin(BinaryOp::Rem, r, lit(g as i64, span)),
            );
            Some(())
        })?;
        (m, format!("index `{name}[r][c ^ (r % {g})]`"))
    } else {
        let m = rewrite_accesses(ctx, v, &ty, 1, &|ix| {
            let e = ix[0].clone();
            if !is_pure(&e) {
                return None;
            }
            let span = e.span;
            let row = bin(BinaryOp::Div, e.clone(), lit(g as i64, span));
            ix[0] = bin(
                BinaryOp::BitXor,
                e,
                bin(BinaryOp::Rem, row, lit(g as i64, span)),
            );
            Some(())
        })?;
        (m, format!("index `{name}[e ^ ((e / {g}) % {g})]`"))
    };
    Some(Candidate {
        pattern: "shared-swizzle",
        title: format!("swizzle `{name}` with an XOR: {what}"),
        explanation: format!(
            "XOR-ing the column with the row number permutes every row of `{name}` differently, so the same \
             column of {g} consecutive rows lies in {g} different banks, without any extra memory."
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    })
}
