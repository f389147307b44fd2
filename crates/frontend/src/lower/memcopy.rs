//! `memcpy` in device code between objects of the same scalar layout
//! (`memcpy(&packed, words, sizeof(packed))`, a struct of `uint4`s filled
//! from an array of `unsigned int`s): the copy is the assignments of their
//! scalars in memory order, so that the emulator and the analyser see the
//! loads and stores it makes. Copies between layouts of other scalars (a
//! reinterpretation of bytes) are reported as unsupported.

use hone_ir::{ArrayLen, Expr, ExprKind, Type};
use tree_sitter::Node;

use super::func::{FnLowerer, LResult};

/// Scalars one `memcpy` may copy: a bound on the assignments it becomes.
const MAX_SCALARS: u64 = 4096;

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// `memcpy(dst, src, n)`.
    pub fn memcpy_call(&mut self, n: Node, args: &[Node]) -> LResult<Expr> {
        let [d, s, len] = args else {
            return Err(self.error(
                n,
                "memcpy",
                "`memcpy` takes a destination, a source and a size",
            ));
        };
        let bytes = self.const_int(*len, "memcpy")?;
        let bytes = u64::try_from(bytes)
            .map_err(|_| self.error(*len, "memcpy", "`memcpy` of a negative size"))?;
        let dst = self.expr(*d)?;
        let dst = self.decay(dst);
        let src = self.expr(*s)?;
        let src = self.decay(src);
        let to = self.scalars_at(dst, bytes, *d)?;
        let from = self.scalars_at(src, bytes, *s)?;
        let same = to.len() == from.len() && to.iter().zip(&from).all(|(a, b)| a.ty == b.ty);
        if !same {
            return Err(self.error(
                n,
                "memcpy",
                "`memcpy` between objects of different scalar layouts (a reinterpretation of bytes) is not supported",
            ));
        }
        if n.parent()
            .is_none_or(|p| p.kind() != "expression_statement")
        {
            return Err(self.error(
                n,
                "memcpy",
                "the value `memcpy` returns is not supported; call it as a statement",
            ));
        }
        let span = self.span(n);
        let assign = |l: &Self, (lhs, rhs): (Expr, Expr)| {
            let ty = lhs.ty.clone();
            l.mk(
                ExprKind::Assign {
                    op: None,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                ty,
                span,
            )
        };
        let mut pairs = to.into_iter().zip(from).rev();
        let Some(last) = pairs.next() else {
            return Err(self.error(n, "memcpy", "`memcpy` of no bytes"));
        };
        let mut out = assign(self, last);
        for pair in pairs {
            let first = assign(self, pair);
            let ty = out.ty.clone();
            out = self.mk(ExprKind::Comma(Box::new(first), Box::new(out)), ty, span);
        }
        Ok(out)
    }

    /// The scalars of the `bytes` bytes that the pointer `p` points to, as
    /// lvalues in memory order.
    fn scalars_at(&mut self, p: Expr, bytes: u64, at: Node) -> LResult<Vec<Expr>> {
        let Type::Pointer(pt) = &p.ty else {
            return Err(self.error(at, "memcpy", "`memcpy` of something that is not a pointer"));
        };
        if !super::conv::repeatable(&p) {
            return Err(self.error(
                at,
                "memcpy",
                "`memcpy` of a computed pointer is supported for a variable or the address of one (assign it to a variable first)",
            ));
        }
        let pointee = pt.pointee.clone();
        let Some(size) = pointee.size().filter(|s| *s > 0) else {
            return Err(self.error(
                at,
                "memcpy",
                "`memcpy` through a `void *` or a pointer to an incomplete type is not supported",
            ));
        };
        if !bytes.is_multiple_of(size) || bytes / size > MAX_SCALARS {
            return Err(self.error(
                at,
                "memcpy",
                format!("`memcpy` of {bytes} bytes through a pointer to {size}-byte objects is not supported"),
            ));
        }
        let span = p.span;
        // An array is indexed itself, not through the pointer it decays to.
        let base = match &p.kind {
            ExprKind::Cast {
                implicit: true,
                expr,
            } if matches!(expr.ty, Type::Array(..)) => (**expr).clone(),
            _ => p.clone(),
        };
        let mut out = Vec::new();
        for k in 0..bytes / size {
            let obj = match (&p.kind, k) {
                (ExprKind::AddrOf(inner), 0) => (**inner).clone(),
                _ => {
                    let idx = self.mk(ExprKind::IntLit(k), Type::INT, span);
                    self.mk(
                        ExprKind::Index(Box::new(base.clone()), Box::new(idx)),
                        pointee.clone(),
                        span,
                    )
                }
            };
            if scalar_count(&obj.ty).is_none_or(|n| n + out.len() as u64 > MAX_SCALARS) {
                return Err(self.error(
                    at,
                    "memcpy",
                    format!("`memcpy` of more than {MAX_SCALARS} scalars is not supported"),
                ));
            }
            if !flatten(obj, &mut out) {
                return Err(self.error(
                    at,
                    "memcpy",
                    "`memcpy` of an object with unions, padding or unsized arrays is not supported",
                ));
            }
        }
        let covered: u64 = out.iter().filter_map(|e| e.ty.size()).sum();
        if covered != bytes {
            return Err(self.error(
                at,
                "memcpy",
                "`memcpy` of an object with padding between its members is not supported",
            ));
        }
        Ok(out)
    }
}

/// How many scalars a value of `ty` holds; `None` past `u64` or for an
/// array of unknown length.
fn scalar_count(ty: &Type) -> Option<u64> {
    match ty {
        Type::Scalar(_) | Type::Pointer(_) => Some(1),
        Type::Vector(_, len) => Some(*len as u64),
        Type::Array(elem, ArrayLen::Const(n)) => scalar_count(elem)?.checked_mul(*n),
        Type::Struct(st) => st
            .fields
            .iter()
            .try_fold(0u64, |acc, f| acc.checked_add(scalar_count(&f.ty)?)),
        _ => None,
    }
}

/// The scalars of the object `e`, in memory order; `false` for a union or an
/// array of unknown length.
fn flatten(e: Expr, out: &mut Vec<Expr>) -> bool {
    let span = e.span;
    let mk = |kind, ty| Expr { kind, ty, span };
    match e.ty.clone() {
        Type::Scalar(_) | Type::Pointer(_) => {
            out.push(e);
            true
        }
        Type::Vector(s, len) => {
            for i in 0..len {
                out.push(mk(
                    ExprKind::Component(Box::new(e.clone()), i),
                    Type::Scalar(s),
                ));
            }
            true
        }
        Type::Array(elem, ArrayLen::Const(n)) => (0..n).all(|i| {
            let idx = mk(ExprKind::IntLit(i), Type::INT);
            flatten(
                mk(
                    ExprKind::Index(Box::new(e.clone()), Box::new(idx)),
                    (*elem).clone(),
                ),
                out,
            )
        }),
        Type::Struct(st) if !st.has_union() => st.fields.iter().enumerate().all(|(i, f)| {
            flatten(
                mk(ExprKind::Field(Box::new(e.clone()), i as u32), f.ty.clone()),
                out,
            )
        }),
        _ => false,
    }
}
