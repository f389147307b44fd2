//! Function templates and their instances.
//!
//! A template is lowered once per argument list it is used with: the
//! instances the launch (the options' requests) or the host code names
//! (`scan<256, float><<<g, b>>>(...)`), and those device code calls, with
//! explicit or deduced arguments. An instance is an ordinary IR function whose
//! name spells its arguments (`scan<256, float>` is `scan_256_float`), so the
//! printer, the emulator and NVRTC see plain C; inside it, type parameters are
//! types and non-type parameters integer constants, so they can size shared
//! arrays and bound loops.

use std::cell::RefCell;
use std::collections::HashMap;

use hone_ir::{FuncId, FuncKind, Scalar, Type};
use tree_sitter::Node;

use super::func::{Entry, FnLowerer, LResult};
use super::{FuncSig, ModuleCtx, PendingFunction, QualType};
use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax;

/// One parameter of a template's parameter list.
#[derive(Clone, Debug)]
pub(crate) enum Param<'t> {
    Type {
        name: String,
        default: Option<Node<'t>>,
    },
    Value {
        name: String,
        decl: Node<'t>,
        default: Option<Node<'t>>,
    },
}

impl Param<'_> {
    fn name(&self) -> &str {
        match self {
            Param::Type { name, .. } | Param::Value { name, .. } => name,
        }
    }
}

/// A template argument, as the instance is made with it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Arg {
    Type(Type),
    Value(i128, Scalar),
    /// A type parameter standing for the cooperative group passed to it.
    Group(super::groups::Group),
}

/// A `template <...>` device or kernel function definition.
pub(crate) struct Template<'t> {
    pub node: Node<'t>,
    /// The function definition inside the template declaration.
    pub function: Node<'t>,
    pub kind: FuncKind,
    /// For a member template, the struct (a class template's instance's,
    /// whose parameters are in `bindings`) whose member each instance is.
    pub member: Option<super::Member>,
    pub bindings: Vec<(String, Entry)>,
}

/// Template arguments deduced from a call, by parameter name.
pub(crate) type Deduced = HashMap<String, Arg>;

/// `template <> __device__ int f<int>(...) {...}`: the instance of `f` for
/// those arguments.
pub(crate) struct Specialization<'t> {
    pub template: String,
    /// The `template_argument_list`.
    pub args: Node<'t>,
    pub function: Node<'t>,
}

pub(crate) struct Instance {
    pub name: String,
    /// The groups its generic `thread_group` parameters stand for.
    pub groups: Vec<super::groups::Group>,
    /// The explicit specialization that is this instance, by index.
    pub specialization: Option<usize>,
    pub template: String,
    pub args: Vec<Arg>,
    /// Given, with the signature's, by [`Templates::file`].
    pub id: FuncId,
    pub sig: FuncSig,
}

/// The templates of a file and the instances made of them so far. Instances
/// are numbered after the file's ordinary functions, in request order.
pub(crate) struct Templates<'t> {
    pub defs: HashMap<String, Template<'t>>,
    pub specializations: Vec<Specialization<'t>>,
    pub instances: RefCell<Vec<Instance>>,
    /// Functions made whole while another was lowered (lambdas), by
    /// instance index: they are numbered with the instances.
    made: RefCell<HashMap<usize, super::func::Lowered>>,
    pub first_id: u32,
}

/// `scan<256, float>` as a C identifier: `scan_256_float`.
/// Template instances one translation unit may make: a template that
/// instantiates itself with ever new arguments stops here, as a C++
/// compiler stops at its instantiation depth.
const MAX_INSTANCES: usize = 1000;

pub(crate) fn mangle(template: &str, args: &[Arg]) -> String {
    let mut s = template.to_string();
    for a in args {
        s.push('_');
        match a {
            Arg::Value(v, Scalar::Bool) => s.push_str(if *v != 0 { "true" } else { "false" }),
            Arg::Value(v, _) if *v < 0 => s.push_str(&format!("m{}", v.unsigned_abs())),
            Arg::Value(v, _) => s.push_str(&v.to_string()),
            // Apart from any type of the program's named `block`.
            Arg::Group(g) => {
                s.push_str("cg_");
                s.push_str(&g.suffix());
            }
            Arg::Type(t) => {
                for c in hone_ir::print::print_type(t).chars() {
                    match c {
                        c if c.is_ascii_alphanumeric() => s.push(c),
                        '*' => s.push('p'),
                        _ => s.push('_'),
                    }
                }
            }
        }
    }
    s
}

impl<'t> Templates<'t> {
    pub fn new(
        defs: HashMap<String, Template<'t>>,
        specializations: Vec<Specialization<'t>>,
        first_id: u32,
    ) -> Self {
        Templates {
            defs,
            specializations,
            instances: RefCell::new(Vec::new()),
            made: RefCell::new(HashMap::new()),
            first_id,
        }
    }

