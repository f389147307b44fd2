//! Z-chunking: a thread that walks a whole column of planes walks one chunk
//! of it, and a third grid dimension holds the chunks.
//!
//! Stencil kernels written one thread per (x, y) column start too few threads
//! to fill a GPU at moderate sizes (65,536 at 256², a few per SM's worth of
//! latency hiding); splitting the walk lets the tuner choose how many planes
//! a thread covers. The walk is the kernel's last loop (inside its bounds
//! check, `if (i < nx && j < ny) { ... }`, if it has one), a counted
//! `for (k = A; k < B; ++k)` over bounds computed from parameters; values
//! carried from one iteration to the next must be inductions (`c += xy`)
//! advanced once per iteration, or sums (`g += ss * ss`, from zero) that the
//! statements after the walk only store (`gosa[i] = g`); neither the kernel
//! nor a device function it calls may use the third dimension itself. The chunked kernel takes the chunk length
//! as a new last parameter, `hone_zchunk`, and starts its walk at
//! `A + blockIdx.z * hone_zchunk`, inductions advanced to match; each chunk
//! adds its part of a sum into the stored element (`atomicAdd`), so those
//! outputs must start at zero: [`Chunked::accumulated`] names them. Values
//! carried through memory (a register queue kept in an array, shared planes
//! reused by the next iteration) are not seen here: the emulator's
//! comparison with the original kernel on several chunk lengths is what
//! admits the result.

use std::collections::BTreeSet;

use hone_ir::{
    build, visit, BinaryOp, Builtin, Dim, Expr, ExprKind, Function, Init, Module, Span, Stmt,
    StmtKind, Type, UnaryOp, Var, VarId, VarKind,
};

/// The name of the chunk-length parameter the chunked kernel takes last.
pub const CHUNK_PARAM: &str = "hone_zchunk";

/// A chunked kernel and what the launch needs to know about its walk.
#[derive(Clone, Debug)]
pub struct Chunked {
    pub kernel: Function,
    /// The walk's first index and its end (exclusive), as the original
    /// kernel computes them from its parameters.
    pub first: Expr,
    pub end: Expr,
    /// Variables advanced by the chunk's start (`c += (z0 - A) * xy`).
    pub inductions: Vec<String>,
    /// Pointer parameters whose stores of a column's sum became atomic
    /// additions: the buffers they point to must be zero before a launch.
    pub accumulated: Vec<String>,
}

impl Chunked {
    /// The number of iterations of the whole walk for the given integer
    /// parameter values (`None` where a bound is not computable).
    pub fn trip_count(&self, ints: &dyn Fn(VarId) -> Option<i64>) -> Option<i64> {
        Some((eval_int(&self.end, ints)? - eval_int(&self.first, ints)?).max(0))
    }

    /// The walk's length as an expression of the parameters' names, for a
    /// template's grid (`(nz - 1) - 1`).
    pub fn trip_text(&self, name: &dyn Fn(VarId) -> Option<String>) -> Option<String> {
        Some(format!(
            "({}) - ({})",
            render_int(&self.end, name)?,
            render_int(&self.first, name)?
        ))
    }
}

/// Why a kernel cannot be chunked, naming the construct.
type Refusal = String;

