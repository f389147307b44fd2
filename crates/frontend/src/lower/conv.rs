//! C's implicit conversions, made explicit as `Cast { implicit: true }`.

use hone_ir::{Expr, ExprKind, PointerType, Scalar, Type};
use tree_sitter::Node;

use super::func::{FnLowerer, LResult};

pub(crate) fn icast(e: Expr, ty: Type) -> Expr {
    e.implicit_cast(ty)
}

pub(crate) fn promoted(s: Scalar) -> Scalar {
    s.promoted()
}

pub(crate) fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    Scalar::usual_arithmetic(a, b)
}

/// `0`, `NULL`, `nullptr`: integer literal zero.
pub(crate) fn is_null_constant(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::IntLit(0)) && e.ty.scalar().is_some_and(|s| s.is_integer())
}

/// Pointee types equal up to the qualifiers of the pointee itself.
fn same_pointee(a: &PointerType, b: &PointerType) -> bool {
    a.pointee == b.pointee
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// Array-to-pointer decay.
    pub fn decay(&self, e: Expr) -> Expr {
        let Type::Array(elem, _) = &e.ty else {
            return e;
        };
        let pointee_const = self.is_const_typed(&e);
        let ty = Type::Pointer(Box::new(PointerType {
            pointee: (**elem).clone(),
            pointee_const,
            restrict: false,
            pointee_volatile: self.is_volatile_object(&e),
        }));
        icast(e, ty)
    }

    /// Whether an lvalue designates an object device code may not write
    /// (a const one, or one in constant memory).
    pub fn is_const_object(&self, e: &Expr) -> bool {
        self.const_object(e, true)
    }

    /// Whether an lvalue's type is const-qualified: `__constant__ T x` is a
    /// `T`, so `&x` is a `T *`, though device code may not write it.
    pub fn is_const_typed(&self, e: &Expr) -> bool {
        self.const_object(e, false)
    }

    fn const_object(&self, e: &Expr, constant_space: bool) -> bool {
        match &e.kind {
            ExprKind::Var(id) => self.var(*id).is_const,
            ExprKind::Index(b, _) => match &b.ty {
                Type::Pointer(p) => p.pointee_const,
                _ => self.const_object(b, constant_space),
            },
            ExprKind::Deref(p) => matches!(&p.ty, Type::Pointer(p) if p.pointee_const),
            ExprKind::Component(v, _) | ExprKind::Field(v, _) => {
                self.const_object(v, constant_space)
            }
            ExprKind::Global(g) => {
                let g = self.global(*g);
                g.is_const || (constant_space && g.space == hone_ir::GlobalSpace::Constant)
            }
            _ => false,
        }
    }

    /// Whether an lvalue designates a volatile object.
    pub fn is_volatile_object(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(id) => self.var(*id).is_volatile,
            ExprKind::Global(g) => self.global(*g).is_volatile,
            ExprKind::Index(b, _) => match &b.ty {
                Type::Pointer(p) => p.pointee_volatile,
                _ => self.is_volatile_object(b),
            },
            ExprKind::Deref(p) => matches!(&p.ty, Type::Pointer(p) if p.pointee_volatile),
            ExprKind::Component(v, _) | ExprKind::Field(v, _) => self.is_volatile_object(v),
            ExprKind::Cast {
                implicit: true,
                expr,
            } if matches!(expr.ty, Type::Array(..)) => self.is_volatile_object(expr),
            _ => false,
        }
    }

    /// Whether `e` designates an object (can be assigned to or have its address taken).
    pub fn is_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(_) | ExprKind::Global(_) => true,
            ExprKind::Index(..) | ExprKind::Deref(_) => true,
            ExprKind::Component(v, _) | ExprKind::Field(v, _) => self.is_lvalue(v),
            _ => false,
        }
    }

    /// Converts `e` to `target` as C++ does implicitly (assignment, argument
    /// passing, return, initialization).
    pub fn convert(&mut self, e: Expr, target: &Type, node: Node, what: &str) -> LResult<Expr> {
        if &e.ty == target {
            return Ok(e);
        }
        let e = if target.is_pointer() {
            self.decay(e)
        } else {
            e
        };
        if &e.ty == target {
            return Ok(e);
        }
        if matches!(e.ty, Type::Struct(_)) && !matches!(target, Type::Struct(_)) {
            if let Some(c) = self.user_conversion(&e, target, node)? {
                return self.convert(c, target, node, what);
            }
        }
        if let Type::Struct(st) = target {
            if self.converting_ctor(&e, st).is_some() {
                let key = (st.name.clone(), st.name.clone());
                let sigs = self.ctx.methods.get(&key).cloned().unwrap_or_default();
                return self.call_overload(node, &st.name, &sigs, vec![e], &[node]);
            }
        }
        let ok = match (&e.ty, target) {
            (Type::Scalar(_), Type::Scalar(_)) => true,
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => true,
            (Type::Scalar(_), Type::Pointer(_)) => is_null_constant(&e),
            (Type::Pointer(from), Type::Pointer(to)) => {
                (same_pointee(from, to) || to.pointee == Type::Void)
                    && (to.pointee_const || !from.pointee_const)
            }
            _ => false,
        };
        if !ok {
            let msg = format!(
                "cannot convert `{}` to `{}` in {what}",
                type_name(&e.ty),
                type_name(target)
            );
            return Err(self.error(node, "type mismatch", msg));
        }
        Ok(icast(e, target.clone()))
    }

    /// An explicit cast (`(T)e`, `static_cast<T>(e)`, `T(e)`); always kept
    /// as a node so the printer gives it back.
    pub fn explicit_cast(&mut self, e: Expr, target: Type, node: Node) -> LResult<Expr> {
        let e = if matches!(target, Type::Array(..)) {
            e
        } else {
            self.decay(e)
        };
        // `(T *)obj` of a struct with `operator T *()`.
        if matches!(e.ty, Type::Struct(_)) && !matches!(target, Type::Struct(_) | Type::Void) {
            if let Some(c) = self.user_conversion(&e, &target, node)? {
                if c.ty == target {
                    return Ok(c);
                }
                return self.explicit_cast(c, target, node);
            }
        }
        let ok = match (&e.ty, &target) {
            (_, Type::Void) => true,
            (Type::Scalar(_), Type::Scalar(_)) => true,
            (Type::Pointer(_), Type::Pointer(_)) => true,
            (Type::Scalar(s), Type::Pointer(_)) | (Type::Pointer(_), Type::Scalar(s)) => {
                s.is_integer()
            }
            (a, b) => a == b,
        };
        if !ok {
            let msg = format!(
                "cannot cast `{}` to `{}`",
                type_name(&e.ty),
                type_name(&target)
            );
            return Err(self.error(node, "cast", msg));
        }
        let span = self.span(node);
        Ok(self.mk(
            ExprKind::Cast {
                implicit: false,
                expr: Box::new(e),
            },
            target,
            span,
        ))
    }

    /// Integer promotion of an arithmetic operand.
    pub fn promote(&self, e: Expr) -> Expr {
        match e.ty.scalar() {
            Some(s) if promoted(s) != s => icast(e, Type::Scalar(promoted(s))),
            _ => e,
        }
    }
}

