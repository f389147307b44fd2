//! Calls of `__device__` functions.

use super::*;

impl<'a> Lower<'a> {
    pub(super) fn call(&mut self, fid: FuncId, args: &[Expr], e: &Expr) -> R<Val> {
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
}
