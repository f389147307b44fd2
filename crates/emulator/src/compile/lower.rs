//! Lowering of one IR function to bytecode.

use std::collections::HashSet;

use hone_ir::{
    ArrayLen, BinaryOp, Block, Builtin, Expr, ExprKind, FuncId, Function, Init, Intrinsic, MathOp,
    Module, Scalar, Span, Stmt, StmtKind, Type, UnaryOp, VarId, VarKind,
};

use super::ops::{
    BinK, CallInfo, CmpK, MemTy, Num, ObjRef, Op, Opnd, Reg, Site, Special, SwitchTable, UnK,
};
use super::{ncomp, scalar_of, shared_var, unsupported, CompiledFn, LocalVar, Program};
use crate::exec::arith::{canon, convert_bits};
use crate::report::SetupError;

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
    let mut refs = Refs::default();
    for s in &f.body {
        collect_addr_taken_stmt(s, &mut refs);
    }
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
                let in_memory = matches!(var.ty, Type::Array(..)) || addr_taken.contains(&id);
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
                    let offset = l.local_size.div_ceil(align) * align;
                    l.local_size = offset + size;
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

fn collect_addr_taken_stmt(s: &Stmt, out: &mut Refs) {
    if let StmtKind::Decl { var, .. } = &s.kind {
        out.saw(*var);
    }
    let mut ex = |e: &Expr| collect_addr_taken(e, out);
    match &s.kind {
        StmtKind::Decl { init, .. } => {
            fn init_walk(i: &Init, out: &mut Refs) {
                match i {
                    Init::Expr(e) => collect_addr_taken(e, out),
                    Init::List(l) => l.iter().for_each(|i| init_walk(i, out)),
                }
            }
            if let Some(i) = init {
                init_walk(i, out);
            }
        }
        StmtKind::Expr(e) => ex(e),
        StmtKind::If { cond, then, els } => {
            ex(cond);
            then.iter().for_each(|s| collect_addr_taken_stmt(s, out));
            els.iter()
                .flatten()
                .for_each(|s| collect_addr_taken_stmt(s, out));
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            cond.iter().for_each(&mut ex);
            step.iter().for_each(&mut ex);
            init.iter()
                .chain(body)
                .for_each(|s| collect_addr_taken_stmt(s, out));
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            ex(cond);
            body.iter().for_each(|s| collect_addr_taken_stmt(s, out));
        }
        StmtKind::Switch { value, arms } => {
            ex(value);
            arms.iter()
                .flat_map(|a| &a.body)
                .for_each(|s| collect_addr_taken_stmt(s, out));
        }
        StmtKind::Return(Some(e)) => ex(e),
        StmtKind::Block(b) => b.iter().for_each(|s| collect_addr_taken_stmt(s, out)),
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) => {}
    }
}

fn collect_addr_taken(e: &Expr, out: &mut Refs) {
    if let ExprKind::Var(v) = &e.kind {
        out.saw(*v);
    }
    if let ExprKind::AddrOf(x) = &e.kind {
        let mut t = &**x;
        while let ExprKind::Component(inner, _) = &t.kind {
            t = inner;
        }
        if let ExprKind::Var(v) = t.kind {
            out.addr_taken.insert(v);
        }
    }
    for_each_child(e, |c| collect_addr_taken(c, out));
}

