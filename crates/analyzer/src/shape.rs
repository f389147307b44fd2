//! The shape of index expressions: which values differ between the lanes of
//! a warp, and index expressions of the form `T * S + C` where only `T`
//! varies across lanes (`S` is the stride between lanes, `C` the part all
//! lanes share).

use hone_emulator::{KernelArg, LaunchConfig};
use hone_ir::{BinaryOp, Builtin, Dim, Expr, ExprKind, Function, Intrinsic, StmtKind, VarKind};

use crate::walk::{int_value, strip, visit_expr};

/// Which variables of a function may hold different values in the lanes of
/// one warp, for a given block shape.
pub struct Varying {
    vars: Vec<bool>,
    block: [u32; 3],
}

/// One pass over a function: how many conditions that differ between lanes
/// enclose the current statement, and at which such depth each variable was
/// declared. An assignment makes a variable vary when its value varies, or
/// when a varying condition entered after the declaration guards it (lanes
/// that skip it keep the old value); a loop counter declared inside a bounds
/// check stays uniform.
struct Pass<'f> {
    f: &'f Function,
    depth: u32,
    declared_at: Vec<u32>,
    changed: bool,
}

impl Varying {
    pub fn new(f: &Function, block: [u32; 3]) -> Varying {
        let mut v = Varying {
            vars: vec![false; f.vars.len()],
            block,
        };
        // Each round marks at least one more variable or stops.
        for _ in 0..=f.vars.len() {
            let mut pass = Pass {
                f,
                depth: 0,
                declared_at: vec![0; f.vars.len()],
                changed: false,
            };
            v.block_pass(&f.body, &mut pass);
            if !pass.changed {
                break;
            }
        }
        v
    }

    fn mark(&mut self, var: hone_ir::VarId, pass: &mut Pass) {
        let slot = &mut self.vars[var.0 as usize];
        if !*slot {
            *slot = true;
            pass.changed = true;
        }
    }

    fn assignments(&mut self, e: &Expr, pass: &mut Pass) {
        let mut marks = Vec::new();
        let guarded = |v: hone_ir::VarId| pass.depth > pass.declared_at[v.0 as usize];
        visit_expr(e, &mut |x| match &x.kind {
            ExprKind::Assign { lhs, rhs, .. } => {
                if let ExprKind::Var(v) = strip(lhs).kind {
                    if guarded(v) || self.expr(rhs) {
                        marks.push(v);
                    }
                }
            }
            ExprKind::IncDec { target, .. } => {
                if let ExprKind::Var(v) = strip(target).kind {
                    if guarded(v) {
                        marks.push(v);
                    }
                }
            }
            _ => {}
        });
        for v in marks {
            self.mark(v, pass);
        }
    }

    /// Runs `body` one varying condition deeper when `varies`.
    fn nested(&mut self, varies: bool, pass: &mut Pass, body: impl FnOnce(&mut Self, &mut Pass)) {
        pass.depth += u32::from(varies);
        body(self, pass);
        pass.depth -= u32::from(varies);
    }

    fn block_pass(&mut self, block: &[hone_ir::Stmt], pass: &mut Pass) {
        for s in block {
            match &s.kind {
                StmtKind::Decl { var, init } => {
                    pass.declared_at[var.0 as usize] = pass.depth;
                    let varying = match init {
                        Some(hone_ir::Init::Expr(e)) => {
                            self.assignments(e, pass);
                            self.expr(e)
                        }
                        Some(hone_ir::Init::List(_)) => true,
                        None => false,
                    };
                    if varying && pass.f.vars[var.0 as usize].kind == VarKind::Local {
                        self.mark(*var, pass);
                    }
                }
                StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.assignments(e, pass),
                StmtKind::If { cond, then, els } => {
                    self.assignments(cond, pass);
                    let varies = self.expr(cond);
                    self.nested(varies, pass, |me, pass| {
                        me.block_pass(then, pass);
                        if let Some(b) = els {
                            me.block_pass(b, pass);
                        }
                    });
                }
                StmtKind::For {
                    init,
                    cond,
                    step,
                    body,
                } => {
                    self.block_pass(init, pass);
                    let varies = cond.as_ref().is_some_and(|c| self.expr(c));
                    self.nested(varies, pass, |me, pass| {
                        if let Some(s) = step {
                            me.assignments(s, pass);
                        }
                        me.block_pass(body, pass);
                    });
                }
                StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                    let varies = self.expr(cond);
                    self.nested(varies, pass, |me, pass| {
                        me.assignments(cond, pass);
                        me.block_pass(body, pass);
                    });
                }
                StmtKind::Switch { value, arms } => {
                    let varies = self.expr(value);
                    self.nested(varies, pass, |me, pass| {
                        for a in arms {
                            me.block_pass(&a.body, pass);
                        }
                    });
                }
                StmtKind::Block(b) => self.block_pass(b, pass),
                StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => {}
            }
        }
    }

    /// Whether `threadIdx` along `d` differs between lanes of one warp.
    fn thread_dim_varies(&self, d: Dim) -> bool {
        let [x, y, z] = self.block;
        match d {
            Dim::X => x > 1,
            Dim::Y => y > 1 && x % 32 != 0,
            Dim::Z => z > 1 && (x * y) % 32 != 0,
        }
    }

    /// Whether `e` may differ between the lanes of one warp.
    pub fn expr(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Builtin(Builtin::ThreadIdx(d)) => self.thread_dim_varies(*d),
            ExprKind::Builtin(_)
            | ExprKind::IntLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::BoolLit(_) => false,
            ExprKind::SizeOf(_) => false,
            ExprKind::Var(v) => self.vars.get(v.0 as usize).copied().unwrap_or(true),
            ExprKind::Call(..) => true,
            ExprKind::Intrinsic(Intrinsic::Math(_) | Intrinsic::MakeVector, args) => {
                args.iter().any(|a| self.expr(a))
            }
            ExprKind::Intrinsic(..) => true,
            _ => crate::walk::children(e).into_iter().any(|c| self.expr(c)),
        }
    }
}

