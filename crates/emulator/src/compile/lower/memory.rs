//! Memory: addresses of variables and lvalues, loads and stores, pointer
//! arithmetic, and the initialisation of local arrays and aggregates.

use super::*;

impl<'a> Lower<'a> {
    /// Stores an initializer at `ptr`, zero-filling what a short list leaves out.
    pub(super) fn init_mem(&mut self, ptr: Opnd, ty: &Type, init: &Init, span: Span) -> R<()> {
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
            (Type::Struct(st), Init::List(items)) => {
                for (k, f) in st.fields.iter().enumerate() {
                    let p = self.offset_ptr(ptr, f.offset);
                    match items.get(k) {
                        Some(item) => self.init_mem(p, &f.ty, item, span)?,
                        None => self.zero_mem(p, &f.ty, span)?,
                    }
                }
                Ok(())
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

    pub(super) fn zero_mem(&mut self, ptr: Opnd, ty: &Type, span: Span) -> R<()> {
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
            Type::Struct(st) => {
                for f in &st.fields {
                    let p = self.offset_ptr(ptr, f.offset);
                    self.zero_mem(p, &f.ty, span)?;
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

    /// `ptr + off` bytes.
    pub(super) fn offset_ptr(&mut self, ptr: Opnd, off: u64) -> Opnd {
        if off == 0 {
            return ptr;
        }
        let dst = self.tmp();
        self.code.push(Op::PtrAdd {
            dst,
            p: ptr,
            i: Opnd::I(off),
            scale: 1,
        });
        Opnd::R(dst)
    }

    /// Address of a file-scope variable.
    pub(super) fn global_addr(&mut self, g: hone_ir::GlobalId, span: Span) -> R<Opnd> {
        let gv = self
            .m
            .globals
            .get(g.0 as usize)
            .ok_or_else(|| self.err(span, "use of an unknown file-scope variable"))?;
        let obj = match gv.space {
            hone_ir::GlobalSpace::Shared => {
                let idx = match self.prog.global_shared.get(&g.0) {
                    Some(i) => *i,
                    None => {
                        let kernel = FuncId(self.prog.kernel);
                        let sv =
                            shared_obj(self.m, kernel, &gv.name, &gv.ty, gv.is_extern, gv.span)?;
                        let i = self.prog.shared.len() as u32;
                        self.prog.shared.push(sv);
                        self.prog.global_shared.insert(g.0, i);
                        i
                    }
                };
                ObjRef::Shared(idx)
            }
            hone_ir::GlobalSpace::Constant | hone_ir::GlobalSpace::Device => ObjRef::Symbol(g.0),
        };
        let dst = self.tmp();
        self.code.push(Op::ObjPtr { dst, obj });
        Ok(Opnd::R(dst))
    }

    pub(super) fn elem_size(&mut self, ptr_ty: &Type, span: Span) -> R<Opnd> {
        let elem = ptr_ty
            .pointee()
            .ok_or_else(|| self.err(span, "pointer arithmetic on a non-pointer"))?
            .clone();
        self.type_size(&elem, span)
    }

    /// Size of a type as an operand: launch-time array lengths are computed.
    pub(super) fn type_size(&mut self, ty: &Type, span: Span) -> R<Opnd> {
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

    pub(super) fn mul_u64(&mut self, a: Opnd, b: Opnd) -> R<Opnd> {
        if let (Opnd::I(x), Opnd::I(y)) = (a, b) {
            return Ok(Opnd::I(x.wrapping_mul(y)));
        }
        let dst = self.tmp();
        self.code.push(Op::Bin {
            k: BinK::Mul,
            ty: Arith::U64,
            dst,
            a,
            b,
            site: 0,
        });
        Ok(Opnd::R(dst))
    }

    pub(super) fn ptr_add(&mut self, p: Opnd, i: Opnd, size: Opnd, negate: bool) -> R<Opnd> {
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

    pub(super) fn var_addr(&mut self, v: VarId) -> Opnd {
        let obj = match self.locs[v.0 as usize] {
            Loc::Local(i) => ObjRef::Local(i),
            Loc::Shared(i) => ObjRef::Shared(i),
            Loc::Reg(_) => unreachable!("register variables have no address"),
        };
        let dst = self.tmp();
        self.code.push(Op::ObjPtr { dst, obj });
        Opnd::R(dst)
    }

    pub(super) fn lvalue(&mut self, e: &Expr) -> R<LVal> {
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
            ExprKind::Global(g) => Ok(LVal::Mem {
                ptr: self.global_addr(*g, e.span)?,
            }),
            ExprKind::Field(v, i) => {
                let Type::Struct(st) = &v.ty else {
                    return Err(self.err(e.span, "member access on a non-struct value"));
                };
                let Some(f) = st.fields.get(*i as usize) else {
                    return Err(self.err(e.span, "struct has no such member"));
                };
                let (off, first) = (f.offset, field_reg(st, *i as usize));
                let addressable = matches!(
                    v.without_implicit_casts().kind,
                    ExprKind::Var(_)
                        | ExprKind::Global(_)
                        | ExprKind::Index(..)
                        | ExprKind::Deref(_)
                        | ExprKind::Field(..)
                );
                if !addressable {
                    return Err(self.err(
                        e.span,
                        &format!(
                            "member `{}` of a struct value that is not in memory (a call's result, say) used as an array or assigned to; store the struct in a variable first",
                            f.name
                        ),
                    ));
                }
                match self.lvalue(v)? {
                    LVal::Reg { r } => Ok(LVal::Reg { r: r + first }),
                    LVal::Mem { ptr } => Ok(LVal::Mem {
                        ptr: self.offset_ptr(ptr, off),
                    }),
                }
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

    pub(super) fn read(&mut self, lv: LVal, ty: &Type, span: Span) -> R<Val> {
        match lv {
            LVal::Reg { r } => Ok(Val {
                op: Opnd::R(r),
                n: ncomp(ty).max(1),
            }),
            LVal::Mem { ptr } => self.load(ptr, ty, span),
        }
    }

    pub(super) fn load(&mut self, ptr: Opnd, ty: &Type, span: Span) -> R<Val> {
        if let Type::Struct(_) = ty {
            // One access per member, as a copy of a struct compiles to.
            let n = self.struct_regs(ty, span)?;
            let dst = self.tmp_n(n);
            let mut parts = Vec::new();
            leaves(ty, 0, &mut parts);
            let mut r = dst;
            for (off, lt) in parts {
                let p = self.offset_ptr(ptr, off);
                let v = self.load(p, &lt, span)?;
                self.write_regs(r, v);
                r += v.n as u32;
            }
            return Ok(Val {
                op: Opnd::R(dst),
                n,
            });
        }
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

    /// Registers of a struct value, refused past what a value may hold.
    pub(super) fn struct_regs(&self, ty: &Type, span: Span) -> R<u8> {
        let n = value_regs(ty);
        if n > 255 {
            return Err(self.err(
                span,
                &format!("a struct of {n} scalars is more than a value may hold"),
            ));
        }
        Ok(n.max(1) as u8)
    }

    pub(super) fn store(&mut self, ptr: Opnd, v: Val, ty: &Type, span: Span) -> R<()> {
        if let Type::Struct(_) = ty {
            self.struct_regs(ty, span)?;
            let mut parts = Vec::new();
            leaves(ty, 0, &mut parts);
            let mut k = 0u8;
            for (off, lt) in parts {
                let p = self.offset_ptr(ptr, off);
                let n = ncomp(&lt).max(1);
                let part = match v.op {
                    Opnd::R(r) => Val {
                        op: Opnd::R(r + k as u32),
                        n,
                    },
                    imm => Val { op: imm, n },
                };
                self.store(p, part, &lt, span)?;
                k += n;
            }
            return Ok(());
        }
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

    pub(super) fn write(&mut self, lv: &LVal, v: Val, ty: &Type, span: Span) -> R<()> {
        match lv {
            LVal::Reg { r } => {
                self.write_regs(*r, v);
                Ok(())
            }
            LVal::Mem { ptr } => self.store(*ptr, v, ty, span),
        }
    }
}
