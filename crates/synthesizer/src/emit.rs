//! The synthesized kernel as CUDA C: shared arrays sized at launch become
//! slices of the dynamic shared memory (NVRTC takes no `blockDim` in an
//! array length), synthesized code is labelled in comments, and the device
//! functions the kernel calls are printed with it.

use std::collections::BTreeSet;

use hone_ir::{
    ArrayLen, Expr, ExprKind, FuncId, FuncKind, Function, Init, Module, Span, Stmt, StmtKind, Type,
    Var, VarId, VarKind,
};

use crate::rewrite::mark_of;
use hone_ir::build;
use hone_ir::path as walk;

/// The dynamic shared memory the emitted kernel needs: one slice per array
/// whose length was a launch-time expression.
#[derive(Clone, Debug)]
pub struct DynShared {
    pub elem: Type,
    /// Array names and their lengths (in elements), in layout order.
    pub arrays: Vec<(String, Expr)>,
}

/// The integer `args` passes for parameter `v` of a kernel whose
/// parameters are `params`.
pub fn int_arg(params: &[VarId], args: &[hone_emulator::KernelArg], v: VarId) -> Option<i64> {
    match args.get(params.iter().position(|&p| p == v)?) {
        Some(hone_emulator::KernelArg::Int(x)) => Some(*x),
        _ => None,
    }
}

impl DynShared {
    /// Bytes needed for a launch of the kernel with parameters `params`.
    pub fn launch_bytes(
        &self,
        params: &[VarId],
        config: &hone_emulator::LaunchConfig,
        args: &[hone_emulator::KernelArg],
    ) -> Result<u64, String> {
        self.bytes(config.block, config.grid, &|v| int_arg(params, args, v))
    }

    /// Bytes needed for a launch, from the block and grid shape and the
    /// kernel's integer arguments.
    pub fn bytes(
        &self,
        block: [u32; 3],
        grid: [u32; 3],
        ints: &dyn Fn(VarId) -> Option<i64>,
    ) -> Result<u64, String> {
        let size = self.elem.size().unwrap_or(4);
        let mut total = 0u64;
        for (name, len) in &self.arrays {
            let n =
                eval_len(len, block, grid, ints).map_err(|e| format!("length of `{name}`: {e}"))?;
            total +=
                u64::try_from(n).map_err(|_| format!("`{name}` has negative length {n}"))? * size;
        }
        Ok(total)
    }
}

/// Evaluates an array length of builtins, literals and integer parameters.
pub fn eval_len(
    e: &Expr,
    block: [u32; 3],
    grid: [u32; 3],
    ints: &dyn Fn(VarId) -> Option<i64>,
) -> Result<i64, String> {
    use hone_ir::{BinaryOp as B, Builtin};
    let go = |x: &Expr| eval_len(x, block, grid, ints);
    Ok(match &e.kind {
        ExprKind::IntLit(v) => *v as i64,
        ExprKind::Builtin(Builtin::BlockDim(d)) => block[d.index()] as i64,
        ExprKind::Builtin(Builtin::GridDim(d)) => grid[d.index()] as i64,
        ExprKind::Var(v) => ints(*v)
            .ok_or("only blockDim, gridDim and integer parameters may size a shared array")?,
        ExprKind::Cast { expr, .. } => go(expr)?,
        ExprKind::SizeOf(t) => t.size().ok_or("sizeof of an unsized type")? as i64,
        ExprKind::Unary(hone_ir::UnaryOp::Neg, a) => -go(a)?,
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (go(a)?, go(b)?);
            match op {
                B::Add => x + y,
                B::Sub => x - y,
                B::Mul => x * y,
                B::Div if y != 0 => x / y,
                B::Rem if y != 0 => x % y,
                _ => return Err("unsupported operator in an array length".into()),
            }
        }
        _ => return Err("unsupported expression in an array length".into()),
    })
}

