//! Class templates and their instances.
//!
//! A class template is made into a struct once per argument list it is used
//! with (`SharedMemory<float>` is the struct `SharedMemory_float`): its
//! fields and member functions are lowered as an ordinary struct's, with the
//! template's type parameters bound as types and its non-type parameters as
//! integer constants. An explicit specialization (`template <> struct
//! SharedMemory<double> {...}`) is the instance for its arguments.
//!
//! Structs are made in pass 1, where their member functions are registered;
//! a use found later (in a function template's instance, whose arguments are
//! known only in pass 2) asks for the instance, and the file is lowered again
//! with it made where its template is defined.

use std::collections::HashMap;

use hone_ir::Type;
use tree_sitter::Node;

use super::func::{FnLowerer, LResult};
use super::template::{literal_arg, mangle, split_request, type_arg, ArgSource};
use super::toplevel::Collector;
use super::TypeEntry;
use crate::diagnostic::Severity;
use crate::syntax;

/// Rounds of lowering at most: each makes the instances the previous one
/// found used, so this bounds how deeply instances may use other instances.
pub(crate) const MAX_ROUNDS: usize = 8;

/// Instances one file may make: a template that instantiates itself with
/// ever new arguments stops here.
const MAX_CLASS_INSTANCES: usize = 500;

/// `Name<a, b>`: how an instance is asked for and recorded.
pub(crate) fn request_key(name: &str, args: &[String]) -> String {
    format!("{name}<{}>", args.join(", "))
}

/// The class templates pass 1 has met and what remains to be made.
#[derive(Default)]
pub(crate) struct Classes<'t> {
    /// Each template's `template_declaration`, by name.
    pub defs: HashMap<String, Node<'t>>,
    /// Explicit specializations: template name, argument list, struct.
    pub explicit: Vec<(String, Node<'t>, Node<'t>)>,
    /// Partial specializations, by template name.
    pub partial: HashMap<String, Node<'t>>,
    /// Member functions defined outside their class template
    /// (`template <class T> T S<T>::f() {...}`), by template name: made
    /// with each instance.
    pub outside: HashMap<String, Vec<Node<'t>>>,
    /// Requests not yet made (their template or argument types are defined
    /// further on).
    pub wanted: Vec<String>,
    /// For a class template declared inside a class, that class's
    /// parameters and member types, by the template's key.
    pub outer: HashMap<String, Vec<(String, super::func::Entry)>>,
    made: usize,
}

/// The struct or class a `template_declaration` declares, if it declares one
/// with a body.
pub(crate) fn class_of(node: Node) -> Option<Node> {
    syntax::named_children(node)
        .into_iter()
        .filter_map(record_of)
        .find(|r| r.child_by_field_name("body").is_some())
}

/// The struct or class specifier a child of a `template_declaration` is:
/// itself, or the type of a declaration that declares nothing else.
fn record_of(c: Node) -> Option<Node> {
    match c.kind() {
        "struct_specifier" | "class_specifier" => Some(c),
        "declaration" => c
            .child_by_field_name("type")
            .filter(|t| matches!(t.kind(), "struct_specifier" | "class_specifier"))
            .filter(|_| c.child_by_field_name("declarator").is_none()),
        _ => None,
    }
}

/// The name of the class template a `template <...> struct S;` declares
/// without defining it.
pub(crate) fn declared_class(node: Node, src: &str) -> Option<String> {
    syntax::named_children(node).into_iter().find_map(|c| {
        let record = record_of(c)?;
        if record.child_by_field_name("body").is_some() {
            return None;
        }
        let name = record.child_by_field_name("name")?;
        (name.kind() == "type_identifier").then(|| syntax::text(name, src).to_string())
    })
}

/// The class template whose member a `template <...>` function definition
/// defines outside the class (`S` of `template <class T> T S<T>::f()`).
pub(crate) fn outside_member_of(node: Node, src: &str) -> Option<String> {
    let f = syntax::named_children(node)
        .into_iter()
        .find(|c| c.kind() == "function_definition")?;
    let scope = super::toplevel::out_of_line_scope(f, src)?;
    let (name, _) = scope.split_once('<')?;
    Some(name.trim().to_string())
}