/// Chunks the walk of `f` (of module `m`, for locations).
pub fn chunk(m: &Module, f: &Function) -> Result<Chunked, Refusal> {
    let at = |span: Span| m.location(span);
    // In the kernel or in a device function it calls, at any depth.
    let mut third = None;
    let mut seen: Vec<&Function> = vec![f];
    let mut i = 0;
    while let Some(g) = seen.get(i).copied() {
        visit::visit_block(&g.body, &mut |e| match &e.kind {
            ExprKind::Builtin(
                Builtin::ThreadIdx(Dim::Z)
                | Builtin::BlockIdx(Dim::Z)
                | Builtin::BlockDim(Dim::Z)
                | Builtin::GridDim(Dim::Z),
            ) => {
                third.get_or_insert(e.span);
            }
            ExprKind::Call(id, _) => {
                if let Some(callee) = m.functions.get(id.0 as usize) {
                    if !seen.iter().any(|s| std::ptr::eq(*s, callee)) {
                        seen.push(callee);
                    }
                }
            }
            _ => {}
        });
        i += 1;
    }
    if let Some(s) = third {
        return Err(format!(
            "{}: the kernel uses the third launch dimension, which chunks would take",
            at(s)
        ));
    }
    // The walk may sit inside the kernel's bounds check
    // (`if (i < nx && j < ny) { ... for (...) }`): the list holding it is
    // reached through trailing `if`s without `else`.
    let mut path: Vec<usize> = Vec::new();
    let mut preceding: Vec<Stmt> = Vec::new();
    let mut list = &f.body;
    let walk_at = loop {
        if let Some(i) = list
            .iter()
            .rposition(|s| matches!(s.kind, StmtKind::For { .. }))
        {
            break i;
        }
        match list.last().map(|s| &s.kind) {
            Some(StmtKind::If {
                then, els: None, ..
            }) => {
                preceding.extend(list[..list.len() - 1].iter().cloned());
                path.push(list.len() - 1);
                list = then;
            }
            _ => {
                return Err(format!(
                    "{}: the kernel has no `for` loop to chunk",
                    at(f.span)
                ))
            }
        }
    };
    preceding.extend(list[..walk_at].iter().cloned());
    let last = &list[walk_at];
    let after = &list[walk_at + 1..];
    let StmtKind::For {
        init,
        cond,
        step,
        body,
    } = &last.kind
    else {
        unreachable!("found as a `for` above")
    };
    let assigned_anywhere = assigned(&f.body);
    let params: BTreeSet<VarId> = f.params.iter().copied().collect();
    let param_bound = |e: &Expr| -> bool { bound_of_params(e, &params, &assigned_anywhere) };

    // for (k = A; ...)
    let (k, first) = match init.as_slice() {
        [Stmt {
            kind:
                StmtKind::Decl {
                    var,
                    init: Some(Init::Expr(a)),
                },
            ..
        }] => (*var, a.clone()),
        [Stmt {
            kind: StmtKind::Expr(e),
            ..
        }] => match &e.kind {
            ExprKind::Assign { op: None, lhs, rhs } => match build::peel(lhs).kind {
                ExprKind::Var(v) => (v, (**rhs).clone()),
                _ => return Err(format!("{}: the loop does not start a counter", at(e.span))),
            },
            _ => return Err(format!("{}: the loop does not start a counter", at(e.span))),
        },
        _ => {
            return Err(format!(
                "{}: the loop's start is not one counter",
                at(last.span)
            ))
        }
    };
    let is_k = |e: &Expr| matches!(build::peel(e).kind, ExprKind::Var(v) if v == k);
    if !f.var(k).ty.scalar().is_some_and(|s| s.is_integer()) {
        return Err(format!(
            "{}: the loop counter is not an integer",
            at(last.span)
        ));
    }
    if !param_bound(&first) {
        return Err(format!(
            "{}: the loop's start is not computed from parameters alone",
            at(first.span)
        ));
    }
    // ...; k < B or k <= B; ...
    let end = match cond.as_ref().map(|c| (&build::peel(c).kind, c.span)) {
        Some((ExprKind::Binary(BinaryOp::Lt, a, b), _)) if is_k(a) => (**b).clone(),
        Some((ExprKind::Binary(BinaryOp::Le, a, b), _)) if is_k(a) => {
            build::arith(BinaryOp::Add, (**b).clone(), build::lit(1, b.span))
        }
        Some((_, span)) => {
            return Err(format!(
                "{}: the loop's condition is not `counter < bound`",
                at(span)
            ))
        }
        None => return Err(format!("{}: the loop has no condition", at(last.span))),
    };
    if !param_bound(&end) {
        return Err(format!(
            "{}: the loop's bound is not computed from parameters alone",
            at(end.span)
        ));
    }
    // ...; ++k)
    let unit_step = step.as_ref().is_some_and(|s| match &s.kind {
        ExprKind::IncDec {
            increment: true,
            target,
            ..
        } => is_k(target),
        ExprKind::Assign {
            op: Some(BinaryOp::Add),
            lhs,
            rhs,
        } => is_k(lhs) && matches!(build::peel(rhs).kind, ExprKind::IntLit(1)),
        _ => false,
    });
    if !unit_step {
        return Err(format!(
            "{}: the loop does not step its counter by one",
            at(last.span)
        ));
    }
    if let Some(s) = exits(body, false, false) {
        return Err(format!(
            "{}: a `break`, `continue` or `return` leaves the walk early",
            at(s)
        ));
    }

    // Values carried from one iteration to the next.
    let declared_inside = declared(body);
    let in_loop = assigned(body);
    if in_loop.contains(&k) {
        return Err(format!(
            "{}: the loop body changes its counter",
            at(last.span)
        ));
    }
    // What changes from one iteration to the next: what the walk assigns,
    // declares, and its counter.
    let varying: BTreeSet<VarId> = in_loop
        .iter()
        .chain(&declared_inside)
        .copied()
        .chain([k])
        .collect();
    let mut inductions: Vec<(VarId, Expr)> = Vec::new();
    let mut sums: BTreeSet<VarId> = BTreeSet::new();
    for &v in &in_loop {
        if declared_inside.contains(&v) {
            continue;
        }
        let var = f.var(v);
        if is_sum(f, v, body, &preceding, after) {
            sums.insert(v);
            continue;
        }
        let step = body.iter().find_map(|s| match &s.kind {
            StmtKind::Expr(Expr {
                kind:
                    ExprKind::Assign {
                        op: Some(BinaryOp::Add),
                        lhs,
                        rhs,
                    },
                ..
            }) if matches!(build::peel(lhs).kind, ExprKind::Var(x) if x == v) => Some(rhs),
            _ => None,
        });
        let updates = targets(body).iter().filter(|&&x| x == v).count();
        let ok = var.kind == VarKind::Local
            && var.ty.scalar().is_some_and(|s| s.is_integer())
            && updates == 1
            && step.is_some_and(|e| invariant(e, &varying));
        match step {
            Some(e) if ok => inductions.push((v, (**e).clone())),
            _ => {
                return Err(format!(
                    "{}: `{}` carries a value from one iteration to the next and is not advanced by a fixed step once per iteration",
                    at(var.span),
                    var.name
                ))
            }
        }
    }

    // After the walk: only stores of sums, each at an address the walk does
    // not change.
    let mut stores: Vec<(usize, VarId)> = Vec::new();
    for (i, st) in after.iter().enumerate() {
        let store = match &st.kind {
            StmtKind::Expr(Expr {
                kind: ExprKind::Assign { op: None, lhs, rhs },
                ..
            }) => match (&build::peel(lhs).kind, &build::peel(rhs).kind) {
                (ExprKind::Index(base, idx), ExprKind::Var(acc)) if sums.contains(acc) => {
                    match build::peel(base).kind {
                        ExprKind::Var(p)
                            if params.contains(&p)
                                && !assigned_anywhere.contains(&p)
                                && invariant(idx, &varying)
                                && !mentions_any(idx, &sums) =>
                        {
                            Some(p)
                        }
                        _ => None,
                    }
                }
                _ => None,
            },
            _ => None,
        };
        // One store per buffer, of the buffer's own element type: two would
        // add both sums into one element, and a conversion rounds per chunk.
        let store = store.filter(|p| {
            let same_type = match (&build::peel(match &st.kind {
                StmtKind::Expr(e) => e,
                _ => unreachable!("a store"),
            })
            .kind,)
            {
                (ExprKind::Assign { lhs, rhs, .. },) => {
                    lhs.ty == build::peel(rhs).ty
                        && matches!(
                            lhs.ty.scalar(),
                            Some(
                                hone_ir::Scalar::F32
                                    | hone_ir::Scalar::F64
                                    | hone_ir::Scalar::I32
                                    | hone_ir::Scalar::U32
                                    | hone_ir::Scalar::U64
                            )
                        )
                }
                _ => false,
            };
            same_type && !stores.iter().any(|(_, q)| q == p)
        });
        match store {
            Some(p) => stores.push((walk_at + 1 + i, p)),
            None => {
                return Err(format!(
                    "{}: a statement after the walk would run once per chunk (only stores of a sum the walk adds up may follow it)",
                    at(st.span)
                ))
            }
        }
    }
    if let Some(v) = sums
        .iter()
        .find(|v| !stores.iter().any(|(i, _)| stored(&list[*i], **v)))
    {
        let var = f.var(*v);
        return Err(format!(
            "{}: `{}` carries a value from one iteration to the next and is not advanced by a fixed step once per iteration",
            at(var.span),
            var.name
        ));
    }

    // The rewrite.
    let mut g = f.clone();
    let mut accumulated = Vec::new();
    for (i, p) in &stores {
        let pointer = g.var(*p).ty.clone();
        let name = g.var(*p).name.clone();
        let StmtKind::Expr(e) = &mut holding(&mut g.body, &path)[*i].kind else {
            unreachable!("a store")
        };
        let ExprKind::Assign { lhs, rhs, .. } = &e.kind else {
            unreachable!("a store")
        };
        let elem = lhs.ty.clone();
        let address = build::mk(ExprKind::AddrOf(lhs.clone()), pointer, e.span);
        *e = build::mk(
            ExprKind::Intrinsic(
                hone_ir::Intrinsic::Atomic(hone_ir::AtomicOp::Add),
                vec![address, build::conv((**rhs).clone(), &elem)],
            ),
            elem,
            e.span,
        );
        if !accumulated.contains(&name) {
            accumulated.push(name);
        }
    }
    let span = last.span;
    let new_var = |g: &mut Function, name: &str, kind: VarKind| -> VarId {
        g.add_var(Var::new(name, Type::INT, kind, span))
    };
    let zc = new_var(&mut g, CHUNK_PARAM, VarKind::Param);
    g.params.push(zc);
    let z0 = new_var(&mut g, "hone_z0", VarKind::Local);
    let zc_e = build::var(zc, &Type::INT, span);
    let z0_e = build::var(z0, &Type::INT, span);
    let block_z = build::cast(build::builtin(Builtin::BlockIdx(Dim::Z), span), &Type::INT);
    let start = build::arith(
        BinaryOp::Add,
        first.clone(),
        build::arith(BinaryOp::Mul, block_z, zc_e.clone()),
    );
    let mut before: Vec<Stmt> = vec![Stmt {
        kind: StmtKind::Decl {
            var: z0,
            init: Some(Init::Expr(build::conv(start, &Type::INT))),
        },
        span,
    }];
    let skipped = build::arith(BinaryOp::Sub, z0_e.clone(), first.clone());
    let mut names = Vec::new();
    for (v, step) in &inductions {
        let ty = g.var(*v).ty.clone();
        let target = build::var(*v, &ty, span);
        // In the induction's own type, cast where the printed C shows it: a
        // 64-bit offset must not wrap in `int`.
        let advance = build::arith(
            BinaryOp::Add,
            target.clone(),
            build::arith(
                BinaryOp::Mul,
                build::cast(skipped.clone(), &ty),
                step.clone(),
            ),
        );
        before.push(build::assign_stmt(target, advance, span));
        names.push(g.var(*v).name.clone());
    }
    let k_ty = g.var(k).ty.clone();
    let k_e = build::var(k, &k_ty, span);
    let StmtKind::For { init, cond, .. } = &mut holding(&mut g.body, &path)[walk_at].kind else {
        unreachable!("checked above")
    };
    *init = vec![match &init[0].kind {
        StmtKind::Decl { var, .. } => Stmt {
            kind: StmtKind::Decl {
                var: *var,
                init: Some(Init::Expr(build::conv(z0_e.clone(), &k_ty))),
            },
            span,
        },
        _ => build::assign_stmt(k_e.clone(), z0_e.clone(), span),
    }];
    let within = build::compare(BinaryOp::Lt, build::arith(BinaryOp::Sub, k_e, z0_e), zc_e);
    let old = cond.take().expect("checked");
    *cond = Some(build::logic(BinaryOp::LogicAnd, old, within));
    holding(&mut g.body, &path).splice(walk_at..walk_at, before);
    Ok(Chunked {
        kernel: g,
        first,
        end,
        inductions: names,
        accumulated,
    })
}

