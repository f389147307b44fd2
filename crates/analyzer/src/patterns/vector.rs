//! Vector loads: a thread that reads `a[c * i]`, `a[c * i + 1]`, ...,
//! `a[c * i + c - 1]` one after the other (a record of c floats, a complex
//! number as two) makes c requests, each touching every sector of the warp's
//! span and using 1 / c of it. One `float2` or `float4` load of the c
//! elements makes one request whose bytes the warp uses whole:
//! `const float2 v = ((const float2 *)a)[i];`, then `v.x`, `v.y` in place of
//! the reads. The data layout does not change; the array must start on a
//! multiple of the vector's size, as `cudaMalloc` gives it (a caller passing
//! `a + 1` would fault). DRAM moves the same bytes either way: on an H200,
//! kernels that stream their records at DRAM bandwidth kept their time
//! (`bench/results/analyze/measure/vector/`); the gain is in L1 requests
//! and issue slots.
//!
//! The reads must all run whenever the first does, and see the same memory:
//! they are in consecutive declarations or assignments of one block, not
//! under a condition inside them; those statements only compute and assign
//! local scalars that no index reads, except the last, which may store to
//! another array once its reads are done. The pointer is the parameter as
//! passed (not moved inside the kernel), and the index `e` is signed or
//! 64-bit, where `c * e + j` cannot wrap while `e` does not.

use hone_emulator::AccessKind;
use hone_ir::path::Path;
use hone_ir::{
    AddressSpace, BinaryOp, Expr, ExprKind, Init, PointerType, Stmt, StmtKind, Type, VarId, VarKind,
};

use super::loops::{fresh_local, writes_through};
use super::{Candidate, Ctx};
use crate::collect::{LaneStride, SiteStats};
use crate::walk::{is_pure, rewrite_block, strip};

pub(crate) fn propose(ctx: &Ctx, site: &SiteStats) -> Vec<Candidate> {
    propose_one(ctx, site).into_iter().collect()
}

/// `c * e + j` (or `e * c + j`, `j + c * e`) as (e, j), with 0 <= j < c.
fn split(index: &Expr, c: u64) -> Option<(&Expr, u64)> {
    let lit = |e: &Expr| match strip(e).kind {
        ExprKind::IntLit(v) => Some(v),
        _ => None,
    };
    let (base, j) = match &strip(index).kind {
        ExprKind::Binary(BinaryOp::Add, l, r) => match (lit(l), lit(r)) {
            (_, Some(j)) => (l.as_ref(), j),
            (Some(j), _) => (r.as_ref(), j),
            _ => (index, 0),
        },
        _ => (index, 0),
    };
    let ExprKind::Binary(BinaryOp::Mul, l, r) = &strip(base).kind else {
        return None;
    };
    let e = match (lit(l), lit(r)) {
        (Some(k), _) if k == c => r.as_ref(),
        (_, Some(k)) if k == c => l.as_ref(),
        _ => return None,
    };
    // `c * e + j` in 32-bit unsigned arithmetic wraps where the vector
    // index `e` does not.
    let wide_or_signed = matches!(
        strip(e).ty,
        Type::Scalar(hone_ir::Scalar::I32 | hone_ir::Scalar::I64 | hone_ir::Scalar::U64)
    );
    (j < c && is_pure(e) && wide_or_signed).then_some((e, j))
}

/// The reads `array[c * e + j]` in `s`, as (j, e printed), and whether any
/// sits where it may not run (under `?:`, `&&`, `||`, or in a nested block).
fn reads_in(ctx: &Ctx, s: &Stmt, array: VarId, c: u64) -> (Vec<(u64, String)>, bool) {
    let mut found = Vec::new();
    let mut guarded = false;
    let exprs: Vec<&Expr> = match &s.kind {
        StmtKind::Decl {
            init: Some(Init::Expr(e)),
            ..
        } => vec![e],
        StmtKind::Expr(e) => vec![e],
        _ => {
            // A statement with blocks: any read inside is guarded.
            let mut any = false;
            hone_ir::path::each_expr(&vec![s.clone()], &mut |e, _, _| {
                any |= read_of(e, array, c).is_some();
            });
            return (Vec::new(), any);
        }
    };
    for e in exprs {
        crate::walk::visit_guarded(e, &mut |e, under| {
            if let Some((base, j)) = read_of(e, array, c) {
                if under {
                    guarded = true;
                } else {
                    let shown = hone_ir::print::print_expr(&ctx.spec.module, ctx.func, base);
                    found.push((j, shown));
                }
            }
        });
    }
    (found, guarded)
}