/// The stride of a `T * S + C` index.
#[derive(Clone, Debug)]
pub enum Stride<'a> {
    One,
    Const(i64),
    Expr(&'a Expr),
}

/// An index `T * S + C`: `thread` varies across lanes, `stride` and the
/// `offset` terms (each with its sign, `true` for minus) do not.
#[derive(Clone, Debug)]
pub struct Strided<'a> {
    pub thread: &'a Expr,
    pub stride: Stride<'a>,
    pub offset: Vec<(bool, &'a Expr)>,
}

pub(crate) fn terms<'a>(e: &'a Expr, neg: bool, out: &mut Vec<(bool, &'a Expr)>) {
    let s = strip(e);
    match &s.kind {
        ExprKind::Binary(BinaryOp::Add, a, b) => {
            terms(a, neg, out);
            terms(b, neg, out);
        }
        ExprKind::Binary(BinaryOp::Sub, a, b) => {
            terms(a, neg, out);
            terms(b, !neg, out);
        }
        _ => out.push((neg, s)),
    }
}

/// Matches `e` against `T * S + C`.
pub fn strided<'a>(e: &'a Expr, v: &Varying) -> Option<Strided<'a>> {
    let mut all = Vec::new();
    terms(e, false, &mut all);
    let mut varying = all.iter().filter(|(_, t)| v.expr(t));
    let &(neg, t) = varying.next()?;
    if neg || varying.next().is_some() {
        return None;
    }
    let offset: Vec<(bool, &Expr)> = all
        .iter()
        .copied()
        .filter(|(_, x)| !std::ptr::eq(*x, t))
        .collect();
    let (thread, stride) = match &t.kind {
        ExprKind::Binary(BinaryOp::Mul, a, b) => {
            let (a, b) = (strip(a), strip(b));
            match (v.expr(a), v.expr(b)) {
                (true, false) => (a, stride_of(b)),
                (false, true) => (b, stride_of(a)),
                _ => return None,
            }
        }
        ExprKind::Binary(BinaryOp::Shl, a, k) if !v.expr(k) => {
            let k = int_value(k)?;
            if !(0..31).contains(&k) {
                return None;
            }
            (strip(a), Stride::Const(1 << k))
        }
        _ => (t, Stride::One),
    };
    Some(Strided {
        thread,
        stride,
        offset,
    })
}

fn stride_of(e: &Expr) -> Stride<'_> {
    match int_value(e) {
        Some(1) => Stride::One,
        Some(k) => Stride::Const(k),
        None => Stride::Expr(e),
    }
}