/// `v` is a sum: zero before the walk (declared so, not assigned again),
/// added to once per iteration at the top of the walk's body (`v += e`, `e`
/// not reading `v`), read nowhere else in the walk, and read after it.
fn is_sum(f: &Function, v: VarId, body: &Vec<Stmt>, before: &Vec<Stmt>, after: &[Stmt]) -> bool {
    let var = f.var(v);
    if var.kind != VarKind::Local || var.ty.scalar().is_none() {
        return false;
    }
    let zero_init = before.iter().any(|s| {
        matches!(&s.kind, StmtKind::Decl { var, init: Some(Init::Expr(e)) }
            if *var == v && is_zero(e))
    });
    let reassigned = targets(before).contains(&v);
    let top_update = body.iter().any(|s| {
        matches!(&s.kind, StmtKind::Expr(Expr { kind: ExprKind::Assign { op: Some(BinaryOp::Add), lhs, rhs }, .. })
            if matches!(build::peel(lhs).kind, ExprKind::Var(x) if x == v)
                && !mentions_any(rhs, &BTreeSet::from([v])))
    });
    // Its one update is the only place the walk mentions it.
    let mut mentions = 0;
    visit::visit_block(body, &mut |e| {
        if matches!(e.kind, ExprKind::Var(x) if x == v) {
            mentions += 1;
        }
    });
    zero_init
        && !reassigned
        && top_update
        && targets(body).iter().filter(|&&x| x == v).count() == 1
        && mentions == 1
        && after.iter().any(|s| stored(s, v))
}