/// Rewrites `__shared__ T a[expr]` arrays into pointers into
/// `extern __shared__ T hone_smem[]`. Returns the layout, or a note when the
/// arrays cannot share one extern array (different element types).
pub fn nvrtc_form(f: &Function) -> (Function, Option<DynShared>, Option<String>) {
    let mut order: Vec<VarId> = Vec::new();
    walk::each_stmt(&f.body, &mut |s, _| {
        if let StmtKind::Decl { var, .. } = s.kind {
            let v = f.var(var);
            if v.kind == VarKind::Shared
                && matches!(&v.ty, Type::Array(e, ArrayLen::Expr(_)) if matches!(**e, Type::Scalar(_)))
            {
                order.push(var);
            }
        }
    });
    if order.is_empty() {
        return (f.clone(), None, None);
    }
    let elem = |v: VarId| match &f.var(v).ty {
        Type::Array(e, _) => (**e).clone(),
        _ => unreachable!("filtered"),
    };
    let t = elem(order[0]);
    if order.iter().any(|&v| elem(v) != t) {
        return (
            f.clone(),
            None,
            Some("shared arrays of different element types sized at launch are kept as written; NVRTC needs them rewritten by hand".into()),
        );
    }
    let mut g = f.clone();
    let smem = g.add_var(Var::new(
        "hone_smem",
        Type::Array(Box::new(t.clone()), ArrayLen::Unsized),
        VarKind::ExternShared,
        f.span,
    ));
    let mut arrays = Vec::new();
    let mut offset: Option<Expr> = None;
    for &v in &order {
        let Type::Array(_, ArrayLen::Expr(len)) = g.var(v).ty.clone() else {
            unreachable!()
        };
        let span = g.var(v).span;
        let base = build::var(smem, &g.var(smem).ty, span);
        let ptr_ty = Type::ptr(t.clone());
        let init = match &offset {
            None => base,
            Some(off) => build::mk(
                ExprKind::Binary(
                    hone_ir::BinaryOp::Add,
                    Box::new(base),
                    Box::new(off.clone()),
                ),
                ptr_ty.clone(),
                span,
            ),
        };
        offset = Some(match offset {
            None => (*len).clone(),
            Some(off) => build::arith(hone_ir::BinaryOp::Add, off, (*len).clone()),
        });
        arrays.push((g.var(v).name.clone(), (*len).clone()));
        let var = &mut g.vars[v.0 as usize];
        var.kind = VarKind::Local;
        var.ty = ptr_ty;
        set_decl_init(&mut g.body, v, init);
    }
    g.body.insert(
        0,
        Stmt {
            kind: StmtKind::Decl {
                var: smem,
                init: None,
            },
            span: f.span,
        },
    );
    (g, Some(DynShared { elem: t, arrays }), None)
}

fn set_decl_init(body: &mut [Stmt], v: VarId, init: Expr) -> bool {
    for s in body.iter_mut() {
        if let StmtKind::Decl { var, init: slot } = &mut s.kind {
            if *var == v {
                *slot = Some(Init::Expr(init));
                return true;
            }
        }
        let done = match &mut s.kind {
            StmtKind::If { then, els, .. } => {
                set_decl_init(then, v, init.clone())
                    || els
                        .as_mut()
                        .is_some_and(|e| set_decl_init(e, v, init.clone()))
            }
            StmtKind::For { init: i, body, .. } => {
                set_decl_init(i, v, init.clone()) || set_decl_init(body, v, init.clone())
            }
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::Block(body) => set_decl_init(body, v, init.clone()),
            StmtKind::Switch { arms, .. } => arms
                .iter_mut()
                .any(|a| set_decl_init(&mut a.body, v, init.clone())),
            _ => false,
        };
        if done {
            return true;
        }
    }
    false
}