/// Whether a template's parameter list is empty (`template <>`).
fn is_explicit(node: Node) -> bool {
    node.child_by_field_name("parameters")
        .is_none_or(|p| syntax::named_children(p).is_empty())
}

impl<'t> Classes<'t> {
    /// Records the file's explicit specializations ahead of pass 1: they
    /// follow their primary template, where its instances are made.
    pub fn find_specializations(&mut self, parent: Node<'t>, src: &str, depth: u32) {
        if depth > 32 {
            return;
        }
        for item in syntax::named_children(parent) {
            match item.kind() {
                "template_declaration" => {
                    if let Some(class) = outside_member_of(item, src) {
                        self.outside.entry(class).or_default().push(item);
                        continue;
                    }
                    let Some(record) = class_of(item) else {
                        continue;
                    };
                    let Some(name) = record
                        .child_by_field_name("name")
                        .filter(|n| n.kind() == "template_type")
                    else {
                        continue;
                    };
                    let (Some(base), Some(args)) = (
                        name.child_by_field_name("name"),
                        name.child_by_field_name("arguments"),
                    ) else {
                        continue;
                    };
                    let base = syntax::text(base, src).to_string();
                    if is_explicit(item) {
                        self.explicit.push((base, args, record));
                    } else {
                        self.partial.entry(base).or_insert(item);
                    }
                }
                "linkage_specification" | "namespace_definition" => {
                    if let Some(body) = item.child_by_field_name("body") {
                        self.find_specializations(body, src, depth + 1);
                    }
                }
                "declaration_list" => self.find_specializations(item, src, depth + 1),
                _ => {}
            }
        }
    }
}

/// Why a request was not made now.
enum Unmade {
    /// Its arguments name types not defined yet.
    Later,
    Failed(String),
}

impl<'c, 'a, 't> Collector<'c, 'a, 't> {
    /// A `template <...> struct Name {...}`: its instances are made on use.
    pub fn class_template(&mut self, node: Node<'t>, record: Node<'t>) {
        let src = self.ctx.src;
        let Some(name) = record.child_by_field_name("name") else {
            let d = self.ctx.diagnostic(
                node,
                Severity::Error,
                "class template",
                "a class template needs a name".into(),
            );
            self.diags.push(d);
            return;
        };
        if name.kind() == "template_type" {
            // A specialization, found ahead by `find_specializations`.
            return;
        }
        let name = syntax::text(name, src).to_string();
        self.class_template_as(node, &name);
    }

    /// Files the class template `node` (declaring `record`) as `name`.
    pub fn class_template_as(&mut self, node: Node<'t>, name: &str) {
        let src = self.ctx.src;
        let name = name.to_string();
        let unsupported = super::template::params(src, node).err().map(|bad| {
            format!(
                "its template parameter `{}` ({}) is not supported (type and integral parameters are)",
                syntax::text(bad, src),
                bad.kind()
            )
        });
        self.ctx.class_templates.insert(name.clone(), unsupported);
        self.classes.defs.insert(name, node);
    }

    /// Makes the instances asked for whose template is known.
    pub fn make_wanted(&mut self) {
        let wanted = std::mem::take(&mut self.classes.wanted);
        for key in wanted {
            let Some((name, texts)) = split_request(&key) else {
                continue;
            };
            if !self.classes.defs.contains_key(&name) {
                self.classes.wanted.push(key);
                continue;
            }
            match self.instantiate(&name, texts) {
                Ok(made) => {
                    self.ctx.class_instances.insert(key, Ok(made));
                }
                Err(Unmade::Later) => self.classes.wanted.push(key),
                Err(Unmade::Failed(why)) => {
                    self.ctx.class_instances.insert(key, Err(why));
                }
            }
        }
    }

    /// Requests still not made at the end of the file: their uses say why.
    pub fn unmade_instances(&mut self) {
        for key in std::mem::take(&mut self.classes.wanted) {
            let why = match split_request(&key) {
                Some((name, _)) if self.classes.defs.contains_key(&name) => {
                    "an argument names a type hone does not know".to_string()
                }
                _ => "its template is not defined".to_string(),
            };
            self.ctx.class_instances.insert(key, Err(why));
        }
    }

