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
    match ty {
        Type::Void => (with_const(is_const, "void"), inner),
        Type::Scalar(s) => (with_const(is_const, s.c_name()), inner),
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
            split(&p.pointee, p.pointee_const, d, ep)
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
            split(elem, is_const, format!("{inner}[{len}]"), ep)
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

/// The abstract declarator of `ty`, as in a cast or `sizeof`.
pub(super) fn type_name(ty: &Type, ep: &ExprPrinter) -> String {
    declaration(ty, false, "", ep)
}