/// Types in messages, spelled as in CUDA C.
pub(crate) fn type_name(t: &Type) -> String {
    match t {
        Type::Void => "void".into(),
        Type::Scalar(s) => s.c_name().into(),
        Type::Vector(s, n) if *s == Scalar::U32 && *n == 3 => "uint3".into(),
        Type::Vector(s, n) => format!("{}{n}", s.vector_prefix().unwrap_or("?")),
        Type::Pointer(p) => format!(
            "{}{} *{}",
            if p.pointee_const { "const " } else { "" },
            type_name(&p.pointee),
            if p.restrict { " __restrict__" } else { "" }
        ),
        Type::Array(e, hone_ir::ArrayLen::Const(n)) => format!("{}[{n}]", type_name(e)),
        Type::Array(e, _) => format!("{}[]", type_name(e)),
        Type::Struct(s) => s.name.clone(),
    }
}

/// Whether evaluating `e` again reads the same value and changes nothing:
/// variables, literals, builtins, addresses of them and members, components
/// and elements of them at such indices.
pub(crate) fn repeatable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_)
        | ExprKind::Global(_)
        | ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::Builtin(_) => true,
        ExprKind::Field(b, _)
        | ExprKind::Component(b, _)
        | ExprKind::AddrOf(b)
        | ExprKind::Cast { expr: b, .. } => repeatable(b),
        ExprKind::Deref(b) => matches!(b.kind, ExprKind::Var(_)),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => repeatable(a) && repeatable(b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Scalar::*;

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(common_scalar(I8, I16), I32);
        assert_eq!(common_scalar(I32, U32), U32);
        assert_eq!(common_scalar(I64, U32), I64);
        assert_eq!(common_scalar(U64, I32), U64);
        assert_eq!(common_scalar(I64, U64), U64);
        assert_eq!(common_scalar(I32, F32), F32);
        assert_eq!(common_scalar(F32, F64), F64);
        assert_eq!(common_scalar(U64, F32), F32);
        assert_eq!(common_scalar(Bool, Bool), I32);
        assert_eq!(common_scalar(U16, I32), I32);
    }
}
