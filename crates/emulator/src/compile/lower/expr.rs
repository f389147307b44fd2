//! Expressions: conversions, operators, conditions, assignments and the
//! register bookkeeping they share.

use super::*;

impl<'a> Lower<'a> {
    /// Writes `val` into registers starting at `r`. A value just computed into
    /// a fresh temporary is retargeted instead of copied.
    pub(super) fn write_regs(&mut self, r: Reg, val: Val) {
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

    pub(super) fn retarget_last(&mut self, from: Reg, to: Reg, n: u8) -> bool {
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

    pub(super) fn imm_int(&self, ty: &Type, v: u64, signed: bool) -> Opnd {
        let s = scalar_of(ty);
        if s.is_float() {
            let from = if signed { Scalar::I64 } else { Scalar::U64 };
            Opnd::I(convert_bits(from, s, v))
        } else {
            Opnd::I(canon(s, v))
        }
    }

    /// Value of a condition as 0/1.
    pub(super) fn truth(&mut self, e: &Expr) -> R<Opnd> {
        let v = self.expr(e)?;
        Ok(self.truth_of(v.op, &e.ty))
    }

    pub(super) fn truth_of(&mut self, v: Opnd, ty: &Type) -> Opnd {
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
            ty: Arith::of(s),
            dst,
            a: v,
            b: Opnd::I(0),
        });
        Opnd::R(dst)
    }

    pub(super) fn convert(&mut self, v: Val, from: &Type, to: &Type, span: Span) -> R<Val> {
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
    pub(super) fn pure(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::IntLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::BoolLit(_)
            | ExprKind::Builtin(_)
            | ExprKind::SizeOf(_) => true,
            ExprKind::Var(v) => matches!(self.locs[v.0 as usize], Loc::Reg(_)),
            ExprKind::Unary(_, a) | ExprKind::Cast { expr: a, .. } => self.pure(a),
            ExprKind::Component(a, _) | ExprKind::Field(a, _) => self.pure(a),
            ExprKind::Aggregate(items) => items.iter().all(|a| self.pure(a)),
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

    pub(super) fn expr(&mut self, e: &Expr) -> R<Val> {
        match &e.kind {
            ExprKind::IntLit(v) => Ok(Val::one(self.imm_int(&e.ty, *v, false))),
            ExprKind::BoolLit(b) => Ok(Val::one(self.imm_int(&e.ty, *b as u64, false))),
            ExprKind::FloatLit(f) => {
                let s = scalar_of(&e.ty);
                Ok(Val::one(Opnd::I(convert_bits(Scalar::F64, s, f.to_bits()))))
            }
            ExprKind::StrLit(_) => Err(self.err(
                e.span,
                "a string literal is supported only as an argument of `printf`",
            )),
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
            ExprKind::Global(g) => {
                let ptr = self.global_addr(*g, e.span)?;
                if matches!(e.ty, Type::Array(..)) {
                    Ok(Val::one(ptr))
                } else {
                    self.load(ptr, &e.ty, e.span)
                }
            }
            ExprKind::Field(v, i) => {
                if matches!(e.ty, Type::Array(..)) || self.is_mem_lvalue(v) {
                    let lv = self.lvalue(e)?;
                    return match lv {
                        LVal::Mem { ptr } if matches!(e.ty, Type::Array(..)) => Ok(Val::one(ptr)),
                        LVal::Reg { .. } if matches!(e.ty, Type::Array(..)) => {
                            Err(self.err(e.span, "array member of a struct held in registers"))
                        }
                        lv => self.read(lv, &e.ty, e.span),
                    };
                }
                let Type::Struct(st) = &v.ty else {
                    return Err(self.err(e.span, "member access on a non-struct value"));
                };
                let first = field_reg(st, *i as usize);
                let val = self.expr(v)?;
                Ok(Val {
                    op: match val.op {
                        Opnd::R(r) => Opnd::R(r + first),
                        imm => imm,
                    },
                    n: ncomp(&e.ty).max(1),
                })
            }
            ExprKind::Aggregate(items) => self.aggregate(items, e),
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

    pub(super) fn is_mem_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => !matches!(self.locs[v.0 as usize], Loc::Reg(_)),
            ExprKind::Index(..) | ExprKind::Deref(_) => true,
            ExprKind::Component(x, _) | ExprKind::Field(x, _) => self.is_mem_lvalue(x),
            ExprKind::Global(_) => true,
            _ => false,
        }
    }

    /// A struct value from one value per member, in a fresh register range.
    pub(super) fn aggregate(&mut self, items: &[Expr], e: &Expr) -> R<Val> {
        let Type::Struct(st) = &e.ty else {
            return Err(self.err(e.span, "aggregate of a non-struct type"));
        };
        let n = self.struct_regs(&e.ty, e.span)?;
        let dst = self.tmp_n(n);
        for (k, f) in st.fields.iter().enumerate() {
            let r = dst + field_reg(st, k);
            match items.get(k) {
                Some(item) => {
                    if matches!(f.ty, Type::Array(..)) {
                        return Err(self.err(item.span, "array member in a struct value"));
                    }
                    let v = self.expr(item)?;
                    let v = self.convert(v, &item.ty, &f.ty, item.span)?;
                    for c in 0..v.n {
                        self.code.push(Op::Mov {
                            dst: r + c as u32,
                            src: v.comp(c),
                        });
                    }
                }
                None => {
                    for c in 0..super::super::value_regs(&f.ty) as u32 {
                        self.code.push(Op::Mov {
                            dst: r + c,
                            src: Opnd::I(0),
                        });
                    }
                }
            }
        }
        Ok(Val {
            op: Opnd::R(dst),
            n,
        })
    }

    pub(super) fn unary(&mut self, op: UnaryOp, a: &Expr, e: &Expr) -> R<Val> {
        let v = self.expr(a)?;
        match op {
            UnaryOp::Plus => self.convert(v, &a.ty, &e.ty, e.span),
            UnaryOp::Not => {
                let s = scalar_of(&a.ty);
                let dst = self.tmp();
                self.code.push(Op::Cmp {
                    k: CmpK::Eq,
                    ty: Arith::of(s),
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
                    ty: Arith::of(s),
                    dst,
                    a: v.op,
                });
                self.fix_narrow(Val::one(Opnd::R(dst)), s)
            }
        }
    }

    /// Results of arithmetic on types narrower than int (which C never
    /// produces, but a hand-built IR might) are brought back to their type.
    pub(super) fn fix_narrow(&mut self, v: Val, s: Scalar) -> R<Val> {
        let n = Arith::of(s).scalar();
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

    pub(super) fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, e: &Expr) -> R<Val> {
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
                    ty: Arith::U64,
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
                ty: Arith::of(common),
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
            ty: Arith::of(rs),
            dst,
            a: va.op,
            b: vb.op,
            site,
        });
        self.fix_narrow(Val::one(Opnd::R(dst)), rs)
    }

