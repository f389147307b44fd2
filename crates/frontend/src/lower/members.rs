//! Overloaded calls, member functions, constructors and operator overloads.
//!
//! A member function is lowered to a function taking the object first: a
//! `const` one takes it by value (`self`), any other one its address, and a
//! constructor becomes a function returning the object it builds. Their IR
//! names are `S__name` (`S__ctor` for constructors, `S__operator_add_assign`
//! for a mutating operator); a `const` member operator and a free operator
//! keep the name `operator+`, which the printer writes back as the operator.

use std::sync::Arc;

use hone_ir::{
    ArrayLen, Expr, ExprKind, PointerType, Stmt, StmtKind, StructType, Type, Var, VarId, VarKind,
};
use tree_sitter::Node;

use super::conv::{is_null_constant, type_name};
use super::func::{FnLowerer, Header, LResult, Param};
use super::types::ArrayCtx;
use super::{FuncSig, MemberKind, QualType};
use crate::syntax;

/// The member name conversion functions (`operator T *()`) are filed under;
/// they are told apart by their result.
pub(crate) const CONVERSION: &str = "(conversion)";

/// The identifier part of an operator's IR name for mutating member operators.
pub(crate) fn operator_ident(op: &str) -> String {
    let sym = op.trim_start_matches("operator");
    let word = match sym {
        "+" => "add",
        "-" => "sub",
        "*" => "mul",
        "/" => "div",
        "%" => "rem",
        "=" => "assign",
        "+=" => "add_assign",
        "-=" => "sub_assign",
        "*=" => "mul_assign",
        "/=" => "div_assign",
        "%=" => "rem_assign",
        "&=" => "and_assign",
        "|=" => "or_assign",
        "^=" => "xor_assign",
        "<<=" => "shl_assign",
        ">>=" => "shr_assign",
        "++" => "inc",
        "--" => "dec",
        "[]" => "index",
        "()" => "call",
        "==" => "eq",
        "!=" => "ne",
        "<" => "lt",
        ">" => "gt",
        "<=" => "le",
        ">=" => "ge",
        other => {
            return format!(
                "operator_{}",
                other
                    .bytes()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>()
            )
        }
    };
    format!("operator_{word}")
}

/// Operators C++ allows as member functions only (`operator()`,
/// `operator[]`, ...): even a `const` one is lowered as a member, never as
/// the free operator other `const` member operators become.
pub(crate) fn member_only_operator(name: &str) -> bool {
    matches!(
        name.trim_start_matches("operator").trim(),
        "()" | "[]" | "=" | "->"
    )
}

/// The members of `st` that hold its base classes, with their types.
fn base_fields(st: &StructType) -> impl Iterator<Item = (usize, &StructType)> {
    st.fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match &f.ty {
            Type::Struct(b) if hone_ir::is_base(&f.name) => Some((i, &**b)),
            _ => None,
        })
}