fn for_each_child(e: &Expr, mut f: impl FnMut(&Expr)) {
    match &e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::Cast { expr: a, .. }
        | ExprKind::Component(a, _)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a) => f(a),
        ExprKind::IncDec { target, .. } => f(target),
        ExprKind::Binary(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            f(a);
            f(b)
        }
        ExprKind::Cond(a, b, c) => {
            f(a);
            f(b);
            f(c)
        }
        ExprKind::Call(_, args) | ExprKind::Intrinsic(_, args) => args.iter().for_each(f),
        ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::BoolLit(_)
        | ExprKind::Var(_)
        | ExprKind::Builtin(_)
        | ExprKind::SizeOf(_) => {}
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
    Num::of(pick).scalar()
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

    fn block(&mut self, b: &Block) -> R<()> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        let r = self.stmt_inner(s);
        self.end_stmt();
        r
    }

    fn stmt_inner(&mut self, s: &Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Decl { var, init } => self.decl(*var, init.as_ref(), s.span),
            StmtKind::Expr(e) => self.expr(e).map(|_| ()),
            StmtKind::Block(b) => self.block(b),
            StmtKind::If { cond, then, els } => {
                let c = self.truth(cond)?;
                let slot = self.slot();
                let l_else = self.label();
                let l_end = self.label();
                self.code.push(Op::IfBegin {
                    slot,
                    c,
                    else_at: l_else,
                });
                self.end_stmt();
                self.joins.push(l_else);
                self.block(then)?;
                self.joins.pop();
                self.bind(l_else);
                self.code.push(Op::Else {
                    slot,
                    end_at: l_end,
                });
                if let Some(els) = els {
                    self.joins.push(l_end);
                    self.block(els)?;
                    self.joins.pop();
                }
                self.bind(l_end);
                self.code.push(Op::EndIf { slot });
                Ok(())
            }
            StmtKind::While { cond, body } => self.lower_loop(&[], Some(cond), None, body, s.span),
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => self.lower_loop(init, cond.as_ref(), step.as_ref(), body, s.span),
            StmtKind::DoWhile { body, cond } => {
                let slot = self.slot();
                self.code.push(Op::LoopBegin { slot });
                let l_body = self.label();
                let l_cont = self.label();
                self.bind(l_body);
                self.breakables.push(Breakable::Loop(slot));
                self.joins.push(l_cont);
                self.block(body)?;
                self.joins.pop();
                self.breakables.pop();
                self.bind(l_cont);
                self.code.push(Op::LoopCont { slot });
                let c = self.truth(cond)?;
                let site = self.site(s.span);
                self.code.push(Op::LoopBack {
                    slot,
                    c,
                    body_at: l_body,
                    site,
                });
                self.code.push(Op::LoopEnd { slot });
                Ok(())
            }
            StmtKind::Switch { value, arms } => {
                let v = self.expr(value)?;
                let vs = scalar_of(&value.ty);
                let v = if vs.is_float() {
                    return Err(self.err(value.span, "switch on a floating-point value"));
                } else {
                    v.op
                };
                let slot = self.slot();
                // The arm-selection register must survive the arms' statements.
                let saved_base = self.base_reg;
                let tgt = self.tmp();
                self.base_reg = self.next_reg;
                let mut cases = Vec::new();
                let mut default = None;
                for (i, arm) in arms.iter().enumerate() {
                    for lab in &arm.labels {
                        match lab {
                            Some(v) => cases.push((canon(vs, *v as u64) as i64, i as u32)),
                            None => default = Some(i as u32),
                        }
                    }
                }
                cases.sort_by_key(|c| c.0);
                cases.dedup_by_key(|c| c.0);
                let table = self.prog.tables.len() as u32;
                self.prog.tables.push(SwitchTable {
                    cases,
                    default,
                    narms: arms.len() as u32,
                });
                self.code.push(Op::SwitchBegin {
                    slot,
                    val: v,
                    tgt,
                    table,
                });
                self.breakables.push(Breakable::Switch(slot));
                let arm_labels: Vec<u32> = (0..=arms.len()).map(|_| self.label()).collect();
                for (i, arm) in arms.iter().enumerate() {
                    self.bind(arm_labels[i]);
                    self.code.push(Op::SwitchArm {
                        slot,
                        tgt,
                        arm: i as u32,
                    });
                    self.joins.push(arm_labels[i + 1]);
                    self.block(&arm.body)?;
                    self.joins.pop();
                }
                self.breakables.pop();
                self.bind(arm_labels[arms.len()]);
                self.code.push(Op::SwitchEnd {
                    slot,
                    tgt,
                    arms: arms.len() as u32,
                });
                self.base_reg = saved_base;
                Ok(())
            }
            StmtKind::Break => {
                let slot = match self.breakables.last() {
                    Some(Breakable::Loop(s)) | Some(Breakable::Switch(s)) => *s,
                    None => return Err(self.err(s.span, "`break` outside a loop or switch")),
                };
                let skip = self.join();
                self.code.push(Op::Break { slot, skip });
                Ok(())
            }
            StmtKind::Continue => {
                let slot = self.breakables.iter().rev().find_map(|b| match b {
                    Breakable::Loop(s) => Some(*s),
                    Breakable::Switch(_) => None,
                });
                let Some(slot) = slot else {
                    return Err(self.err(s.span, "`continue` outside a loop"));
                };
                let skip = self.join();
                self.code.push(Op::Continue { slot, skip });
                Ok(())
            }
            StmtKind::Return(e) => {
                let val = match e {
                    Some(e) if self.f.ret != Type::Void => {
                        let v = self.expr(e)?;
                        let v = self.convert(v, &e.ty, &self.f.ret.clone(), e.span)?;
                        Some((v.op, v.n))
                    }
                    Some(e) => {
                        self.expr(e)?;
                        None
                    }
                    None => None,
                };
                let skip = self.join();
                self.code.push(Op::Return { val, skip });
                Ok(())
            }
        }
    }

    fn lower_loop(
        &mut self,
        init: &[Stmt],
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Block,
        span: Span,
    ) -> R<()> {
        for s in init {
            self.stmt(s)?;
        }
        let slot = self.slot();
        self.code.push(Op::LoopBegin { slot });
        let l_head = self.label();
        let l_cont = self.label();
        let l_exit = self.label();
        self.bind(l_head);
        let c = match cond {
            Some(c) => self.truth(c)?,
            None => Opnd::I(1),
        };
        self.code.push(Op::LoopCond {
            slot,
            c,
            exit_at: l_exit,
        });
        self.end_stmt();
        self.breakables.push(Breakable::Loop(slot));
        self.joins.push(l_cont);
        self.block(body)?;
        self.joins.pop();
        self.breakables.pop();
        self.bind(l_cont);
        self.code.push(Op::LoopCont { slot });
        if let Some(step) = step {
            self.expr(step)?;
            self.end_stmt();
        }
        let site = self.site(span);
        self.code.push(Op::Jump { to: l_head, site });
        self.bind(l_exit);
        self.code.push(Op::LoopEnd { slot });
        Ok(())
    }

    fn decl(&mut self, var: VarId, init: Option<&Init>, span: Span) -> R<()> {
        let v = self.f.var(var);
        let ty = v.ty.clone();
        let Some(init) = init else {
            return Ok(());
        };
        match self.locs[var.0 as usize] {
            Loc::Reg(r) => match init {
                Init::Expr(e) => {
                    let val = self.expr(e)?;
                    let val = self.convert(val, &e.ty, &ty, e.span)?;
                    self.write_regs(r, val);
                    Ok(())
                }
                Init::List(items) => {
                    let s = scalar_of(&ty);
                    let n = ncomp(&ty).max(1);
                    for k in 0..n {
                        let val = match items.get(k as usize) {
                            Some(Init::Expr(e)) => {
                                let val = self.expr(e)?;
                                self.convert(val, &e.ty, &Type::Scalar(s), e.span)?
                            }
                            Some(Init::List(_)) => {
                                return Err(self.err(span, "nested initializer list for a scalar"))
                            }
                            None => Val::one(Opnd::I(0)),
                        };
                        self.code.push(Op::Mov {
                            dst: r + k as u32,
                            src: val.op,
                        });
                    }
                    Ok(())
                }
            },
            Loc::Local(idx) => {
                let ptr = self.tmp();
                self.code.push(Op::ObjPtr {
                    dst: ptr,
                    obj: ObjRef::Local(idx),
                });
                self.init_mem(Opnd::R(ptr), &ty, init, span)
            }
            Loc::Shared(_) => Err(self.err(span, "initializer on a __shared__ variable")),
        }
    }

    /// Stores an initializer at `ptr`, zero-filling what a short list leaves out.
    fn init_mem(&mut self, ptr: Opnd, ty: &Type, init: &Init, span: Span) -> R<()> {
        match (ty, init) {
            (Type::Array(elem, ArrayLen::Const(n)), Init::List(items)) => {
                let esize = elem
                    .size()
                    .ok_or_else(|| self.err(span, "array element without a size"))?;
                for i in 0..*n {
                    let p = self.tmp();
                    self.code.push(Op::PtrAdd {
                        dst: p,
                        p: ptr,
                        i: Opnd::I(i),
                        scale: esize as i64,
                    });
                    match items.get(i as usize) {
                        Some(item) => self.init_mem(Opnd::R(p), elem, item, span)?,
                        None => self.zero_mem(Opnd::R(p), elem, span)?,
                    }
                }
                Ok(())
            }
            (Type::Vector(s, n), Init::List(items)) => {
                let r = self.tmp_n(*n);
                for k in 0..*n {
                    let val = match items.get(k as usize) {
                        Some(Init::Expr(e)) => {
                            let v = self.expr(e)?;
                            self.convert(v, &e.ty, &Type::Scalar(*s), e.span)?
                        }
                        _ => Val::one(Opnd::I(0)),
                    };
                    self.code.push(Op::Mov {
                        dst: r + k as u32,
                        src: val.op,
                    });
                }
                self.store(
                    ptr,
                    Val {
                        op: Opnd::R(r),
                        n: *n,
                    },
                    ty,
                    span,
                )
            }
            (_, Init::Expr(e)) => {
                let v = self.expr(e)?;
                let v = self.convert(v, &e.ty, ty, e.span)?;
                self.store(ptr, v, ty, span)
            }
            (_, Init::List(items)) if items.len() == 1 => self.init_mem(ptr, ty, &items[0], span),
            _ => Err(self.err(span, "unsupported initializer")),
        }
    }

    fn zero_mem(&mut self, ptr: Opnd, ty: &Type, span: Span) -> R<()> {
        match ty {
            Type::Array(elem, ArrayLen::Const(n)) => {
                let esize = elem.size().unwrap_or(0);
                for i in 0..*n {
                    let p = self.tmp();
                    self.code.push(Op::PtrAdd {
                        dst: p,
                        p: ptr,
                        i: Opnd::I(i),
                        scale: esize as i64,
                    });
                    self.zero_mem(Opnd::R(p), elem, span)?;
                }
                Ok(())
            }
            _ => {
                let n = ncomp(ty).max(1);
                let r = self.tmp_n(n);
                for k in 0..n {
                    self.code.push(Op::Mov {
                        dst: r + k as u32,
                        src: Opnd::I(0),
                    });
                }
                self.store(ptr, Val { op: Opnd::R(r), n }, ty, span)
            }
        }
    }

    /// Writes `val` into registers starting at `r`. A value just computed into
    /// a fresh temporary is retargeted instead of copied.
    fn write_regs(&mut self, r: Reg, val: Val) {
        if let Opnd::R(t) = val.op {
            if t == r {
                return;
            }
            if t >= self.base_reg && self.retarget_last(t, r, val.n) {
                return;
            }
        }
        for k in 0..val.n {
            self.code.push(Op::Mov {
                dst: r + k as u32,
                src: val.comp(k),
            });
        }
    }

    fn retarget_last(&mut self, from: Reg, to: Reg, n: u8) -> bool {
        let Some(op) = self.code.last_mut() else {
            return false;
        };
        let dst = match op {
            Op::Bin { dst, .. }
            | Op::Cmp { dst, .. }
            | Op::Un { dst, .. }
            | Op::Cast { dst, .. }
            | Op::Select { dst, .. }
            | Op::PtrAdd { dst, .. }
            | Op::PtrDiff { dst, .. }
            | Op::Special { dst, .. }
            | Op::Math { dst, .. }
            | Op::Mov { dst, .. }
            | Op::Shfl { dst, .. }
            | Op::Vote { dst, .. } => {
                if n != 1 {
                    return false;
                }
                dst
            }
            Op::Load { dst, ty, .. } if ty.n == n => dst,
            _ => return false,
        };
        if *dst != from {
            return false;
        }
        *dst = to;
        true
    }

    // ---------------------------------------------------------------- expressions

    fn imm_int(&self, ty: &Type, v: u64, signed: bool) -> Opnd {
        let s = scalar_of(ty);
        if s.is_float() {
            let from = if signed { Scalar::I64 } else { Scalar::U64 };
            Opnd::I(convert_bits(from, s, v))
        } else {
            Opnd::I(canon(s, v))
        }
    }

    /// Value of a condition as 0/1.
    fn truth(&mut self, e: &Expr) -> R<Opnd> {
        let v = self.expr(e)?;
        Ok(self.truth_of(v.op, &e.ty))
    }

    fn truth_of(&mut self, v: Opnd, ty: &Type) -> Opnd {
        let s = scalar_of(ty);
        if s == Scalar::Bool {
            return v;
        }
        if let Opnd::I(x) = v {
            let nz = if s.is_float() {
                convert_bits(s, Scalar::Bool, x)
            } else {
                (x != 0) as u64
            };
            return Opnd::I(nz);
        }
        let dst = self.tmp();
        self.code.push(Op::Cmp {
            k: CmpK::Ne,
            ty: Num::of(s),
            dst,
            a: v,
            b: Opnd::I(0),
        });
        Opnd::R(dst)
    }

    fn convert(&mut self, v: Val, from: &Type, to: &Type, span: Span) -> R<Val> {
        if from == to || *to == Type::Void {
            return Ok(if *to == Type::Void { Val::none() } else { v });
        }
        match (from, to) {
            (Type::Vector(a, n), Type::Vector(b, m)) if a == b && n == m => Ok(v),
            (Type::Vector(..), _) | (_, Type::Vector(..)) => {
                Err(self.err(span, "conversion between vector and non-vector types"))
            }
            (Type::Void, _) => Err(self.err(span, "use of a void value")),
            _ => {
                let fs = scalar_of(from);
                let ts = scalar_of(to);
                if fs == ts {
                    return Ok(v);
                }
                if let Opnd::I(x) = v.op {
                    return Ok(Val::one(Opnd::I(convert_bits(fs, ts, x))));
                }
                let dst = self.tmp();
                self.code.push(Op::Cast {
                    from: fs,
                    to: ts,
                    dst,
                    a: v.op,
                });
                Ok(Val::one(Opnd::R(dst)))
            }
        }
    }

    /// Expression without side effects or faults: both arms of `?:` and `&&`
    /// may then be evaluated on every lane.
    fn pure(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::IntLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::BoolLit(_)
            | ExprKind::Builtin(_)
            | ExprKind::SizeOf(_) => true,
            ExprKind::Var(v) => matches!(self.locs[v.0 as usize], Loc::Reg(_)),
            ExprKind::Unary(_, a) | ExprKind::Cast { expr: a, .. } => self.pure(a),
            ExprKind::Component(a, _) => self.pure(a),
            ExprKind::Binary(op, a, b) => {
                let divides = matches!(op, BinaryOp::Div | BinaryOp::Rem)
                    && !scalar_of(&e.ty).is_float()
                    && !matches!(b.kind, ExprKind::IntLit(v) if v != 0);
                !divides && self.pure(a) && self.pure(b)
            }
            ExprKind::Cond(a, b, c) => self.pure(a) && self.pure(b) && self.pure(c),
            ExprKind::Intrinsic(Intrinsic::Math(_), args) => args.iter().all(|a| self.pure(a)),
            _ => false,
        }
    }

    fn expr(&mut self, e: &Expr) -> R<Val> {
        match &e.kind {
            ExprKind::IntLit(v) => Ok(Val::one(self.imm_int(&e.ty, *v, false))),
            ExprKind::BoolLit(b) => Ok(Val::one(self.imm_int(&e.ty, *b as u64, false))),
            ExprKind::FloatLit(f) => {
                let s = scalar_of(&e.ty);
                Ok(Val::one(Opnd::I(convert_bits(Scalar::F64, s, f.to_bits()))))
            }
            ExprKind::SizeOf(t) => {
                let size = t
                    .size()
                    .ok_or_else(|| self.err(e.span, "sizeof of an unsized type"))?;
                Ok(Val::one(self.imm_int(&e.ty, size, false)))
            }
            ExprKind::Var(v) => match self.locs[v.0 as usize] {
                Loc::Reg(r) => Ok(Val {
                    op: Opnd::R(r),
                    n: ncomp(&e.ty).max(1),
                }),
                _ => {
                    let ptr = self.var_addr(*v);
                    if matches!(self.f.var(*v).ty, Type::Array(..)) {
                        Ok(Val::one(ptr))
                    } else {
                        self.load(ptr, &e.ty, e.span)
                    }
                }
            },
            ExprKind::Builtin(b) => {
                let which = match b {
                    Builtin::ThreadIdx(d) => Special::Tid(d.index() as u8),
                    Builtin::BlockIdx(d) => Special::Ctaid(d.index() as u8),
                    Builtin::BlockDim(d) => Special::Ntid(d.index() as u8),
                    Builtin::GridDim(d) => Special::Nctaid(d.index() as u8),
                    Builtin::WarpSize => Special::WarpSize,
                };
                let dst = self.tmp();
                self.code.push(Op::Special { dst, which });
                Ok(Val::one(Opnd::R(dst)))
            }
            ExprKind::Unary(op, a) => self.unary(*op, a, e),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e),
            ExprKind::Assign { op, lhs, rhs } => self.assign(*op, lhs, rhs, e),
            ExprKind::IncDec {
                increment,
                prefix,
                target,
            } => self.incdec(*increment, *prefix, target),
            ExprKind::Cond(c, a, b) => self.cond(c, a, b, e),
            ExprKind::Cast { expr, .. } => {
                let v = self.expr(expr)?;
                self.convert(v, &expr.ty, &e.ty, e.span)
            }
            ExprKind::Index(..) | ExprKind::Deref(_) => {
                if matches!(e.ty, Type::Array(..)) {
                    // An array element that is itself an array decays to its address.
                    let LVal::Mem { ptr } = self.lvalue(e)? else {
                        return Err(self.err(e.span, "array value in registers"));
                    };
                    return Ok(Val::one(ptr));
                }
                let lv = self.lvalue(e)?;
                self.read(lv, &e.ty, e.span)
            }
            ExprKind::Component(v, k) => {
                if self.is_mem_lvalue(v) {
                    let lv = self.lvalue(e)?;
                    return self.read(lv, &e.ty, e.span);
                }
                let val = self.expr(v)?;
                Ok(Val::one(val.comp(*k)))
            }
            ExprKind::AddrOf(x) => match self.lvalue(x)? {
                LVal::Mem { ptr } => Ok(Val::one(ptr)),
                LVal::Reg { .. } => Err(self.err(e.span, "address of a register variable")),
            },
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Call(fid, args) => self.call(*fid, args, e),
            ExprKind::Intrinsic(i, args) => self.intrinsic(*i, args, e),
        }
    }

    fn is_mem_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => !matches!(self.locs[v.0 as usize], Loc::Reg(_)),
            ExprKind::Index(..) | ExprKind::Deref(_) => true,
            ExprKind::Component(x, _) => self.is_mem_lvalue(x),
            _ => false,
        }
    }

    fn unary(&mut self, op: UnaryOp, a: &Expr, e: &Expr) -> R<Val> {
        let v = self.expr(a)?;
        match op {
            UnaryOp::Plus => self.convert(v, &a.ty, &e.ty, e.span),
            UnaryOp::Not => {
                let s = scalar_of(&a.ty);
                let dst = self.tmp();
                self.code.push(Op::Cmp {
                    k: CmpK::Eq,
                    ty: Num::of(s),
                    dst,
                    a: v.op,
                    b: Opnd::I(0),
                });
                let r = Val::one(Opnd::R(dst));
                self.convert(r, &Type::BOOL, &e.ty, e.span)
            }
            UnaryOp::Neg | UnaryOp::BitNot => {
                let v = self.convert(v, &a.ty, &e.ty, e.span)?;
                let s = scalar_of(&e.ty);
                let dst = self.tmp();
                self.code.push(Op::Un {
                    k: if op == UnaryOp::Neg {
                        UnK::Neg
                    } else {
                        UnK::BitNot
                    },
                    ty: Num::of(s),
                    dst,
                    a: v.op,
                });
                self.fix_narrow(Val::one(Opnd::R(dst)), s)
            }
        }
    }

    /// Results of arithmetic on types narrower than int (which C never
    /// produces, but a hand-built IR might) are brought back to their type.
    fn fix_narrow(&mut self, v: Val, s: Scalar) -> R<Val> {
        let n = Num::of(s).scalar();
        if n == s {
            return Ok(v);
        }
        let dst = self.tmp();
        self.code.push(Op::Cast {
            from: n,
            to: s,
            dst,
            a: v.op,
        });
        Ok(Val::one(Opnd::R(dst)))
    }

    fn elem_size(&mut self, ptr_ty: &Type, span: Span) -> R<Opnd> {
        let elem = ptr_ty
            .pointee()
            .ok_or_else(|| self.err(span, "pointer arithmetic on a non-pointer"))?
            .clone();
        self.type_size(&elem, span)
    }

    /// Size of a type as an operand: launch-time array lengths are computed.
    fn type_size(&mut self, ty: &Type, span: Span) -> R<Opnd> {
        match ty {
            Type::Void => Ok(Opnd::I(1)),
            Type::Array(elem, len) => {
                let es = self.type_size(elem, span)?;
                let n = match len {
                    ArrayLen::Const(n) => Opnd::I(*n),
                    ArrayLen::Expr(x) => {
                        let v = self.expr(x)?;
                        self.convert(v, &x.ty, &Type::Scalar(Scalar::U64), x.span)?
                            .op
                    }
                    ArrayLen::Unsized => return Err(self.err(span, "size of an unsized array")),
                };
                self.mul_u64(es, n)
            }
            t => Ok(Opnd::I(
                t.size()
                    .ok_or_else(|| self.err(span, "type without a size"))?,
            )),
        }
    }

    fn mul_u64(&mut self, a: Opnd, b: Opnd) -> R<Opnd> {
        if let (Opnd::I(x), Opnd::I(y)) = (a, b) {
            return Ok(Opnd::I(x.wrapping_mul(y)));
        }
        let dst = self.tmp();
        self.code.push(Op::Bin {
            k: BinK::Mul,
            ty: Num::U64,
            dst,
            a,
            b,
            site: 0,
        });
        Ok(Opnd::R(dst))
    }

    fn ptr_add(&mut self, p: Opnd, i: Opnd, size: Opnd, negate: bool) -> R<Opnd> {
        let dst = self.tmp();
        match size {
            Opnd::I(s) => {
                let s = s as i64;
                self.code.push(Op::PtrAdd {
                    dst,
                    p,
                    i,
                    scale: if negate { -s } else { s },
                });
            }
            sz => {
                let off = self.mul_u64(i, sz)?;
                self.code.push(Op::PtrAdd {
                    dst,
                    p,
                    i: off,
                    scale: if negate { -1 } else { 1 },
                });
            }
        }
        Ok(Opnd::R(dst))
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, e: &Expr) -> R<Val> {
        if matches!(op, BinaryOp::LogicAnd | BinaryOp::LogicOr) {
            return self.logic(op, a, b, e);
        }
        let (ap, bp) = (is_ptr_like(&a.ty), is_ptr_like(&b.ty));
        if ap || bp {
            if let Some(k) = cmp_k(op) {
                let va = self.expr(a)?;
                let vb = self.expr(b)?;
                let dst = self.tmp();
                self.code.push(Op::Cmp {
                    k,
                    ty: Num::U64,
                    dst,
                    a: va.op,
                    b: vb.op,
                });
                return self.convert(Val::one(Opnd::R(dst)), &Type::BOOL, &e.ty, e.span);
            }
            match (op, ap, bp) {
                (BinaryOp::Add | BinaryOp::Sub, true, false) => {
                    let p = self.expr(a)?.op;
                    let i = self.expr(b)?.op;
                    let size = self.elem_size(&a.ty, e.span)?;
                    let r = self.ptr_add(p, i, size, op == BinaryOp::Sub)?;
                    return Ok(Val::one(r));
                }
                (BinaryOp::Add, false, true) => {
                    let i = self.expr(a)?.op;
                    let p = self.expr(b)?.op;
                    let size = self.elem_size(&b.ty, e.span)?;
                    return Ok(Val::one(self.ptr_add(p, i, size, false)?));
                }
                (BinaryOp::Sub, true, true) => {
                    let pa = self.expr(a)?.op;
                    let pb = self.expr(b)?.op;
                    let Opnd::I(size) = self.elem_size(&a.ty, e.span)? else {
                        return Err(
                            self.err(e.span, "difference of pointers to runtime-sized arrays")
                        );
                    };
                    let dst = self.tmp();
                    self.code.push(Op::PtrDiff {
                        dst,
                        a: pa,
                        b: pb,
                        scale: size.max(1) as i64,
                    });
                    return self.convert(
                        Val::one(Opnd::R(dst)),
                        &Type::Scalar(Scalar::I64),
                        &e.ty,
                        e.span,
                    );
                }
                _ => {
                    // Bitwise games on pointers: treat them as 64-bit integers.
                }
            }
        }
        if let Some(k) = cmp_k(op) {
            let (sa, sb) = (scalar_of(&a.ty), scalar_of(&b.ty));
            let common = if sa == sb { sa } else { usual(sa, sb) };
            let ct = Type::Scalar(common);
            let va = self.expr(a)?;
            let va = self.convert(va, &a.ty, &ct, a.span)?;
            let vb = self.expr(b)?;
            let vb = self.convert(vb, &b.ty, &ct, b.span)?;
            let dst = self.tmp();
            self.code.push(Op::Cmp {
                k,
                ty: Num::of(common),
                dst,
                a: va.op,
                b: vb.op,
            });
            return self.convert(Val::one(Opnd::R(dst)), &Type::BOOL, &e.ty, e.span);
        }
        let k = bin_k(op).expect("arithmetic operator");
        let rs = scalar_of(&e.ty);
        let rt = Type::Scalar(rs);
        let va = self.expr(a)?;
        let va = self.convert(va, &a.ty, &rt, a.span)?;
        let vb = self.expr(b)?;
        let vb = if matches!(k, BinK::Shl | BinK::Shr) {
            vb
        } else {
            self.convert(vb, &b.ty, &rt, b.span)?
        };
        if rs.is_float()
            && matches!(
                k,
                BinK::Shl | BinK::Shr | BinK::And | BinK::Or | BinK::Xor | BinK::Rem
            )
        {
            return Err(self.err(e.span, "bitwise operator on a floating-point value"));
        }
        let site = if matches!(k, BinK::Div | BinK::Rem) && !rs.is_float() {
            self.site(e.span)
        } else {
            0
        };
        let dst = self.tmp();
        self.code.push(Op::Bin {
            k,
            ty: Num::of(rs),
            dst,
            a: va.op,
            b: vb.op,
            site,
        });
        self.fix_narrow(Val::one(Opnd::R(dst)), rs)
    }

    fn logic(&mut self, op: BinaryOp, a: &Expr, b: &Expr, e: &Expr) -> R<Val> {
        let ta = self.truth(a)?;
        let or = op == BinaryOp::LogicOr;
        if self.pure(b) {
            let tb = self.truth(b)?;
            let dst = self.tmp();
            self.code.push(Op::Bin {
                k: if or { BinK::Or } else { BinK::And },
                ty: Num::U32,
                dst,
                a: ta,
                b: tb,
                site: 0,
            });
            return self.convert(Val::one(Opnd::R(dst)), &Type::BOOL, &e.ty, e.span);
        }
        let dst = self.tmp();
        self.code.push(Op::Mov { dst, src: ta });
        let slot = self.slot();
        let skip = self.label();
        self.code.push(Op::MaskPush {
            slot,
            c: ta,
            invert: or,
            skip,
        });
        let tb = self.truth(b)?;
        self.code.push(Op::Mov { dst, src: tb });
        self.bind(skip);
        self.code.push(Op::MaskPop { slot });
        self.convert(Val::one(Opnd::R(dst)), &Type::BOOL, &e.ty, e.span)
    }

    fn cond(&mut self, c: &Expr, a: &Expr, b: &Expr, e: &Expr) -> R<Val> {
        let n = ncomp(&e.ty);
        let tc = self.truth(c)?;
        if n > 0 && self.pure(a) && self.pure(b) {
            let va = self.expr(a)?;
            let va = self.convert(va, &a.ty, &e.ty, a.span)?;
            let vb = self.expr(b)?;
            let vb = self.convert(vb, &b.ty, &e.ty, b.span)?;
            let dst = self.tmp_n(n);
            for k in 0..n {
                self.code.push(Op::Select {
                    dst: dst + k as u32,
                    c: tc,
                    a: va.comp(k),
                    b: vb.comp(k),
                });
            }
            return Ok(Val {
                op: Opnd::R(dst),
                n,
            });
        }
        let dst = self.tmp_n(n);
        let slot = self.slot();
        let l_else = self.label();
        let l_end = self.label();
        self.code.push(Op::IfBegin {
            slot,
            c: tc,
            else_at: l_else,
        });
        let va = self.expr(a)?;
        let va = self.convert(va, &a.ty, &e.ty, a.span)?;
        for k in 0..n {
            self.code.push(Op::Mov {
                dst: dst + k as u32,
                src: va.comp(k),
            });
        }
        self.bind(l_else);
        self.code.push(Op::Else {
            slot,
            end_at: l_end,
        });
        let vb = self.expr(b)?;
        let vb = self.convert(vb, &b.ty, &e.ty, b.span)?;
        for k in 0..n {
            self.code.push(Op::Mov {
                dst: dst + k as u32,
                src: vb.comp(k),
            });
        }
        self.bind(l_end);
        self.code.push(Op::EndIf { slot });
        Ok(Val {
            op: Opnd::R(dst),
            n,
        })
    }

    fn var_addr(&mut self, v: VarId) -> Opnd {
        let obj = match self.locs[v.0 as usize] {
            Loc::Local(i) => ObjRef::Local(i),
            Loc::Shared(i) => ObjRef::Shared(i),
            Loc::Reg(_) => unreachable!("register variables have no address"),
        };
        let dst = self.tmp();
        self.code.push(Op::ObjPtr { dst, obj });
        Opnd::R(dst)
    }

    fn lvalue(&mut self, e: &Expr) -> R<LVal> {
        match &e.kind {
            ExprKind::Var(v) => match self.locs[v.0 as usize] {
                Loc::Reg(r) => Ok(LVal::Reg { r }),
                _ => Ok(LVal::Mem {
                    ptr: self.var_addr(*v),
                }),
            },
            ExprKind::Index(base, idx) => {
                let (bexpr, iexpr) = if is_ptr_like(&base.ty) {
                    (base, idx)
                } else {
                    // `i[a]` is `a[i]` in C.
                    (idx, base)
                };
                let p = match &bexpr.ty {
                    Type::Array(..) => match self.lvalue(bexpr)? {
                        LVal::Mem { ptr } => ptr,
                        LVal::Reg { .. } => return Err(self.err(e.span, "array in registers")),
                    },
                    _ => self.expr(bexpr)?.op,
                };
                let i = self.expr(iexpr)?;
                let i = if scalar_of(&iexpr.ty).is_float() {
                    return Err(self.err(iexpr.span, "floating-point array index"));
                } else {
                    i.op
                };
                let size = self.type_size(&e.ty, e.span)?;
                Ok(LVal::Mem {
                    ptr: self.ptr_add(p, i, size, false)?,
                })
            }
            ExprKind::Deref(p) => {
                let ptr = self.expr(p)?.op;
                Ok(LVal::Mem { ptr })
            }
            ExprKind::Component(v, k) => match self.lvalue(v)? {
                LVal::Reg { r } => Ok(LVal::Reg { r: r + *k as u32 }),
                LVal::Mem { ptr } => {
                    let s = scalar_of(&v.ty).size() as u64;
                    let dst = self.tmp();
                    self.code.push(Op::PtrAdd {
                        dst,
                        p: ptr,
                        i: Opnd::I(*k as u64),
                        scale: s as i64,
                    });
                    Ok(LVal::Mem { ptr: Opnd::R(dst) })
                }
            },
            ExprKind::Cast { expr, .. } if expr.ty == e.ty => self.lvalue(expr),
            _ => Err(self.err(e.span, "unsupported assignment target")),
        }
    }

    fn read(&mut self, lv: LVal, ty: &Type, span: Span) -> R<Val> {
        match lv {
            LVal::Reg { r } => Ok(Val {
                op: Opnd::R(r),
                n: ncomp(ty).max(1),
            }),
            LVal::Mem { ptr } => self.load(ptr, ty, span),
        }
    }

    fn load(&mut self, ptr: Opnd, ty: &Type, span: Span) -> R<Val> {
        let mt = mem_ty(ty).ok_or_else(|| self.err(span, "load of an unsupported type"))?;
        let site = self.site(span);
        let dst = self.tmp_n(mt.n);
        self.code.push(Op::Load {
            dst,
            ptr,
            ty: mt,
            site,
        });
        Ok(Val {
            op: Opnd::R(dst),
            n: mt.n,
        })
    }

    fn store(&mut self, ptr: Opnd, v: Val, ty: &Type, span: Span) -> R<()> {
        let mt = mem_ty(ty).ok_or_else(|| self.err(span, "store of an unsupported type"))?;
        let site = self.site(span);
        let src = if mt.n > 1 {
            match v.op {
                Opnd::R(_) => v.op,
                Opnd::I(x) => {
                    let r = self.tmp_n(mt.n);
                    for k in 0..mt.n {
                        self.code.push(Op::Mov {
                            dst: r + k as u32,
                            src: Opnd::I(x),
                        });
                    }
                    Opnd::R(r)
                }
            }
        } else {
            v.op
        };
        self.code.push(Op::Store {
            ptr,
            src,
            ty: mt,
            site,
        });
        Ok(())
    }

    fn write(&mut self, lv: &LVal, v: Val, ty: &Type, span: Span) -> R<()> {
        match lv {
            LVal::Reg { r } => {
                self.write_regs(*r, v);
                Ok(())
            }
            LVal::Mem { ptr } => self.store(*ptr, v, ty, span),
        }
    }

    fn assign(&mut self, op: Option<BinaryOp>, lhs: &Expr, rhs: &Expr, e: &Expr) -> R<Val> {
        let lt = lhs.ty.clone();
        let Some(op) = op else {
            let v = self.expr(rhs)?;
            let v = self.convert(v, &rhs.ty, &lt, rhs.span)?;
            let lv = self.lvalue(lhs)?;
            // A value still sitting in a fresh temporary can be computed straight
            // into the variable.
            self.write(&lv, v, &lt, e.span)?;
            return Ok(match lv {
                LVal::Reg { r } => Val {
                    op: Opnd::R(r),
                    n: v.n,
                },
                LVal::Mem { .. } => v,
            });
        };
        let lv = self.lvalue(lhs)?;
        let old = self.read(
            match &lv {
                LVal::Reg { r } => LVal::Reg { r: *r },
                LVal::Mem { ptr } => LVal::Mem { ptr: *ptr },
            },
            &lt,
            lhs.span,
        )?;
        let newv = if is_ptr_like(&lt) {
            let i = self.expr(rhs)?.op;
            let size = self.elem_size(&lt, e.span)?;
            let neg = match op {
                BinaryOp::Add => false,
                BinaryOp::Sub => true,
                _ => return Err(self.err(e.span, "compound assignment on a pointer")),
            };
            Val::one(self.ptr_add(old.op, i, size, neg)?)
        } else {
            let k = bin_k(op).ok_or_else(|| self.err(e.span, "compound assignment operator"))?;
            let ls = scalar_of(&lt);
            let opty = if matches!(k, BinK::Shl | BinK::Shr) {
                Num::of(ls).scalar()
            } else {
                scalar_of(&rhs.ty)
            };
            let opt = Type::Scalar(opty);
            let a = self.convert(old, &lt, &opt, lhs.span)?;
            let b = self.expr(rhs)?;
            let b = if matches!(k, BinK::Shl | BinK::Shr) {
                b
            } else {
                self.convert(b, &rhs.ty, &opt, rhs.span)?
            };
            let site = if matches!(k, BinK::Div | BinK::Rem) && !opty.is_float() {
                self.site(e.span)
            } else {
                0
            };
            let dst = self.tmp();
            self.code.push(Op::Bin {
                k,
                ty: Num::of(opty),
                dst,
                a: a.op,
                b: b.op,
                site,
            });
            self.convert(
                Val::one(Opnd::R(dst)),
                &Type::Scalar(Num::of(opty).scalar()),
                &lt,
                e.span,
            )?
        };
        self.write(&lv, newv, &lt, e.span)?;
        Ok(match lv {
            LVal::Reg { r } => Val::one(Opnd::R(r)),
            LVal::Mem { .. } => newv,
        })
    }

    fn incdec(&mut self, inc: bool, prefix: bool, target: &Expr) -> R<Val> {
        let ty = target.ty.clone();
        let lv = self.lvalue(target)?;
        let old = self.read(
            match &lv {
                LVal::Reg { r } => LVal::Reg { r: *r },
                LVal::Mem { ptr } => LVal::Mem { ptr: *ptr },
            },
            &ty,
            target.span,
        )?;
        // Postfix yields the old value, so keep a copy before the update.
        let saved = if prefix {
            None
        } else {
            let t = self.tmp();
            self.code.push(Op::Mov {
                dst: t,
                src: old.op,
            });
            Some(Val::one(Opnd::R(t)))
        };
        let newv = if is_ptr_like(&ty) {
            let size = self.elem_size(&ty, target.span)?;
            Val::one(self.ptr_add(old.op, Opnd::I(1), size, !inc)?)
        } else {
            let s = scalar_of(&ty);
            let ns = Num::of(s).scalar();
            let a = self.convert(old, &ty, &Type::Scalar(ns), target.span)?;
            let one = convert_bits(Scalar::I32, ns, 1);
            let dst = self.tmp();
            self.code.push(Op::Bin {
                k: if inc { BinK::Add } else { BinK::Sub },
                ty: Num::of(ns),
                dst,
                a: a.op,
                b: Opnd::I(one),
                site: 0,
            });
            self.convert(Val::one(Opnd::R(dst)), &Type::Scalar(ns), &ty, target.span)?
        };
        self.write(&lv, newv, &ty, target.span)?;
        Ok(match (saved, lv) {
            (Some(v), _) => v,
            (None, LVal::Reg { r }) => Val::one(Opnd::R(r)),
            (None, LVal::Mem { .. }) => newv,
        })
    }

    fn call(&mut self, fid: FuncId, args: &[Expr], e: &Expr) -> R<Val> {
        let Some(callee) = self.m.functions.get(fid.0 as usize) else {
            return Err(self.err(e.span, "call of an unknown function"));
        };
        if callee.params.len() != args.len() {
            return Err(self.err(
                e.span,
                &format!(
                    "`{}` takes {} arguments, {} given",
                    callee.name,
                    callee.params.len(),
                    args.len()
                ),
            ));
        }
        let ptys: Vec<Type> = callee
            .params
            .iter()
            .map(|p| callee.var(*p).ty.clone())
            .collect();
        let mut vals = Vec::new();
        for (a, pt) in args.iter().zip(&ptys) {
            let v = self.expr(a)?;
            let v = self.convert(v, &a.ty, pt, a.span)?;
            vals.push((v.op, ncomp(pt).max(1)));
        }
        let n = ncomp(&callee.ret);
        let dst = if n > 0 {
            Some((self.tmp_n(n), n))
        } else {
            None
        };
        self.prog.calls.push(CallInfo {
            func: fid.0,
            args: vals,
            dst,
            span: e.span,
        });
        self.callees.push(fid);
        self.code.push(Op::Call {
            call: self.prog.calls.len() as u32 - 1,
        });
        Ok(match dst {
            Some((r, n)) => Val { op: Opnd::R(r), n },
            None => Val::none(),
        })
    }

    fn intrinsic(&mut self, i: Intrinsic, args: &[Expr], e: &Expr) -> R<Val> {
        let arity = |n: usize| -> R<()> {
            if args.len() < n {
                Err(unsupported(
                    self.m,
                    e.span,
                    &format!("`{}` needs {} arguments", i.name(), n),
                ))
            } else {
                Ok(())
            }
        };
        match i {
            Intrinsic::SyncThreads => {
                for a in args {
                    self.expr(a)?;
                }
                let site = self.site(e.span);
                self.code.push(Op::SyncThreads { site });
                Ok(Val::none())
            }
            Intrinsic::SyncWarp => {
                for a in args {
                    self.expr(a)?;
                }
                self.code.push(Op::SyncWarp);
                Ok(Val::none())
            }
            Intrinsic::ThreadFence => {
                for a in args {
                    self.expr(a)?;
                }
                Ok(Val::none())
            }
            Intrinsic::Atomic(op) => {
                let cas = op == hone_ir::AtomicOp::Cas;
                arity(if cas { 3 } else { 2 })?;
                let ptr = self.expr(&args[0])?.op;
                let pt = args[0]
                    .ty
                    .pointee()
                    .cloned()
                    .ok_or_else(|| self.err(e.span, "atomic on a non-pointer"))?;
                let ty = match pt {
                    Type::Scalar(s) => s,
                    _ => return Err(self.err(e.span, "atomic on a non-scalar type")),
                };
                let st = Type::Scalar(ty);
                let a = self.expr(&args[1])?;
                let a = self.convert(a, &args[1].ty, &st, args[1].span)?.op;
                let b = if cas {
                    let b = self.expr(&args[2])?;
                    self.convert(b, &args[2].ty, &st, args[2].span)?.op
                } else {
                    Opnd::I(0)
                };
                let site = self.site(e.span);
                let dst = self.tmp();
                self.prog.uses_atomics = true;
                self.code.push(Op::Atomic {
                    op,
                    ty,
                    dst,
                    ptr,
                    a,
                    b,
                    site,
                });
                self.convert(Val::one(Opnd::R(dst)), &st, &e.ty, e.span)
            }
            Intrinsic::Shfl(kind) => {
                arity(3)?;
                self.expr(&args[0])?;
                let val = self.expr(&args[1])?;
                let val = self.convert(val, &args[1].ty, &e.ty, args[1].span)?.op;
                let lane = self.expr(&args[2])?.op;
                let width = match args.get(3) {
                    Some(w) => self.expr(w)?.op,
                    None => Opnd::I(32),
                };
                let dst = self.tmp();
                self.code.push(Op::Shfl {
                    kind,
                    dst,
                    val,
                    lane,
                    width,
                });
                Ok(Val::one(Opnd::R(dst)))
            }
            Intrinsic::Vote(kind) => {
                arity(2)?;
                self.expr(&args[0])?;
                let pred = self.truth(&args[1])?;
                let dst = self.tmp();
                self.code.push(Op::Vote { kind, dst, pred });
                self.convert(Val::one(Opnd::R(dst)), &Type::UINT, &e.ty, e.span)
            }
            Intrinsic::Math(mf) => {
                let f = mf.func;
                arity(f.arity())?;
                let s = scalar_of(&e.ty);
                // Integer min/max/abs work in the argument type; the rest in the result type.
                let rt = Type::Scalar(s);
                let mut ops = [Opnd::I(0); 3];
                for (k, a) in args.iter().take(f.arity()).enumerate() {
                    let v = self.expr(a)?;
                    ops[k] = self.convert(v, &a.ty, &rt, a.span)?.op;
                }
                if !s.is_float() && !matches!(f, MathOp::Min | MathOp::Max | MathOp::Abs) {
                    return Err(self.err(e.span, &format!("`{}` on an integer type", mf.name())));
                }
                let dst = self.tmp();
                self.code.push(Op::Math {
                    f,
                    ty: Num::of(s),
                    dst,
                    a: ops[0],
                    b: ops[1],
                    c: ops[2],
                });
                self.fix_narrow(Val::one(Opnd::R(dst)), s)
            }
            Intrinsic::MakeVector => {
                let Type::Vector(s, n) = e.ty else {
                    return Err(self.err(e.span, "vector constructor of a non-vector type"));
                };
                if args.len() != n as usize {
                    return Err(self.err(e.span, "vector constructor argument count"));
                }
                let mut vals = Vec::new();
                for a in args {
                    let v = self.expr(a)?;
                    vals.push(self.convert(v, &a.ty, &Type::Scalar(s), a.span)?.op);
                }
                let dst = self.tmp_n(n);
                for (k, v) in vals.into_iter().enumerate() {
                    self.code.push(Op::Mov {
                        dst: dst + k as u32,
                        src: v,
                    });
                }
                Ok(Val {
                    op: Opnd::R(dst),
                    n,
                })
            }
        }
    }
}