/// Device functions `f` calls, directly or not, callees first.
fn callees(m: &Module, f: &Function) -> Vec<FuncId> {
    fn calls(f: &Function) -> Vec<FuncId> {
        let mut out = Vec::new();
        walk::each_expr(&f.body, &mut |e, _, _| {
            if let ExprKind::Call(id, _) = e.kind {
                if !out.contains(&id) {
                    out.push(id);
                }
            }
        });
        out
    }
    fn go(m: &Module, id: FuncId, seen: &mut BTreeSet<u32>, out: &mut Vec<FuncId>) {
        if !seen.insert(id.0) {
            return;
        }
        for c in calls(m.func(id)) {
            go(m, c, seen, out);
        }
        out.push(id);
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for c in calls(f) {
        go(m, c, &mut seen, &mut out);
    }
    out
}

fn marker_name(id: usize) -> String {
    format!("__hone_mark_{id}")
}

/// Prints `f` (a kernel of `m`, possibly rewritten) with the device
/// functions it calls. Expressions and statements with marker spans get the
/// comment `labels(marker)` in front.
pub fn print_kernel(m: &Module, f: &Function, labels: &dyn Fn(usize) -> String) -> String {
    let mut pm = m.clone();
    let mut g = f.clone();
    let mut used = BTreeSet::new();
    let base = pm.functions.len();
    let mut marker_fn = |id: usize, ty: &Type, pm: &mut Module| -> FuncId {
        used.insert(id);
        let fid = FuncId((base + id) as u32);
        while pm.functions.len() <= base + id {
            let k = pm.functions.len() - base;
            pm.functions
                .push(Function::new(marker_name(k), FuncKind::Device, ty.clone()));
        }
        fid
    };
    walk::rewrite_exprs(&mut g.body, &mut |e| {
        if let Some(id) = mark_of(e.span) {
            let fid = marker_fn(id, &e.ty, &mut pm);
            let mut inner = e.clone();
            inner.span = Span::default();
            *e = build::mk(
                ExprKind::Call(fid, vec![inner]),
                e.ty.clone(),
                Span::default(),
            );
            return true;
        }
        false
    });
    mark_statements(&mut g.body, &mut |id| {
        let fid = marker_fn(id, &Type::Void, &mut pm);
        Stmt {
            kind: StmtKind::Expr(build::mk(
                ExprKind::Call(fid, vec![build::lit(0, Span::default())]),
                Type::Void,
                Span::default(),
            )),
            span: Span::default(),
        }
    });
    // The types and file-scope variables the kernel may name, so the text
    // compiles on its own.
    let mut out = hone_ir::print::print_prelude(m);
    if !m.structs.is_empty() || !m.globals.is_empty() {
        out.push('\n');
    }
    let deps = callees(m, f);
    for &d in &deps {
        let def = hone_ir::print::print_function(m, m.func(d));
        if let Some(head) = def.find(" {\n") {
            out.push_str(&def[..head]);
            out.push_str(";\n");
        }
    }
    if !deps.is_empty() {
        out.push('\n');
    }
    for &d in &deps {
        out.push_str(&hone_ir::print::print_function(m, m.func(d)));
        out.push('\n');
    }
    let text = hone_ir::print::print_function(&pm, &g);
    let mut kernel = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let stmt_marker = used
            .iter()
            .find(|&&id| trimmed == format!("{}(0);", marker_name(id)));
        if let Some(&id) = stmt_marker {
            let indent = &line[..line.len() - trimmed.len()];
            for l in labels(id).lines() {
                kernel.push_str(&format!("{indent}// {l}\n"));
            }
            continue;
        }
        let mut l = line.to_string();
        for &id in used.iter().rev() {
            let call = format!("{}(", marker_name(id));
            if l.contains(&call) {
                let label = labels(id).replace("*/", "* /").replace('\n', " ");
                l = l.replace(&call, &format!("/* {label} */ ("));
            }
        }
        kernel.push_str(&l);
        kernel.push('\n');
    }
    out.push_str(&kernel);
    out
}

fn mark_statements(body: &mut Vec<Stmt>, make: &mut dyn FnMut(usize) -> Stmt) {
    let mut i = 0;
    while i < body.len() {
        for (c, _) in walk::children(&body[i])
            .into_iter()
            .map(|(c, b)| (c, b.len()))
            .collect::<Vec<_>>()
        {
            let s = &mut body[i];
            let block = match (&mut s.kind, c) {
                (StmtKind::If { then, .. }, walk::Child::Then) => Some(then),
                (StmtKind::If { els, .. }, walk::Child::Else) => els.as_mut(),
                (StmtKind::For { body, .. }, walk::Child::Body)
                | (StmtKind::While { body, .. }, walk::Child::Body)
                | (StmtKind::DoWhile { body, .. }, walk::Child::Body)
                | (StmtKind::Block(body), walk::Child::Body) => Some(body),
                (StmtKind::Switch { arms, .. }, walk::Child::Arm(k)) => {
                    arms.get_mut(k).map(|a| &mut a.body)
                }
                _ => None,
            };
            if let Some(b) = block {
                mark_statements(b, make);
            }
        }
        if let Some(id) = mark_of(body[i].span) {
            body[i].span = Span::default();
            body.insert(i, make(id));
            i += 1;
        }
        i += 1;
    }
}