fn read_of(e: &Expr, array: VarId, c: u64) -> Option<(&Expr, u64)> {
    let ExprKind::Index(base, index) = &e.kind else {
        return None;
    };
    matches!(strip(base).kind, ExprKind::Var(v) if v == array).then_some(())?;
    split(index, c)
}

/// Whether the reads may be gathered across `s`: a declaration, or an
/// assignment `lhs = rhs` (any operator), whose initialiser or right side
/// has no effect (no assignment, increment, address taken, call that
/// writes, or intrinsic but arithmetic), assigning a local scalar that no
/// index reads. Only the last statement may store to an element of another
/// array, after its reads; it may alias the array, so a read after it
/// could see the store.
fn plain(ctx: &Ctx, s: &Stmt, array: VarId, vars: &[VarId], last: bool) -> bool {
    let calm = |e: &Expr| {
        let mut ok = true;
        crate::walk::visit_expr(e, &mut |x| match &x.kind {
            ExprKind::Assign { .. } | ExprKind::IncDec { .. } | ExprKind::AddrOf(_) => ok = false,
            ExprKind::Call(f, _) => {
                ok &= writes_through(&ctx.spec.module, *f, 8).is_some_and(|w| w.is_empty())
            }
            ExprKind::Intrinsic(i, _) => ok &= matches!(i, hone_ir::Intrinsic::Math(_)),
            _ => {}
        });
        ok
    };
    let local = |v: VarId| {
        !vars.contains(&v)
            && ctx.func.var(v).kind == VarKind::Local
            && matches!(ctx.func.var(v).ty, Type::Scalar(_) | Type::Vector(..))
    };
    match &s.kind {
        StmtKind::Decl { var, init } => {
            local(*var)
                && match init {
                    None => true,
                    Some(Init::Expr(e)) => calm(e),
                    Some(_) => false,
                }
        }
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign { lhs, rhs, .. } => {
                calm(rhs)
                    && match &strip(lhs).kind {
                        ExprKind::Var(v) => local(*v),
                        ExprKind::Index(b, i) => {
                            last && calm(i)
                                && matches!(strip(b).kind, ExprKind::Var(p) if p != array)
                        }
                        _ => false,
                    }
            }
            _ => false,
        },
        _ => false,
    }
}