    pub(super) fn logic(&mut self, op: BinaryOp, a: &Expr, b: &Expr, e: &Expr) -> R<Val> {
        let ta = self.truth(a)?;
        let or = op == BinaryOp::LogicOr;
        if self.pure(b) {
            let tb = self.truth(b)?;
            let dst = self.tmp();
            self.code.push(Op::Bin {
                k: if or { BinK::Or } else { BinK::And },
                ty: Arith::U32,
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

    pub(super) fn cond(&mut self, c: &Expr, a: &Expr, b: &Expr, e: &Expr) -> R<Val> {
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

    pub(super) fn assign(
        &mut self,
        op: Option<BinaryOp>,
        lhs: &Expr,
        rhs: &Expr,
        e: &Expr,
    ) -> R<Val> {
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
                Arith::of(ls).scalar()
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
                ty: Arith::of(opty),
                dst,
                a: a.op,
                b: b.op,
                site,
            });
            self.convert(
                Val::one(Opnd::R(dst)),
                &Type::Scalar(Arith::of(opty).scalar()),
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

    pub(super) fn incdec(&mut self, inc: bool, prefix: bool, target: &Expr) -> R<Val> {
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
            let ns = Arith::of(s).scalar();
            let a = self.convert(old, &ty, &Type::Scalar(ns), target.span)?;
            let one = convert_bits(Scalar::I32, ns, 1);
            let dst = self.tmp();
            self.code.push(Op::Bin {
                k: if inc { BinK::Add } else { BinK::Sub },
                ty: Arith::of(ns),
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
}
