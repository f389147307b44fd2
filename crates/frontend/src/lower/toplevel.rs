//! Pass 1: file-scope items in source order.

use hone_ir::{FuncId, FuncKind, Init, Type};
use tree_sitter::Node;

use std::collections::HashMap;

use super::func::FnLowerer;
use super::template::{Specialization, Template};
use super::types::ArrayCtx;
use super::{FuncSig, ModuleCtx, PendingFunction, QualType, TypeEntry};
use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax;

struct Collector<'c, 'a, 't> {
    ctx: &'c mut ModuleCtx<'a>,
    diags: &'c mut Vec<Diagnostic>,
    pending: Vec<PendingFunction<'t>>,
    templates: HashMap<String, Template<'t>>,
    specializations: Vec<Specialization<'t>>,
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
    };
    c.items(root, 0);
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

/// Name declared by a declarator.
fn declarator_name<'s>(d: Node, src: &'s str) -> Option<&'s str> {
    let mut cur = d;
    for _ in 0..64 {
        match cur.kind() {
            "identifier" | "field_identifier" | "type_identifier" => {
                return Some(syntax::text(cur, src))
            }
            "qualified_identifier" | "template_function" | "operator_name" | "destructor_name" => {
                return None
            }
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
                "struct_specifier" | "class_specifier" | "union_specifier" => self.record(item),
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
        }
    }

    fn function(&mut self, node: Node<'t>) {
        let src = self.src();
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
            for e in syntax::syntax_errors(node, 20) {
                let msg = if e.is_missing() {
                    format!("syntax error: missing `{}`", e.kind())
                } else {
                    let t: String = syntax::text(e, src).chars().take(40).collect();
                    format!("syntax error near `{}`", t.trim())
                };
                self.error(e, "syntax error", msg);
            }
            self.ctx.unlowerable.insert(name, "syntax error".into());
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
        if self
            .ctx
            .functions
            .get(&h.name)
            .is_some_and(|s| s.id.is_some())
        {
            let msg = format!(
                "`{}` is defined twice; overloading is not supported",
                h.name
            );
            self.error(node, "overload", msg);
            return;
        }
        let id = FuncId(self.pending.len() as u32);
        self.ctx.functions.insert(
            h.name.clone(),
            FuncSig {
                id: Some(id),
                kind: h.kind,
                ret: h.ret,
                params: h.params.into_iter().map(|p| p.1.ty).collect(),
            },
        );
        self.pending.push(PendingFunction { node, name: h.name });
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
                    "struct_specifier" | "class_specifier" | "union_specifier" => self.record(t),
                    _ => {}
                }
            }
            return;
        }
        if let Some(t) = node.child_by_field_name("type") {
            match t.kind() {
                "enum_specifier" => self.enumerators(t),
                "struct_specifier" | "class_specifier" | "union_specifier" => self.record(t),
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
        if self.ctx.functions.contains_key(&name) || node.has_error() {
            return;
        }
        let header = {
            let mut l = FnLowerer::new(self.ctx);
            l.function_header(node).ok().filter(|_| !l.has_errors())
        };
        match header {
            Some(h) => {
                self.ctx.functions.insert(
                    h.name,
                    FuncSig {
                        id: None,
                        kind: h.kind,
                        ret: h.ret,
                        params: h.params.into_iter().map(|p| p.1.ty).collect(),
                    },
                );
            }
            None => {
                self.ctx
                    .unlowerable
                    .insert(name, "its signature is not supported".into());
            }
        }
    }

    /// A file-scope variable: an integral constant device code can use, or a
    /// variable it cannot.
    fn variable(&mut self, node: Node, d: Node, name: String) {
        let (value, description) = {
            let mut l = FnLowerer::new(self.ctx);
            let specs = l.specs(node).ok();
            let description = match &specs {
                Some(s) if s.constant => "__constant__ variable",
                Some(s) if s.shared => "__shared__ variable",
                Some(s) if s.managed => "__managed__ variable",
                Some(s) if s.device => "__device__ variable",
                _ => "host variable",
            };
            let mut value = None;
            if let Some(s) = specs.filter(|s| s.is_const && !s.device && !s.constant && !s.shared) {
                if let Ok(base) = l.base_type(&s, node) {
                    value = l.constant_declarator(base, d);
                }
            }
            (value, description)
        };
        match value {
            Some(v) => {
                self.ctx.constants.insert(name, v);
            }
            None => {
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

    fn enumerators(&mut self, e: Node) {
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
                    let mut l = FnLowerer::new(self.ctx);
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
            self.ctx
                .constants
                .insert(name, (next, hone_ir::Scalar::I32));
            next += 1;
        }
    }

    /// A struct, union or class name: C++ lets it be used without the keyword.
    fn record(&mut self, node: Node) {
        // Device code in a class body is a member function: report it, since
        // it would otherwise vanish without a word.
        if let Some(body) = node.child_by_field_name("body") {
            for member in syntax::named_children(body) {
                let member = if member.kind() == "template_declaration" {
                    match syntax::named_children(member)
                        .into_iter()
                        .find(|c| c.kind() == "function_definition")
                    {
                        Some(f) => f,
                        None => continue,
                    }
                } else {
                    member
                };
                if member.kind() == "function_definition" && func_kind(member, self.src()).is_some()
                {
                    let name = member
                        .child_by_field_name("declarator")
                        .and_then(|d| declarator_name(d, self.src()))
                        .unwrap_or("")
                        .to_string();
                    let msg = format!(
                        "member function `{name}` is not supported: classes are not supported"
                    );
                    self.error(member, "class", msg);
                }
            }
        }
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = syntax::text(name, self.src()).to_string();
        self.ctx
            .typedefs
            .entry(name)
            .or_insert(TypeEntry::Unsupported {
                construct: "struct".into(),
                message: "structs, unions and classes are not supported".into(),
            });
    }

    fn typedef(&mut self, node: Node) {
        let src = self.src();
        let mut cursor = node.walk();
        let decls: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
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
            self.ctx.typedefs.insert(name.to_string(), entry);
        }
    }

    fn alias(&mut self, node: Node) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
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
        self.ctx.typedefs.insert(name, entry);
    }

    fn template(&mut self, node: Node<'t>) {
        let src = self.src();
        let inner = syntax::named_children(node)
            .into_iter()
            .find(|c| matches!(c.kind(), "function_definition" | "declaration"));
        let Some(inner) = inner else { return };
        if func_kind(inner, src).is_none() {
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
            },
        );
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// Value of `const T name = <constant>;` at file scope, for integral T.
    fn constant_declarator(&mut self, base: QualType, d: Node) -> Option<(i128, hone_ir::Scalar)> {
        let (dnode, value) = if d.kind() == "init_declarator" {
            (
                d.child_by_field_name("declarator")?,
                d.child_by_field_name("value")?,
            )
        } else {
            return None;
        };
        let decl = self.declarator(base, dnode, ArrayCtx::Const).ok()?;
        let s = decl.qt.ty.scalar().filter(|s| s.is_integer())?;
        if value.kind() == "initializer_list" || value.kind() == "argument_list" {
            return None;
        }
        let e = self.expr(value).ok()?;
        let init = Init::Expr(
            self.convert(e, &Type::Scalar(s), value, "initialization")
                .ok()?,
        );
        let Init::Expr(e) = init else { return None };
        self.fold(&e).map(|v| (v, s))
    }
}