fn propose_one(ctx: &Ctx, site: &SiteStats) -> Option<Candidate> {
    if site.kind != AccessKind::Load || site.space != AddressSpace::Global {
        return None;
    }
    let size = u64::from(site.size);
    let LaneStride::Uniform(stride) = site.lane_stride else {
        return None;
    };
    let c = u64::try_from(stride).ok()? / size.max(1);
    if !(c == 2 || (c == 4 && size == 4)) || stride as u64 != c * size {
        return None;
    }
    let access = ctx.access(site)?;
    let array = access.array;
    // A pointer parameter: its allocation's alignment is the caller's.
    if ctx.func.var(array).kind != VarKind::Param {
        return None;
    }
    let Type::Pointer(p) = &ctx.func.var(array).ty else {
        return None;
    };
    let Type::Scalar(scalar) = p.pointee else {
        return None;
    };
    // The allocation's alignment holds only for the pointer as passed: not
    // once the kernel moves it (`z += off`), and not for volatile memory.
    let mut moved = p.pointee_volatile;
    hone_ir::path::each_expr(&ctx.func.body, &mut |x, _, _| match &x.kind {
        ExprKind::Assign { lhs: t, .. }
        | ExprKind::IncDec { target: t, .. }
        | ExprKind::AddrOf(t) => moved |= matches!(strip(t).kind, ExprKind::Var(v) if v == array),
        _ => {}
    });
    if moved {
        return None;
    }
    let (e, _) = split(access.index, c)?;
    let e = e.clone();
    let shown_e = hone_ir::print::print_expr(&ctx.spec.module, ctx.func, &e);
    // The path of the statement that holds the read.
    let (_, stmt_path, _): (&Expr, Path, _) =
        hone_ir::path::find_span(&ctx.func.body, site.span, &|x| {
            matches!(x.kind, ExprKind::Index(..))
        })?;
    let block = hone_ir::path::parent_block(&ctx.func.body, &stmt_path)?;
    let at = stmt_path.last()?.1;
    // The statements around the site that read the other elements.
    let mut have = vec![false; c as usize];
    let (mut first, mut last) = (at, at);
    let mark = |i: usize, have: &mut Vec<bool>| -> Option<bool> {
        let (reads, guarded) = reads_in(ctx, &block[i], array, c);
        if guarded {
            return None;
        }
        let mut any = false;
        for (j, text) in reads {
            if text == shown_e {
                have[j as usize] = true;
                any = true;
            }
        }
        Some(any)
    };
    mark(at, &mut have)?;
    let mut vars = Vec::new();
    hone_ir::path::vars_read(&e, &mut vars);
    while have.iter().any(|h| !h) && last + 1 < block.len() {
        if !mark(last + 1, &mut have)? {
            break;
        }
        last += 1;
    }
    while have.iter().any(|h| !h) && first > 0 {
        if !mark(first - 1, &mut have)? {
            break;
        }
        first -= 1;
    }
    if have.iter().any(|h| !h) {
        return None;
    }
    // Nothing in between changes the elements or the index; the last
    // statement may store (after its reads have run), the others may not.
    if !(first..=last).all(|i| plain(ctx, &block[i], array, &vars, i == last)) {
        return None;
    }
    let name = ctx.func.var(array).name.clone();
    let vec_ty = Type::Vector(scalar, c as u8);
    let vec_name = hone_ir::print::print_type(&vec_ty);
    let module = ctx.rewrite(|f| {
        let span = block[first].span;
        let v = fresh_local(f, &format!("{name}_v"), &vec_ty, span, true);
        let ptr = Type::Pointer(Box::new(PointerType {
            pointee: vec_ty.clone(),
            pointee_const: true,
            restrict: false,
            pointee_volatile: false,
        }));
        let base = hone_ir::build::var(array, &f.var(array).ty.clone(), span);
        let load = hone_ir::build::index(hone_ir::build::cast(base, &ptr), e.clone());
        let decl = Stmt {
            kind: StmtKind::Decl {
                var: v,
                init: Some(Init::Expr(load)),
            },
            span,
        };
        let module = ctx.spec.module.clone();
        let func = ctx.func;
        let target = hone_ir::path::parent_block_mut(&mut f.body, &stmt_path)?;
        let mut region: Vec<Stmt> = target[first..=last].to_vec();
        rewrite_block(&mut region, &mut |x| {
            if let Some((b, j)) = read_of(x, array, c) {
                if hone_ir::print::print_expr(&module, func, b) == shown_e {
                    let vv = hone_ir::build::var(v, &vec_ty, x.span);
                    *x = hone_ir::build::mk(
                        ExprKind::Component(Box::new(vv), j as u8),
                        Type::Scalar(scalar),
                        x.span,
                    );
                }
            }
        });
        region.insert(0, decl);
        target.splice(first..=last, region);
        Some(())
    })?;
    Some(Candidate {
        pattern: "vector-load",
        title: format!(
            "read `{name}[{c} * {shown_e}]` to `{name}[{c} * {shown_e} + {}]` as one `{vec_name}`",
            c - 1
        ),
        explanation: format!(
            "Each thread reads {c} consecutive elements of `{name}` in {c} loads, each a request \
             that touches the whole span of the warp's records and uses 1/{c} of it. One \
             `{vec_name}` load reads them in one request that uses every byte it moves. The \
             layout stays; `{name}` must start on a multiple of {} bytes, as `cudaMalloc` \
             gives it. The bytes that come from DRAM stay the same: a kernel bound by DRAM \
             bandwidth keeps its time, one bound by L1 requests or issue slots gains.",
            c * size
        ),
        module,
        layouts: Vec::new(),
        moved_to: None,
    })
}