/// `s` is `p[i] = v;`.
fn stored(s: &Stmt, v: VarId) -> bool {
    matches!(&s.kind, StmtKind::Expr(Expr { kind: ExprKind::Assign { op: None, lhs, rhs }, .. })
        if matches!(build::peel(lhs).kind, ExprKind::Index(..))
            && matches!(build::peel(rhs).kind, ExprKind::Var(x) if x == v))
}

fn is_zero(e: &Expr) -> bool {
    match &build::peel(e).kind {
        ExprKind::IntLit(0) => true,
        ExprKind::FloatLit(x) => *x == 0.0,
        ExprKind::Cast { expr, .. } => is_zero(expr),
        _ => false,
    }
}

fn mentions_any(e: &Expr, vars: &BTreeSet<VarId>) -> bool {
    let mut hit = false;
    visit::visit_expr(e, &mut |x| {
        if let ExprKind::Var(v) = x.kind {
            hit |= vars.contains(&v);
        }
    });
    hit
}

/// The statement list `path` leads to through trailing `if`s.
fn holding<'a>(body: &'a mut Vec<Stmt>, path: &[usize]) -> &'a mut Vec<Stmt> {
    let mut list = body;
    for &i in path {
        match &mut list[i].kind {
            StmtKind::If { then, .. } => list = then,
            _ => unreachable!("the path goes through `if`s"),
        }
    }
    list
}

