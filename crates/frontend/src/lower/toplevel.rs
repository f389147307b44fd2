//! Pass 1: file-scope items in source order.

use std::sync::Arc;

use hone_ir::{
    ExprKind, FuncId, FuncKind, GlobalId, GlobalSpace, GlobalVar, Init, RecordKind, StructType,
    Type,
};
use tree_sitter::Node;

use std::collections::HashMap;

use super::func::{Entry, FnLowerer, LResult};
use super::names;
use super::template::{Specialization, Template};
use super::types::ArrayCtx;
use super::{FuncSig, Member, MemberKind, ModuleCtx, PendingFunction, QualType, TypeEntry};
use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax;

pub(crate) struct Collector<'c, 'a, 't> {
    pub ctx: &'c mut ModuleCtx<'a>,
    pub diags: &'c mut Vec<Diagnostic>,
    pending: Vec<PendingFunction<'t>>,
    templates: HashMap<String, Template<'t>>,
    specializations: Vec<Specialization<'t>>,
    /// Where each struct name was first defined (its node's start byte).
    records: HashMap<String, usize>,
    pub classes: super::classtpl::Classes<'t>,
    /// The parameters of the class template instance being made.
    pub bindings: Vec<(String, Entry)>,
}

/// The functions to lower, the function templates of the file and their
/// explicit specializations.
pub(crate) type Collected<'t> = (
    Vec<PendingFunction<'t>>,
    HashMap<String, Template<'t>>,
    Vec<Specialization<'t>>,
);

pub(crate) fn collect<'t>(
    root: Node<'t>,
    ctx: &mut ModuleCtx,
    diags: &mut Vec<Diagnostic>,
) -> Collected<'t> {
    let mut c = Collector {
        ctx,
        diags,
        pending: Vec::new(),
        templates: HashMap::new(),
        specializations: Vec::new(),
        records: HashMap::new(),
        classes: super::classtpl::Classes::default(),
        bindings: Vec::new(),
    };
    c.classes.wanted = c.ctx.class_wanted.clone();
    c.classes.find_specializations(root, c.ctx.src, 0);
    c.items(root, 0);
    c.unmade_instances();
    (c.pending, c.templates, c.specializations)
}

/// `__global__` / `__device__` on a function (the `__host__ __device__` pair
/// counts as device); `None` for host code.
pub(crate) fn func_kind(node: Node, src: &str) -> Option<FuncKind> {
    let mut kind = None;
    let mut cursor = node.walk();
    for (i, c) in node.children(&mut cursor).enumerate() {
        if node.field_name_for_child(i as u32).is_some()
            && node.field_name_for_child(i as u32) != Some("type")
        {
            continue;
        }
        match syntax::text(c, src).trim() {
            "__global__" => kind = Some(FuncKind::Global),
            "__device__" if kind.is_none() => kind = Some(FuncKind::Device),
            _ => {}
        }
    }
    kind
}

/// The member function a declaration in a class body declares without
/// defining it (`void f(int);`, `S();`, `static T g();`): its name.
fn declared_member_function<'s>(m: Node, src: &'s str) -> Option<&'s str> {
    let mut cursor = m.walk();
    let decls: Vec<Node> = m
        .children_by_field_name("declarator", &mut cursor)
        .collect();
    let [d] = decls.as_slice() else {
        return None;
    };
    let f = function_declarator(*d)?;
    let n = f.child_by_field_name("declarator")?;
    matches!(
        n.kind(),
        "identifier" | "field_identifier" | "operator_name" | "destructor_name" | "type_identifier"
    )
    .then(|| syntax::text(n, src))
}

/// `static` among a declaration's specifiers.
fn is_static(m: Node, src: &str) -> bool {
    syntax::children(m)
        .into_iter()
        .any(|c| c.kind() == "storage_class_specifier" && syntax::text(c, src).trim() == "static")
}

/// For a function defined outside its class (`T S::f(...) {...}`), the
/// class's name as written (`S`, or `S<T>` for a class template's member).
pub(crate) fn out_of_line_scope<'s>(node: Node, src: &'s str) -> Option<&'s str> {
    let f = function_declarator(node.child_by_field_name("declarator")?)?;
    let mut cur = f.child_by_field_name("declarator")?;
    let mut scope = None;
    while cur.kind() == "qualified_identifier" {
        scope = cur.child_by_field_name("scope");
        cur = cur.child_by_field_name("name")?;
    }
    scope.map(|s| syntax::text(s, src).trim())
}

/// The innermost declarator: the function declarator of a function, if any.
fn function_declarator(d: Node) -> Option<Node> {
    let mut cur = d;
    for _ in 0..64 {
        match cur.kind() {
            "function_declarator" => return Some(cur),
            "pointer_declarator" | "parenthesized_declarator" | "reference_declarator" => {
                cur = cur
                    .child_by_field_name("declarator")
                    .or_else(|| syntax::named_children(cur).into_iter().last())?;
            }
            _ => return None,
        }
    }
    None
}

/// The node that names what a declarator declares: an identifier, an
/// operator's name, a qualified or template name, a destructor's.
fn declarator_leaf(d: Node) -> Option<Node> {
    let mut cur = d;
    for _ in 0..64 {
        match cur.kind() {
            "identifier"
            | "field_identifier"
            | "type_identifier"
            | "qualified_identifier"
            | "template_function"
            | "operator_name"
            | "destructor_name" => return Some(cur),
            _ => {
                cur = cur.child_by_field_name("declarator").or_else(|| {
                    syntax::named_children(cur)
                        .into_iter()
                        .find(|c| c.kind() != "type_qualifier")
                })?;
            }
        }
    }
    None
}

/// `operator-` (spaces removed) when the declarator declares an operator.
fn declared_operator(d: Node, src: &str) -> Option<String> {
    declarator_leaf(d)
        .filter(|n| n.kind() == "operator_name")
        .map(|n| syntax::text(n, src).split_whitespace().collect())
}

/// Name declared by a declarator.
pub(crate) fn declarator_name<'s>(d: Node, src: &'s str) -> Option<&'s str> {
    declarator_leaf(d)
        .filter(|n| {
            matches!(
                n.kind(),
                "identifier" | "field_identifier" | "type_identifier"
            )
        })
        .map(|n| syntax::text(n, src))
}