/// The value of a warp-uniform expression made of literals, scalar kernel
/// parameters and launch dimensions, for the given launch.
pub fn eval_uniform(e: &Expr, f: &Function, args: &[KernelArg], cfg: &LaunchConfig) -> Option<i64> {
    let e = strip(e);
    match &e.kind {
        ExprKind::IntLit(v) => i64::try_from(*v).ok(),
        ExprKind::Var(v) => {
            let pos = f.params.iter().position(|p| p == v)?;
            match args.get(pos)? {
                KernelArg::Int(x) => Some(*x),
                _ => None,
            }
        }
        ExprKind::Builtin(Builtin::BlockDim(d)) => Some(i64::from(cfg.block[d.index()])),
        ExprKind::Builtin(Builtin::GridDim(d)) => Some(i64::from(cfg.grid[d.index()])),
        ExprKind::Builtin(Builtin::WarpSize) => Some(32),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (
                eval_uniform(a, f, args, cfg)?,
                eval_uniform(b, f, args, cfg)?,
            );
            match op {
                BinaryOp::Add => a.checked_add(b),
                BinaryOp::Sub => a.checked_sub(b),
                BinaryOp::Mul => a.checked_mul(b),
                BinaryOp::Div if b != 0 => a.checked_div(b),
                BinaryOp::Shl if (0..63).contains(&b) => a.checked_shl(b as u32),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether `e` only reads literals, scalar parameters and launch dimensions,
/// so it means the same anywhere in the kernel.
pub fn is_launch_constant(e: &Expr, f: &Function) -> bool {
    let mut ok = true;
    visit_expr(e, &mut |x| match &x.kind {
        ExprKind::IntLit(_)
        | ExprKind::Builtin(Builtin::BlockDim(_) | Builtin::GridDim(_) | Builtin::WarpSize)
        | ExprKind::Binary(..)
        | ExprKind::Cast { .. } => {}
        ExprKind::Var(v) if f.params.contains(v) && f.var(*v).ty.scalar().is_some() => {}
        _ => ok = false,
    });
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(src: &str) -> hone_ir::Module {
        let p = hone_frontend::parse_source("t.cu", src, &Default::default()).unwrap();
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        p.module
    }

    /// The index expressions of every `a[...]` in the kernel, in order.
    fn indices(f: &Function) -> Vec<&Expr> {
        let mut out = Vec::new();
        crate::walk::visit_block(&f.body, &mut |e| {
            if let ExprKind::Index(_, i) = &e.kind {
                out.push(i.as_ref());
            }
        });
        out
    }

    #[test]
    fn thread_variables_vary_and_loop_counters_do_not() {
        let m = kernel(
            "__global__ void k(float *a, int n) {
               int id = threadIdx.x + blockIdx.x * blockDim.x;
               int row = blockIdx.y;
               float s = 0;
               for (int j = 0; j < n; j++) s += a[id * n + j];
               if (id < n) row = 1;
               if (id < n) for (int k = 0; k < n; k++) s += a[k];
               a[row] = s;
             }",
        );
        let f = &m.functions[0];
        let v = Varying::new(f, [64, 1, 1]);
        let by_name = |n: &str| f.vars.iter().position(|x| x.name == n).unwrap();
        assert!(v.vars[by_name("id")]);
        assert!(!v.vars[by_name("j")]);
        // a counter declared inside a bounds check is still uniform
        assert!(!v.vars[by_name("k")]);
        assert!(v.vars[by_name("s")]);
        // assigned under a condition that differs between lanes
        assert!(v.vars[by_name("row")]);
        let idx = indices(f);
        let s = strided(idx[0], &v).unwrap();
        assert!(matches!(s.thread.kind, ExprKind::Var(_)));
        assert!(matches!(s.stride, Stride::Expr(_)));
        assert_eq!(s.offset.len(), 1);
        assert_eq!(
            eval_uniform(
                match s.stride {
                    Stride::Expr(e) => e,
                    _ => unreachable!(),
                },
                f,
                &[KernelArg::Buffer(0), KernelArg::Int(7)],
                &LaunchConfig::linear(1, 64)
            ),
            Some(7)
        );
    }

    #[test]
    fn thread_index_y_is_uniform_in_warps_of_full_rows() {
        let m = kernel(
            "__global__ void t(float *o, const float *i, int n) {
               int x = blockIdx.x * blockDim.x + threadIdx.x;
               int y = blockIdx.y * blockDim.y + threadIdx.y;
               o[x * n + y] = i[y * n + x];
             }",
        );
        let f = &m.functions[0];
        let v = Varying::new(f, [32, 8, 1]);
        let idx = indices(f);
        // o[x * n + y]: x varies with stride n, y is shared by the warp
        let s = strided(idx[0], &v).unwrap();
        assert!(matches!(s.stride, Stride::Expr(_)));
        assert_eq!(s.offset.len(), 1);
        // i[y * n + x]: unit stride
        let s = strided(idx[1], &v).unwrap();
        assert!(matches!(s.stride, Stride::One));
        // with 16-wide blocks y differs inside a warp: two varying terms
        let v16 = Varying::new(f, [16, 16, 1]);
        assert!(strided(idx[0], &v16).is_none());
    }

    #[test]
    fn constant_strides_and_shifts() {
        let m = kernel(
            "__global__ void k(float *a, float *b) {
               int i = threadIdx.x;
               b[i] = a[3 * i + 2] + a[(i << 1) - 1];
             }",
        );
        let f = &m.functions[0];
        let v = Varying::new(f, [32, 1, 1]);
        let idx = indices(f);
        let s = strided(idx[1], &v).unwrap();
        assert!(matches!(s.stride, Stride::Const(3)));
        let s = strided(idx[2], &v).unwrap();
        assert!(matches!(s.stride, Stride::Const(2)));
        assert!(s.offset[0].0, "the offset is subtracted");
    }
}
