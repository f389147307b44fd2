//! Intrinsics: barriers, atomics, warp shuffles and votes, math functions.

use super::*;

impl<'a> Lower<'a> {
    pub(super) fn intrinsic(&mut self, i: Intrinsic, args: &[Expr], e: &Expr) -> R<Val> {
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
            Intrinsic::GridSync => {
                let site = self.site(e.span);
                self.prog.grid_sync = true;
                self.code.push(Op::GridSync { site });
                Ok(Val::none())
            }
            Intrinsic::SyncWarp => {
                for a in args {
                    self.expr(a)?;
                }
                self.code.push(Op::SyncWarp);
                Ok(Val::none())
            }
            Intrinsic::Clock | Intrinsic::Clock64 => {
                self.prog.reads_clock = true;
                let dst = self.tmp();
                self.code.push(Op::Special {
                    dst,
                    which: Special::Clock,
                });
                Ok(Val::one(Opnd::R(dst)))
            }
            Intrinsic::Printf => {
                let Some(ExprKind::StrLit(format)) = args.first().map(|a| &a.kind) else {
                    return Err(self.err(e.span, "`printf` needs a string literal as its format"));
                };
                let mut out = Vec::with_capacity(args.len() - 1);
                for a in &args[1..] {
                    out.push(match &a.kind {
                        ExprKind::StrLit(s) => PrintfArg::Str(s.as_str().into()),
                        _ => {
                            let scalar = match &a.ty {
                                Type::Scalar(s) => *s,
                                Type::Pointer(_) | Type::Array(..) => Scalar::U64,
                                _ => {
                                    return Err(self.err(
                                        a.span,
                                        "`printf` takes scalars, pointers and string literals",
                                    ))
                                }
                            };
                            PrintfArg::Value(self.expr(a)?.op, scalar)
                        }
                    });
                }
                let dst = self.tmp();
                self.code.push(Op::Printf {
                    dst,
                    format: format.as_str().into(),
                    args: out.into(),
                });
                Ok(Val::one(Opnd::R(dst)))
            }
            Intrinsic::ActiveMask => {
                let dst = self.tmp();
                self.code.push(Op::Vote {
                    kind: hone_ir::VoteKind::Ballot,
                    dst,
                    pred: Opnd::I(1),
                });
                Ok(Val::one(Opnd::R(dst)))
            }
            Intrinsic::Trap => {
                let site = self.site(e.span);
                self.code.push(Op::Trap { site });
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
                let mask = self.expr(&args[0])?.op;
                let val = self.expr(&args[1])?;
                let val = self.convert(val, &args[1].ty, &e.ty, args[1].span)?.op;
                let lane = self.expr(&args[2])?.op;
                let width = match args.get(3) {
                    Some(w) => self.expr(w)?.op,
                    None => Opnd::I(32),
                };
                let site = self.site(e.span);
                let dst = self.tmp();
                self.code.push(Op::Shfl {
                    kind,
                    dst,
                    mask,
                    val,
                    lane,
                    width,
                    site,
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
                if let Some((arg, _)) = f.integer_sig() {
                    // Computed in the argument's type, then converted to the result's.
                    let at = Type::Scalar(arg);
                    let mut ops = [Opnd::I(0); 3];
                    for (k, a) in args.iter().take(f.arity()).enumerate() {
                        let v = self.expr(a)?;
                        ops[k] = self.convert(v, &a.ty, &at, a.span)?.op;
                    }
                    let dst = self.tmp();
                    self.code.push(Op::Math {
                        f,
                        ty: Arith::of(arg),
                        dst,
                        a: ops[0],
                        b: ops[1],
                        c: ops[2],
                    });
                    if f.is_reinterpretation() {
                        // `math` gave the result type's bits already.
                        return Ok(Val::one(Opnd::R(dst)));
                    }
                    let v = self.fix_narrow(Val::one(Opnd::R(dst)), arg)?;
                    return self.convert(v, &at, &e.ty, e.span);
                }
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
                    ty: Arith::of(s),
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