    fn instantiate(&mut self, name: &str, texts: Vec<String>) -> Result<String, Unmade> {
        if texts
            .iter()
            .any(|t| literal_arg(t).is_none() && type_arg(self.ctx, t).is_none())
        {
            return Err(Unmade::Later);
        }
        let def = self.classes.defs[name];
        let Some(primary) = class_of(def) else {
            return Err(Unmade::Failed("the template declares no struct".into()));
        };
        let outer = self.classes.outer.get(name).cloned().unwrap_or_default();
        let (bound, diags) = {
            let mut l = FnLowerer::new(self.ctx);
            let r = l.bind_params(name, def, def, ArgSource::Texts(texts), &HashMap::new());
            let own: Vec<_> = l.scopes[0]
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            // The enclosing class's names first, so that its own shadow them.
            let mut bindings = outer;
            bindings.extend(own);
            (r.map(|args| (args, bindings)), l.diags)
        };
        let Ok((args, bindings)) = bound else {
            let why = diags
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_else(|| "its arguments do not fit its parameters".into());
            self.diags.extend(diags);
            return Err(Unmade::Failed(why));
        };
        let made = mangle(name, &args);
        if let Some(TypeEntry::Ok(_)) = self.ctx.typedefs.get(&made) {
            return Ok(made);
        }
        self.ctx
            .instance_args
            .insert(made.clone(), (name.to_string(), args.clone()));
        if self.classes.made >= MAX_CLASS_INSTANCES {
            return Err(Unmade::Failed(format!(
                "more than {MAX_CLASS_INSTANCES} class template instances (does a template instantiate itself without end?)"
            )));
        }
        self.classes.made += 1;
        let (record, bindings) = match self.explicit_for(name, def, &made) {
            Some(s) => (s, Vec::new()),
            None => {
                if let Some(&p) = self.classes.partial.get(name) {
                    let d = self.ctx.diagnostic(
                        p,
                        Severity::Error,
                        "partial specialization",
                        format!(
                            "partial specializations of class templates are not supported (`{name}`, used as `{}`)",
                            made
                        ),
                    );
                    self.diags.push(d);
                    return Err(Unmade::Failed(format!(
                        "`{name}` has a partial specialization, which hone does not support"
                    )));
                }
                (primary, bindings)
            }
        };
        // Uses inside the definition (spelled as the request) are reported.
        let own = request_key(
            name,
            &args
                .iter()
                .map(super::template::arg_text)
                .collect::<Vec<_>>(),
        );
        self.ctx.class_instances.insert(
            own.clone(),
            Err(
                "it is used inside its own definition (self-referential structs are not supported)"
                    .into(),
            ),
        );
        let saved = std::mem::replace(&mut self.bindings, bindings);
        let st = self.define_record_as(record, None, Some(&made));
        self.bindings = saved;
        let result = match st {
            Some(_) => Ok(made),
            None => Err(format!(
                "its definition as `{made}` could not be lowered (see the errors in it)"
            )),
        };
        self.ctx.class_instances.insert(own, result.clone());
        // Its members defined outside it may name the instance.
        if let (Some(st), true) = (&st, record == primary) {
            self.outside_members(name, &args, st);
        }
        result.map_err(Unmade::Failed)
    }