    /// Files `instance` under the next id, which it and its signature take.
    fn file(&self, mut instance: Instance) -> (FuncId, FuncSig) {
        let mut list = self.instances.borrow_mut();
        let id = FuncId(self.first_id + list.len() as u32);
        instance.id = id;
        instance.sig.id = Some(id);
        let sig = instance.sig.clone();
        list.push(instance);
        (id, sig)
    }

    /// Files a function already lowered (a lambda's) under a new id.
    pub fn add_made(
        &self,
        name: String,
        sig: FuncSig,
        lowered: super::func::Lowered,
    ) -> (FuncId, FuncSig) {
        let (id, sig) = self.file(Instance {
            name,
            groups: Vec::new(),
            specialization: None,
            template: String::new(),
            args: Vec::new(),
            id: FuncId(0),
            sig,
        });
        let index = (id.0 - self.first_id) as usize;
        self.made.borrow_mut().insert(index, lowered);
        (id, sig)
    }

    /// The IR name of instance `index`.
    pub fn instance_name(&self, index: usize) -> String {
        self.instances.borrow()[index].name.clone()
    }

    pub fn is_template(&self, name: &str) -> bool {
        self.defs.contains_key(name)
    }

    pub fn count(&self) -> usize {
        self.instances.borrow().len()
    }
}

pub(crate) fn params<'t>(src: &str, node: Node<'t>) -> Result<Vec<Param<'t>>, Node<'t>> {
    let Some(list) = node.child_by_field_name("parameters") else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for p in syntax::named_children(list) {
        let name_of = |n: Node| -> Option<String> {
            let mut cur = n;
            for _ in 0..16 {
                if matches!(cur.kind(), "identifier" | "type_identifier") {
                    return Some(syntax::text(cur, src).to_string());
                }
                cur = cur
                    .child_by_field_name("declarator")
                    .or_else(|| syntax::named_children(cur).into_iter().last())?;
            }
            None
        };
        match p.kind() {
            "type_parameter_declaration" | "optional_type_parameter_declaration" => {
                let name = p
                    .child_by_field_name("name")
                    .map(|n| syntax::text(n, src).to_string())
                    .or_else(|| {
                        syntax::named_children(p)
                            .into_iter()
                            .find(|c| c.kind() == "type_identifier")
                            .map(|n| syntax::text(n, src).to_string())
                    })
                    .ok_or(p)?;
                out.push(Param::Type {
                    name,
                    default: p.child_by_field_name("default_type"),
                });
            }
            "parameter_declaration" | "optional_parameter_declaration" => {
                let d = p.child_by_field_name("declarator").ok_or(p)?;
                out.push(Param::Value {
                    name: name_of(d).ok_or(p)?,
                    decl: p,
                    default: p.child_by_field_name("default_value"),
                });
            }
            _ => return Err(p),
        }
    }
    Ok(out)
}

/// Integer literal or `true`/`false` of a requested argument.
pub(crate) fn literal_arg(text: &str) -> Option<i128> {
    match text {
        "true" => return Some(1),
        "false" => return Some(0),
        _ => {}
    }
    let t = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.trim()),
        None => (false, t),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else {
        t.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// A type named in a request string: a builtin, vector or typedef name, with
/// `const` and trailing `*`s, or an array of one (`unsigned int[32]`, as an
/// array typedef's argument is spelled once resolved).
pub(crate) fn type_arg(ctx: &ModuleCtx, text: &str) -> Option<Type> {
    let text = text.trim();
    if let Some(inner) = text.strip_suffix(']') {
        let open = inner.rfind('[')?;
        let n = inner[open + 1..].trim().parse::<u64>().ok()?;
        let elem = type_arg(ctx, &inner[..open])?;
        return Some(Type::Array(Box::new(elem), hone_ir::ArrayLen::Const(n)));
    }
    let mut t = text;
    let mut pointers = 0;
    while let Some(rest) = t.strip_suffix('*') {
        pointers += 1;
        t = rest.trim_end();
    }
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| *w != "const" && *w != "signed")
        .collect();
    let name = words.join(" ");
    let base = match name.as_str() {
        "unsigned int" | "unsigned" => Type::Scalar(Scalar::U32),
        "unsigned char" => Type::Scalar(Scalar::U8),
        "unsigned short" | "unsigned short int" => Type::Scalar(Scalar::U16),
        "long long" | "long long int" | "long int" => Type::Scalar(Scalar::I64),
        "unsigned long long" | "unsigned long" | "unsigned long long int" => {
            Type::Scalar(Scalar::U64)
        }
        "short int" => Type::Scalar(Scalar::I16),
        "" => return None,
        n => match ctx.typedefs.get(n) {
            Some(super::TypeEntry::Ok(qt)) => qt.ty.clone(),
            _ => super::names::named_type(n)?,
        },
    };
    let mut ty = base;
    for _ in 0..pointers {
        ty = Type::Pointer(Box::new(hone_ir::PointerType {
            pointee: ty,
            pointee_const: false,
            restrict: false,
            pointee_volatile: false,
        }));
    }
    Some(ty)
}