impl<'c, 'a, 't> Collector<'c, 'a, 't> {
    fn src(&self) -> &'a str {
        self.ctx.src
    }

    fn error(&mut self, node: Node, construct: &str, message: String) {
        let d = self
            .ctx
            .diagnostic(node, Severity::Error, construct, message);
        self.diags.push(d);
    }

    fn items(&mut self, parent: Node<'t>, depth: u32) {
        if depth > 32 {
            return;
        }
        for item in syntax::named_children(parent) {
            match item.kind() {
                "function_definition" => self.function(item),
                "declaration" => self.declaration(item),
                "type_definition" => self.typedef(item),
                "alias_declaration" => self.alias(item),
                "template_declaration" => self.template(item),
                "linkage_specification" | "namespace_definition" => {
                    if let Some(body) = item.child_by_field_name("body") {
                        if body.kind() == "declaration_list" {
                            self.items(body, depth + 1);
                        } else {
                            self.items(item, depth + 1);
                        }
                    }
                }
                "function_definition_list" | "declaration_list" => self.items(item, depth + 1),
                "enum_specifier" => self.enumerators(item),
                "static_assert_declaration" => {
                    let diags = {
                        let mut l = FnLowerer::new(self.ctx);
                        let _ = l.static_assert(item);
                        l.diags
                    };
                    self.diags.extend(diags);
                }
                "struct_specifier" | "class_specifier" | "union_specifier" => {
                    self.record(item);
                }
                "ERROR" => {
                    let t = syntax::text(item, self.src());
                    if t.contains("__global__") || t.contains("__device__") {
                        let at = syntax::syntax_errors(item, 1)
                            .first()
                            .copied()
                            .unwrap_or(item);
                        self.error(
                            at,
                            "syntax error",
                            "syntax error in device code".to_string(),
                        );
                    }
                }
                _ => {}
            }
            if !self.classes.wanted.is_empty() {
                self.make_wanted();
            }
        }
    }

    /// A lowerer with the parameters of the class template instance being
    /// made bound.
    pub fn lowerer(&self) -> FnLowerer<'_, 'a> {
        let mut l = FnLowerer::new(self.ctx);
        for (name, entry) in &self.bindings {
            l.bind(name, entry.clone());
        }
        l
    }

    fn function(&mut self, node: Node<'t>) {
        let src = self.src();
        if let Some(scope) = out_of_line_scope(node, src) {
            if func_kind(node, src).is_some() {
                self.out_of_line_member(node, scope);
            }
            return;
        }
        let name = node
            .child_by_field_name("declarator")
            .and_then(|d| declarator_name(d, src))
            .unwrap_or("")
            .to_string();
        if func_kind(node, src).is_none() {
            self.ctx.host_functions.insert(name);
            return;
        }
        if node.has_error() {
            self.syntax_errors(node);
            self.ctx.unlowerable.insert(name, "syntax error".into());
            return;
        }
        let generic = node
            .child_by_field_name("declarator")
            .and_then(function_declarator)
            .and_then(|f| f.child_by_field_name("parameters"))
            .is_some_and(|p| super::groups::takes_thread_group(p, src));
        if generic {
            // Made for each group its calls pass, as a template is for
            // each argument list (`Templates::instance`).
            let kind = func_kind(node, src).unwrap_or(FuncKind::Device);
            self.templates.insert(
                name,
                Template {
                    node,
                    function: node,
                    kind,
                    member: None,
                    bindings: Vec::new(),
                },
            );
            return;
        }
        let (header, diags) = {
            let mut l = FnLowerer::new(self.ctx);
            let h = l.function_header(node).ok().filter(|_| !l.has_errors());
            (h, l.diags)
        };
        let Some(h) = header else {
            self.diags
                .extend(diags.into_iter().filter(|d| d.severity == Severity::Error));
            self.ctx
                .unlowerable
                .insert(name, "its signature is not supported".into());
            return;
        };
        let id = FuncId(self.pending.len() as u32);
        let name = h.name.clone();
        if !self.register(&name, h.signature(Some(id)), node) {
            return;
        }
        if let Some(op) = &h.alias {
            self.register(op, h.signature(Some(id)), node);
        }
        self.pending.push(PendingFunction {
            node,
            name,
            member: None,
            bindings: Vec::new(),
        });
    }

    /// `static const int N = 8;` (or `static constexpr float k = 0.5f;`)
    /// in a class: a constant the members and the file see, as a member
    /// enumerator is (`S::N` finds it). False when `m` is not one.
    fn static_constant(&mut self, m: Node<'t>) -> bool {
        let (Some(d), Some(v)) = (
            m.child_by_field_name("declarator"),
            m.child_by_field_name("default_value"),
        ) else {
            return false;
        };
        if d.kind() != "field_identifier" {
            return false;
        }
        let name = syntax::text(d, self.src()).to_string();
        let (int, float) = {
            let mut l = self.lowerer();
            let Some(base) = l
                .specs(m)
                .ok()
                .filter(|s| s.is_const || s.constexpr)
                .and_then(|s| l.base_type(&s, m).ok())
            else {
                return false;
            };
            let int = l.constant_value(base.clone(), d, v);
            let float = match int {
                Some(_) => None,
                None => l.float_constant_value(base, d, v),
            };
            (int, float)
        };
        match (int, float) {
            (Some((v, s)), _) => {
                self.bindings.push((name.clone(), Entry::Const(v, s)));
                self.ctx.constants.insert(name, (v, s));
            }
            (None, Some(f)) => {
                self.ctx.float_constants.insert(name, f);
            }
            (None, None) => return false,
        }
        true
    }

    /// A member function defined outside its class (`__device__ float
    /// S::mean() const {...}`): lowered as if defined inside it.
    fn out_of_line_member(&mut self, node: Node<'t>, scope: &str) {
        match self.ctx.typedefs.get(scope) {
            Some(TypeEntry::Ok(qt)) => {
                if let Type::Struct(st) = &qt.ty {
                    let st = st.clone();
                    self.member_function(node, &st);
                    return;
                }
            }
            _ if scope.contains('<') => {
                let msg = format!(
                    "members of class template `{scope}` defined outside the class are not supported"
                );
                self.error(node, "member function", msg);
                return;
            }
            _ => {}
        }
        let msg = format!("`{scope}` is not a struct or class hone knows, so its member functions cannot be lowered");
        self.error(node, "member function", msg);
    }

    /// Adds an overload of `name`; false (with an error) when one with the
    /// same parameters is already defined.
    fn register(&mut self, name: &str, sig: FuncSig, node: Node) -> bool {
        let list = self.ctx.functions.entry(name.to_string()).or_default();
        match list.iter_mut().find(|s| s.params == sig.params) {
            Some(existing) if existing.id.is_some() && sig.id.is_some() => {
                let msg = format!("`{name}` is defined twice with the same parameters");
                self.error(node, "overload", msg);
                false
            }
            Some(existing) => {
                if sig.id.is_some() {
                    *existing = sig;
                }
                true
            }
            None => {
                list.push(sig);
                true
            }
        }
    }

    /// One error per syntax error in `node` (at most 20).
    fn syntax_errors(&mut self, node: Node) {
        let src = self.src();
        for e in syntax::syntax_errors(node, 20) {
            let msg = if e.is_missing() {
                format!("syntax error: missing `{}`", e.kind())
            } else {
                let t: String = syntax::text(e, src).chars().take(40).collect();
                format!("syntax error near `{}`", t.trim())
            };
            self.error(e, "syntax error", msg);
        }
    }

    fn declaration(&mut self, node: Node<'t>) {
        let src = self.src();
        let mut cursor = node.walk();
        let decls: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        if decls.is_empty() {
            if let Some(t) = node.child_by_field_name("type") {
                match t.kind() {
                    "enum_specifier" => self.enumerators(t),
                    "struct_specifier" | "class_specifier" | "union_specifier" => {
                        self.record(t);
                    }
                    _ => {}
                }
            }
            return;
        }
        if let Some(t) = node.child_by_field_name("type") {
            match t.kind() {
                "enum_specifier" => self.enumerators(t),
                "struct_specifier" | "class_specifier" | "union_specifier" => {
                    self.record(t);
                }
                _ => {}
            }
        }
        if function_declarator(decls[0]).is_some() {
            self.prototype(node, decls[0]);
            return;
        }
        if let Some(t) = node
            .child_by_field_name("type")
            .filter(|t| t.kind() == "template_type")
        {
            let tname = t
                .child_by_field_name("name")
                .map(|n| syntax::text(n, src))
                .unwrap_or("");
            if tname == "texture" {
                for d in decls {
                    if let Some(name) = declarator_name(d, src) {
                        self.texture_ref(t, name.to_string());
                    }
                }
                return;
            }
        }
        for d in decls {
            let Some(name) = declarator_name(d, src) else {
                continue;
            };
            self.variable(node, d, name.to_string());
        }
    }

    fn prototype(&mut self, node: Node, decl: Node) {
        let src = self.src();
        let name = declarator_name(decl, src).unwrap_or("").to_string();
        if func_kind(node, src).is_none() {
            self.ctx.host_functions.insert(name);
            return;
        }
        if node.has_error() {
            return;
        }
        let header = {
            let mut l = FnLowerer::new(self.ctx);
            l.function_header(node).ok().filter(|_| !l.has_errors())
        };
        match header {
            Some(h) => {
                let name = h.name.clone();
                self.register(&name, h.signature(None), node);
                if let Some(op) = &h.alias {
                    self.register(op, h.signature(None), node);
                }
            }
            None => {
                self.ctx
                    .unlowerable
                    .insert(name, "its signature is not supported".into());
            }
        }
    }

    /// A file-scope variable: an integral constant device code can use, a
    /// `__constant__`/`__device__`/`__shared__` variable, or a host variable
    /// device code cannot use.
    fn variable(&mut self, node: Node, d: Node, name: String) {
        // Error recovery can make a declaration of what is not one
        // (`__device__ long, long` declares `long`), which would print back
        // as code that does not parse.
        if node.has_error() {
            if ["__device__", "__constant__", "__shared__"]
                .iter()
                .any(|s| syntax::text(node, self.src()).contains(s))
            {
                self.syntax_errors(node);
            }
            self.ctx
                .globals
                .insert(name, "variable whose declaration has a syntax error".into());
            return;
        }
        let space = {
            let mut l = FnLowerer::new(self.ctx);
            match l.specs(node) {
                Ok(s) if s.constant => Some(GlobalSpace::Constant),
                Ok(s) if s.shared => Some(GlobalSpace::Shared),
                Ok(s) if s.device && !s.managed => Some(GlobalSpace::Device),
                _ => None,
            }
        };
        if let Some(space) = space {
            self.device_variable(node, d, name, space);
            return;
        }
        let value = {
            let mut l = FnLowerer::new(self.ctx);
            let specs = l.specs(node).ok();
            let description = match &specs {
                Some(s) if s.constant => "__constant__ variable",
                Some(s) if s.shared => "__shared__ variable",
                Some(s) if s.managed => "__managed__ variable, which hone does not support",
                Some(s) if s.device => "__device__ variable",
                _ => "host variable, which device code cannot use",
            };
            let mut value = None;
            let mut float = None;
            if let Some(s) = specs.filter(|s| s.is_const && !s.device && !s.constant && !s.shared) {
                if let Ok(base) = l.base_type(&s, node) {
                    value = l.constant_declarator(base.clone(), d);
                    if value.is_none() {
                        float = l.float_constant_declarator(base, d);
                    }
                }
            }
            (value, float, description)
        };
        let (value, float, description) = value;
        match (value, float) {
            (Some(v), _) => {
                self.ctx.constants.insert(name, v);
            }
            (None, Some(f)) => {
                self.ctx.float_constants.insert(name, f);
            }
            (None, None) => {
                self.ctx.globals.insert(name, description.to_string());
            }
        }
    }

    fn texture_ref(&mut self, t: Node, name: String) {
        let (r, diags) = {
            let mut l = FnLowerer::new(self.ctx);
            let r = super::texture::texture_ref_type(&mut l, t, &name);
            (r.ok(), l.diags)
        };
        match r {
            Some(r) => {
                self.ctx.texture_refs.insert(name, r);
            }
            None => {
                let why = diags
                    .iter()
                    .find(|d| d.severity == Severity::Error)
                    .map(|d| d.message.clone())
                    .unwrap_or_else(|| "unsupported texture reference".into());
                self.ctx
                    .globals
                    .insert(name, format!("texture reference ({why})"));
            }
        }
    }

    fn device_variable(&mut self, node: Node, d: Node, name: String, space: GlobalSpace) {
        let (global, diags) = {
            let mut l = FnLowerer::new(self.ctx);
            let g = l.global_variable(node, d, &name, space);
            (g.ok(), l.diags)
        };
        let failed = global.is_none() || diags.iter().any(|d| d.severity == Severity::Error);
        self.diags.extend(diags);
        match global {
            Some(g) if !failed => {
                let id = GlobalId(self.ctx.global_vars.len() as u32);
                self.ctx.global_vars.push(g);
                self.ctx.global_ids.insert(name, id);
            }
            _ => {
                let what = match space {
                    GlobalSpace::Constant => "__constant__ variable that could not be lowered (see its declaration's error)",
                    GlobalSpace::Device => "__device__ variable that could not be lowered (see its declaration's error)",
                    GlobalSpace::Shared => "__shared__ variable that could not be lowered (see its declaration's error)",
                };
                self.ctx.globals.insert(name, what.to_string());
            }
        }
    }

    /// An enum: its name is its underlying integer type, its enumerators
    /// integer constants (a scoped enum's only as `E::name`).
    fn enumerators(&mut self, e: Node) {
        self.enumerators_in(e, false)
    }

    /// Enumerators, of an enum in a struct when `member`: bound for the
    /// members after it too, so that each class template instance has its
    /// own values.
    fn enumerators_in(&mut self, e: Node, member: bool) {
        let src = self.src();
        let enum_name = e
            .child_by_field_name("name")
            .map(|n| syntax::text(n, src).to_string());
        let scoped = syntax::children(e)
            .into_iter()
            .any(|c| matches!(syntax::text(c, src), "class" | "struct"));
        let underlying = match e.child_by_field_name("base") {
            Some(b) => {
                let t = {
                    let mut l = FnLowerer::new(self.ctx);
                    l.enum_base(b)
                };
                match t {
                    Some(s) => s,
                    None => {
                        let msg = format!(
                            "underlying type `{}` of an enum must be an integer type",
                            syntax::text(b, src)
                        );
                        self.error(b, "enum", msg);
                        return;
                    }
                }
            }
            None => hone_ir::Scalar::I32,
        };
        if let (Some(n), true) = (&enum_name, member) {
            self.bindings.push((
                n.clone(),
                Entry::Type(QualType::new(Type::Scalar(underlying))),
            ));
        }
        if let Some(n) = &enum_name {
            self.ctx.typedefs.insert(
                n.clone(),
                TypeEntry::Ok(QualType::new(Type::Scalar(underlying))),
            );
        }
        let Some(body) = e.child_by_field_name("body") else {
            return;
        };
        let mut next: i128 = 0;
        for en in syntax::named_children(body) {
            if en.kind() != "enumerator" {
                continue;
            }
            let Some(name) = en.child_by_field_name("name") else {
                continue;
            };
            let name = syntax::text(name, self.src()).to_string();
            if let Some(v) = en.child_by_field_name("value") {
                let folded = {
                    let mut l = self.lowerer();
                    l.expr(v).ok().and_then(|x| l.fold(&x))
                };
                match folded {
                    Some(x) => next = x,
                    None => {
                        self.ctx
                            .globals
                            .insert(name, "non-constant enumerator".into());
                        continue;
                    }
                }
            }
            if let Some(en) = &enum_name {
                self.ctx
                    .constants
                    .insert(format!("{en}::{name}"), (next, underlying));
            }
            if member && !scoped {
                self.bindings
                    .push((name.clone(), Entry::Const(next, underlying)));
            }
            if !scoped {
                self.ctx.constants.insert(name, (next, underlying));
            }
            next += 1;
        }
    }

    /// A struct or class definition: its layout becomes a type, its member
    /// functions functions taking the object. Unions are reported.
    fn record(&mut self, node: Node<'t>) -> Option<Arc<StructType>> {
        self.define_record(node, None)
    }

    fn define_record(&mut self, node: Node<'t>, alias: Option<&str>) -> Option<Arc<StructType>> {
        self.define_record_as(node, alias, None)
    }

    /// A struct definition; `instance` names the struct a class template's
    /// instance is (its parameters in `self.bindings`).
    pub fn define_record_as(
        &mut self,
        node: Node<'t>,
        alias: Option<&str>,
        instance: Option<&str>,
    ) -> Option<Arc<StructType>> {
        if instance.is_none() {
            if let Some(st) = self.ctx.anon_structs.get(&node.start_byte()) {
                return Some(st.clone());
            }
        }
        let src = self.src();
        // Error recovery can leave a name or typedef alias empty; such a
        // struct is anonymous, as its print will be.
        let name = node
            .child_by_field_name("name")
            .map(|n| syntax::text(n, src).to_string())
            .filter(|n| !n.is_empty())
            .or_else(|| alias.filter(|a| !a.is_empty()).map(str::to_string));
        let name = match instance {
            Some(i) => Some(i.to_string()),
            None => name,
        };
        let Some(body) = node.child_by_field_name("body") else {
            if let Some(name) = name {
                self.ctx
                    .typedefs
                    .entry(name.clone())
                    .or_insert(TypeEntry::Unsupported {
                        construct: "struct".into(),
                        message: format!("`{name}` is declared but not defined"),
                    });
            }
            return None;
        };
        // Named by where it is in the user's files, which the preprocessor
        // keeps, so that the name is the same however the text was read.
        let name = name.unwrap_or_else(|| {
            let (file, line, col) = self.ctx.map.locate(node.start_position());
            format!("{}{file}_{line}_{col}", hone_ir::ANON_PREFIX)
        });
        // A second definition of one name would give two types the printer
        // writes under that name, and members bound to the first.
        match self.records.get(&name) {
            Some(&first) if first != node.start_byte() => {
                self.error(node, "struct", format!("redefinition of `{name}`"));
                return None;
            }
            _ => {
                self.records.insert(name.clone(), node.start_byte());
            }
        }
        let kind = match node.kind() {
            "class_specifier" => RecordKind::Class,
            "union_specifier" => RecordKind::Union,
            _ => RecordKind::Struct,
        };
        // Until it is complete, a use of the struct inside itself is reported.
        self.ctx.typedefs.insert(
            name.clone(),
            TypeEntry::Unsupported {
                construct: "struct".into(),
                message: format!(
                    "`{name}` is used inside its own definition (self-referential structs are not supported)"
                ),
            },
        );
        let mut fields = Vec::new();
        let mut members = Vec::new();
        let mut member_templates = Vec::new();
        let mut ok = true;
        // Base classes come first in the object, as members that member
        // access looks through.
        if let Some(clause) = syntax::named_children(node)
            .into_iter()
            .find(|c| c.kind() == "base_class_clause")
        {
            ok &= self.base_classes(clause, &mut fields);
        }
        // Member typedefs are seen by the members that follow only.
        let outer_bindings = self.bindings.len();
        for m in syntax::named_children(body) {
            let nested_enum = m
                .child_by_field_name("type")
                .filter(|t| t.kind() == "enum_specifier")
                .filter(|_| m.child_by_field_name("declarator").is_none());
            if let Some(e) = nested_enum {
                // A member enum: its names are the file's, as a namespace's
                // are (`S::Put` finds `Put`).
                self.enumerators_in(e, true);
                continue;
            }
            if matches!(m.kind(), "field_declaration" | "declaration") {
                if let Some(f) = declared_member_function(m, src) {
                    // Defined outside the class, where `static` is not
                    // written again.
                    if is_static(m, src) {
                        self.ctx
                            .static_members
                            .insert((name.clone(), f.to_string()));
                    }
                    continue;
                }
                if m.kind() == "field_declaration" && is_static(m, src) && self.static_constant(m) {
                    continue;
                }
            }
            match m.kind() {
                "field_declaration" => {
                    // A struct or union defined in the member's declaration
                    // (an anonymous union, a nested struct) is made first.
                    if let Some(t) = m.child_by_field_name("type").filter(|t| {
                        matches!(
                            t.kind(),
                            "struct_specifier" | "union_specifier" | "class_specifier"
                        ) && t.child_by_field_name("body").is_some()
                    }) {
                        // In a class template's instance a named nested struct
                        // is the instance's own (`Lift<32>::Predict`), as its
                        // members may use the template's parameters.
                        let nested = t
                            .child_by_field_name("name")
                            .filter(|_| instance.is_some())
                            .map(|n| format!("{name}__{}", syntax::text(n, src)));
                        let made = match nested {
                            Some(own) => self.define_record_as(t, None, Some(&own)),
                            None => self.record(t),
                        };
                        if made.is_none() {
                            ok = false;
                        }
                    }
                    let (r, diags) = {
                        let mut l = self.lowerer();
                        let r = l.field_declaration(m);
                        (r, l.diags)
                    };
                    ok &= r.is_ok() && !diags.iter().any(|d| d.severity == Severity::Error);
                    self.diags.extend(diags);
                    if let Ok(f) = r {
                        fields.extend(f);
                    }
                }
                "function_definition" => members.push(m),
                "access_specifier" | "comment" => {}
                "type_definition" | "alias_declaration" => ok &= self.member_type(m),
                "declaration" => {
                    self.error(
                        m,
                        "member function",
                        "member functions defined outside their class are not supported".into(),
                    );
                }
                "template_declaration" => {
                    if super::classtpl::class_of(m).is_some() {
                        self.member_class_template(m, &name);
                    } else {
                        member_templates.push(m);
                    }
                }
                k => {
                    let k = k.to_string();
                    self.error(m, &k, format!("`{k}` in a struct is not supported"));
                    ok = false;
                }
            }
        }
        let layout = StructType::new(&name, kind, fields);
        let Some(mut st) = layout.filter(|_| ok) else {
            self.bindings.truncate(outer_bindings);
            self.ctx.typedefs.insert(
                name.clone(),
                TypeEntry::Unsupported {
                    construct: "struct".into(),
                    message: format!("struct `{name}` has members hone cannot lower"),
                },
            );
            return None;
        };
        if let Some(a) = declared_alignment(node, src) {
            st.align = st.align.max(a);
            st.size = st.size.div_ceil(st.align) * st.align;
        }
        let st = Arc::new(st);
        self.ctx.structs.push(st.clone());
        self.ctx
            .typedefs
            .insert(name, TypeEntry::Ok(QualType::new(Type::Struct(st.clone()))));
        if instance.is_none() {
            self.ctx.anon_structs.insert(node.start_byte(), st.clone());
        } else if let Some(n) = node.child_by_field_name("name") {
            // The template's own name means the instance inside it.
            let n = n.child_by_field_name("name").unwrap_or(n);
            let injected = syntax::text(n, src).to_string();
            self.bindings.push((
                injected,
                Entry::Type(QualType::new(Type::Struct(st.clone()))),
            ));
        }
        for m in members {
            self.member_function(m, &st);
        }
        for m in member_templates {
            self.member_template(m, &st);
        }
        if instance.is_none() {
            self.bindings.truncate(outer_bindings);
        }
        Some(st)
    }

    /// The bases of `struct D : B, C`, as the members `__base0: B`, ...
    fn base_classes(&mut self, clause: Node<'t>, fields: &mut Vec<(String, Type)>) -> bool {
        let src = self.src();
        let mut ok = true;
        if syntax::children(clause)
            .iter()
            .any(|c| syntax::text(*c, src).trim() == "virtual")
        {
            self.error(
                clause,
                "base class",
                "virtual base classes are not supported".into(),
            );
            return false;
        }
        let bases = syntax::named_children(clause)
            .into_iter()
            .filter(|c| !matches!(c.kind(), "access_specifier" | "comment"));
        for (i, b) in bases.enumerate() {
            let (r, diags) = {
                let mut l = self.lowerer();
                let r = l.type_node(b);
                (r, l.diags)
            };
            self.diags.extend(diags);
            match r {
                Ok(qt) if matches!(qt.ty, Type::Struct(_)) => {
                    fields.push((format!("{}{i}", hone_ir::BASE_PREFIX), qt.ty));
                }
                Ok(_) => {
                    let t = syntax::text(b, src).to_string();
                    self.error(b, "base class", format!("base class `{t}` is not a struct"));
                    ok = false;
                }
                Err(_) => ok = false,
            }
        }
        ok
    }

    /// `template <...> struct Inner {...}` inside the struct `outer`: a class
    /// template filed as `outer__Inner`, its short name bound for the members
    /// that follow; its instances see `outer`'s parameters.
    fn member_class_template(&mut self, node: Node<'t>, outer: &str) {
        let src = self.src();
        let Some(record) = super::classtpl::class_of(node) else {
            return;
        };
        let Some(short) = record
            .child_by_field_name("name")
            .filter(|n| n.kind() == "type_identifier")
        else {
            self.error(
                node,
                "template specialization",
                "specializations of member class templates are not supported".into(),
            );
            return;
        };
        let short = syntax::text(short, src).to_string();
        let key = format!("{outer}__{short}");
        self.class_template_as(node, &key);
        self.classes
            .outer
            .insert(key.clone(), self.bindings.clone());
        self.bindings.push((short, Entry::ClassTemplate(key)));
    }

    /// `template <...> T f(...) {...}` inside the struct `st`: a function
    /// template filed as `st__f`, made for each argument list its calls use,
    /// with the object as its first parameter as any member's.
    fn member_template(&mut self, node: Node<'t>, st: &Arc<StructType>) {
        let src = self.src();
        let Some(f) = syntax::named_children(node)
            .into_iter()
            .find(|c| c.kind() == "function_definition")
        else {
            self.error(
                node,
                "template",
                "member templates must be defined inside their class".into(),
            );
            return;
        };
        if func_kind(f, src).is_none() {
            return;
        }
        let Some(name) = f
            .child_by_field_name("declarator")
            .and_then(|d| declarator_name(d, src))
        else {
            self.error(
                node,
                "template",
                "expected a member function template".into(),
            );
            return;
        };
        if f.child_by_field_name("type").is_none() {
            self.error(
                node,
                "template",
                "constructor templates are not supported".into(),
            );
            return;
        }
        let kind = if is_static(f, src) {
            MemberKind::Static
        } else if f
            .child_by_field_name("declarator")
            .is_some_and(|d| super::members::declarator_is_const(d, src))
        {
            MemberKind::Const
        } else {
            MemberKind::Mutating
        };
        let filed = if kind == MemberKind::Static {
            super::static_member(name)
        } else {
            name.to_string()
        };
        let key = if name.starts_with("operator") {
            format!("{}__{}", st.name, super::members::operator_ident(name))
        } else {
            format!("{}__{name}", st.name)
        };
        if self.templates.contains_key(&key) {
            self.error(
                node,
                "template",
                format!("overloaded member templates are not supported (`{name}` of `{}` is defined twice)", st.name),
            );
            return;
        }
        self.ctx
            .member_templates
            .insert((st.name.clone(), filed), key.clone());
        self.templates.insert(
            key,
            Template {
                node,
                function: f,
                kind: FuncKind::Device,
                member: Some(Member {
                    st: st.clone(),
                    kind,
                }),
                bindings: self.bindings.clone(),
            },
        );
    }

    /// `typedef T name;` or `using name = T;` in a struct: bound for the
    /// members after it.
    fn member_type(&mut self, m: Node) -> bool {
        let (types, diags) = {
            let mut l = self.lowerer();
            let r = l.member_type_alias(m);
            let failed = l.has_errors();
            (r.ok().filter(|_| !failed), l.diags)
        };
        self.diags.extend(diags);
        let Some(types) = types else {
            return false;
        };
        for (name, qt) in types {
            self.bindings.push((name, Entry::Type(qt)));
        }
        true
    }

    /// Registers a member function of `st` and queues its body.
    pub(crate) fn member_function(&mut self, node: Node<'t>, st: &Arc<StructType>) {
        let src = self.src();
        if func_kind(node, src).is_none() {
            // Host-only members cannot be called from device code.
            return;
        }
        if node.has_error() {
            self.error(
                node,
                "syntax error",
                "syntax error in a member function".into(),
            );
            return;
        }
        let (header, diags) = {
            let mut l = self.lowerer();
            let h = l.member_header(node, st).ok().filter(|_| !l.has_errors());
            (h, l.diags)
        };
        self.diags.extend(diags);
        let Some(mh) = header else {
            return;
        };
        let id = FuncId(self.pending.len() as u32);
        let mut sig = mh.header.signature(Some(id));
        if mh.kind == MemberKind::Mutating {
            sig.by_ref[0] = true;
        }
        let ir_name = mh.header.name.clone();
        // Conversions differ by their result alone.
        let conversion = mh.member == super::members::CONVERSION;
        let filed = if mh.kind == MemberKind::Static {
            super::static_member(&mh.member)
        } else {
            mh.member.clone()
        };
        if mh.kind == MemberKind::Const
            && mh.member.starts_with("operator")
            && !super::members::member_only_operator(&mh.member)
        {
            if !self.register(&mh.member, sig.clone(), node) {
                return;
            }
        } else {
            let list = self
                .ctx
                .methods
                .entry((st.name.clone(), filed))
                .or_default();
            if list
                .iter()
                .any(|s| s.params == sig.params && (!conversion || s.ret == sig.ret))
            {
                let msg = format!("`{}` is defined twice with the same parameters", mh.member);
                self.error(node, "overload", msg);
                return;
            }
            list.push(sig.clone());
        }
        self.pending.push(PendingFunction {
            node,
            name: ir_name,
            member: Some(Member {
                st: st.clone(),
                kind: mh.kind,
            }),
            bindings: self.bindings.clone(),
        });
    }

    fn typedef(&mut self, node: Node<'t>) {
        let src = self.src();
        let mut cursor = node.walk();
        let decls: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        if let Some(t) = node.child_by_field_name("type") {
            if matches!(
                t.kind(),
                "struct_specifier" | "class_specifier" | "union_specifier"
            ) {
                let alias = decls.first().and_then(|d| declarator_name(*d, src));
                self.define_record(t, alias);
            }
        }
        for d in decls {
            let Some(name) = declarator_name(d, src) else {
                continue;
            };
            let entry = {
                let mut l = FnLowerer::new(self.ctx);
                let r = l
                    .specs(node)
                    .and_then(|s| l.base_type(&s, node))
                    .and_then(|b| l.declarator(b, d, ArrayCtx::Const));
                match (
                    r,
                    l.diags.into_iter().find(|d| d.severity == Severity::Error),
                ) {
                    (Ok(decl), None) if decl.params.is_none() => TypeEntry::Ok(decl.qt),
                    (Ok(_), None) => TypeEntry::Unsupported {
                        construct: "function type".into(),
                        message: "function types are not supported".into(),
                    },
                    (_, Some(diag)) => TypeEntry::Unsupported {
                        construct: diag.construct,
                        message: diag.message,
                    },
                    (Err(_), None) => TypeEntry::Unsupported {
                        construct: "typedef".into(),
                        message: "unsupported typedef".into(),
                    },
                }
            };
            self.define_type(d, name, entry);
        }
    }

    /// Binds a typedef or alias name; one that names another type already
    /// (a built-in such as `float3`, or an earlier typedef) is an error, as
    /// in C++: uses before and after would mean different types.
    fn define_type(&mut self, node: Node, name: &str, entry: TypeEntry) {
        let earlier = match self.ctx.typedefs.get(name) {
            Some(TypeEntry::Ok(qt)) => Some(qt.ty.clone()),
            _ => names::named_type(name),
        };
        if let (Some(old), TypeEntry::Ok(new)) = (&earlier, &entry) {
            if *old != new.ty {
                self.error(
                    node,
                    "typedef",
                    format!("`{name}` is already a type; redefining it as another is not allowed"),
                );
                return;
            }
        }
        self.ctx.typedefs.insert(name.to_string(), entry);
    }

    fn alias(&mut self, node: Node) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name_node = name;
        let name = syntax::text(name, self.src()).to_string();
        let Some(t) = node.child_by_field_name("type") else {
            return;
        };
        let entry = {
            let mut l = FnLowerer::new(self.ctx);
            match l.type_descriptor(t) {
                Ok(ty) => TypeEntry::Ok(QualType::new(ty)),
                Err(_) => match l.diags.into_iter().next() {
                    Some(d) => TypeEntry::Unsupported {
                        construct: d.construct,
                        message: d.message,
                    },
                    None => TypeEntry::Unsupported {
                        construct: "using".into(),
                        message: "unsupported type alias".into(),
                    },
                },
            }
        };
        self.define_type(name_node, &name, entry);
    }

    fn template(&mut self, node: Node<'t>) {
        let src = self.src();
        if let Some(record) = super::classtpl::class_of(node) {
            self.class_template(node, record);
            return;
        }
        if let Some(name) = super::classtpl::declared_class(node, src) {
            self.ctx
                .class_templates
                .entry(name)
                .or_insert_with(|| Some("it is declared but not defined".into()));
            return;
        }
        let inner = syntax::named_children(node)
            .into_iter()
            .find(|c| matches!(c.kind(), "function_definition" | "declaration"));
        let Some(inner) = inner else { return };
        if func_kind(inner, src).is_none() {
            return;
        }
        if let Some(scope) = out_of_line_scope(inner, src) {
            // A class template's member is made with each instance
            // (`Classes::outside`); a member template of a class is not.
            if !super::classtpl::outside_member_of(node, src)
                .is_some_and(|c| self.ctx.class_templates.contains_key(&c))
            {
                let msg = format!("member templates (here of `{scope}`) are not supported");
                self.error(node, "template", msg);
            }
            return;
        }
        let name = inner
            .child_by_field_name("declarator")
            .and_then(|d| declarator_name(d, src))
            .unwrap_or("")
            .to_string();
        if inner.kind() != "function_definition" {
            return;
        }
        let kind = func_kind(inner, src).unwrap_or(FuncKind::Device);
        if let Some(op) = inner
            .child_by_field_name("declarator")
            .and_then(|d| declared_operator(d, src))
        {
            // Operator templates overload one another: each is filed under
            // its own key (`operator-`, `operator-#1`, ...).
            let key = (0..)
                .map(|i| match i {
                    0 => op.clone(),
                    i => format!("{op}#{i}"),
                })
                .find(|k| !self.templates.contains_key(k))
                .unwrap_or(op);
            self.templates.insert(
                key,
                Template {
                    node,
                    function: inner,
                    kind,
                    member: None,
                    bindings: Vec::new(),
                },
            );
            return;
        }
        if name.is_empty() {
            // `template <> __global__ void k<4>(...)`: a specialization, used
            // for the instance with those arguments.
            let mut d = inner.child_by_field_name("declarator");
            while let Some(n) = d {
                if n.kind() == "template_function" {
                    let base = n
                        .child_by_field_name("name")
                        .map(|c| syntax::text(c, src).to_string());
                    if let (Some(base), Some(args)) = (base, n.child_by_field_name("arguments")) {
                        self.specializations.push(Specialization {
                            template: base,
                            args,
                            function: inner,
                        });
                        return;
                    }
                    break;
                }
                d = n
                    .child_by_field_name("declarator")
                    .or_else(|| syntax::named_children(n).into_iter().next());
            }
            let msg = "this template specialization is not supported".to_string();
            self.error(node, "template specialization", msg);
            return;
        }
        self.templates.insert(
            name,
            Template {
                node,
                function: inner,
                kind,
                member: None,
                bindings: Vec::new(),
            },
        );
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// The names a member typedef or alias declares, with their types.
    fn member_type_alias(&mut self, m: Node) -> LResult<Vec<(String, QualType)>> {
        if m.kind() == "alias_declaration" {
            let name = self.field(m, "name")?;
            let name = self.text(name).to_string();
            let t = self.field(m, "type")?;
            let ty = self.type_descriptor(t)?;
            return Ok(vec![(name, QualType::new(ty))]);
        }
        let specs = self.specs(m)?;
        let base = self.base_type(&specs, m)?;
        let mut cursor = m.walk();
        let decls: Vec<Node> = m
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        let mut out = Vec::new();
        for d in decls {
            let dd = self.declarator(base.clone(), d, ArrayCtx::Const)?;
            match (dd.name, dd.params) {
                (Some(name), None) => out.push((name, dd.qt)),
                _ => return Err(self.error(d, "typedef", "a member typedef must name a type")),
            }
        }
        Ok(out)
    }

    /// `static_assert(cond, "message")`: checked when the condition folds to a
    /// constant (a false one is an error), noted otherwise.
    pub fn static_assert(&mut self, node: Node) -> LResult<()> {
        let cond = self.field(node, "condition")?;
        let e = self.expr(cond)?;
        match self.fold(&e) {
            Some(0) => {
                let message = node
                    .child_by_field_name("message")
                    .map(|m| self.text(m).to_string())
                    .unwrap_or_default();
                Err(self.error(
                    node,
                    "static_assert",
                    format!("static assertion failed {message}")
                        .trim_end()
                        .to_string(),
                ))
            }
            Some(_) => Ok(()),
            None => {
                self.warn(
                    node,
                    "static_assert",
                    "condition is not an integer constant hone can evaluate; not checked",
                );
                Ok(())
            }
        }
    }

    /// `__constant__ T name[N] = {...};` and its kin at file scope.
    fn global_variable(
        &mut self,
        node: Node,
        d: Node,
        name: &str,
        space: GlobalSpace,
    ) -> LResult<GlobalVar> {
        let specs = self.specs(node)?;
        let base = self.base_type(&specs, node)?;
        let (dnode, value) = if d.kind() == "init_declarator" {
            (self.field(d, "declarator")?, d.child_by_field_name("value"))
        } else {
            (d, None)
        };
        let declared = self.declarator(base, dnode, ArrayCtx::Const)?;
        if declared.params.is_some() {
            return Err(self.error(d, "declaration", "expected a variable"));
        }
        let mut qt = declared.qt;
        let is_extern = specs.extern_;
        if space == GlobalSpace::Shared && value.is_some() {
            return Err(self.error(
                d,
                "__shared__",
                "`__shared__` variables cannot have initializers",
            ));
        }
        let init = match value {
            Some(v) => Some(self.initializer(v, &mut qt)?),
            None => None,
        };
        match &qt.ty {
            Type::Array(_, hone_ir::ArrayLen::Unsized)
                if !(is_extern && space == GlobalSpace::Shared) =>
            {
                return Err(self.error(dnode, "array", format!("`{name}` has no length")));
            }
            Type::Void => return Err(self.error(dnode, "declaration", "variable of type void")),
            _ => {}
        }
        if is_extern && space != GlobalSpace::Shared {
            return Err(self.error(
                node,
                "extern",
                format!("`extern` {name}: separate compilation is not supported"),
            ));
        }
        if let Some(i) = &init {
            if let Some(at) = non_constant(i) {
                let node = value.unwrap_or(d);
                return Err(self.error(
                    node,
                    "initializer",
                    format!("initializer of `{name}` is not a constant expression ({at})"),
                ));
            }
        }
        Ok(GlobalVar {
            name: name.to_string(),
            ty: qt.ty,
            space,
            is_const: qt.is_const,
            is_volatile: qt.is_volatile,
            is_extern,
            init,
            span: self.span(declared.node),
        })
    }

    /// Value of `const T name = <constant>;` at file scope, for floating T.
    fn float_constant_declarator(
        &mut self,
        base: QualType,
        d: Node,
    ) -> Option<(f64, hone_ir::Scalar)> {
        if d.kind() != "init_declarator" {
            return None;
        }
        let (dnode, value) = (
            d.child_by_field_name("declarator")?,
            d.child_by_field_name("value")?,
        );
        self.float_constant_value(base, dnode, value)
    }

    /// The value of a floating-point constant declared by `dnode` with the
    /// initializer `value`.
    pub(crate) fn float_constant_value(
        &mut self,
        base: QualType,
        dnode: Node,
        value: Node,
    ) -> Option<(f64, hone_ir::Scalar)> {
        let decl = self.declarator(base, dnode, ArrayCtx::Const).ok()?;
        let s = decl.qt.ty.scalar().filter(|s| s.is_float())?;
        if value.kind() == "initializer_list" || value.kind() == "argument_list" {
            return None;
        }
        let e = self.expr(value).ok()?;
        let v = crate::consteval::eval_float(&e)?;
        Some((
            if s == hone_ir::Scalar::F32 {
                v as f32 as f64
            } else {
                v
            },
            s,
        ))
    }

    fn constant_declarator(&mut self, base: QualType, d: Node) -> Option<(i128, hone_ir::Scalar)> {
        if d.kind() != "init_declarator" {
            return None;
        }
        let (dnode, value) = (
            d.child_by_field_name("declarator")?,
            d.child_by_field_name("value")?,
        );
        self.constant_value(base, dnode, value)
    }

    /// The value of an integral constant declared by `dnode` with the
    /// initializer `value`.
    pub(crate) fn constant_value(
        &mut self,
        base: QualType,
        dnode: Node,
        value: Node,
    ) -> Option<(i128, hone_ir::Scalar)> {
        let decl = self.declarator(base, dnode, ArrayCtx::Const).ok()?;
        let s = decl.qt.ty.scalar().filter(|s| s.is_integer())?;
        if value.kind() == "initializer_list" || value.kind() == "argument_list" {
            return None;
        }
        let e = self.expr(value).ok()?;
        let e = self
            .convert(e, &Type::Scalar(s), value, "initialization")
            .ok()?;
        self.fold(&e).map(|v| (v, s))
    }
}

