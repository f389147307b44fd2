//! Lowering of one IR function to bytecode.

use std::collections::HashSet;

use hone_ir::{
    Arith, ArrayLen, BinaryOp, Block, Builtin, Expr, ExprKind, FuncId, Function, Init, Intrinsic,
    MathOp, Module, Scalar, Span, Stmt, StmtKind, Type, UnaryOp, VarId, VarKind,
};

use super::ops::{
    BinK, CallInfo, CmpK, MemTy, ObjRef, Op, Opnd, PrintfArg, Reg, Site, Special, SwitchTable, UnK,
};
use super::{
    field_reg, has_array, leaves, ncomp, scalar_of, shared_obj, shared_var, unsupported,
    value_regs, CompiledFn, LocalVar, Program,
};
use crate::exec::arith::{canon, convert_bits};
use crate::report::SetupError;

mod call;
mod expr;
mod intrinsic;
mod memory;
mod stmt;

type R<T> = Result<T, SetupError>;

#[derive(Clone, Copy, Debug)]
enum Loc {
    Reg(Reg),
    Local(u32),
    Shared(u32),
}

/// An rvalue: `n` components starting at `op` (vectors live in consecutive registers).
#[derive(Clone, Copy, Debug)]
struct Val {
    op: Opnd,
    n: u8,
}

impl Val {
    fn one(op: Opnd) -> Val {
        Val { op, n: 1 }
    }
    fn none() -> Val {
        Val {
            op: Opnd::I(0),
            n: 0,
        }
    }
    fn comp(self, k: u8) -> Opnd {
        match self.op {
            Opnd::R(r) => Opnd::R(r + k as u32),
            imm => imm,
        }
    }
}

enum LVal {
    Reg { r: Reg },
    Mem { ptr: Opnd },
}

#[derive(Clone, Copy)]
enum Breakable {
    Loop(u32),
    Switch(u32),
}

const UNBOUND: u32 = u32::MAX;

struct Lower<'a> {
    m: &'a Module,
    f: &'a Function,
    prog: &'a mut Program,
    code: Vec<Op>,
    locs: Vec<Loc>,
    locals: Vec<LocalVar>,
    local_size: u64,
    next_reg: u32,
    max_reg: u32,
    /// Registers below this survive the current statement.
    base_reg: u32,
    nslots: u32,
    labels: Vec<u32>,
    /// Where lanes retired by break/continue/return jump when none is left:
    /// the next op that can reactivate lanes.
    joins: Vec<u32>,
    breakables: Vec<Breakable>,
    callees: Vec<FuncId>,
}