/// Types equal up to the qualifiers of pointees.
fn same_type(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Pointer(p), Type::Pointer(q)) => same_type(&p.pointee, &q.pointee),
        _ => a == b,
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// How far `arg` is from `param`: 0 exact, 1 a conversion, `None` not viable.
    fn arg_cost(&self, arg: &Expr, param: &Type, by_ref: bool) -> Option<u32> {
        if by_ref {
            let Type::Pointer(pt) = param else {
                return None;
            };
            return (self.is_lvalue(arg) && same_type(&arg.ty, &pt.pointee)).then_some(0);
        }
        if same_type(&arg.ty, param) {
            return Some(0);
        }
        match (&arg.ty, param) {
            (Type::Scalar(_), Type::Scalar(_)) => Some(1),
            (Type::Pointer(_) | Type::Array(..), Type::Pointer(q)) => {
                let pointee = arg.ty.pointee()?;
                (same_type(pointee, &q.pointee) || q.pointee == Type::Void).then_some(1)
            }
            (Type::Scalar(_), Type::Pointer(_)) if is_null_constant(arg) => Some(1),
            (Type::Struct(st), _) if !matches!(param, Type::Struct(_)) => {
                // A user-defined conversion ranks after the standard ones.
                let key = (st.name.clone(), CONVERSION.to_string());
                let sigs = self.ctx.methods.get(&key)?;
                sigs.iter()
                    .any(|s| match (&s.ret, param) {
                        (Type::Pointer(a), Type::Pointer(b)) => {
                            same_type(&a.pointee, &b.pointee)
                                && (b.pointee_const || !a.pointee_const)
                        }
                        (r, p) => r == p,
                    })
                    .then_some(2)
            }
            (_, Type::Struct(st)) => self.converting_ctor(arg, st).map(|_| 3),
            _ => None,
        }
    }

    /// The constructor of `st` that converts `arg` implicitly (`__half h =
    /// 1.0f;`): one taking a single scalar or pointer parameter that `arg`
    /// converts to by a standard conversion.
    pub fn converting_ctor(&self, arg: &Expr, st: &StructType) -> Option<FuncSig> {
        if matches!(&arg.ty, Type::Struct(s) if s.name == st.name) {
            return None;
        }
        let sigs = self.ctx.methods.get(&(st.name.clone(), st.name.clone()))?;
        let one: Vec<FuncSig> = sigs
            .iter()
            .filter(|s| s.params.len() == 1 && !matches!(s.params[0], Type::Struct(_)))
            .cloned()
            .collect();
        if one.is_empty() {
            return None;
        }
        self.pick(&one, std::slice::from_ref(arg)).ok()
    }

    /// The overload of `sigs` the arguments select: the one with the fewest
    /// conversions.
    pub fn pick(&self, sigs: &[FuncSig], args: &[Expr]) -> Result<FuncSig, String> {
        let mut best: Vec<(u32, &FuncSig)> = Vec::new();
        for s in sigs.iter().filter(|s| s.params.len() == args.len()) {
            let cost: Option<u32> = args
                .iter()
                .zip(&s.params)
                .zip(&s.by_ref)
                .map(|((a, p), r)| self.arg_cost(a, p, *r))
                .sum();
            if let Some(c) = cost {
                best.push((c, s));
            }
        }
        let given: Vec<String> = args.iter().map(|a| type_name(&a.ty)).collect();
        let Some(min) = best.iter().map(|b| b.0).min() else {
            return Err(format!("no overload takes ({})", given.join(", ")));
        };
        let mut at_min = best.iter().filter(|b| b.0 == min);
        let first = at_min.next().expect("a minimum exists").1.clone();
        if at_min.next().is_some() {
            return Err(format!(
                "the call with ({}) is ambiguous between overloads",
                given.join(", ")
            ));
        }
        Ok(first)
    }

    /// A call of `name` with lowered `args`, resolved among `sigs`.
    pub fn call_overload(
        &mut self,
        n: Node,
        name: &str,
        sigs: &[FuncSig],
        args: Vec<Expr>,
        arg_nodes: &[Node],
    ) -> LResult<Expr> {
        let sig = match self.pick(sigs, &args) {
            Ok(s) => s,
            Err(m) => return Err(self.error(n, "overload", format!("`{name}`: {m}"))),
        };
        let Some(id) = sig.id else {
            return Err(self.error(
                n,
                "call",
                format!("function `{name}` is declared but never defined"),
            ));
        };
        let mut lowered = Vec::with_capacity(args.len());
        for (i, (e, (pty, by_ref))) in args
            .into_iter()
            .zip(sig.params.iter().zip(&sig.by_ref))
            .enumerate()
        {
            // The object of a member call has no node of its own.
            let skip = sig.params.len().saturating_sub(arg_nodes.len());
            let node = i
                .checked_sub(skip)
                .and_then(|k| arg_nodes.get(k))
                .copied()
                .unwrap_or(n);
            let e = if *by_ref {
                self.address_of(e, node)?
            } else {
                e
            };
            lowered.push(self.convert(e, pty, node, &format!("argument {} of `{name}`", i + 1))?);
        }
        let span = self.span(n);
        self.calls.push((id, span));
        let call = self.mk(ExprKind::Call(id, lowered), sig.ret.clone(), span);
        match (&sig.ret, sig.ret_ref) {
            (Type::Pointer(p), true) => {
                let ty = p.pointee.clone();
                Ok(self.mk(ExprKind::Deref(Box::new(call)), ty, span))
            }
            _ => Ok(call),
        }
    }

    /// `&e` for passing an object by reference.
    pub fn address_of(&mut self, e: Expr, n: Node) -> LResult<Expr> {
        if !self.is_lvalue(&e) {
            let t = type_name(&e.ty);
            return Err(self.error(
                n,
                "reference",
                format!("a reference to `{t}` needs an object, not a temporary value"),
            ));
        }
        if let ExprKind::Deref(p) = e.kind {
            return Ok(*p);
        }
        let ty = Type::Pointer(Box::new(PointerType {
            pointee: e.ty.clone(),
            pointee_const: self.is_const_object(&e),
            restrict: false,
            pointee_volatile: self.is_volatile_object(&e),
        }));
        let span = e.span;
        Ok(self.mk(ExprKind::AddrOf(Box::new(e)), ty, span))
    }

    /// The object a member function works on.
    pub fn self_object(&self, span: hone_ir::Span) -> Option<Expr> {
        let (m, v) = self.member.as_ref()?;
        let var = self.var(*v);
        let e = self.mk(ExprKind::Var(*v), var.ty.clone(), span);
        Some(match m.kind {
            MemberKind::Mutating => self.mk(
                ExprKind::Deref(Box::new(e)),
                Type::Struct(m.st.clone()),
                span,
            ),
            MemberKind::Const | MemberKind::Ctor | MemberKind::Static => e,
        })
    }

    /// `this`.
    pub fn this_expr(&mut self, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        let Some(obj) = self.self_object(span) else {
            return Err(self.error(n, "this", "`this` outside a member function"));
        };
        self.address_of(obj, n)
    }

    /// A data member named without `this->` inside a member function.
    pub fn implicit_member(&mut self, name: &str, n: Node) -> Option<Expr> {
        let span = self.span(n);
        let (m, _) = self.member.as_ref()?;
        let path = m.st.member_path(name)?;
        let mut e = self.self_object(span)?;
        for i in path {
            let Type::Struct(outer) = &e.ty else {
                return None;
            };
            let ty = outer.fields[i].ty.clone();
            e = self.mk(ExprKind::Field(Box::new(e), i as u32), ty, span);
        }
        Some(e)
    }

    /// Whether `st` or one of its bases has a member function `name`.
    fn has_method(&self, st: &StructType, name: &str) -> bool {
        let key = (st.name.clone(), name.to_string());
        let static_key = (st.name.clone(), super::static_member(name));
        [key, static_key]
            .iter()
            .any(|k| self.ctx.methods.contains_key(k) || self.ctx.member_templates.contains_key(k))
            || base_fields(st).any(|(_, b)| self.has_method(b, name))
    }

    /// `name(args)` inside a member function, calling another member.
    pub fn implicit_member_call(
        &mut self,
        n: Node,
        name: &str,
        arg_nodes: &[Node],
    ) -> LResult<Option<Expr>> {
        let scope = match (&self.member, &self.static_of) {
            (Some((m, _)), _) => m.st.clone(),
            (None, Some(st)) => st.clone(),
            (None, None) => return Ok(None),
        };
        if let Some(e) = self.static_call(n, &scope, name, arg_nodes)? {
            return Ok(Some(e));
        }
        let Some((m, _)) = &self.member else {
            return Ok(None);
        };
        if !self.has_method(&m.st, name) || name == m.st.name {
            return Ok(None);
        }
        let obj = self
            .self_object(self.span(n))
            .expect("inside a member function");
        self.method_call(n, obj, name, arg_nodes).map(Some)
    }

    /// `S::name(args)` of a `static` member function of `st`; `None` when
    /// `st` has none by that name.
    pub fn static_call(
        &mut self,
        n: Node,
        st: &StructType,
        name: &str,
        arg_nodes: &[Node],
    ) -> LResult<Option<Expr>> {
        let key = (st.name.clone(), super::static_member(name));
        if !self.ctx.methods.contains_key(&key) && self.ctx.member_templates.contains_key(&key) {
            return self
                .member_template_call_of(n, n, None, st, name, &[], arg_nodes)
                .map(Some);
        }
        let Some(sigs) = self.ctx.methods.get(&key).cloned() else {
            return Ok(None);
        };
        let mut args = Vec::new();
        for a in arg_nodes {
            args.push(self.expr(*a)?);
        }
        self.call_overload(n, name, &sigs, args, arg_nodes)
            .map(Some)
    }

    /// `obj.name(args)` (`p->name(args)` with `obj` already dereferenced).
    pub fn method_call(
        &mut self,
        n: Node,
        obj: Expr,
        name: &str,
        arg_nodes: &[Node],
    ) -> LResult<Expr> {
        let Type::Struct(st) = &obj.ty else {
            let t = type_name(&obj.ty);
            return Err(self.error(
                n,
                "member function",
                format!("`{t}` has no member functions"),
            ));
        };
        if let Some(e) = self.static_call(n, &st.clone(), name, arg_nodes)? {
            return Ok(e);
        }
        let key = (st.name.clone(), name.to_string());
        if !self.ctx.methods.contains_key(&key) && self.ctx.member_templates.contains_key(&key) {
            let st = st.clone();
            return self.member_template_call_of(n, n, Some(obj), &st, name, &[], arg_nodes);
        }
        if !self.ctx.methods.contains_key(&key) {
            // A member of a base class, called on the base in the object.
            let st = st.clone();
            let found = base_fields(&st)
                .find(|(_, b)| self.has_method(b, name))
                .map(|(i, _)| i);
            if let Some(i) = found {
                let span = obj.span;
                let ty = st.fields[i].ty.clone();
                let base = self.mk(ExprKind::Field(Box::new(obj), i as u32), ty, span);
                return self.method_call(n, base, name, arg_nodes);
            }
        }
        let sigs = match self.ctx.methods.get(&key) {
            Some(s) => s.clone(),
            None => {
                // A `const` member operator is filed with the free operators.
                match self.ctx.functions.get(name) {
                    Some(s) if name.starts_with("operator") => s.clone(),
                    _ => {
                        return Err(self.error(
                            n,
                            "member function",
                            format!("`{}` has no member function `{name}`", st.name),
                        ))
                    }
                }
            }
        };
        let mut args = vec![obj];
        for a in arg_nodes {
            args.push(self.expr(*a)?);
        }
        self.call_overload(n, name, &sigs, args, arg_nodes)
    }

    /// `f<A>(args)` inside a member function, calling a member template of
    /// its class; `None` when the class has none by that name.
    pub fn implicit_member_template_call(
        &mut self,
        n: Node,
        at: Node,
        name: &str,
        targs: &[Node],
        arg_nodes: &[Node],
    ) -> LResult<Option<Expr>> {
        let (st, obj) = match (&self.member, &self.static_of) {
            (Some((m, _)), _) => (m.st.clone(), self.self_object(self.span(n))),
            (None, Some(st)) => (st.clone(), None),
            (None, None) => return Ok(None),
        };
        let known = |k: String| {
            self.ctx
                .member_templates
                .contains_key(&(st.name.clone(), k))
        };
        let obj = match obj {
            Some(o) if known(name.to_string()) => Some(o),
            _ if known(super::static_member(name)) => None,
            _ => return Ok(None),
        };
        self.member_template_call_of(n, at, obj, &st, name, targs, arg_nodes)
            .map(Some)
    }

    /// `obj.f<A>(args)`: the instance of the member template `f` of `obj`'s
    /// struct for the arguments given and deduced.
    pub fn member_template_call(
        &mut self,
        n: Node,
        at: Node,
        obj: Option<Expr>,
        name: &str,
        targs: &[Node],
        arg_nodes: &[Node],
    ) -> LResult<Expr> {
        let st = match obj.as_ref().map(|o| &o.ty) {
            Some(Type::Struct(st)) => st.clone(),
            Some(t) => {
                let t = type_name(t);
                return Err(self.error(
                    at,
                    "member function",
                    format!("`{t}` has no member functions"),
                ));
            }
            None => return Err(self.error(at, "member function", "a member call needs an object")),
        };
        self.member_template_call_of(n, at, obj, &st, name, targs, arg_nodes)
    }

    /// [`Self::member_template_call`] on a struct `st`; `obj` is `None` for a
    /// static member.
    #[allow(clippy::too_many_arguments)]
    pub fn member_template_call_of(
        &mut self,
        n: Node,
        at: Node,
        obj: Option<Expr>,
        st: &StructType,
        name: &str,
        targs: &[Node],
        arg_nodes: &[Node],
    ) -> LResult<Expr> {
        let filed = match obj {
            Some(_) => name.to_string(),
            None => super::static_member(name),
        };
        let key = match self.ctx.member_templates.get(&(st.name.clone(), filed)) {
            Some(k) => k.clone(),
            // A static member template called on an object.
            None if obj.is_some()
                && self
                    .ctx
                    .member_templates
                    .contains_key(&(st.name.clone(), super::static_member(name))) =>
            {
                return self.member_template_call_of(n, at, None, st, name, targs, arg_nodes);
            }
            None => {
                return Err(self.error(
                    at,
                    "member function",
                    format!("`{}` has no member function template `{name}`", st.name),
                ))
            }
        };
        let mut types = Vec::new();
        for a in arg_nodes {
            types.push(self.expr(*a)?.ty);
        }
        let deduced = self.deduce(&key, &types);
        let (_, sig, _) = self.instance(
            &key,
            at,
            super::template::ArgSource::Nodes(targs.to_vec()),
            &deduced,
            &[],
        )?;
        let mut args = Vec::new();
        let with_object = obj.is_some();
        if let Some(o) = obj {
            args.push(o);
        }
        for a in arg_nodes {
            args.push(self.expr(*a)?);
        }
        if args.len() != sig.params.len() {
            let object = usize::from(with_object);
            return Err(self.error(
                n,
                "call",
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    sig.params.len() - object,
                    args.len() - object
                ),
            ));
        }
        self.call_overload(n, name, &[sig], args, arg_nodes)
    }

    /// `T(args)`, `T{args}` or `T x(args)` for a struct `T`: its constructor,
    /// or member-wise initialisation when it has none.
    pub fn construct(&mut self, n: Node, ty: &Type, arg_nodes: &[Node]) -> LResult<Expr> {
        let Type::Struct(st) = ty else {
            return Err(self.error(n, "constructor", "constructor of a non-struct type"));
        };
        let key = (st.name.clone(), st.name.clone());
        if let Some(sigs) = self.ctx.methods.get(&key).cloned() {
            let args = arg_nodes
                .iter()
                .map(|a| self.expr(*a))
                .collect::<LResult<Vec<_>>>()?;
            return self.call_overload(n, &st.name, &sigs, args, arg_nodes);
        }
        if arg_nodes.len() > st.fields.len() {
            return Err(self.error(
                n,
                "initializer",
                format!("too many initializers for `{}`", st.name),
            ));
        }
        // A copy: `T(other)`.
        if let [one] = arg_nodes {
            let e = self.expr(*one)?;
            if e.ty == *ty {
                return Ok(e);
            }
            return self.aggregate(n, st, vec![(e, *one)]);
        }
        let mut items = Vec::new();
        for a in arg_nodes {
            items.push((self.expr(*a)?, *a));
        }
        self.aggregate(n, st, items)
    }

    /// A struct value from its first members' values; the rest are zero.
    fn aggregate(
        &mut self,
        n: Node,
        st: &hone_ir::StructType,
        items: Vec<(Expr, Node)>,
    ) -> LResult<Expr> {
        let span = self.span(n);
        let mut out = Vec::new();
        let mut items = items.into_iter();
        for f in &st.fields {
            let e = match items.next() {
                Some((e, node)) => self.convert(e, &f.ty, node, "initialization")?,
                None => self.zero_value(&f.ty, n)?,
            };
            out.push(e);
        }
        Ok(self.mk(
            ExprKind::Aggregate(out),
            Type::Struct(std::sync::Arc::new(st.clone())),
            span,
        ))
    }

    pub fn zero_value(&mut self, ty: &Type, n: Node) -> LResult<Expr> {
        let span = self.span(n);
        match ty {
            Type::Scalar(s) if s.is_float() => {
                Ok(self.mk(ExprKind::FloatLit(0.0), ty.clone(), span))
            }
            Type::Scalar(_) | Type::Pointer(_) => {
                let zero = self.mk(ExprKind::IntLit(0), Type::INT, span);
                Ok(zero.implicit_cast(ty.clone()))
            }
            Type::Struct(st) => {
                let st = st.clone();
                self.aggregate(n, &st, Vec::new())
            }
            Type::Vector(s, len) => {
                let parts = (0..*len)
                    .map(|_| self.zero_value(&Type::Scalar(*s), n))
                    .collect::<LResult<Vec<_>>>()?;
                Ok(self.mk(
                    ExprKind::Intrinsic(hone_ir::Intrinsic::MakeVector, parts),
                    ty.clone(),
                    span,
                ))
            }
            _ => {
                let t = type_name(ty);
                Err(self.error(
                    n,
                    "initializer",
                    format!("a member of type `{t}` must be initialized explicitly"),
                ))
            }
        }
    }

    /// A user-defined operator applied to `operands` (at least one a struct or
    /// a CUDA vector), or `None` when no `operator<op>` exists.
    pub fn user_operator(
        &mut self,
        n: Node,
        op: &str,
        operands: Vec<Expr>,
        operand_nodes: &[Node],
    ) -> LResult<Option<Expr>> {
        let name = format!("operator{op}");
        let mut sigs: Vec<FuncSig> = self.ctx.functions.get(&name).cloned().unwrap_or_default();
        if let Some(Type::Struct(st)) = operands.first().map(|e| &e.ty) {
            if let Some(m) = self.ctx.methods.get(&(st.name.clone(), name.clone())) {
                sigs.extend(m.iter().cloned());
            }
        }
        if sigs.is_empty() || self.pick(&sigs, &operands).is_err() {
            // An operator template whose parameters the operands deduce.
            let keys = self
                .templates
                .map(|ts| super::template::operator_templates(ts, &name))
                .unwrap_or_default();
            let types: Vec<Type> = operands.iter().map(|e| e.ty.clone()).collect();
            for key in keys {
                if let Some(deduced) = self.operator_template_fits(&key, &types) {
                    let (_, sig, _) = self.instance(
                        &key,
                        n,
                        super::template::ArgSource::Texts(Vec::new()),
                        &deduced,
                        &[],
                    )?;
                    return self
                        .call_overload(n, &name, &[sig], operands, operand_nodes)
                        .map(Some);
                }
            }
        }
        if sigs.is_empty() {
            return Ok(None);
        }
        self.call_overload(n, &name, &sigs, operands, operand_nodes)
            .map(Some)
    }

    /// Whether a value of this type needs a user-defined operator.
    pub fn needs_user_operator(ty: &Type) -> bool {
        matches!(ty, Type::Struct(_) | Type::Vector(..))
    }
}