    /// The members of `name` defined outside it, made for the instance
    /// `st` of arguments `args`: each definition's own parameter names are
    /// bound to the arguments in order.
    fn outside_members(
        &mut self,
        name: &str,
        args: &[super::template::Arg],
        st: &std::sync::Arc<hone_ir::StructType>,
    ) {
        let defs = self.classes.outside.get(name).cloned().unwrap_or_default();
        let texts: Vec<String> = args.iter().map(super::template::arg_text).collect();
        for def in defs {
            let Some(f) = syntax::named_children(def)
                .into_iter()
                .find(|c| c.kind() == "function_definition")
            else {
                continue;
            };
            let (bound, diags) = {
                let mut l = FnLowerer::new(self.ctx);
                let r = l.bind_params(
                    name,
                    def,
                    def,
                    ArgSource::Texts(texts.clone()),
                    &HashMap::new(),
                );
                let bindings: Vec<_> = l.scopes[0]
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                (r.map(|_| bindings), l.diags)
            };
            let Ok(mut bindings) = bound else {
                self.diags.extend(diags);
                continue;
            };
            // The template's name inside its member means the instance.
            bindings.push((
                name.to_string(),
                super::func::Entry::Type(super::QualType::new(Type::Struct(st.clone()))),
            ));
            let saved = std::mem::replace(&mut self.bindings, bindings);
            self.member_function(f, st);
            self.bindings = saved;
        }
    }

    /// The explicit specialization of `name` that is the instance `made`.
    fn explicit_for(&mut self, name: &str, def: Node<'t>, made: &str) -> Option<Node<'t>> {
        let candidates: Vec<(Node<'t>, Node<'t>)> = self
            .classes
            .explicit
            .iter()
            .filter(|(t, _, _)| t == name)
            .map(|(_, a, r)| (*a, *r))
            .collect();
        for (args, record) in candidates {
            let mut l = FnLowerer::new(self.ctx);
            let texts: Option<Vec<String>> = syntax::named_children(args)
                .into_iter()
                .map(|a| l.template_arg_text(a).ok())
                .collect();
            let Some(texts) = texts else { continue };
            let mut b = FnLowerer::new(self.ctx);
            if let Ok(a) = b.bind_params(name, def, args, ArgSource::Texts(texts), &HashMap::new())
            {
                if mangle(name, &a) == made {
                    return Some(record);
                }
            }
        }
        None
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// The struct a class template's instance (`SharedMemory<T>` as a
    /// `template_type`, or as the `template_function` of `SharedMemory<T>()`)
    /// is; `None` when `n` names no class template.
    pub fn class_instance_type(&mut self, n: Node) -> LResult<Option<Type>> {
        let Some(name) = n.child_by_field_name("name") else {
            return Ok(None);
        };
        let mut name = self.text(name).to_string();
        // A member class template, by its short name inside its class.
        if let Some(super::func::Entry::ClassTemplate(key)) = self.lookup(&name) {
            name = key.clone();
        }
        let Some(unsupported) = self.ctx.class_templates.get(&name) else {
            return Ok(None);
        };
        if let Some(why) = unsupported.clone() {
            return Err(self.error(
                n,
                "class template",
                format!("class template `{name}` cannot be used: {why}"),
            ));
        }
        let arg_nodes = n
            .child_by_field_name("arguments")
            .map(syntax::named_children)
            .unwrap_or_default();
        let mut texts = Vec::new();
        for a in arg_nodes {
            texts.push(self.template_arg_text(a)?);
        }
        let key = request_key(&name, &texts);
        match self.ctx.class_instances.get(&key) {
            Some(Ok(made)) => match self.ctx.typedefs.get(made) {
                Some(TypeEntry::Ok(qt)) => Ok(Some(qt.ty.clone())),
                Some(TypeEntry::Unsupported { .. }) => Err(self.error(
                    n,
                    "class template",
                    format!("`{key}` is used inside its own definition"),
                )),
                None => Err(self.error(
                    n,
                    "class template",
                    format!("instance `{key}` has no struct"),
                )),
            },
            Some(Err(why)) => {
                let why = why.clone();
                Err(self.error(
                    n,
                    "class template",
                    format!("instance `{key}` could not be made: {why}"),
                ))
            }
            None => {
                let mut asked = self.ctx.class_requests.borrow_mut();
                if !asked.contains(&key) {
                    asked.push(key.clone());
                }
                drop(asked);
                let why = if self.ctx.class_last_round {
                    format!(
                        "instances of instances nest more than {MAX_ROUNDS} deep (does a template instantiate itself without end?)"
                    )
                } else {
                    "it is used before hone could make it".to_string()
                };
                Err(self.error(
                    n,
                    "class template",
                    format!("instance `{key}` cannot be made: {why}"),
                ))
            }
        }
    }
}