pub(super) fn lower_function(
    m: &Module,
    fid: FuncId,
    prog: &mut Program,
) -> R<(CompiledFn, Vec<FuncId>)> {
    let f = m.func(fid);
    let mut refs = Refs::of(&f.body);
    for p in &f.params {
        refs.saw(*p);
    }
    if refs.max_var.is_some_and(|v| v as usize >= f.vars.len()) {
        return Err(unsupported(
            m,
            f.span,
            &format!("`{}` refers to an undeclared variable", f.name),
        ));
    }
    let addr_taken = refs.addr_taken;
    let ret_n = ncomp(&f.ret);
    let mut l = Lower {
        m,
        f,
        prog,
        code: Vec::new(),
        locs: vec![Loc::Reg(0); f.vars.len()],
        locals: Vec::new(),
        local_size: 0,
        next_reg: ret_n as u32,
        max_reg: 0,
        base_reg: 0,
        nslots: 0,
        labels: Vec::new(),
        joins: Vec::new(),
        breakables: Vec::new(),
        callees: Vec::new(),
    };
    // Parameters arrive in registers right after the return value.
    let mut param_regs = Vec::new();
    for &p in &f.params {
        let var = f.var(p);
        let n = ncomp(&var.ty).max(1) as u32;
        param_regs.push((p, l.next_reg));
        l.locs[p.0 as usize] = Loc::Reg(l.next_reg);
        l.next_reg += n;
    }
    for (i, var) in f.vars.iter().enumerate() {
        let id = VarId(i as u32);
        match var.kind {
            VarKind::Shared | VarKind::ExternShared => {
                let sv = shared_var(m, fid, var)?;
                l.locs[i] = Loc::Shared(l.prog.shared.len() as u32);
                l.prog.shared.push(sv);
            }
            VarKind::Param | VarKind::Local => {
                // Volatile variables live in memory so every access is one;
                // so do unions, whose members are views of the same bytes.
                let in_memory = matches!(var.ty, Type::Array(..))
                    || has_array(&var.ty)
                    || var.is_volatile
                    || var.ty.has_union()
                    || addr_taken.contains(&id);
                if !in_memory && value_regs(&var.ty) > 255 {
                    return Err(unsupported(
                        m,
                        var.span,
                        &format!(
                            "`{}` is a struct of {} scalars, more than a value may hold",
                            var.name,
                            value_regs(&var.ty)
                        ),
                    ));
                }
                if in_memory {
                    if l.locals.len() as u32 > crate::exec::memory::LOCAL_INDEX_MASK {
                        return Err(unsupported(
                            m,
                            var.span,
                            "too many local arrays in one function",
                        ));
                    }
                    let size = var.ty.size().ok_or_else(|| {
                        unsupported(
                            m,
                            var.span,
                            &format!("local `{}` has no constant size", var.name),
                        )
                    })?;
                    let align = var.ty.align().max(1);
                    let offset = l.local_size.div_ceil(align).saturating_mul(align);
                    // Saturates on absurd arrays, which the launch then
                    // refuses as past the local-memory limit.
                    l.local_size = offset.saturating_add(size);
                    l.locs[i] = Loc::Local(l.locals.len() as u32);
                    l.locals.push(LocalVar {
                        name: var.name.clone(),
                        offset,
                        size,
                    });
                } else if var.kind == VarKind::Local {
                    l.locs[i] = Loc::Reg(l.next_reg);
                    l.next_reg += ncomp(&var.ty).max(1) as u32;
                }
            }
        }
    }
    l.base_reg = l.next_reg;
    l.max_reg = l.next_reg;
    // Parameters whose address is taken move to local memory on entry.
    for (p, reg) in param_regs {
        if let Loc::Local(idx) = l.locs[p.0 as usize] {
            let ty = f.var(p).ty.clone();
            let ptr = l.tmp();
            l.code.push(Op::ObjPtr {
                dst: ptr,
                obj: ObjRef::Local(idx),
            });
            let n = ncomp(&ty).max(1);
            l.store(
                Opnd::R(ptr),
                Val {
                    op: Opnd::R(reg),
                    n,
                },
                &ty,
                f.span,
            )?;
            l.end_stmt();
        }
    }
    let end = l.label();
    l.joins.push(end);
    l.block(&f.body)?;
    l.joins.pop();
    l.bind(end);
    l.code.push(Op::FuncEnd);
    l.resolve_labels();
    let compiled = CompiledFn {
        name: f.name.clone(),
        code: l.code,
        nregs: l.max_reg.max(l.next_reg),
        nslots: l.nslots,
        ret_n,
        locals: l.locals,
        local_size: l.local_size,
    };
    Ok((compiled, l.callees))
}

/// Variables a function body refers to: those whose address is taken, and
/// the highest index used (checked against the function's variables).
#[derive(Default)]
struct Refs {
    addr_taken: HashSet<VarId>,
    max_var: Option<u32>,
}

impl Refs {
    fn saw(&mut self, v: VarId) {
        self.max_var = self.max_var.max(Some(v.0));
    }
}

impl Refs {
    fn of(body: &Block) -> Refs {
        let mut refs = Refs::default();
        hone_ir::path::each_stmt(body, &mut |s, _| {
            if let StmtKind::Decl { var, .. } = &s.kind {
                refs.saw(*var);
            }
        });
        hone_ir::visit::visit_block(body, &mut |e| match &e.kind {
            ExprKind::Var(v) => refs.saw(*v),
            ExprKind::AddrOf(x) => {
                let mut t = &**x;
                while let ExprKind::Component(inner, _) | ExprKind::Field(inner, _) = &t.kind {
                    t = inner;
                }
                if let ExprKind::Var(v) = t.kind {
                    refs.addr_taken.insert(v);
                }
            }
            _ => {}
        });
        refs
    }
}