/// A member function's header as the IR function it lowers to.
pub(crate) struct MemberHeader {
    pub header: Header,
    pub kind: MemberKind,
    /// The name members are looked up by: `len`, `operator+=`, the struct's
    /// name for a constructor.
    pub member: String,
    /// Declared as returning `*this` by reference (see `FnLowerer::returns_self`).
    pub returns_self: bool,
}

/// Whether the function declarator inside `d` carries `const` (a `const`
/// member function).
pub(crate) fn declarator_is_const(d: Node, src: &str) -> bool {
    let mut cur = d;
    for _ in 0..16 {
        if matches!(
            cur.kind(),
            "function_declarator" | "abstract_function_declarator"
        ) {
            return syntax::children(cur)
                .into_iter()
                .any(|c| c.kind() == "type_qualifier" && syntax::text(c, src) == "const");
        }
        match cur
            .child_by_field_name("declarator")
            .or_else(|| syntax::named_children(cur).into_iter().next())
        {
            Some(c) => cur = c,
            None => return false,
        }
    }
    false
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// The data members one `field_declaration` of a struct declares.
    pub fn field_declaration(&mut self, m: Node) -> LResult<Vec<(String, Type)>> {
        // Error recovery can make a member of what is none (`float = ...;`
        // names no member), which would print back as another struct.
        if m.has_error() {
            let at = syntax::syntax_errors(m, 1).first().copied().unwrap_or(m);
            let near: String = self.text(at).chars().take(40).collect();
            return Err(self.error(
                at,
                "syntax error",
                format!(
                    "syntax error in a member declaration near `{}`",
                    near.trim()
                ),
            ));
        }
        let specs = self.specs(m)?;
        if specs.static_ {
            return Err(self.error(m, "static member", "static data members are not supported"));
        }
        let base = self.base_type(&specs, m)?;
        if let Some(v) = m.child_by_field_name("default_value") {
            return Err(self.error(
                v,
                "default member initializer",
                "default member initializers are not supported",
            ));
        }
        if let Some(b) = syntax::children(m)
            .into_iter()
            .find(|c| c.kind() == "bitfield_clause")
        {
            return Err(self.error(b, "bit-field", "bit-fields are not supported"));
        }
        let mut cursor = m.walk();
        let decls: Vec<Node> = m
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        // `union { struct { short lo, hi; }; int all; }`: an anonymous member,
        // named after its type; member access looks through it.
        if decls.is_empty() {
            if let Type::Struct(st) = &base.ty {
                if st.name.starts_with(hone_ir::ANON_PREFIX) {
                    return Ok(vec![(format!("m_{}", st.name), base.ty.clone())]);
                }
            }
        }
        let mut out = Vec::new();
        for d in decls {
            let dd = self.declarator(base.clone(), d, ArrayCtx::Const)?;
            if dd.params.is_some() {
                return Err(self.error(
                    d,
                    "member function",
                    "member functions must be defined inside their class",
                ));
            }
            if dd.is_ref {
                return Err(self.error(d, "reference", "reference members are not supported"));
            }
            let Some(name) = dd.name.filter(|n| !n.is_empty()) else {
                return Err(self.error(
                    d,
                    "anonymous member",
                    "anonymous members are not supported",
                ));
            };
            if let Type::Array(_, ArrayLen::Unsized) = dd.qt.ty {
                return Err(self.error(d, "flexible array member", "array members need a length"));
            }
            out.push((name, dd.qt.ty));
        }
        Ok(out)
    }

    /// The header of a member function of `st` as the function it lowers to.
    pub fn member_header(&mut self, node: Node, st: &Arc<StructType>) -> LResult<MemberHeader> {
        let specs = self.specs(node)?;
        let decl = self.field(node, "declarator")?;
        if decl.kind() == "operator_cast" {
            return self.conversion_header(decl, st, &specs);
        }
        if self.text(decl).trim_start().starts_with('~') {
            return Err(self.error(decl, "destructor", "destructors are not supported"));
        }
        let own = Type::Struct(st.clone());
        let is_ctor = node.child_by_field_name("type").is_none();
        let base = if is_ctor {
            QualType::new(own.clone())
        } else {
            self.base_type(&specs, node)?
        };
        self.member_declarator = true;
        let d = self.declarator(base, decl, ArrayCtx::Const);
        self.member_declarator = false;
        let d = d?;
        let (Some(params_node), Some(name)) = (d.params, d.name) else {
            return Err(self.error(decl, "member function", "expected a member function"));
        };
        // Inside a class template's instance its name is the instance's.
        let names_self =
            matches!(self.lookup(&name), Some(super::func::Entry::Type(qt)) if qt.ty == own);
        let name = if is_ctor && names_self {
            st.name.clone()
        } else {
            name
        };
        if is_ctor && name != st.name {
            return Err(self.error(
                decl,
                "member function",
                format!("member function `{name}` has no return type"),
            ));
        }
        let kind = if is_ctor {
            MemberKind::Ctor
        } else if specs.static_
            || self
                .ctx
                .static_members
                .contains(&(st.name.clone(), name.clone()))
        {
            // Outside its class a static member is not marked again.
            MemberKind::Static
        } else if declarator_is_const(decl, self.ctx.src) {
            MemberKind::Const
        } else {
            MemberKind::Mutating
        };
        let mut returns_self = false;
        let mut ret_ref = false;
        let ret = if d.is_ref {
            if kind == MemberKind::Mutating && d.qt.ty == own {
                returns_self = true;
                Type::Void
            } else if kind == MemberKind::Mutating {
                // The object is reached through `self`, so what the
                // reference names outlives the call.
                ret_ref = true;
                Type::Pointer(Box::new(PointerType {
                    pointee: d.qt.ty,
                    pointee_const: d.qt.is_const,
                    restrict: false,
                    pointee_volatile: d.qt.is_volatile,
                }))
            } else if d.qt.is_const {
                // `T const &lower() const`: what it names can only be read,
                // so the value it reads is returned.
                d.qt.ty
            } else {
                return Err(self.error(
                    decl,
                    "reference",
                    "`const` member functions returning references to non-const objects are not supported (the object is passed by value)",
                ));
            }
        } else {
            d.qt.ty
        };
        let mut params = self.parameters(params_node)?;
        let span = self.span(decl);
        let self_param = match kind {
            MemberKind::Const => Some(QualType {
                ty: own.clone(),
                is_const: true,
                is_volatile: false,
            }),
            MemberKind::Mutating => Some(QualType::new(Type::ptr(own.clone()))),
            MemberKind::Ctor | MemberKind::Static => None,
        };
        if let Some(qt) = self_param {
            params.insert(
                0,
                Param {
                    name: "self".into(),
                    qt,
                    span,
                    by_ref: false,
                },
            );
        }
        let operator = name.starts_with("operator");
        let ir_name = match kind {
            MemberKind::Ctor => format!("{}__ctor", st.name),
            MemberKind::Const if operator && !member_only_operator(&name) => name.clone(),
            _ if operator => format!("{}__{}", st.name, operator_ident(&name)),
            _ => format!("{}__{name}", st.name),
        };
        let inline = specs.inline();
        Ok(MemberHeader {
            header: Header {
                name: ir_name,
                alias: None,
                kind: hone_ir::FuncKind::Device,
                ret,
                params,
                launch_bounds: None,
                inline,
                ret_ref,
                defaults: Vec::new(),
            },
            kind,
            member: name,
            returns_self,
        })
    }

    /// The object a constructor builds: a local `self`, declared first.
    pub fn ctor_object(
        &mut self,
        node: Node,
        st: &Arc<StructType>,
        out: &mut Vec<Stmt>,
    ) -> LResult<VarId> {
        let span = self.span(node);
        let id = self.add_var(Var {
            name: "self".into(),
            ty: Type::Struct(st.clone()),
            kind: VarKind::Local,
            is_const: false,
            is_volatile: false,
            span,
        });
        out.push(Stmt {
            kind: StmtKind::Decl {
                var: id,
                init: None,
            },
            span,
        });
        Ok(id)
    }

    /// A constructor's `: a(x), b{y}` as assignments to `self`'s members.
    pub fn member_initializers(&mut self, node: Node, out: &mut Vec<Stmt>) -> LResult<()> {
        let Some(list) = syntax::named_children(node)
            .into_iter()
            .find(|c| c.kind() == "field_initializer_list")
        else {
            return Ok(());
        };
        for init in syntax::named_children(list) {
            if init.kind() != "field_initializer" {
                continue;
            }
            let kids = syntax::named_children(init);
            let (Some(fnode), Some(args)) = (kids.first(), kids.get(1)) else {
                return Err(self.error(init, "constructor", "malformed member initializer"));
            };
            let name = self.text(*fnode);
            let span = self.span(init);
            let Some(target) = self.implicit_member(name, *fnode) else {
                return Err(self.error(
                    *fnode,
                    "constructor",
                    format!("`{name}` is not a data member"),
                ));
            };
            let arg_nodes = syntax::named_children(*args);
            let value = match (&target.ty, arg_nodes.as_slice()) {
                (Type::Struct(_), _) => {
                    let ty = target.ty.clone();
                    self.construct(*args, &ty, &arg_nodes)?
                }
                (_, [one]) => {
                    let e = self.expr(*one)?;
                    self.convert(e, &target.ty, *one, "initialization")?
                }
                (_, []) => self.zero_value(&target.ty, init)?,
                _ => {
                    return Err(self.error(
                        init,
                        "constructor",
                        format!("`{name}` takes one initializer"),
                    ))
                }
            };
            let ty = target.ty.clone();
            let assign = self.mk(
                ExprKind::Assign {
                    op: None,
                    lhs: Box::new(target),
                    rhs: Box::new(value),
                },
                ty,
                span,
            );
            out.push(Stmt {
                kind: StmtKind::Expr(assign),
                span,
            });
        }
        Ok(())
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// `a op= b` on a struct or vector `a`: a member or free `operator op=`
    /// taking `a` by reference, or else `a = a op b` with a user `operator op`.
    pub fn compound_user_operator(
        &mut self,
        n: Node,
        op: &str,
        lhs: Expr,
        rhs: Expr,
        l: Node,
        r: Node,
    ) -> LResult<Option<Expr>> {
        let name = format!("operator{op}");
        let mut sigs: Vec<FuncSig> = self.ctx.functions.get(&name).cloned().unwrap_or_default();
        if let Type::Struct(st) = &lhs.ty {
            if let Some(m) = self.ctx.methods.get(&(st.name.clone(), name.clone())) {
                sigs.extend(m.iter().cloned());
            }
        }
        if !sigs.is_empty() {
            return self
                .call_overload(n, &name, &sigs, vec![lhs, rhs], &[l, r])
                .map(Some);
        }
        let Some(bop) = op.strip_suffix('=') else {
            return Ok(None);
        };
        let Some(value) = self.user_operator(n, bop, vec![lhs.clone(), rhs], &[l, r])? else {
            return Ok(None);
        };
        self.check_modifiable(&lhs, l, op)?;
        let ty = lhs.ty.clone();
        let value = self.convert(value, &ty, n, "assignment")?;
        let span = self.span(n);
        Ok(Some(self.mk(
            ExprKind::Assign {
                op: None,
                lhs: Box::new(lhs),
                rhs: Box::new(value),
            },
            ty,
            span,
        )))
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// `operator T *() const` of `st`: a member function named by its result
    /// (`S__to_floatp_const`), found by [`Self::user_conversion`].
    fn conversion_header(
        &mut self,
        decl: Node,
        st: &Arc<StructType>,
        specs: &super::types::Specs,
    ) -> LResult<MemberHeader> {
        let own = specs;
        let target_specs = self.specs(decl)?;
        let base = self.base_type(&target_specs, decl)?;
        let abstract_decl = self.field(decl, "declarator")?;
        let d = self.declarator(base, abstract_decl, ArrayCtx::Const)?;
        let Some(params_node) = d.params else {
            return Err(self.error(decl, "conversion", "expected a conversion function"));
        };
        if d.is_ref {
            return Err(self.error(
                decl,
                "conversion",
                "conversions to references are not supported",
            ));
        }
        let mut params = self.parameters(params_node)?;
        if !params.is_empty() {
            return Err(self.error(
                params_node,
                "conversion",
                "a conversion function takes no parameters",
            ));
        }
        let ret = d.qt.ty;
        let object = Type::Struct(st.clone());
        let kind = if declarator_is_const(abstract_decl, self.ctx.src) {
            MemberKind::Const
        } else {
            MemberKind::Mutating
        };
        let span = self.span(decl);
        params.push(Param {
            name: "self".into(),
            qt: match kind {
                MemberKind::Const => QualType {
                    ty: object,
                    is_const: true,
                    is_volatile: false,
                },
                _ => QualType::new(Type::ptr(object)),
            },
            span,
            by_ref: false,
        });
        let result = super::template::mangle("", &[super::template::Arg::Type(ret.clone())]);
        let suffix = if kind == MemberKind::Const {
            "_const"
        } else {
            ""
        };
        let inline = own.inline();
        Ok(MemberHeader {
            header: Header {
                name: format!("{}__to{result}{suffix}", st.name),
                alias: None,
                kind: hone_ir::FuncKind::Device,
                ret,
                params,
                launch_bounds: None,
                inline,
                ret_ref: false,
                defaults: Vec::new(),
            },
            kind,
            member: CONVERSION.to_string(),
            returns_self: false,
        })
    }

    /// `e` of a struct type through one of its conversion functions to
    /// `target`, as C++ converts it in an initialization, assignment or
    /// argument: a non-`const` object prefers a non-`const` conversion, and
    /// among those an exact result one that needs a further pointer
    /// conversion. `None` when the struct has no conversion that fits.
    pub fn user_conversion(
        &mut self,
        e: &Expr,
        target: &Type,
        node: Node,
    ) -> LResult<Option<Expr>> {
        let Type::Struct(st) = &e.ty else {
            return Ok(None);
        };
        let key = (st.name.clone(), CONVERSION.to_string());
        let Some(sigs) = self.ctx.methods.get(&key).cloned() else {
            return Ok(None);
        };
        let lvalue = self.is_lvalue(e);
        // A temporary may be changed too: it is given an object below.
        let modifiable = !lvalue || !self.is_const_object(e);
        let fits = |ret: &Type| match (ret, target) {
            _ if ret == target => Some(0),
            (Type::Pointer(from), Type::Pointer(to)) => ((same_type(&from.pointee, &to.pointee)
                || to.pointee == Type::Void)
                && (to.pointee_const || !from.pointee_const))
                .then_some(1),
            (Type::Scalar(_), Type::Scalar(_)) => Some(1),
            _ => None,
        };
        let best = sigs
            .iter()
            .filter(|s| modifiable || !s.by_ref[0])
            .filter_map(|s| {
                let cost = fits(&s.ret)?;
                let object = if s.by_ref[0] == modifiable { 0 } else { 1 };
                Some(((object, cost), s))
            })
            .min_by_key(|(k, _)| *k)
            .map(|(_, s)| s.clone());
        let Some(sig) = best else {
            return Ok(None);
        };
        let Some(id) = sig.id else {
            return Ok(None);
        };
        let span = self.span(node);
        let (object, first) = if !sig.by_ref[0] {
            (e.clone(), None)
        } else if lvalue {
            (self.address_of(e.clone(), node)?, None)
        } else {
            self.materialize(e.clone(), node)?
        };
        self.calls.push((id, span));
        let call = self.mk(ExprKind::Call(id, vec![object]), sig.ret.clone(), span);
        Ok(Some(match first {
            Some(f) => self.mk(ExprKind::Comma(Box::new(f), Box::new(call)), sig.ret, span),
            None => call,
        }))
    }

    /// The address of an object holding the temporary `e`, and the
    /// assignment that fills it (none for an empty struct's value).
    fn materialize(&mut self, e: Expr, node: Node) -> LResult<(Expr, Option<Expr>)> {
        let span = self.span(node);
        let id = self.add_var(Var {
            name: format!("tmp{}", self.temps.len()),
            ty: e.ty.clone(),
            kind: VarKind::Local,
            is_const: false,
            is_volatile: false,
            span,
        });
        // Not a name the source can use.
        self.scopes
            .iter_mut()
            .for_each(|s| s.retain(|_, v| !matches!(v, super::func::Entry::Var(x) if *x == id)));
        self.temps.push(id);
        let var = self.mk(ExprKind::Var(id), e.ty.clone(), span);
        let empty = matches!(&e.ty, Type::Struct(st) if st.fields.is_empty())
            && matches!(e.kind, ExprKind::Aggregate(_));
        let fill = (!empty).then(|| {
            self.mk(
                ExprKind::Assign {
                    op: None,
                    lhs: Box::new(var.clone()),
                    rhs: Box::new(e.clone()),
                },
                e.ty.clone(),
                span,
            )
        });
        let addr = self.address_of(var, node)?;
        Ok((addr, fill))
    }
}
