//! Statements: blocks, declarations, branches, loops and `switch`, with the
//! reconvergence labels each needs.

use super::*;

impl<'a> Lower<'a> {
    pub(super) fn block(&mut self, b: &Block) -> R<()> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    pub(super) fn stmt(&mut self, s: &Stmt) -> R<()> {
        let r = self.stmt_inner(s);
        self.end_stmt();
        r
    }

    pub(super) fn stmt_inner(&mut self, s: &Stmt) -> R<()> {
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

    pub(super) fn lower_loop(
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

    /// A brace list for a struct held in registers, member by member; members
    /// it leaves out are zero.
    fn init_regs(&mut self, r: Reg, ty: &Type, items: &[Init], span: Span) -> R<()> {
        let Type::Struct(st) = ty else {
            return Err(self.err(span, "nested initializer list for a non-struct member"));
        };
        for (k, f) in st.fields.iter().enumerate() {
            let fr = r + field_reg(st, k);
            match items.get(k) {
                Some(Init::List(sub)) if matches!(f.ty, Type::Struct(_)) => {
                    self.init_regs(fr, &f.ty, sub, span)?
                }
                Some(Init::List(sub)) if matches!(f.ty, Type::Vector(..)) => {
                    for (c, item) in sub.iter().enumerate() {
                        let Init::Expr(e) = item else {
                            return Err(self.err(span, "nested initializer list for a scalar"));
                        };
                        let v = self.expr(e)?;
                        let v = self.convert(v, &e.ty, &Type::Scalar(scalar_of(&f.ty)), e.span)?;
                        self.code.push(Op::Mov {
                            dst: fr + c as u32,
                            src: v.op,
                        });
                    }
                }
                Some(Init::Expr(e)) => {
                    let v = self.expr(e)?;
                    let v = self.convert(v, &e.ty, &f.ty, e.span)?;
                    self.write_regs(fr, v);
                }
                Some(Init::List(_)) => {
                    return Err(self.err(span, "brace list for an array member in registers"))
                }
                None => {
                    for c in 0..value_regs(&f.ty) as u32 {
                        self.code.push(Op::Mov {
                            dst: fr + c,
                            src: Opnd::I(0),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn decl(&mut self, var: VarId, init: Option<&Init>, span: Span) -> R<()> {
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
                Init::List(items) if matches!(ty, Type::Struct(_)) => {
                    self.init_regs(r, &ty, items, span)
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
}