/// Splits `scan<256, float>` into `scan` and its argument texts.
pub(crate) fn split_request(text: &str) -> Option<(String, Vec<String>)> {
    let open = text.find('<')?;
    let close = text.rfind('>')?;
    if close < open {
        return None;
    }
    let name = text[..open].trim().to_string();
    let inner = &text[open + 1..close];
    let mut args = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                args.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner.trim().is_empty() {
        args.push(inner[start..].trim().to_string());
    }
    Some((name, args))
}

/// The normal spelling of a request, as launch files are matched against it.
pub(crate) fn normalize_request(text: &str) -> String {
    match split_request(text) {
        Some((name, args)) => format!("{name}<{}>", args.join(", ")),
        None => text.trim().to_string(),
    }
}

/// Where an argument list comes from: syntax to lower, or a request's text.
pub(crate) enum ArgSource<'n> {
    Nodes(Vec<Node<'n>>),
    Texts(Vec<String>),
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    fn templates(&self) -> Option<&'c Templates<'c>> {
        self.templates
    }

    /// Binds an instance's parameters in the outermost scope; checks and
    /// completes the arguments (defaults) on the way. `at` positions errors.
    fn bind_template_args(
        &mut self,
        template: &str,
        at: Node,
        explicit: ArgSource,
        deduced: &Deduced,
    ) -> LResult<Vec<Arg>> {
        let Some(def) = self.templates().and_then(|t| t.defs.get(template)) else {
            return Err(self.error(at, "template", format!("`{template}` is not a template")));
        };
        let node = def.node;
        self.bind_params(template, node, at, explicit, deduced)
    }

    /// [`Self::bind_template_args`] for the template declared by `node`
    /// (function and class templates alike).
    pub(crate) fn bind_params(
        &mut self,
        template: &str,
        node: Node,
        at: Node,
        explicit: ArgSource,
        deduced: &Deduced,
    ) -> LResult<Vec<Arg>> {
        let ps = match params(self.ctx.src, node) {
            Ok(p) => p,
            Err(bad) => {
                let k = bad.kind().to_string();
                return Err(self.error(
                    bad,
                    "template parameter",
                    format!(
                        "template parameter `{}` ({k}) is not supported",
                        self.text(bad)
                    ),
                ));
            }
        };
        let given = match &explicit {
            ArgSource::Nodes(n) => n.len(),
            ArgSource::Texts(t) => t.len(),
        };
        if given > ps.len() {
            return Err(self.error(
                at,
                "template",
                format!(
                    "`{template}` takes {} template argument(s), {given} given",
                    ps.len()
                ),
            ));
        }
        let mut args = Vec::new();
        for (i, p) in ps.iter().enumerate() {
            // A group: the parameter stands for it (`Entry::Group`).
            let group = match (p, &explicit, deduced.get(p.name())) {
                (Param::Type { .. }, ArgSource::Texts(t), _) if i < t.len() => {
                    super::groups::Group::from_type_text(&t[i])
                }
                (Param::Type { .. }, _, Some(Arg::Group(g))) if i >= given => Some(*g),
                _ => None,
            };
            if let Some(g) = group {
                self.bind(p.name(), Entry::Group(g));
                args.push(Arg::Group(g));
                continue;
            }
            let arg = match p {
                Param::Type { name, default } => {
                    let ty = match &explicit {
                        ArgSource::Nodes(n) if i < n.len() => Some(self.type_descriptor(n[i])?),
                        ArgSource::Texts(t) if i < t.len() => match type_arg(self.ctx, &t[i]) {
                            Some(ty) => Some(ty),
                            None => {
                                return Err(self.error(
                                    at,
                                    "template argument",
                                    format!(
                                    "`{}` is not a type hone knows (argument {} of `{template}`)",
                                    t[i],
                                    i + 1
                                ),
                                ))
                            }
                        },
                        _ => None,
                    };
                    let ty = match (ty, deduced.get(name), default) {
                        (Some(t), _, _) => t,
                        (None, Some(Arg::Type(t)), _) => t.clone(),
                        (None, _, Some(d)) => self.type_descriptor(*d)?,
                        (None, _, None) => {
                            return Err(self.error(
                                at,
                                "template argument",
                                format!(
                                    "template argument `{name}` of `{template}` is neither given nor deducible"
                                ),
                            ))
                        }
                    };
                    self.bind(name, Entry::Type(QualType::new(ty.clone())));
                    Arg::Type(ty)
                }
                Param::Value {
                    name,
                    decl,
                    default,
                } => {
                    let specs = self.specs(*decl)?;
                    let base = self.base_type(&specs, *decl)?;
                    let Some(s) = base
                        .ty
                        .scalar()
                        .filter(|s| s.is_integer() || *s == Scalar::Bool)
                    else {
                        return Err(self.error(
                            *decl,
                            "template parameter",
                            format!(
                                "non-type template parameter `{name}` must be integral or bool"
                            ),
                        ));
                    };
                    let v = match &explicit {
                        ArgSource::Nodes(n) if i < n.len() => {
                            Some(self.const_int(n[i], "template argument")?)
                        }
                        ArgSource::Texts(t) if i < t.len() => match literal_arg(&t[i]) {
                            Some(v) => Some(v),
                            None => {
                                return Err(self.error(
                                    at,
                                    "template argument",
                                    format!(
                                        "`{}` is not an integer (argument {} of `{template}`)",
                                        t[i],
                                        i + 1
                                    ),
                                ))
                            }
                        },
                        _ => None,
                    };
                    let v = match (v, deduced.get(name), default) {
                        (Some(v), _, _) => v,
                        (None, Some(Arg::Value(v, _)), _) => *v,
                        (None, _, Some(d)) => self.const_int(*d, "template argument")?,
                        (None, _, None) => {
                            return Err(self.error(
                                at,
                                "template argument",
                                format!(
                                    "template argument `{name}` of `{template}` is neither given nor deducible"
                                ),
                            ))
                        }
                    };
                    let v = if s == Scalar::Bool {
                        (v != 0) as i128
                    } else {
                        v
                    };
                    self.bind(name, Entry::Const(v, s));
                    Arg::Value(v, s)
                }
            };
            let _ = p.name();
            args.push(arg);
        }
        Ok(args)
    }

    /// The instance of `template` for the given arguments, made (its
    /// signature lowered) on first use; `groups` are what its generic
    /// `thread_group` parameters stand for.
    pub(crate) fn instance(
        &mut self,
        template: &str,
        at: Node,
        explicit: ArgSource,
        deduced: &Deduced,
        groups: &[super::groups::Group],
    ) -> LResult<(FuncId, FuncSig, String)> {
        let Some(ts) = self.templates() else {
            return Err(self.error(at, "template", "templates are not supported here"));
        };
        // The arguments are checked in a lowerer of their own, so that the
        // instance's parameter names do not leak into the caller's scopes.
        let mut sub = FnLowerer::new(self.ctx);
        sub.templates = self.templates;
        // Explicit arguments are lowered in the caller's scope.
        let explicit = match explicit {
            ArgSource::Nodes(nodes) => {
                let mut out = Vec::new();
                for n in nodes {
                    out.push(self.template_arg_text(n)?);
                }
                ArgSource::Texts(out)
            }
            t => t,
        };
        // A member template sees its class's parameters and member types.
        let def = &ts.defs[template];
        for (name, entry) in &def.bindings {
            sub.bind(name, entry.clone());
        }
        let args = match sub.bind_template_args(template, at, explicit, deduced) {
            Ok(a) => a,
            Err(e) => {
                self.diags.extend(sub.diags);
                return Err(e);
            }
        };
        let mut name = mangle(&ir_base(template), &args);
        for g in groups {
            name.push('_');
            name.push_str(&g.suffix());
        }
        if let Some(i) = ts.instances.borrow().iter().find(|i| i.name == name) {
            return Ok((i.id, i.sig.clone(), name));
        }
        if ts.instances.borrow().len() >= MAX_INSTANCES {
            return Err(self.error(
                at,
                "template",
                format!("more than {MAX_INSTANCES} template instances (does a template instantiate itself without end?)"),
            ));
        }
        let specialization = self.specialization_for(template, &name);
        if let Some(m) = &def.member {
            let header = sub.member_header(def.function, &m.st);
            let mh = match header {
                Ok(mh) if !sub.has_errors() => mh,
                _ => {
                    self.diags.extend(sub.diags);
                    return Err(super::func::Abort);
                }
            };
            let mut sig = mh.header.signature(None);
            if m.kind == super::MemberKind::Mutating {
                // The object is passed by its address, as to any member that
                // may change it.
                sig.by_ref[0] = true;
            }
            let (id, sig) = ts.file(Instance {
                name: name.clone(),
                groups: Vec::new(),
                specialization: None,
                template: template.to_string(),
                args,
                id: FuncId(0),
                sig,
            });
            return Ok((id, sig, name));
        }
        let header = match specialization {
            Some(s) => {
                let mut spec = FnLowerer::new(self.ctx);
                spec.templates = self.templates;
                spec.specializing = true;
                let h = spec.function_header(ts.specializations[s].function);
                sub = spec;
                h
            }
            None => {
                sub.group_args = groups.iter().copied().collect();
                sub.function_header(ts.defs[template].function)
            }
        };
        let header = match header {
            Ok(h) if !sub.has_errors() => h,
            _ => {
                self.diags.extend(sub.diags);
                return Err(super::func::Abort);
            }
        };
        let (id, sig) = ts.file(Instance {
            name: name.clone(),
            groups: groups.to_vec(),
            specialization,
            template: template.to_string(),
            args,
            id: FuncId(0),
            sig: header.signature(None),
        });
        Ok((id, sig, name))
    }

    /// The explicit specialization of `template` whose arguments make the
    /// instance `name`.
    fn specialization_for(&mut self, template: &str, name: &str) -> Option<usize> {
        let ts = self.templates()?;
        for (i, s) in ts.specializations.iter().enumerate() {
            if s.template != template {
                continue;
            }
            let mut sub = FnLowerer::new(self.ctx);
            sub.templates = self.templates;
            let texts: Option<Vec<String>> = syntax::named_children(s.args)
                .into_iter()
                .map(|a| sub.template_arg_text(a).ok())
                .collect();
            let Some(texts) = texts else { continue };
            let mut bind = FnLowerer::new(self.ctx);
            bind.templates = self.templates;
            let at = s.args;
            if let Ok(args) =
                bind.bind_template_args(template, at, ArgSource::Texts(texts), &HashMap::new())
            {
                if mangle(template, &args) == name {
                    return Some(i);
                }
            }
        }
        None
    }

    /// An explicit argument written in the caller, as request text: a type's
    /// printed name or an integer's value, so that both reach the instance's
    /// lowerer in one form.
    pub(crate) fn template_arg_text(&mut self, n: Node) -> LResult<String> {
        let as_value = |l: &mut Self, n: Node| -> LResult<String> {
            Ok(l.const_int(n, "template argument")?.to_string())
        };
        if n.kind() == "type_descriptor" {
            // `f<thread_block>(b)`: a group type, unless the program has its own.
            let t = self.text(n).trim();
            if let Some(g) = super::groups::Group::from_type_text(t) {
                let bare = t.rsplit("::").next().unwrap_or(t);
                if !self.ctx.typedefs.contains_key(bare) && self.lookup(bare).is_none() {
                    return Ok(g.type_text());
                }
            }
            // `N` alone parses as a type; it may name a constant.
            let t = self.text(n).trim();
            let is_value = matches!(self.lookup(t), Some(Entry::Const(..)) | Some(Entry::Var(_)))
                || self.ctx.constants.contains_key(t);
            if let Some(Entry::Var(v)) = self.lookup(t).cloned() {
                // `int const N = 128;` in the function: a constant expression.
                if let Some(&c) = self.const_vals.get(&v) {
                    return Ok(c.to_string());
                }
                return Err(self.error(
                    n,
                    "template argument",
                    format!("template argument `{t}` is a variable, not a constant"),
                ));
            }
            if is_value {
                let inner = syntax::named_children(n).into_iter().next().unwrap_or(n);
                let v = match self.lookup(t).cloned() {
                    Some(Entry::Const(v, _)) => v,
                    _ => match self.ctx.constants.get(t) {
                        Some(&(v, _)) => v,
                        None => return as_value(self, inner),
                    },
                };
                return Ok(v.to_string());
            }
            let ty = self.type_descriptor(n)?;
            return Ok(request_type_text(&ty));
        }
        if n.kind() == "identifier" {
            if let Some(Entry::Type(qt)) = self.lookup(self.text(n)).cloned() {
                return Ok(request_type_text(&qt.ty));
            }
        }
        as_value(self, n)
    }

    /// Lowers an instance made by [`Self::instance`]: its parameters bound,
    /// then the template's body as an ordinary function.
    pub(crate) fn lower_instance(
        ctx: &'c ModuleCtx<'a>,
        templates: &'c Templates<'c>,
        index: usize,
    ) -> super::func::LowerResult {
        if let Some(l) = templates.made.borrow_mut().remove(&index) {
            return super::func::LowerResult {
                function: Some(l),
                diagnostics: Vec::new(),
            };
        }
        let (template, args, name, specialization, groups) = {
            let list = templates.instances.borrow();
            let i = &list[index];
            (
                i.template.clone(),
                i.args.clone(),
                i.name.clone(),
                i.specialization,
                i.groups.clone(),
            )
        };
        if let Some(s) = specialization {
            let mut l = FnLowerer::new(ctx);
            l.templates = Some(templates);
            l.specializing = true;
            let p = PendingFunction {
                node: templates.specializations[s].function,
                name: name.clone(),
                member: None,
                bindings: Vec::new(),
            };
            let mut result = FnLowerer::lower_with(l, &p);
            if let Some(f) = &mut result.function {
                f.function.name = name;
            }
            return result;
        }
        let def = &templates.defs[&template];
        let texts = args.iter().map(arg_text).collect();
        let mut l = FnLowerer::new(ctx);
        l.templates = Some(templates);
        l.group_args = groups.into_iter().collect();
        for (name, entry) in &def.bindings {
            l.bind(name, entry.clone());
        }
        let bound = l.bind_template_args(
            &template,
            def.node,
            ArgSource::Texts(texts),
            &HashMap::new(),
        );
        let p = PendingFunction {
            node: def.function,
            name: name.clone(),
            member: def.member.clone(),
            bindings: Vec::new(),
        };
        let mut result = if bound.is_ok() {
            FnLowerer::lower_with(l, &p)
        } else {
            super::func::LowerResult {
                function: None,
                diagnostics: l.diags,
            }
        };
        if let Some(f) = &mut result.function {
            f.function.name = name;
        }
        result
    }

    /// Template arguments deduced from a call's argument types: a parameter
    /// declared `T`, `T*`, `const T*` or `T&` takes its `T` from the argument,
    /// and one declared `S<N, T> &` (`S` a class template) its `N` and `T`
    /// from the arguments of the instance the argument is.
    pub(crate) fn deduce(&mut self, template: &str, arg_types: &[Type]) -> Deduced {
        let mut out = Deduced::new();
        let Some(def) = self.templates().and_then(|t| t.defs.get(template)) else {
            return out;
        };
        let src = self.ctx.src;
        let Some((ps, decls)) = signature_of(src, def) else {
            return out;
        };
        let names: Vec<&str> = ps.iter().map(Param::name).collect();
        for (p, at) in decls.iter().zip(arg_types) {
            let Some(t) = p.child_by_field_name("type") else {
                continue;
            };
            let mut pointers = 0;
            let mut d = p.child_by_field_name("declarator");
            while let Some(dn) = d {
                match dn.kind() {
                    "pointer_declarator" => pointers += 1,
                    "reference_declarator" | "abstract_reference_declarator" => {}
                    "abstract_pointer_declarator" => pointers += 1,
                    _ => break,
                }
                d = dn
                    .child_by_field_name("declarator")
                    .or_else(|| syntax::named_children(dn).into_iter().last());
            }
            let mut ty = at.clone();
            if let Type::Array(e, _) = ty {
                ty = Type::Pointer(Box::new(hone_ir::PointerType {
                    pointee: *e,
                    pointee_const: false,
                    restrict: false,
                    pointee_volatile: false,
                }));
            }
            let mut ok = true;
            for _ in 0..pointers {
                match ty {
                    Type::Pointer(p) => ty = p.pointee,
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            if t.kind() == "template_type" {
                let _ = self.deduce_from_instance(t, &ty, &def.bindings, &names, &mut out);
                continue;
            }
            let tname = syntax::text(t, src).trim();
            if names.contains(&tname) && !out.contains_key(tname) {
                out.insert(tname.to_string(), Arg::Type(ty));
            }
        }
        out
    }

    /// The groups a call passes (`passed`, by argument) bound to the type
    /// parameters their parameters are declared with, in `deduced`; returns
    /// the groups passed to other (`thread_group`) parameters.
    pub(crate) fn deduce_groups(
        &mut self,
        template: &str,
        passed: &[Option<super::groups::Group>],
        deduced: &mut Deduced,
    ) -> Vec<super::groups::Group> {
        let all: Vec<_> = passed.iter().flatten().copied().collect();
        let Some(def) = self.templates().and_then(|t| t.defs.get(template)) else {
            return all;
        };
        let src = self.ctx.src;
        let Some((ps, decls)) = signature_of(src, def) else {
            return all;
        };
        let mut generic = Vec::new();
        for (i, g) in passed.iter().enumerate() {
            let Some(g) = g else { continue };
            let tname = decls
                .get(i)
                .and_then(|d| d.child_by_field_name("type"))
                .map(|t| syntax::text(t, src).trim());
            match tname {
                Some(t)
                    if ps
                        .iter()
                        .any(|p| matches!(p, Param::Type { name, .. } if name == t)) =>
                {
                    deduced.insert(t.to_string(), Arg::Group(*g));
                }
                _ => generic.push(*g),
            }
        }
        generic
    }

    /// `S<N, T>` against an argument of type `ty`: when `ty` is an instance
    /// of `S`, each argument written as a bare parameter name of `names`
    /// takes the instance's argument in its place.
    /// Returns whether `ty` is an instance of `S`.
    fn deduce_from_instance(
        &mut self,
        t: Node,
        ty: &Type,
        bindings: &[(String, Entry)],
        names: &[&str],
        out: &mut Deduced,
    ) -> bool {
        let Type::Struct(st) = ty else { return false };
        let Some((made_of, args)) = self.ctx.instance_args.get(&st.name) else {
            return false;
        };
        let src = self.ctx.src;
        let Some(written) = t.child_by_field_name("name") else {
            return false;
        };
        let written = syntax::text(written, src).trim();
        // Inside a class, a member class template's short name is bound to
        // the key it is filed under.
        let key = bindings
            .iter()
            .rev()
            .find(|(n, _)| n == written)
            .map(|(_, e)| e)
            .or_else(|| self.lookup(written))
            .and_then(|e| match e {
                Entry::ClassTemplate(k) => Some(k.clone()),
                _ => None,
            })
            .unwrap_or_else(|| written.to_string());
        if &key != made_of {
            return false;
        }
        let arg_nodes = t
            .child_by_field_name("arguments")
            .map(syntax::named_children)
            .unwrap_or_default();
        let mut found = Deduced::new();
        for (a, value) in arg_nodes.iter().zip(args) {
            let text = syntax::text(*a, src).trim();
            if names.contains(&text) {
                // `S<T, T>` deduces one `T`: the instance's two must agree.
                match found.get(text).or_else(|| out.get(text)) {
                    Some(seen) if seen != value => return false,
                    Some(_) => {}
                    None => {
                        found.insert(text.to_string(), value.clone());
                    }
                }
            } else if let (Some(v), Arg::Value(w, _)) = (literal_arg(text), value) {
                // `S<4, T>` is not an instance of `S<8, float>`.
                if v != *w {
                    return false;
                }
            }
        }
        out.extend(found);
        true
    }
}

/// The identifier an instance's name starts with: the template's name, or
/// for an operator template (`operator-#1`) the operator's word
/// (`operator_sub1`), which C++ accepts as a function name.
fn ir_base(key: &str) -> String {
    let (name, overload) = match key.split_once('#') {
        Some((n, i)) => (n, i),
        None => (key, ""),
    };
    if name.starts_with("operator") {
        format!("{}{overload}", super::members::operator_ident(name))
    } else {
        key.to_string()
    }
}

/// The operator templates filed for `operator-` (its overloads included).
pub(crate) fn operator_templates(ts: &Templates, op: &str) -> Vec<String> {
    let mut keys: Vec<String> = ts
        .defs
        .keys()
        .filter(|k| *k == op || k.split_once('#').is_some_and(|(n, _)| n == op))
        .cloned()
        .collect();
    keys.sort();
    keys
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// Whether a call of the operator template `key` with arguments of
    /// `types` deduces or defaults every template parameter and takes as
    /// many arguments.
    pub(crate) fn operator_template_fits(&mut self, key: &str, types: &[Type]) -> Option<Deduced> {
        let def = self.templates()?.defs.get(key)?;
        let (ps, decls) = signature_of(self.ctx.src, def)?;
        if decls.len() != types.len() {
            return None;
        }
        let deduced = self.deduce(key, types);
        // An operand given for `S<T> &` must be an instance of `S`.
        let bindings = def.bindings.clone();
        for (d, ty) in decls.iter().zip(types) {
            let Some(t) = d
                .child_by_field_name("type")
                .filter(|t| t.kind() == "template_type")
            else {
                continue;
            };
            let ty = match ty {
                Type::Pointer(p) => &p.pointee,
                t => t,
            };
            if !self.deduce_from_instance(t, ty, &bindings, &[], &mut Deduced::new()) {
                return None;
            }
        }
        let complete = ps.iter().all(|p| match p {
            Param::Type { name, default } => deduced.contains_key(name) || default.is_some(),
            Param::Value { name, default, .. } => deduced.contains_key(name) || default.is_some(),
        });
        complete.then_some(deduced)
    }
}

/// A template's parameters and its function's parameter declarations.
fn signature_of<'t>(src: &str, def: &Template<'t>) -> Option<(Vec<Param<'t>>, Vec<Node<'t>>)> {
    let ps = params(src, def.node).ok()?;
    let list = def
        .function
        .child_by_field_name("declarator")
        .and_then(function_params)?;
    let decls = syntax::named_children(list)
        .into_iter()
        .filter(|p| p.kind() == "parameter_declaration")
        .collect();
    Some((ps, decls))
}

fn function_params(d: Node) -> Option<Node> {
    let mut cur = d;
    for _ in 0..32 {
        if cur.kind() == "function_declarator" {
            return cur.child_by_field_name("parameters");
        }
        cur = cur
            .child_by_field_name("declarator")
            .or_else(|| syntax::named_children(cur).into_iter().next())?;
    }
    None
}

/// A type as request text that [`type_arg`] reads back.
fn request_type_text(ty: &Type) -> String {
    match ty {
        Type::Pointer(p) => format!("{}*", request_type_text(&p.pointee)),
        t => hone_ir::print::print_type(t),
    }
}

pub(crate) fn arg_text(a: &Arg) -> String {
    match a {
        Arg::Type(t) => request_type_text(t),
        Arg::Value(v, _) => v.to_string(),
        Arg::Group(g) => g.type_text(),
    }
}

/// Instances requested by name (a launch file's `"kernel": "scan<256, float>"`)
/// and by the host code (`scan<256, float><<<...>>>`); kernels made no instance
/// of are reported. Returns each request's normal spelling and the instance.
pub(crate) fn request_instances<'c, 'a>(
    ctx: &'c ModuleCtx<'a>,
    templates: &'c Templates<'c>,
    root: Node,
    requests: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    let mut named = Vec::new();
    // Templates whose requested instance failed: their errors say why, so
    // they are not also reported as having no instance.
    let mut failed: Vec<String> = Vec::new();
    for r in requests {
        let Some((name, args)) = split_request(r) else {
            continue;
        };
        let Some(def) = templates.defs.get(&name) else {
            continue;
        };
        let mut l = FnLowerer::new(ctx);
        l.templates = Some(templates);
        match l.instance(
            &name,
            def.node,
            ArgSource::Texts(args),
            &HashMap::new(),
            &[],
        ) {
            Ok((_, _, inst)) => named.push((normalize_request(r), inst)),
            Err(_) => diags.extend(
                {
                    failed.push(name.clone());
                    l.diags
                }
                .into_iter()
                .map(|mut d| {
                    d.message = format!("instance `{}`: {}", normalize_request(r), d.message);
                    d
                }),
            ),
        }
    }
    // Host code: every `kernel<args>` whose arguments are constant where they
    // stand. Arguments that depend on the host function's own template
    // parameters cannot be known here; such kernels need a named instance.
    let mut stack = vec![root];
    let mut seen = 0usize;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 2_000_000 {
            break;
        }
        if n.kind() == "template_function" {
            let name = n
                .child_by_field_name("name")
                .map(|c| syntax::text(c, ctx.src))
                .unwrap_or("");
            let declares = n
                .parent()
                .is_some_and(|p| p.kind() == "function_declarator");
            if let Some(def) = templates.defs.get(name).filter(|_| !declares) {
                if def.kind == FuncKind::Global && !inside(n, def.node) {
                    let args = n
                        .child_by_field_name("arguments")
                        .map(syntax::named_children)
                        .unwrap_or_default();
                    let mut l = FnLowerer::new(ctx);
                    l.templates = Some(templates);
                    if let Ok((_, _, inst)) =
                        l.instance(name, n, ArgSource::Nodes(args), &HashMap::new(), &[])
                    {
                        named.push((normalize_request(syntax::text(n, ctx.src)), inst));
                    }
                }
            }
            continue;
        }
        let mut cursor = n.walk();
        let children: Vec<Node> = n.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    // Every instance also answers to its full spelling, defaults written out.
    for i in templates.instances.borrow().iter() {
        let args: Vec<String> = i.args.iter().map(arg_text).collect();
        named.push((
            format!("{}<{}>", i.template, args.join(", ")),
            i.name.clone(),
        ));
    }
    named.sort();
    named.dedup();
    for (name, def) in &templates.defs {
        if def.kind != FuncKind::Global {
            continue;
        }
        if templates
            .instances
            .borrow()
            .iter()
            .any(|i| &i.template == name)
        {
            continue;
        }
        if failed.contains(name) {
            continue;
        }
        if let Err(bad) = params(ctx.src, def.node) {
            diags.push(ctx.diagnostic(
                bad,
                Severity::Error,
                "template parameter",
                format!(
                    "template parameter `{}` of `{name}` is not supported (type and integral parameters are)",
                    syntax::text(bad, ctx.src)
                ),
            ));
            continue;
        }
        diags.push(ctx.diagnostic(
            def.node,
            Severity::Error,
            "template",
            format!(
                "template kernel `{name}` has no instance: the host code launches none with constant arguments; name one in the launch file (\"kernel\": \"{name}<...>\")"
            ),
        ));
    }
    named
}

fn inside(n: Node, outer: Node) -> bool {
    n.start_byte() >= outer.start_byte() && n.end_byte() <= outer.end_byte()
}
