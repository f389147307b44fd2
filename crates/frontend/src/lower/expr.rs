//! Expressions, typed by C++'s rules with every conversion made explicit.

use hone_ir::build;
use hone_ir::{
    BinaryOp, Builtin, Dim, Expr, ExprKind, Intrinsic, PointerType, Scalar, Span, Type, UnaryOp,
};
use tree_sitter::Node;

use super::conv::{common_scalar, icast, is_null_constant, promoted, type_name};
use super::func::{Abort, Entry, FnLowerer, LResult};
use super::names;
use crate::literal::{self, Literal};
use crate::syntax;

/// A cast or unary operator waiting for its operand. tree-sitter parses
/// `(T)-x` as the binary `(T) - x`; when `T` turns out to name a type the
/// cast and the operator are applied to the leftmost operand instead.
enum Prefix<'t> {
    Cast(Type, Node<'t>),
    Unary(&'static str, Node<'t>),
}

pub(crate) fn binary_op_of(text: &str) -> Option<BinaryOp> {
    use BinaryOp::*;
    Some(match text {
        "+" => Add,
        "-" => Sub,
        "*" => Mul,
        "/" => Div,
        "%" => Rem,
        "<<" => Shl,
        ">>" => Shr,
        "&" | "bitand" => BitAnd,
        "|" | "bitor" => BitOr,
        "^" | "xor" => BitXor,
        "&&" | "and" => LogicAnd,
        "||" | "or" => LogicOr,
        "==" => Eq,
        "!=" | "not_eq" => Ne,
        "<" => Lt,
        "<=" => Le,
        ">" => Gt,
        ">=" => Ge,
        _ => return None,
    })
}

fn builtin_of(name: &str, dim: Dim) -> Option<Builtin> {
    Some(match name {
        "threadIdx" => Builtin::ThreadIdx(dim),
        "blockIdx" => Builtin::BlockIdx(dim),
        "blockDim" => Builtin::BlockDim(dim),
        "gridDim" => Builtin::GridDim(dim),
        _ => return None,
    })
}

fn dim_of(field: &str) -> Option<Dim> {
    Some(match field {
        "x" => Dim::X,
        "y" => Dim::Y,
        "z" => Dim::Z,
        _ => return None,
    })
}

