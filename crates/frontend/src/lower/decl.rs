//! Local declarations and their initializers.

use hone_ir::{
    ArrayLen, Expr, ExprKind, Init, Intrinsic, Scalar, Stmt, StmtKind, Type, Var, VarKind,
};
use tree_sitter::Node;

use super::conv::type_name;
use super::func::{Entry, FnLowerer, LResult};
use super::types::{ArrayCtx, Specs};
use super::QualType;
use crate::syntax;

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// The names a declaration declares, so a failed declaration can poison
    /// them and later uses do not report again.
    fn declared_names(&self, n: Node) -> Vec<String> {
        let mut names = Vec::new();
        let mut cursor = n.walk();
        for d in n.children_by_field_name("declarator", &mut cursor) {
            let mut cur = d;
            for _ in 0..64 {
                if matches!(
                    cur.kind(),
                    "identifier" | "type_identifier" | "field_identifier"
                ) {
                    names.push(self.text(cur).to_string());
                    break;
                }
                match cur.child_by_field_name("declarator").or_else(|| {
                    syntax::named_children(cur)
                        .into_iter()
                        .find(|c| c.kind() == "identifier")
                }) {
                    Some(c) => cur = c,
                    None => break,
                }
            }
        }
        names
    }

    fn poison(&mut self, n: Node) {
        for name in self.declared_names(n) {
            self.bind(&name, super::func::Entry::Poisoned);
        }
    }

    pub fn declaration(&mut self, n: Node, out: &mut Vec<Stmt>) -> LResult<()> {
        if let Some(r) = self.group_declaration(n) {
            if r.is_err() {
                self.poison(n);
            }
            return r;
        }
        let r = self.declaration_inner(n, out);
        if r.is_err() {
            // Names already declared keep their entries; the rest are poisoned.
            for name in self.declared_names(n) {
                if self.scopes.last().is_some_and(|s| !s.contains_key(&name)) {
                    self.bind(&name, Entry::Poisoned);
                }
            }
        }
        r
    }

    fn declaration_inner(&mut self, n: Node, out: &mut Vec<Stmt>) -> LResult<()> {
        let specs = self.specs(n)?;
        self.check_local_specs(&specs, n)?;
        let is_auto = specs
            .ty
            .is_some_and(|t| t.kind() == "placeholder_type_specifier");
        let base = if is_auto {
            // Replaced by each declarator's initializer type.
            QualType {
                ty: Type::Void,
                is_const: specs.is_const,
                is_volatile: specs.volatile.is_some(),
            }
        } else {
            self.base_type(&specs, n)?
        };
        let kind = match (specs.shared, specs.extern_) {
            (true, true) => VarKind::ExternShared,
            (true, false) => VarKind::Shared,
            (false, _) => VarKind::Local,
        };
        let actx = if specs.shared {
            ArrayCtx::Shared
        } else {
            ArrayCtx::Local
        };
        let span = self.span(n);
        let mut cursor = n.walk();
        let decls: Vec<Node> = n
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        if decls.is_empty() {
            return Err(self.error(n, "declaration", "declaration declares nothing"));
        }
        for d in decls {
            let (dnode, value) = if d.kind() == "init_declarator" {
                (self.field(d, "declarator")?, d.child_by_field_name("value"))
            } else {
                (d, None)
            };
            if let Some(lam) = value.filter(|v| is_auto && v.kind() == "lambda_expression") {
                if dnode.kind() != "identifier" {
                    return Err(self.error(
                        d,
                        "lambda",
                        "a lambda is declared as `auto name = [...](...) {...}`",
                    ));
                }
                let name = self.text(dnode).to_string();
                self.declare_lambda(&name, lam, out)?;
                continue;
            }
            let mut auto_init = None;
            let base = if is_auto {
                let Some(v) = value else {
                    return Err(self.error(d, "auto", "`auto` needs an initializer"));
                };
                if v.kind() != "argument_list" && v.kind() != "initializer_list" {
                    let e = self.expr(v)?;
                    let e = self.decay(e);
                    let ty = e.ty.clone();
                    auto_init = Some(e);
                    QualType { ty, ..base.clone() }
                } else {
                    return Err(self.error(
                        v,
                        "auto",
                        "`auto` with a brace or parenthesized initializer is not supported",
                    ));
                }
            } else {
                base.clone()
            };
            let declared = self.declarator(base, dnode, actx)?;
            if declared.params.is_some() {
                return Err(self.error(
                    d,
                    "local function declaration",
                    "function declarations inside functions are not supported",
                ));
            }
            let Some(name) = declared.name else {
                return Err(self.error(d, "declaration", "declaration without a name"));
            };
            if declared.is_ref {
                self.reference_local(
                    d,
                    &name,
                    declared.qt,
                    auto_init,
                    value,
                    span,
                    declared.node,
                    out,
                )?;
                continue;
            }
            let mut qt = declared.qt;
            self.check_var_type(&qt, kind, value.is_some(), dnode)?;
            if specs.shared && value.is_some() {
                return Err(self.error(
                    d,
                    "__shared__",
                    "`__shared__` variables cannot have initializers",
                ));
            }
            let init = match (auto_init, value) {
                (Some(e), Some(v)) => {
                    Some(Init::Expr(self.convert(e, &qt.ty, v, "initialization")?))
                }
                (None, Some(v)) => Some(self.initializer(v, &mut qt)?),
                (_, None) => self.default_construct(dnode, &qt.ty, kind)?,
            };
            if let Type::Array(_, ArrayLen::Unsized) = qt.ty {
                if kind != VarKind::ExternShared {
                    return Err(self.error(dnode, "array", "array without a length"));
                }
            }
            if qt.is_const && init.is_none() && kind == VarKind::Local {
                return Err(self.error(dnode, "const", "`const` variable without an initializer"));
            }
            let const_val = match (&init, qt.ty.scalar()) {
                (Some(Init::Expr(e)), Some(s)) if qt.is_const && s.is_integer() => self.fold(e),
                _ => None,
            };
            let var = Var {
                name: name.clone(),
                ty: qt.ty,
                kind,
                is_const: qt.is_const,
                is_volatile: qt.is_volatile,
                span: self.span(declared.node),
            };
            let id = self.add_var(var);
            if let Some(v) = const_val {
                self.const_vals.insert(id, v);
            }
            out.push(Stmt {
                kind: StmtKind::Decl { var: id, init },
                span,
            });
        }
        Ok(())
    }

    fn check_local_specs(&mut self, s: &Specs, n: Node) -> LResult<()> {
        if s.static_ {
            return Err(self.error(
                n,
                "static local",
                "`static` local variables are not supported",
            ));
        }
        if s.extern_ && !s.shared {
            return Err(self.error(
                n,
                "extern",
                "`extern` declarations inside functions are not supported",
            ));
        }
        if s.constant {
            return Err(self.error(
                n,
                "__constant__",
                "`__constant__` variables inside functions are not supported",
            ));
        }
        if s.managed || s.global {
            return Err(self.error(n, "declaration", "unexpected qualifier on a local variable"));
        }
        Ok(())
    }

    fn check_var_type(
        &mut self,
        qt: &QualType,
        kind: VarKind,
        has_init: bool,
        n: Node,
    ) -> LResult<()> {
        match &qt.ty {
            Type::Void => Err(self.error(n, "declaration", "variable of type void")),
            Type::Array(_, ArrayLen::Unsized) if kind == VarKind::Local && !has_init => {
                Err(self.error(n, "array", "array without a length"))
            }
            Type::Array(_, ArrayLen::Expr(_)) if kind != VarKind::Shared => Err(self.error(
                n,
                "variable-length array",
                "only `__shared__` arrays may have launch-time lengths",
            )),
            _ => Ok(()),
        }
    }

    /// `T& r = x;` is a pointer to `x` read through; `const T& r = value`
    /// of a temporary is a copy.
    #[allow(clippy::too_many_arguments)]
    fn reference_local(
        &mut self,
        d: Node,
        name: &str,
        qt: QualType,
        auto_init: Option<Expr>,
        value: Option<Node>,
        span: hone_ir::Span,
        name_node: Node,
        out: &mut Vec<Stmt>,
    ) -> LResult<()> {
        let Some(v) = value else {
            return Err(self.error(d, "reference", "a reference needs an initializer"));
        };
        let e = match auto_init {
            Some(e) => e,
            None => self.expr(v)?,
        };
        let var_span = self.span(name_node);
        if self.is_lvalue(&e) && qt.ty == e.ty {
            let p = self.address_of(e, v)?;
            let ty = Type::Pointer(Box::new(hone_ir::PointerType {
                pointee: qt.ty.clone(),
                pointee_const: qt.is_const || matches!(&p.ty, Type::Pointer(t) if t.pointee_const),
                restrict: false,
                pointee_volatile: qt.is_volatile
                    || matches!(&p.ty, Type::Pointer(t) if t.pointee_volatile),
            }));
            let p = self.convert(p, &ty, v, "initialization")?;
            let id = self.add_var(Var {
                name: name.to_string(),
                ty,
                kind: VarKind::Local,
                is_const: true,
                is_volatile: false,
                span: var_span,
            });
            self.refs.insert(id);
            out.push(Stmt {
                kind: StmtKind::Decl {
                    var: id,
                    init: Some(Init::Expr(p)),
                },
                span,
            });
            return Ok(());
        }
        if !qt.is_const {
            return Err(self.error(
                v,
                "reference",
                "a non-const reference must be bound to an object of its type",
            ));
        }
        let e = self.convert(e, &qt.ty, v, "initialization")?;
        let id = self.add_var(Var {
            name: name.to_string(),
            ty: qt.ty,
            kind: VarKind::Local,
            is_const: true,
            is_volatile: false,
            span: var_span,
        });
        out.push(Stmt {
            kind: StmtKind::Decl {
                var: id,
                init: Some(Init::Expr(e)),
            },
            span,
        });
        Ok(())
    }

    /// `T x;` of a struct with a default constructor calls it.
    fn default_construct(&mut self, n: Node, ty: &Type, kind: VarKind) -> LResult<Option<Init>> {
        let Type::Struct(st) = ty else {
            return Ok(None);
        };
        if kind != VarKind::Local {
            return Ok(None);
        }
        let has_default = self
            .ctx
            .methods
            .get(&(st.name.clone(), st.name.clone()))
            .is_some_and(|s| s.iter().any(|s| s.params.is_empty()));
        if !has_default {
            return Ok(None);
        }
        Ok(Some(Init::Expr(self.construct(n, ty, &[])?)))
    }

    /// The initializer of a variable; completes `T a[] = {...}` lengths.
    pub fn initializer(&mut self, v: Node, qt: &mut QualType) -> LResult<Init> {
        if let Type::Struct(st) = &qt.ty {
            let has_ctor = self
                .ctx
                .methods
                .contains_key(&(st.name.clone(), st.name.clone()));
            if matches!(v.kind(), "argument_list") || (has_ctor && v.kind() == "initializer_list") {
                let args = syntax::named_children(v);
                let ty = qt.ty.clone();
                return Ok(Init::Expr(self.construct(v, &ty, &args)?));
            }
        }
        match v.kind() {
            "initializer_list" => {
                let init = self.init_list(v, &qt.ty)?;
                if let (Type::Array(elem, ArrayLen::Unsized), Init::List(items)) = (&qt.ty, &init) {
                    qt.ty = Type::Array(elem.clone(), ArrayLen::Const(items.len() as u64));
                }
                Ok(init)
            }
            "argument_list" => self.direct_init(v, &qt.ty),
            _ => {
                if matches!(qt.ty, Type::Array(..)) {
                    return Err(self.error(
                        v,
                        "initializer",
                        "arrays must be initialized with a brace list",
                    ));
                }
                let e = self.expr(v)?;
                Ok(Init::Expr(self.convert(e, &qt.ty, v, "initialization")?))
            }
        }
    }

    /// `T x(args)`: a copy for scalars, a constructor for `dim3`.
    fn direct_init(&mut self, list: Node, ty: &Type) -> LResult<Init> {
        let args = syntax::named_children(list);
        match (ty, args.as_slice()) {
            (Type::Scalar(_) | Type::Pointer(_), [one]) => {
                let e = self.expr(*one)?;
                Ok(Init::Expr(self.convert(e, ty, *one, "initialization")?))
            }
            (Type::Vector(Scalar::U32, 3), xs) if (1..=3).contains(&xs.len()) => {
                let span = self.span(list);
                let mut comps = Vec::new();
                for a in xs {
                    let e = self.expr(*a)?;
                    comps.push(self.convert(e, &Type::UINT, *a, "dim3 constructor")?);
                }
                // dim3's constructor defaults missing extents to 1.
                while comps.len() < 3 {
                    comps.push(self.mk(ExprKind::IntLit(1), Type::UINT, span));
                }
                Ok(Init::Expr(self.mk(
                    ExprKind::Intrinsic(Intrinsic::MakeVector, comps),
                    ty.clone(),
                    span,
                )))
            }
            _ => {
                let t = type_name(ty);
                Err(self.error(
                    list,
                    "constructor",
                    format!("constructor call for `{t}` is not supported"),
                ))
            }
        }
    }

    fn init_list(&mut self, list: Node, ty: &Type) -> LResult<Init> {
        let items = syntax::named_children(list);
        if let Some(p) = items.iter().find(|i| {
            matches!(
                i.kind(),
                "initializer_pair" | "field_designator" | "subscript_designator"
            )
        }) {
            return Err(self.error(
                *p,
                "designated initializer",
                "designated initializers are not supported",
            ));
        }
        let (elem, max) = match ty {
            Type::Array(e, ArrayLen::Const(n)) => ((**e).clone(), Some(*n)),
            Type::Array(e, _) => ((**e).clone(), None),
            Type::Vector(s, n) => (Type::Scalar(*s), Some(*n as u64)),
            Type::Scalar(_) | Type::Pointer(_) => (ty.clone(), Some(1)),
            Type::Struct(st) => return self.struct_init_list(list, st),
            Type::Void => return Err(self.error(list, "initializer", "initializer for void")),
        };
        // With brace elision a flat list fills a nested array element by element.
        let leaf = innermost(&elem);
        let elided =
            items.iter().any(|i| i.kind() != "initializer_list") && matches!(elem, Type::Array(..));
        let limit = if elided {
            max.map(|m| m * flat_len(&elem))
        } else {
            max
        };
        if let Some(m) = limit {
            if items.len() as u64 > m {
                let t = type_name(ty);
                return Err(self.error(
                    list,
                    "initializer",
                    format!("too many initializers for `{t}`"),
                ));
            }
        }
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            if item.kind() == "initializer_list" {
                if !matches!(elem, Type::Array(..) | Type::Vector(..)) {
                    return Err(self.error(item, "initializer", "nested brace list for a scalar"));
                }
                out.push(self.init_list(item, &elem)?);
            } else {
                let target = if elided { leaf.clone() } else { elem.clone() };
                if matches!(target, Type::Array(..)) {
                    return Err(self.error(
                        item,
                        "initializer",
                        "array element needs a brace list",
                    ));
                }
                let e: Expr = self.expr(item)?;
                out.push(Init::Expr(self.convert(
                    e,
                    &target,
                    item,
                    "initialization",
                )?));
            }
        }
        Ok(Init::List(out))
    }

    /// `{a, b}` for a struct: one item per field in order; fields left out
    /// are zero.
    fn struct_init_list(&mut self, list: Node, st: &hone_ir::StructType) -> LResult<Init> {
        let items = syntax::named_children(list);
        if items.len() > st.fields.len() {
            return Err(self.error(
                list,
                "initializer",
                format!("too many initializers for `{}`", st.name),
            ));
        }
        let mut out = Vec::with_capacity(items.len());
        for (item, field) in items.into_iter().zip(&st.fields) {
            if item.kind() == "initializer_list" {
                out.push(self.init_list(item, &field.ty)?);
                continue;
            }
            if matches!(field.ty, Type::Array(..)) {
                return Err(self.error(
                    item,
                    "initializer",
                    format!("field `{}` is an array and needs a brace list", field.name),
                ));
            }
            let e = self.expr(item)?;
            out.push(Init::Expr(self.convert(
                e,
                &field.ty,
                item,
                "initialization",
            )?));
        }
        Ok(Init::List(out))
    }

    pub fn local_typedef(&mut self, n: Node) -> LResult<()> {
        let specs = self.specs(n)?;
        let base = match self.base_type(&specs, n) {
            Ok(b) => b,
            Err(e) => {
                self.poison(n);
                return Err(e);
            }
        };
        let mut cursor = n.walk();
        let decls: Vec<Node> = n
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        for d in decls {
            let declared = self.declarator(base.clone(), d, ArrayCtx::Const)?;
            if let Some(name) = declared.name {
                self.bind(&name, Entry::Type(declared.qt));
            }
        }
        Ok(())
    }

    pub fn local_alias(&mut self, n: Node) -> LResult<()> {
        let name = self.field(n, "name")?;
        let name = self.text(name).to_string();
        let t = self.field(n, "type")?;
        match self.type_descriptor(t) {
            Ok(ty) => {
                self.bind(&name, Entry::Type(QualType::new(ty)));
                Ok(())
            }
            Err(e) => {
                self.bind(&name, Entry::Poisoned);
                Err(e)
            }
        }
    }
}

fn innermost(t: &Type) -> Type {
    match t {
        Type::Array(e, _) => innermost(e),
        t => t.clone(),
    }
}

fn flat_len(t: &Type) -> u64 {
    match t {
        Type::Array(e, ArrayLen::Const(n)) => n.saturating_mul(flat_len(e)),
        _ => 1,
    }
}