/// Variables assigned (or incremented) anywhere in `b`.
fn assigned(b: &Vec<Stmt>) -> BTreeSet<VarId> {
    targets(b).into_iter().collect()
}

/// The variable each assignment and increment in `b` writes, once per
/// assignment.
fn targets(b: &Vec<Stmt>) -> Vec<VarId> {
    let mut out = Vec::new();
    visit::visit_block(b, &mut |e| {
        let target = match &e.kind {
            ExprKind::Assign { lhs, .. } => lhs,
            ExprKind::IncDec { target, .. } => target,
            _ => return,
        };
        if let ExprKind::Var(v) = build::peel(target).kind {
            out.push(v);
        }
    });
    out
}

/// Variables declared anywhere in `b`.
fn declared(b: &[Stmt]) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    fn walk(b: &[Stmt], out: &mut BTreeSet<VarId>) {
        for s in b {
            if let StmtKind::Decl { var, .. } = s.kind {
                out.insert(var);
            }
            if let StmtKind::For { init, .. } = &s.kind {
                walk(init, out);
            }
            for c in visit::child_blocks(s) {
                walk(c, out);
            }
        }
    }
    walk(b, &mut out);
    out
}

/// The first statement leaving the walk early: a `return`, or a `break`
/// (`continue`) that belongs to the walk's loop rather than to an inner loop
/// or switch.
fn exits(b: &[Stmt], breaks_inner: bool, continues_inner: bool) -> Option<Span> {
    for s in b {
        let found = match &s.kind {
            StmtKind::Return(_) => Some(s.span),
            StmtKind::Break if !breaks_inner => Some(s.span),
            StmtKind::Continue if !continues_inner => Some(s.span),
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. } => exits(body, true, true),
            StmtKind::Switch { arms, .. } => arms
                .iter()
                .find_map(|a| exits(&a.body, true, continues_inner)),
            _ => visit::child_blocks(s)
                .into_iter()
                .find_map(|c| exits(c, breaks_inner, continues_inner)),
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// An expression of literals and variables that the loop does not assign,
/// with no memory reads or calls.
fn invariant(e: &Expr, in_loop: &BTreeSet<VarId>) -> bool {
    let mut ok = true;
    visit::visit_expr(e, &mut |x| match &x.kind {
        ExprKind::Var(v) if in_loop.contains(v) => ok = false,
        ExprKind::Index(..)
        | ExprKind::Deref(_)
        | ExprKind::Call(..)
        | ExprKind::Intrinsic(..)
        | ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::Global(_) => ok = false,
        _ => {}
    });
    ok
}

/// Integer arithmetic of literals and parameters the kernel never assigns.
fn bound_of_params(e: &Expr, params: &BTreeSet<VarId>, assigned: &BTreeSet<VarId>) -> bool {
    match &e.kind {
        ExprKind::IntLit(_) => true,
        ExprKind::Var(v) => params.contains(v) && !assigned.contains(v),
        ExprKind::Cast { expr, .. } => {
            e.ty.scalar().is_some_and(|s| s.is_integer()) && bound_of_params(expr, params, assigned)
        }
        ExprKind::Unary(UnaryOp::Neg, a) => bound_of_params(a, params, assigned),
        ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div, a, b) => {
            bound_of_params(a, params, assigned) && bound_of_params(b, params, assigned)
        }
        _ => false,
    }
}

/// Evaluates an expression [`bound_of_params`] admits.
fn eval_int(e: &Expr, ints: &dyn Fn(VarId) -> Option<i64>) -> Option<i64> {
    Some(match &e.kind {
        ExprKind::IntLit(v) => i64::try_from(*v).ok()?,
        ExprKind::Var(v) => ints(*v)?,
        ExprKind::Cast { expr, .. } => eval_int(expr, ints)?,
        ExprKind::Unary(UnaryOp::Neg, a) => eval_int(a, ints)?.checked_neg()?,
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (eval_int(a, ints)?, eval_int(b, ints)?);
            match op {
                BinaryOp::Add => a.checked_add(b)?,
                BinaryOp::Sub => a.checked_sub(b)?,
                BinaryOp::Mul => a.checked_mul(b)?,
                BinaryOp::Div => a.checked_div(b)?,
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// The text of an expression [`bound_of_params`] admits, parameters named
/// by `name` (C's truncating division, as the template expressions have).
fn render_int(e: &Expr, name: &dyn Fn(VarId) -> Option<String>) -> Option<String> {
    Some(match &e.kind {
        ExprKind::IntLit(v) => v.to_string(),
        ExprKind::Var(v) => format!("({})", name(*v)?),
        ExprKind::Cast { expr, .. } => render_int(expr, name)?,
        ExprKind::Unary(UnaryOp::Neg, a) => format!("(-{})", render_int(a, name)?),
        ExprKind::Binary(op, a, b) => {
            let sym = match op {
                BinaryOp::Add => "+",
                BinaryOp::Sub => "-",
                BinaryOp::Mul => "*",
                BinaryOp::Div => "/",
                _ => return None,
            };
            format!("({} {sym} {})", render_int(a, name)?, render_int(b, name)?)
        }
        _ => return None,
    })
}