fn mem_ty(ty: &Type) -> Option<MemTy> {
    Some(match ty {
        Type::Scalar(s) => MemTy {
            scalar: *s,
            pointer: false,
            n: 1,
        },
        Type::Vector(s, n) => MemTy {
            scalar: *s,
            pointer: false,
            n: *n,
        },
        Type::Pointer(_) => MemTy {
            scalar: Scalar::U64,
            pointer: true,
            n: 1,
        },
        _ => return None,
    })
}

fn is_ptr_like(ty: &Type) -> bool {
    matches!(ty, Type::Pointer(_) | Type::Array(..))
}

/// C's usual arithmetic conversions, for operands the front end left unconverted.
fn usual(a: Scalar, b: Scalar) -> Scalar {
    let rank = |s: Scalar| match s {
        Scalar::F64 => 7,
        Scalar::F32 => 6,
        Scalar::U64 => 5,
        Scalar::I64 => 4,
        Scalar::U32 => 3,
        _ => 2,
    };
    let pick = if rank(a) >= rank(b) { a } else { b };
    Arith::of(pick).scalar()
}

fn bin_k(op: BinaryOp) -> Option<BinK> {
    Some(match op {
        BinaryOp::Add => BinK::Add,
        BinaryOp::Sub => BinK::Sub,
        BinaryOp::Mul => BinK::Mul,
        BinaryOp::Div => BinK::Div,
        BinaryOp::Rem => BinK::Rem,
        BinaryOp::Shl => BinK::Shl,
        BinaryOp::Shr => BinK::Shr,
        BinaryOp::BitAnd => BinK::And,
        BinaryOp::BitOr => BinK::Or,
        BinaryOp::BitXor => BinK::Xor,
        _ => return None,
    })
}

fn cmp_k(op: BinaryOp) -> Option<CmpK> {
    Some(match op {
        BinaryOp::Eq => CmpK::Eq,
        BinaryOp::Ne => CmpK::Ne,
        BinaryOp::Lt => CmpK::Lt,
        BinaryOp::Le => CmpK::Le,
        BinaryOp::Gt => CmpK::Gt,
        BinaryOp::Ge => CmpK::Ge,
        _ => return None,
    })
}

impl<'a> Lower<'a> {
    fn err(&self, span: Span, msg: &str) -> SetupError {
        unsupported(self.m, span, msg)
    }

    fn tmp_n(&mut self, n: u8) -> Reg {
        let r = self.next_reg;
        self.next_reg += n.max(1) as u32;
        self.max_reg = self.max_reg.max(self.next_reg);
        r
    }

    fn tmp(&mut self) -> Reg {
        self.tmp_n(1)
    }

    fn end_stmt(&mut self) {
        self.next_reg = self.base_reg;
    }

    fn slot(&mut self) -> u32 {
        self.nslots += 1;
        self.nslots - 1
    }

    fn label(&mut self) -> u32 {
        self.labels.push(UNBOUND);
        self.labels.len() as u32 - 1
    }

    fn bind(&mut self, l: u32) {
        self.labels[l as usize] = self.code.len() as u32;
    }

    fn join(&self) -> u32 {
        *self.joins.last().expect("function body has a join label")
    }

    fn site(&mut self, span: Span) -> u32 {
        self.prog.sites.push(Site { span });
        self.prog.sites.len() as u32 - 1
    }

    fn resolve_labels(&mut self) {
        let labels = std::mem::take(&mut self.labels);
        let fix = |t: &mut u32| *t = labels[*t as usize];
        for op in &mut self.code {
            match op {
                Op::Jump { to, .. } => fix(to),
                Op::IfBegin { else_at, .. } => fix(else_at),
                Op::Else { end_at, .. } => fix(end_at),
                Op::LoopCond { exit_at, .. } => fix(exit_at),
                Op::LoopBack { body_at, .. } => fix(body_at),
                Op::Break { skip, .. }
                | Op::Continue { skip, .. }
                | Op::MaskPush { skip, .. }
                | Op::Return { skip, .. } => fix(skip),
                _ => {}
            }
        }
    }

    // ---------------------------------------------------------------- statements
}
