//! C declarator syntax. A type is printed inside out: pointers prefix the
//! declarator, arrays suffix it, and a pointer to an array needs parentheses
//! (`float (*p)[17]`), which is why this works on the declarator text rather
//! than on the type alone.

use super::expr::ExprPrinter;
use crate::{ArrayLen, Type};

/// A declaration split into its specifiers (`const float`) and its declarator
/// (`*__restrict__ p`, `s[16][17]`), so several declarators can share one
/// specifier list (`int i = 0, j = 0`).
pub(super) fn split(
    ty: &Type,
    is_const: bool,
    inner: String,
    ep: &ExprPrinter,
) -> (String, String) {
    split_q(ty, is_const, false, inner, ep)
}

/// `split` with `volatile` on the outermost level as well.
pub(super) fn split_q(
    ty: &Type,
    is_const: bool,
    is_volatile: bool,
    inner: String,
    ep: &ExprPrinter,
) -> (String, String) {
    let with_const = |c: bool, name: &str| {
        let name = if is_volatile {
            format!("volatile {name}")
        } else {
            name.to_string()
        };
        with_const(c, &name)
    };
    match ty {
        Type::Void => (with_const(is_const, "void"), inner),
        Type::Scalar(s) => (with_const(is_const, s.c_name()), inner),
        Type::Struct(st) => (with_const(is_const, &st.name), inner),
        Type::Vector(s, n) => {
            // `bool` has no vector type; spelling it `bool2` keeps the mistake
            // visible to the compiler instead of silently changing the type.
            let prefix = s.vector_prefix().unwrap_or("bool");
            (with_const(is_const, &format!("{prefix}{n}")), inner)
        }
        Type::Pointer(p) => {
            let mut quals = Vec::new();
            if is_const {
                quals.push("const");
            }
            if is_volatile {
                quals.push("volatile");
            }
            if p.restrict {
                quals.push("__restrict__");
            }
            let mut d = format!("*{}", quals.join(" "));
            if !inner.is_empty() {
                if !quals.is_empty() {
                    d.push(' ');
                }
                d.push_str(&inner);
            }
            split_q(&p.pointee, p.pointee_const, p.pointee_volatile, d, ep)
        }
        Type::Array(elem, len) => {
            let inner = if inner.starts_with('*') {
                format!("({inner})")
            } else {
                inner
            };
            let len = match len {
                ArrayLen::Const(n) => n.to_string(),
                ArrayLen::Unsized => String::new(),
                ArrayLen::Expr(e) => ep.expr(e),
            };
            split_q(elem, is_const, is_volatile, format!("{inner}[{len}]"), ep)
        }
    }
}

fn with_const(is_const: bool, name: &str) -> String {
    if is_const {
        format!("const {name}")
    } else {
        name.to_string()
    }
}

/// Specifiers and declarator as one declaration.
pub(super) fn join(spec: &str, declarator: &str) -> String {
    if declarator.is_empty() || declarator.starts_with('[') {
        format!("{spec}{declarator}")
    } else {
        format!("{spec} {declarator}")
    }
}

pub(super) fn declaration(ty: &Type, is_const: bool, name: &str, ep: &ExprPrinter) -> String {
    let (spec, d) = split(ty, is_const, name.to_string(), ep);
    join(&spec, &d)
}

/// `declaration` of a `volatile` variable when `is_volatile`.
pub(super) fn declaration_q(
    ty: &Type,
    is_const: bool,
    is_volatile: bool,
    name: &str,
    ep: &ExprPrinter,
) -> String {
    let (spec, d) = split_q(ty, is_const, is_volatile, name.to_string(), ep);
    join(&spec, &d)
}

/// The abstract declarator of `ty`, as in a cast or `sizeof`.
pub(super) fn type_name(ty: &Type, ep: &ExprPrinter) -> String {
    declaration(ty, false, "", ep)
}