/// What makes an initializer of a file-scope variable not a constant: the
/// device has no code that runs before a kernel to compute it.
fn non_constant(i: &Init) -> Option<&'static str> {
    match i {
        Init::List(items) => items.iter().find_map(non_constant),
        Init::Expr(e) => {
            let mut found = None;
            hone_ir::visit::visit_expr(e, &mut |x| {
                let what = match &x.kind {
                    ExprKind::Var(_) | ExprKind::Global(_) => Some("a variable"),
                    ExprKind::Call(..) | ExprKind::Intrinsic(..) => Some("a call"),
                    ExprKind::Builtin(_) => Some("a built-in variable"),
                    ExprKind::Assign { .. } | ExprKind::IncDec { .. } => Some("an assignment"),
                    ExprKind::AddrOf(_) | ExprKind::Deref(_) | ExprKind::Index(..) => {
                        Some("an address")
                    }
                    _ => None,
                };
                if found.is_none() {
                    found = what;
                }
            });
            found
        }
    }
}

/// `__align__(n)` or `alignas(n)` in a struct's head.
fn declared_alignment(node: Node, src: &str) -> Option<u64> {
    let text = syntax::text(node, src);
    let head = &text[..text.find('{').unwrap_or(text.len())];
    let at = ["__align__(", "alignas(", "aligned("]
        .iter()
        .find_map(|k| head.find(k).map(|i| i + k.len()))?;
    let rest = &head[at..];
    rest[..rest.find(')')?].trim().parse().ok()
}