/// Span from the start of `a` to the end of `b`.
fn join(a: Span, b: Span) -> Span {
    if a.file == b.file && (b.end_line, b.end_col) >= (a.line, a.col) {
        Span {
            end_line: b.end_line,
            end_col: b.end_col,
            ..a
        }
    } else {
        a
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    pub fn expr(&mut self, n: Node) -> LResult<Expr> {
        self.expr_p(n, Vec::new())
    }

    fn expr_p<'t>(&mut self, n: Node<'t>, prefix: Vec<Prefix<'t>>) -> LResult<Expr> {
        self.nested(n, |s| s.expr_inner(n, prefix))
    }

    fn expr_inner<'t>(&mut self, n: Node<'t>, mut prefix: Vec<Prefix<'t>>) -> LResult<Expr> {
        match n.kind() {
            "binary_expression" => {
                let (l, r, op) = self.fields3(n, "left", "right", "operator")?;
                let op_text = self.text(op);
                if let Some(op_static) = ["-", "+", "*", "&"].into_iter().find(|o| *o == op_text) {
                    if let Some((tnode, tname)) = self.paren_type_name(l) {
                        let ty = self.type_from_name(tnode, tname)?;
                        prefix.push(Prefix::Cast(ty, l));
                        prefix.push(Prefix::Unary(op_static, op));
                        return self.expr_p(r, prefix);
                    }
                }
                let a = self.expr_p(l, prefix)?;
                let b = self.expr(r)?;
                if Self::needs_user_operator(&a.ty) || Self::needs_user_operator(&b.ty) {
                    if let Some(e) =
                        self.user_operator(n, op_text, vec![a.clone(), b.clone()], &[l, r])?
                    {
                        return Ok(e);
                    }
                }
                let Some(bop) = binary_op_of(op_text) else {
                    return Err(self.error(
                        op,
                        op_text,
                        format!("operator `{op_text}` is not supported"),
                    ));
                };
                self.binary(bop, a, b, n)
            }
            "conditional_expression" => {
                let c = self.field(n, "condition")?;
                let Some(t) = n.child_by_field_name("consequence") else {
                    return Err(self.error(
                        n,
                        "?:",
                        "`a ?: b` is a GNU extension and is not supported",
                    ));
                };
                let f = self.field(n, "alternative")?;
                let c = self.expr_p(c, prefix)?;
                let t = self.expr(t)?;
                let f = self.expr(f)?;
                self.conditional(c, t, f, n)
            }
            "comma_expression" => {
                // The grammar nests `a, b, c` to the right; C groups it to the left.
                let (l, mut r) = self.fields2(n, "left", "right")?;
                let mut acc = self.expr_p(l, prefix)?;
                loop {
                    let (item, rest) = if r.kind() == "comma_expression" {
                        let (rl, rr) = self.fields2(r, "left", "right")?;
                        (rl, Some(rr))
                    } else {
                        (r, None)
                    };
                    let b = self.expr(item)?;
                    let ty = b.ty.clone();
                    let span = Span {
                        end_line: b.span.end_line,
                        end_col: b.span.end_col,
                        ..self.span(n)
                    };
                    acc = self.mk(ExprKind::Comma(Box::new(acc), Box::new(b)), ty, span);
                    match rest {
                        Some(rest) => r = rest,
                        None => return Ok(acc),
                    }
                }
            }
            "assignment_expression" if !prefix.is_empty() => {
                Err(self.error(n, "assignment", "the result of a cast is not assignable"))
            }
            _ => {
                let e = self.primary(n)?;
                self.apply_prefix(e, prefix)
            }
        }
    }

    fn apply_prefix(&mut self, mut e: Expr, prefix: Vec<Prefix>) -> LResult<Expr> {
        for p in prefix.into_iter().rev() {
            e = match p {
                Prefix::Cast(ty, node) => {
                    let end = e.span;
                    let mut c = self.explicit_cast(e, ty, node)?;
                    c.span = join(c.span, end);
                    c
                }
                Prefix::Unary(op, node) => {
                    let end = e.span;
                    let mut u = self.unary(op, e, node)?;
                    u.span = join(u.span, end);
                    u
                }
            };
        }
        Ok(e)
    }

    pub fn field<'t>(&mut self, n: Node<'t>, name: &str) -> LResult<Node<'t>> {
        match n.child_by_field_name(name) {
            Some(c) => Ok(c),
            None => {
                let k = n.kind().to_string();
                Err(self.error(n, &k, format!("malformed `{k}`: no {name}")))
            }
        }
    }

    fn fields2<'t>(&mut self, n: Node<'t>, a: &str, b: &str) -> LResult<(Node<'t>, Node<'t>)> {
        Ok((self.field(n, a)?, self.field(n, b)?))
    }

    pub fn fields3<'t>(
        &mut self,
        n: Node<'t>,
        a: &str,
        b: &str,
        c: &str,
    ) -> LResult<(Node<'t>, Node<'t>, Node<'t>)> {
        Ok((self.field(n, a)?, self.field(n, b)?, self.field(n, c)?))
    }

    /// `(T)` where `T` names a type: the identifier node and its text.
    pub fn paren_type_name<'t>(&self, n: Node<'t>) -> Option<(Node<'t>, &'a str)> {
        if n.kind() != "parenthesized_expression" {
            return None;
        }
        let inner = syntax::named_children(n);
        match inner.as_slice() {
            [id] if id.kind() == "identifier" => {
                let name = self.text(*id);
                self.is_type_name(name).then_some((*id, name))
            }
            _ => None,
        }
    }

    fn primary(&mut self, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let text = self.text(n);
        match n.kind() {
            "identifier" => self.identifier(n),
            // The grammar folds a leading sign into the literal (`case -1:`).
            "number_literal" if text.starts_with(['-', '+']) => {
                let op = if text.starts_with('-') { "-" } else { "+" };
                let e = match literal::parse_number(&text[1..]) {
                    Ok(Literal::Int(v, s)) => self.mk(ExprKind::IntLit(v), Type::Scalar(s), span),
                    Ok(Literal::Float(v, s)) => {
                        self.mk(ExprKind::FloatLit(v), Type::Scalar(s), span)
                    }
                    Err(msg) => return Err(self.error(n, "literal", msg)),
                };
                self.unary(op, e, n)
            }
            "number_literal" => match literal::parse_number(text) {
                Ok(Literal::Int(v, s)) => Ok(self.mk(ExprKind::IntLit(v), Type::Scalar(s), span)),
                Ok(Literal::Float(v, s)) => {
                    Ok(self.mk(ExprKind::FloatLit(v), Type::Scalar(s), span))
                }
                Err(msg) => Err(self.error(n, "literal", msg)),
            },
            "char_literal" => {
                if !text.starts_with('\'') {
                    return Err(self.error(
                        n,
                        "literal",
                        "wide and UTF character literals are not supported",
                    ));
                }
                let body = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
                match literal::parse_char(body) {
                    Ok(v) => Ok(self.mk(ExprKind::IntLit(v), Type::Scalar(Scalar::I8), span)),
                    Err(msg) => Err(self.error(n, "literal", msg)),
                }
            }
            "true" => Ok(self.mk(ExprKind::BoolLit(true), Type::BOOL, span)),
            "false" => Ok(self.mk(ExprKind::BoolLit(false), Type::BOOL, span)),
            // `NULL` and `nullptr` are null pointer constants.
            "null" => Ok(self.mk(ExprKind::IntLit(0), Type::INT, span)),
            "parenthesized_expression" => {
                let inner = syntax::named_children(n);
                match inner.as_slice() {
                    [e] if e.kind() == "compound_statement" => Err(self.error(
                        n,
                        "statement expression",
                        "GNU statement expressions are not supported",
                    )),
                    [e] => {
                        let mut r = self.expr(*e)?;
                        r.span = span;
                        Ok(r)
                    }
                    _ => Err(self.error(n, "expression", "malformed parenthesized expression")),
                }
            }
            "this" => self.this_expr(n),
            "unary_expression" => {
                let (arg, op) = self.fields2(n, "argument", "operator")?;
                let e = self.expr(arg)?;
                if Self::needs_user_operator(&e.ty) {
                    let sym = self.text(op).to_string();
                    if let Some(r) = self.user_operator(n, &sym, vec![e.clone()], &[arg])? {
                        return Ok(r);
                    }
                }
                let op = match self.text(op) {
                    "-" => "-",
                    "+" => "+",
                    "!" | "not" => "!",
                    "~" | "compl" => "~",
                    other => {
                        let other = other.to_string();
                        return Err(self.error(
                            op,
                            &other,
                            format!("operator `{other}` is not supported"),
                        ));
                    }
                };
                self.unary(op, e, n)
            }
            "pointer_expression" => {
                let (arg, op) = self.fields2(n, "argument", "operator")?;
                let e = self.expr(arg)?;
                let op = if self.text(op) == "*" { "*" } else { "&" };
                self.unary(op, e, n)
            }
            "update_expression" => {
                let (arg, op) = self.fields2(n, "argument", "operator")?;
                let increment = self.text(op) == "++";
                let prefix = op.start_byte() < arg.start_byte();
                let target = self.expr(arg)?;
                self.check_modifiable(&target, arg, if increment { "++" } else { "--" })?;
                let ok = match &target.ty {
                    Type::Scalar(_) => true,
                    Type::Pointer(p) => p.pointee != Type::Void,
                    _ => false,
                };
                if !ok {
                    let t = type_name(&target.ty);
                    return Err(self.error(
                        n,
                        "type mismatch",
                        format!("cannot increment or decrement `{t}`"),
                    ));
                }
                let ty = target.ty.clone();
                Ok(self.mk(
                    ExprKind::IncDec {
                        increment,
                        prefix,
                        target: Box::new(target),
                    },
                    ty,
                    span,
                ))
            }
            "assignment_expression" => self.assignment(n),
            "cast_expression" => {
                let (t, v) = self.fields2(n, "type", "value")?;
                let ty = self.type_descriptor(t)?;
                let e = self.expr(v)?;
                let mut c = self.explicit_cast(e, ty, n)?;
                c.span = span;
                Ok(c)
            }
            "sizeof_expression" => self.sizeof(n),
            "subscript_expression" => self.subscript(n),
            "field_expression" => self.member(n),
            "call_expression" => self.call(n),
            "string_literal" | "concatenated_string" => self.string_literal(n),
            "raw_string_literal" => Err(self.error(
                n,
                "string literal",
                "raw string literals are not supported in device code",
            )),
            "lambda_expression" => Err(self.error(
                n,
                "lambda",
                "a lambda is supported declared as `auto name = [captures](params) {...};` and called by that name, not passed or called where it is written",
            )),
            "new_expression" | "delete_expression" => {
                Err(self.error(n, "new/delete", "dynamic allocation is not supported"))
            }
            "gnu_asm_expression" => self.inline_asm(n),
            "template_function" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|c| self.text(c))
                    .unwrap_or("");
                if matches!(
                    self.lookup(name),
                    Some(Entry::Var(_)) | Some(Entry::Const(..))
                ) || self.ctx.constants.contains_key(name)
                {
                    // `f(y < a, b >> c)`: the grammar takes `y<a, b>` for a template.
                    return Err(self.error(
                        n,
                        "parser ambiguity",
                        format!(
                            "`{name} < ... >` was read as a template; parenthesize the comparison"
                        ),
                    ));
                }
                if self.ctx.class_templates.contains_key(name) {
                    return Err(self.error(
                        n,
                        "class template",
                        format!(
                            "`{}` names a type here; class template instances are used as types, constructed (`S<T>()`) or converted",
                            self.text(n)
                        ),
                    ));
                }
                Err(self.error(
                    n,
                    "template",
                    format!(
                        "`{}` is not supported here: function templates are called",
                        self.text(n)
                    ),
                ))
            }
            "qualified_identifier" => {
                if names::is_cooperative_groups(text) {
                    return Err(self.error(
                        n,
                        "cooperative groups",
                        "cooperative groups are not supported",
                    ));
                }
                // `E::name` of an enum, else a name in a namespace, which
                // hone keeps in one scope with the file's others.
                let key: String = text.split_whitespace().collect();
                let key = key.trim_start_matches("::");
                // `ns::E::name`: namespaces are dropped from the front until
                // a scoped enumerator (`E::name`) or the bare name is found.
                let mut suffix = key;
                loop {
                    if let Some(&(v, s)) = self.ctx.constants.get(suffix) {
                        return Ok(self.constant(v, s, span));
                    }
                    match suffix.split_once("::") {
                        Some((_, rest)) => suffix = rest,
                        None => break,
                    }
                }
                let last = key.rsplit("::").next().unwrap_or(key);
                if let Some(&(v, s)) = self.ctx.constants.get(last) {
                    return Ok(self.constant(v, s, span));
                }
                if let Some(&(v, s)) = self.ctx.float_constants.get(last) {
                    return Ok(self.mk(ExprKind::FloatLit(v), Type::Scalar(s), span));
                }
                if let Some(&g) = self.ctx.global_ids.get(last) {
                    let ty = self.global(g).ty.clone();
                    return Ok(self.mk(ExprKind::Global(g), ty, span));
                }
                Err(self.error(
                    n,
                    "qualified name",
                    format!("`{text}` is not a constant or variable hone knows"),
                ))
            }
            "initializer_list" => Err(self.error(
                n,
                "initializer list",
                "brace lists are only supported in initializers",
            )),
            "compound_literal_expression" => {
                let (t, v) = self.fields2(n, "type", "value")?;
                let ty = match t.kind() {
                    "type_descriptor" => self.type_descriptor(t)?,
                    // `V<T>{...}`, `ns::V<T>{...}`
                    "template_type" | "qualified_identifier" => self.type_node(t)?.ty,
                    _ => {
                        let name = self.text(t);
                        self.type_from_name(t, name)?
                    }
                };
                if !matches!(ty, Type::Struct(_)) {
                    return Err(self.error(
                        n,
                        "compound literal",
                        "compound literals are supported for structs only",
                    ));
                }
                let args = syntax::named_children(v);
                self.construct(n, &ty, &args)
            }
            "alignof_expression" => Err(self.error(n, "alignof", "`alignof` is not supported")),
            "offsetof_expression" => Err(self.error(n, "struct", "`offsetof` is not supported")),
            "user_defined_literal" => {
                Err(self.error(n, "literal", "user-defined literals are not supported"))
            }
            "ERROR" => Err(self.error(n, "syntax error", "syntax error")),
            k => {
                let k = k.to_string();
                Err(self.error(n, &k, format!("unsupported expression `{k}`")))
            }
        }
    }

    fn identifier(&mut self, n: Node) -> LResult<Expr> {
        let name = self.text(n);
        let span = self.span(n);
        match self.lookup(name).cloned() {
            Some(Entry::Var(id)) => {
                let ty = self.var(id).ty.clone();
                let v = self.mk(ExprKind::Var(id), ty, span);
                if self.refs.contains(&id) {
                    // A reference: the variable holds the object's address.
                    return self.deref(v, n);
                }
                return Ok(v);
            }
            Some(Entry::Poisoned) => return Err(Abort),
            Some(Entry::Type(_)) => {
                return Err(self.error(n, "type", format!("type `{name}` used as a value")))
            }
            Some(Entry::Lambda(_)) => {
                return Err(self.error(
                    n,
                    "lambda",
                    format!("lambda `{name}` used as a value: lambdas are called where they are in scope, not passed or copied"),
                ))
            }
            Some(Entry::Group(_)) => {
                return Err(self.error(
                    n,
                    "cooperative groups",
                    format!("group type `{name}` used as a value"),
                ))
            }
            Some(Entry::ClassTemplate(_)) => {
                return Err(self.error(
                    n,
                    "class template",
                    format!("class template `{name}` used as a value"),
                ))
            }
            Some(Entry::Const(v, s)) => return Ok(self.constant(v, s, span)),
            None => {}
        }
        if let Some(e) = self.implicit_member(name, n) {
            return Ok(e);
        }
        if let Some(&(v, s)) = self.ctx.constants.get(name) {
            return Ok(self.constant(v, s, span));
        }
        if let Some(&(v, s)) = self.ctx.float_constants.get(name) {
            return Ok(self.mk(ExprKind::FloatLit(v), Type::Scalar(s), span));
        }
        if let Some(&g) = self.ctx.global_ids.get(name) {
            let ty = self.global(g).ty.clone();
            return Ok(self.mk(ExprKind::Global(g), ty, span));
        }
        match names::header_constant(name) {
            Some(names::Constant::Int(v, s)) => return Ok(self.constant(v, s, span)),
            Some(names::Constant::Float(v, s)) => {
                return Ok(self.mk(ExprKind::FloatLit(v), Type::Scalar(s), span))
            }
            None => {}
        }
        if name == "warpSize" {
            return Ok(self.mk(ExprKind::Builtin(Builtin::WarpSize), Type::INT, span));
        }
        if builtin_of(name, Dim::X).is_some() {
            // The whole `uint3`: build it from its components.
            let comps = [Dim::X, Dim::Y, Dim::Z]
                .into_iter()
                .filter_map(|d| builtin_of(name, d))
                .map(|b| self.mk(ExprKind::Builtin(b), Type::UINT, span))
                .collect();
            return Ok(self.mk(
                ExprKind::Intrinsic(Intrinsic::MakeVector, comps),
                Type::Vector(Scalar::U32, 3),
                span,
            ));
        }
        if let Some(what) = self.ctx.globals.get(name) {
            let msg = format!("`{name}` is a {what}");
            return Err(self.error(n, "file-scope variable", msg));
        }
        if self.ctx.functions.contains_key(name) || self.ctx.unlowerable.contains_key(name) {
            return Err(self.error(
                n,
                "function pointer",
                format!("function `{name}` used as a value"),
            ));
        }
        if self.is_type_name(name) {
            return Err(self.error(n, "type", format!("type `{name}` used as a value")));
        }
        Err(self.error(
            n,
            "unknown identifier",
            format!("unknown identifier `{name}`"),
        ))
    }

    /// A file-scope constant as a literal (negative values as a negation so
    /// the printer gives C back).
    pub fn constant(&self, v: i128, s: Scalar, span: Span) -> Expr {
        if s == Scalar::Bool {
            return self.mk(ExprKind::BoolLit(v != 0), Type::BOOL, span);
        }
        let magnitude = v.unsigned_abs().min(u64::MAX as u128) as u64;
        let fits_own_type = match s {
            Scalar::I32 => magnitude <= i32::MAX as u64,
            Scalar::U32 => magnitude <= u32::MAX as u64,
            Scalar::I64 => magnitude <= i64::MAX as u64,
            Scalar::U64 => true,
            _ => false,
        };
        let lit_ty = if fits_own_type && (v >= 0 || s.is_signed()) {
            s
        } else if magnitude <= i32::MAX as u64 {
            Scalar::I32
        } else if magnitude <= i64::MAX as u64 {
            Scalar::I64
        } else {
            Scalar::U64
        };
        let lit = self.mk(ExprKind::IntLit(magnitude), Type::Scalar(lit_ty), span);
        let e = if v < 0 {
            self.mk(
                ExprKind::Unary(UnaryOp::Neg, Box::new(lit)),
                Type::Scalar(lit_ty),
                span,
            )
        } else {
            lit
        };
        icast(e, Type::Scalar(s))
    }

    fn check_operand(&mut self, e: &Expr, n: Node, op: &str) -> LResult<()> {
        match &e.ty {
            Type::Scalar(_) | Type::Pointer(_) => Ok(()),
            Type::Vector(..) => Err(self.error(
                n,
                "vector arithmetic",
                format!(
                    "operator `{op}` on `{}`: CUDA defines no operators on vector types",
                    type_name(&e.ty)
                ),
            )),
            t => {
                let t = type_name(t);
                Err(self.error(
                    n,
                    "type mismatch",
                    format!("invalid operand of type `{t}` to `{op}`"),
                ))
            }
        }
    }

    /// A binary operator with C's operand conversions.
    pub fn binary(&mut self, op: BinaryOp, a: Expr, b: Expr, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let (a, b) = (self.decay(a), self.decay(b));
        self.check_operand(&a, n, op.symbol())?;
        self.check_operand(&b, n, op.symbol())?;
        use BinaryOp::*;
        let any_ptr = a.ty.is_pointer() || b.ty.is_pointer();
        let bin = |a: Expr, b: Expr, ty: Type| Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty,
            span,
        };
        match op {
            LogicAnd | LogicOr => return Ok(bin(a, b, Type::BOOL)),
            Add | Sub if any_ptr => return self.pointer_arith(op, a, b, n),
            Eq | Ne | Lt | Le | Gt | Ge if any_ptr => {
                let (a, b) = match (&a.ty, &b.ty) {
                    (Type::Pointer(_), Type::Pointer(_)) => (a, b),
                    (Type::Pointer(_), _) if is_null_constant(&b) => {
                        let t = a.ty.clone();
                        (a, icast(b, t))
                    }
                    (_, Type::Pointer(_)) if is_null_constant(&a) => {
                        let t = b.ty.clone();
                        (icast(a, t), b)
                    }
                    _ => {
                        return Err(self.error(
                            n,
                            "type mismatch",
                            "comparison between a pointer and an integer",
                        ));
                    }
                };
                return Ok(bin(a, b, Type::BOOL));
            }
            _ if any_ptr => {
                let sym = op.symbol();
                return Err(self.error(
                    n,
                    "type mismatch",
                    format!("invalid pointer operand to `{sym}`"),
                ));
            }
            _ => {}
        }
        let (Some(sa), Some(sb)) = (a.ty.scalar(), b.ty.scalar()) else {
            return Err(self.error(n, "type mismatch", "invalid operands"));
        };
        let integer_only = matches!(op, Rem | Shl | Shr | BitAnd | BitOr | BitXor);
        if integer_only && (sa.is_float() || sb.is_float()) {
            let sym = op.symbol();
            return Err(self.error(
                n,
                "type mismatch",
                format!("operator `{sym}` needs integer operands"),
            ));
        }
        if matches!(op, Shl | Shr) {
            let (a, b) = (self.promote(a), self.promote(b));
            let ty = a.ty.clone();
            return Ok(bin(a, b, ty));
        }
        let c = Type::Scalar(common_scalar(sa, sb));
        let (a, b) = (icast(a, c.clone()), icast(b, c.clone()));
        // `1.0f / 0.0f` is how infinities are written (and printed): it is
        // the infinite literal, exactly.
        if let (Div, ExprKind::FloatLit(x), ExprKind::FloatLit(y)) = (op, &a.kind, &b.kind) {
            if *y == 0.0 && *x != 0.0 && x.is_finite() && c.scalar().is_some_and(|s| s.is_float()) {
                let negative = x.is_sign_negative() != y.is_sign_negative();
                let inf = if negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
                return Ok(Expr {
                    kind: ExprKind::FloatLit(inf),
                    ty: c,
                    span,
                });
            }
        }
        let ty = if op.is_comparison() { Type::BOOL } else { c };
        Ok(bin(a, b, ty))
    }

    fn pointer_arith(&mut self, op: BinaryOp, a: Expr, b: Expr, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let is_int = |e: &Expr| e.ty.scalar().is_some_and(|s| s.is_integer());
        let void_ptr = |e: &Expr| matches!(&e.ty, Type::Pointer(p) if p.pointee == Type::Void);
        if void_ptr(&a) || void_ptr(&b) {
            return Err(self.error(n, "type mismatch", "arithmetic on `void *`"));
        }
        let (kind, ty) = match (&a.ty, &b.ty, op) {
            (Type::Pointer(_), _, _) if is_int(&b) => {
                let ty = a.ty.clone();
                let b = self.promote(b);
                (ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
            }
            (_, Type::Pointer(_), BinaryOp::Add) if is_int(&a) => {
                let ty = b.ty.clone();
                let a = self.promote(a);
                (ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
            }
            (Type::Pointer(p), Type::Pointer(q), BinaryOp::Sub) if p.pointee == q.pointee => (
                ExprKind::Binary(op, Box::new(a), Box::new(b)),
                Type::Scalar(Scalar::I64),
            ),
            _ => {
                let (ta, tb) = (type_name(&a.ty), type_name(&b.ty));
                let sym = op.symbol();
                return Err(self.error(
                    n,
                    "type mismatch",
                    format!("invalid operands `{ta}` {sym} `{tb}`"),
                ));
            }
        };
        Ok(self.mk(kind, ty, span))
    }

    /// Unary operators: `-`, `+`, `!`, `~`, `*`, `&`.
    fn unary(&mut self, op: &str, e: Expr, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        match op {
            "-" | "+" | "~" => {
                self.check_operand(&e, n, op)?;
                let ok = match e.ty.scalar() {
                    Some(s) => op != "~" || s.is_integer(),
                    None => false,
                };
                if !ok {
                    let t = type_name(&e.ty);
                    return Err(self.error(
                        n,
                        "type mismatch",
                        format!("invalid operand `{t}` to unary `{op}`"),
                    ));
                }
                let e = self.promote(e);
                let uop = match op {
                    "-" => UnaryOp::Neg,
                    "+" => UnaryOp::Plus,
                    _ => UnaryOp::BitNot,
                };
                let ty = e.ty.clone();
                Ok(self.mk(ExprKind::Unary(uop, Box::new(e)), ty, span))
            }
            "!" => {
                let e = self.decay(e);
                self.check_operand(&e, n, op)?;
                Ok(self.mk(ExprKind::Unary(UnaryOp::Not, Box::new(e)), Type::BOOL, span))
            }
            "*" => self.deref(e, n),
            _ => {
                if !self.is_lvalue(&e) {
                    return Err(self.error(
                        n,
                        "address-of",
                        "cannot take the address of a value that is not an object",
                    ));
                }
                let ty = Type::Pointer(Box::new(PointerType {
                    pointee: e.ty.clone(),
                    pointee_const: self.is_const_typed(&e),
                    restrict: false,
                    pointee_volatile: self.is_volatile_object(&e),
                }));
                Ok(self.mk(ExprKind::AddrOf(Box::new(e)), ty, span))
            }
        }
    }

    pub fn deref(&mut self, e: Expr, n: Node) -> LResult<Expr> {
        let e = self.decay(e);
        let ty = match &e.ty {
            Type::Pointer(p) if p.pointee != Type::Void => p.pointee.clone(),
            t => {
                let t = type_name(t);
                return Err(self.error(n, "type mismatch", format!("cannot dereference `{t}`")));
            }
        };
        // `this->m` in a member taking its object by value: `*&self` is `self`.
        let self_var = self.member.as_ref().map(|(_, v)| *v);
        if let ExprKind::AddrOf(x) = &e.kind {
            if matches!(x.kind, ExprKind::Var(v) if Some(v) == self_var) {
                return Ok(*x.clone());
            }
        }
        Ok(self.mk(ExprKind::Deref(Box::new(e)), ty, self.span(n)))
    }

    fn conditional(&mut self, c: Expr, t: Expr, f: Expr, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let c = self.decay(c);
        self.check_operand(&c, n, "?:")?;
        let (t, f) = (self.decay(t), self.decay(f));
        let ty = match (&t.ty, &f.ty) {
            (Type::Scalar(a), Type::Scalar(b)) => Type::Scalar(common_scalar(*a, *b)),
            (a, b) if a == b => a.clone(),
            (Type::Pointer(p), Type::Pointer(q)) if p.pointee == q.pointee => {
                Type::Pointer(Box::new(PointerType {
                    pointee: p.pointee.clone(),
                    pointee_const: p.pointee_const || q.pointee_const,
                    restrict: p.restrict && q.restrict,
                    pointee_volatile: p.pointee_volatile || q.pointee_volatile,
                }))
            }
            (Type::Pointer(_), Type::Scalar(_)) if is_null_constant(&f) => t.ty.clone(),
            (Type::Scalar(_), Type::Pointer(_)) if is_null_constant(&t) => f.ty.clone(),
            (a, b) => {
                let (a, b) = (type_name(a), type_name(b));
                return Err(self.error(
                    n,
                    "type mismatch",
                    format!("`?:` branches of types `{a}` and `{b}`"),
                ));
            }
        };
        let (t, f) = (icast(t, ty.clone()), icast(f, ty.clone()));
        Ok(self.mk(
            ExprKind::Cond(Box::new(c), Box::new(t), Box::new(f)),
            ty,
            span,
        ))
    }

    pub fn check_modifiable(&mut self, e: &Expr, n: Node, what: &str) -> LResult<()> {
        if !self.is_lvalue(e) {
            return Err(self.error(n, "lvalue", format!("`{what}` needs an assignable object")));
        }
        if matches!(e.ty, Type::Array(..)) {
            return Err(self.error(n, "lvalue", "arrays cannot be assigned"));
        }
        if self.is_const_object(e) {
            return Err(self.error(n, "const", format!("`{what}` on a const object")));
        }
        Ok(())
    }

    fn assignment(&mut self, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let (l, r, op) = self.fields3(n, "left", "right", "operator")?;
        let op_text = self.text(op);
        let lhs = self.expr(l)?;
        let rhs = self.expr(r)?;
        if op_text != "=" && Self::needs_user_operator(&lhs.ty) {
            if let Some(e) =
                self.compound_user_operator(n, op_text, lhs.clone(), rhs.clone(), l, r)?
            {
                return Ok(e);
            }
        }
        self.check_modifiable(&lhs, l, op_text)?;
        let ty = lhs.ty.clone();
        if op_text == "=" {
            let rhs = self.convert(rhs, &ty, r, "assignment")?;
            return Ok(hone_ir::build::assign(lhs, rhs, span));
        }
        let Some(bop) = op_text.strip_suffix('=').and_then(binary_op_of) else {
            return Err(self.error(
                op,
                op_text,
                format!("operator `{op_text}` is not supported"),
            ));
        };
        let rhs = self.decay(rhs);
        self.check_operand(&lhs, n, op_text)?;
        self.check_operand(&rhs, n, op_text)?;
        use BinaryOp::*;
        let rhs = match (&lhs.ty, rhs.ty.scalar()) {
            (Type::Pointer(p), Some(s))
                if matches!(bop, Add | Sub) && s.is_integer() && p.pointee != Type::Void =>
            {
                self.promote(rhs)
            }
            (Type::Scalar(ls), Some(rs)) => {
                let integer_only = matches!(bop, Rem | Shl | Shr | BitAnd | BitOr | BitXor);
                if integer_only && (ls.is_float() || rs.is_float()) {
                    return Err(self.error(
                        n,
                        "type mismatch",
                        format!("operator `{op_text}` needs integer operands"),
                    ));
                }
                // The operation is done in this type; the result is converted back to the lhs's.
                let op_ty = if matches!(bop, Shl | Shr) {
                    promoted(*ls)
                } else {
                    common_scalar(*ls, rs)
                };
                icast(rhs, Type::Scalar(op_ty))
            }
            _ => {
                let (a, b) = (type_name(&lhs.ty), type_name(&rhs.ty));
                return Err(self.error(
                    n,
                    "type mismatch",
                    format!("invalid operands `{a}` {op_text} `{b}`"),
                ));
            }
        };
        Ok(self.mk(
            ExprKind::Assign {
                op: Some(bop),
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            ty,
            span,
        ))
    }

    /// Inline PTX that reads one of the lane's special registers
    /// (`asm("mov.u32 %0, %%laneid;" : "=r"(lane))`) is the assignment of
    /// the value it reads; other assembly is refused.
    fn inline_asm(&mut self, n: Node) -> LResult<Expr> {
        let refuse = |l: &mut Self| {
            Err(l.error(
                n,
                "inline asm",
                "this inline PTX is not supported (hone reads one instruction of its table: integer, bit-field, logic and funnel-shift ALU operations, global loads and stores, and `mov` of the thread, block, clock and lane registers)",
            ))
        };
        let code = match n.child_by_field_name("assembly_code") {
            Some(c) => match literal::parse_string(self.text(c)) {
                Ok(t) => t,
                Err(_) => return refuse(self),
            },
            None => return refuse(self),
        };
        let inputs = n
            .child_by_field_name("input_operands")
            .map(|i| syntax::named_children(i).len())
            .unwrap_or(0);
        let outputs = n
            .child_by_field_name("output_operands")
            .map(syntax::named_children)
            .unwrap_or_default();
        let words: Vec<String> = code
            .replace("%%", "%")
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        let register = match words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["mov.u32" | "mov.b32", "%0", reg] => reg.to_string(),
            _ => return refuse(self),
        };
        let [out] = outputs.as_slice() else {
            return refuse(self);
        };
        if inputs != 0 {
            return refuse(self);
        }
        let Some(target) = out.child_by_field_name("value") else {
            return refuse(self);
        };
        let span = self.span(n);
        let b = |d| build::builtin(Builtin::ThreadIdx(d), span);
        let dim = |d| build::builtin(Builtin::BlockDim(d), span);
        // The lane: the thread's linear index in its block, modulo 32.
        let linear = build::arith(
            BinaryOp::Add,
            build::arith(
                BinaryOp::Mul,
                build::arith(
                    BinaryOp::Add,
                    build::arith(BinaryOp::Mul, b(Dim::Z), dim(Dim::Y)),
                    b(Dim::Y),
                ),
                dim(Dim::X),
            ),
            b(Dim::X),
        );
        let lane = build::arith(BinaryOp::BitAnd, linear, build::lit(31, span));
        let one = build::mk(ExprKind::IntLit(1), Type::UINT, span);
        // A shift takes its left operand's type; the count is not converted.
        let shift = |a: Expr, k: Expr| {
            build::mk(
                ExprKind::Binary(BinaryOp::Shl, Box::new(a), Box::new(k)),
                Type::UINT,
                span,
            )
        };
        let shl = |k: Expr| shift(one.clone(), k);
        let value = match register.as_str() {
            "%laneid" => lane,
            // Bits of the lanes below (or up to) this one, and above.
            "%lanemask_lt" => build::arith(BinaryOp::Sub, shl(lane), one.clone()),
            "%lanemask_le" => build::arith(
                BinaryOp::Sub,
                shift(shl(lane), build::lit(1, span)),
                one.clone(),
            ),
            "%lanemask_ge" => build::mk(
                ExprKind::Unary(
                    UnaryOp::BitNot,
                    Box::new(build::arith(BinaryOp::Sub, shl(lane), one.clone())),
                ),
                Type::UINT,
                span,
            ),
            "%lanemask_gt" => build::mk(
                ExprKind::Unary(
                    UnaryOp::BitNot,
                    Box::new(build::arith(
                        BinaryOp::Sub,
                        shift(shl(lane), build::lit(1, span)),
                        one.clone(),
                    )),
                ),
                Type::UINT,
                span,
            ),
            _ => return refuse(self),
        };
        let lhs = self.expr(target)?;
        let rhs = self.convert(value, &lhs.ty.clone(), target, "assignment")?;
        Ok(build::assign(lhs, rhs, span))
    }

    /// `"..."` (adjacent literals joined), typed `const char *`.
    fn string_literal(&mut self, n: Node) -> LResult<Expr> {
        let parts = if n.kind() == "concatenated_string" {
            syntax::named_children(n)
        } else {
            vec![n]
        };
        let mut text = String::new();
        for p in parts {
            if p.kind() != "string_literal" {
                return Err(self.error(
                    p,
                    "string literal",
                    "only plain string literals can be joined",
                ));
            }
            match literal::parse_string(self.text(p)) {
                Ok(t) => text.push_str(&t),
                Err(msg) => return Err(self.error(p, "string literal", msg)),
            }
        }
        let ty = Type::Pointer(Box::new(PointerType {
            pointee: Type::Scalar(Scalar::I8),
            pointee_const: true,
            restrict: false,
            pointee_volatile: false,
        }));
        Ok(self.mk(ExprKind::StrLit(text), ty, self.span(n)))
    }

    fn sizeof(&mut self, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let ty = if let Some(t) = n.child_by_field_name("type") {
            self.type_descriptor(t)?
        } else {
            let v = self.field(n, "value")?;
            // `sizeof(S<4>)` reads as an expression in parentheses.
            let instance = match syntax::named_children(v).as_slice() {
                [t] if v.kind() == "parenthesized_expression"
                    && t.kind() == "template_function" =>
                {
                    self.class_instance_type(*t)?
                }
                _ => None,
            };
            if let Some(ty) = instance {
                ty
            } else {
                match self.paren_type_name(v) {
                    Some((tn, name)) => self.type_from_name(tn, name)?,
                    None => self.expr(v)?.ty,
                }
            }
        };
        if ty.size().is_none() {
            let t = type_name(&ty);
            return Err(self.error(
                n,
                "sizeof",
                format!("`sizeof` of `{t}`, whose size is not known"),
            ));
        }
        Ok(self.mk(ExprKind::SizeOf(ty), Type::Scalar(Scalar::U64), span))
    }

    fn subscript(&mut self, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let arg = self.field(n, "argument")?;
        let idx_node = match n
            .child_by_field_name("indices")
            .or_else(|| n.child_by_field_name("index"))
        {
            Some(list) if list.kind() == "subscript_argument_list" => {
                match syntax::named_children(list).as_slice() {
                    [one] => *one,
                    _ => {
                        return Err(self.error(list, "subscript", "expected exactly one subscript"))
                    }
                }
            }
            Some(i) => i,
            None => return Err(self.error(n, "subscript", "malformed subscript")),
        };
        let mut base = self.expr(arg)?;
        let mut idx = self.expr(idx_node)?;
        let is_int = |e: &Expr| e.ty.scalar().is_some_and(|s| s.is_integer());
        if is_int(&base) && matches!(idx.ty, Type::Pointer(_) | Type::Array(..)) {
            std::mem::swap(&mut base, &mut idx);
        }
        if let Type::Struct(st) = &base.ty {
            let key = (st.name.clone(), "operator[]".to_string());
            if let Some(sigs) = self.ctx.methods.get(&key).cloned() {
                return self.call_overload(n, "operator[]", &sigs, vec![base, idx], &[idx_node]);
            }
        }
        let elem = match &base.ty {
            Type::Array(e, _) => (**e).clone(),
            Type::Pointer(p) if p.pointee != Type::Void => p.pointee.clone(),
            t => {
                let t = type_name(t);
                return Err(self.error(n, "subscript", format!("cannot subscript `{t}`")));
            }
        };
        if !is_int(&idx) {
            let t = type_name(&idx.ty);
            return Err(self.error(
                idx_node,
                "subscript",
                format!("subscript of type `{t}` is not an integer"),
            ));
        }
        let idx = self.promote(idx);
        Ok(self.mk(ExprKind::Index(Box::new(base), Box::new(idx)), elem, span))
    }

    fn member(&mut self, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let (arg, field, op) = self.fields3(n, "argument", "field", "operator")?;
        let fname = self.text(field);
        let arrow = self.text(op) == "->";
        if !arrow && arg.kind() == "identifier" {
            let name = self.text(arg);
            if self.lookup(name).is_none() && builtin_of(name, Dim::X).is_some() {
                let Some(dim) = dim_of(fname) else {
                    return Err(self.error(
                        field,
                        "builtin",
                        format!("`{name}` has no member `{fname}`"),
                    ));
                };
                let b = builtin_of(name, dim).unwrap_or(Builtin::ThreadIdx(dim));
                return Ok(self.mk(ExprKind::Builtin(b), Type::UINT, span));
            }
        }
        let base = self.expr(arg)?;
        let base = if arrow { self.deref(base, arg)? } else { base };
        match &base.ty {
            Type::Vector(s, len) => {
                let idx = match fname {
                    "x" => 0,
                    "y" => 1,
                    "z" => 2,
                    "w" => 3,
                    _ => 4,
                };
                if idx >= *len {
                    let t = type_name(&base.ty);
                    return Err(self.error(
                        field,
                        "vector",
                        format!("`{t}` has no component `{fname}`"),
                    ));
                }
                let ty = Type::Scalar(*s);
                Ok(self.mk(ExprKind::Component(Box::new(base), idx), ty, span))
            }
            Type::Struct(st) => {
                let Some(path) = st.member_path(fname) else {
                    let member = (st.name.clone(), fname.to_string());
                    let what = if self.ctx.methods.contains_key(&member) {
                        "is a member function; call it"
                    } else {
                        "is not a data member"
                    };
                    return Err(self.error(
                        field,
                        "struct",
                        format!("`{fname}` of `{}` {what}", st.name),
                    ));
                };
                let mut e = base.clone();
                for i in path {
                    let Type::Struct(outer) = &e.ty else {
                        break;
                    };
                    let ty = outer.fields[i].ty.clone();
                    e = self.mk(ExprKind::Field(Box::new(e), i as u32), ty, span);
                }
                Ok(e)
            }
            t => {
                let t = type_name(t);
                Err(self.error(
                    n,
                    "member access",
                    format!("member access `.{fname}` on `{t}`, which has no members"),
                ))
            }
        }
    }
}
