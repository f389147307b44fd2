//! Lowering of a parsed translation unit into a `hone_ir::Module`.
//!
//! Pass 1 walks the file-scope items in order and records typedefs, integer
//! constants, file-scope variables and the signatures of every `__global__` and
//! `__device__` function. Pass 2 lowers each function body on its own, so an
//! unsupported construct only costs the function that contains it. Pass 3 drops
//! functions that call a dropped function and renumbers the survivors.

mod asm;
mod call;
mod classtpl;
mod conv;
mod decl;
mod expr;
mod func;
mod groups;
mod lambda;
mod members;
mod memcopy;
mod names;
mod prelude;
mod repair;
mod stmt;
mod template;
mod texture;
mod toplevel;
mod types;
mod walk;

use std::collections::{HashMap, HashSet};

use std::cell::RefCell;
use std::sync::Arc;

use hone_ir::{FuncId, FuncKind, GlobalId, GlobalVar, Module, Scalar, Span, StructType, Type};
use tree_sitter::{Node, Tree};

use crate::diagnostic::{Diagnostic, Severity};
use crate::preprocess::Preprocessed;
use crate::srcmap::SourceMap;
use crate::{syntax, Parsed};

pub(crate) use func::FnLowerer;
pub(crate) use template::normalize_request;

/// A type together with the `const` on its outermost level.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct QualType {
    pub ty: Type,
    pub is_const: bool,
    pub is_volatile: bool,
}

impl QualType {
    pub fn new(ty: Type) -> Self {
        QualType {
            ty,
            is_const: false,
            is_volatile: false,
        }
    }
}

/// A file-scope typedef: its type, or why that type cannot be used.
#[derive(Clone, Debug)]
pub(crate) enum TypeEntry {
    Ok(QualType),
    Unsupported { construct: String, message: String },
}

#[derive(Clone, Debug)]
pub(crate) struct FuncSig {
    /// `None` while only a prototype has been seen.
    pub id: Option<FuncId>,
    pub kind: FuncKind,
    pub ret: Type,
    /// IR parameter types: a reference parameter is a pointer here.
    pub params: Vec<Type>,
    /// Which parameters are C++ references (`T&`): the argument's address is passed.
    pub by_ref: Vec<bool>,
    /// Returns a reference (`T&`): `ret` is its pointer, read through at the call.
    pub ret_ref: bool,
    /// Where each parameter's default value is in the text, if it has one.
    pub defaults: Vec<Option<(usize, usize)>>,
}

/// A member function (or constructor) of a struct, lowered to a function
/// that takes the object as its first parameter `self`.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub st: Arc<StructType>,
    pub kind: MemberKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemberKind {
    /// A `const` member function: `self` is the object, by value.
    Const,
    /// Any other member function: `self` points to the object.
    Mutating,
    /// A constructor: a function returning the object it builds in `self`.
    Ctor,
    /// A `static` member function: no object; filed as [`static_member`].
    Static,
}

/// The name a `static` member function is filed under in
/// `ModuleCtx::methods`, apart from the members that take an object.
pub(crate) fn static_member(name: &str) -> String {
    format!("static {name}")
}

/// What pass 1 learned about the file, read by every function's lowering.
pub(crate) struct ModuleCtx<'a> {
    pub src: &'a str,
    pub map: SourceMap<'a>,
    pub typedefs: HashMap<String, TypeEntry>,
    /// File-scope integral constants (`const int N = 16;`, enumerators).
    pub constants: HashMap<String, (i128, Scalar)>,
    /// File-scope floating-point constants (`constexpr float k = 0.5f;`).
    pub float_constants: HashMap<String, (f64, Scalar)>,
    /// File-scope variables device code may not use in the IR, with a description.
    pub globals: HashMap<String, String>,
    /// Struct definitions in declaration order (`Module::structs`).
    pub structs: Vec<Arc<StructType>>,
    /// File-scope `__constant__`/`__device__`/`__shared__` variables (`Module::globals`).
    pub global_vars: Vec<GlobalVar>,
    pub global_ids: HashMap<String, GlobalId>,
    /// Free functions by name, each overload once.
    pub functions: HashMap<String, Vec<FuncSig>>,
    /// Member functions by (struct, member name); constructors under the struct's name.
    pub methods: HashMap<(String, String), Vec<FuncSig>>,
    /// Member functions declared `static` in their class, by (struct, name),
    /// for their definitions outside it.
    pub static_members: HashSet<(String, String)>,
    /// Structs without a name (`typedef struct {...} T;`), by the specifier's first byte.
    pub anon_structs: HashMap<usize, Arc<StructType>>,
    /// Device functions that exist but could not be lowered, with the reason.
    pub unlowerable: HashMap<String, String>,
    pub host_functions: HashSet<String>,
    /// Legacy texture references declared at file scope.
    pub texture_refs: HashMap<String, texture::TextureRef>,
    /// The file's class templates by name, with why one cannot be made
    /// (a parameter of a kind hone does not support).
    pub class_templates: HashMap<String, Option<String>>,
    /// The last round of lowering: an instance not made now never is.
    pub class_last_round: bool,
    /// Class template instances to make in pass 1 (`Name<args>` in the
    /// spelling [`classtpl::request_key`] gives), found by an earlier round.
    pub class_wanted: Vec<String>,
    /// Each made instance by its request: the struct's name, or why it
    /// could not be made.
    pub class_instances: HashMap<String, Result<String, String>>,
    /// Instances used but not yet made: another round makes them.
    pub class_requests: RefCell<Vec<String>>,
    /// Each class template instance's struct name with its template (the
    /// key it is filed under) and arguments, for deducing a function
    /// template's arguments from a parameter `S<N> &`.
    pub instance_args: HashMap<String, (String, Vec<template::Arg>)>,
    /// Member function templates by (struct, member name; static ones as
    /// [`static_member`]): the key of their [`template::Template`].
    pub member_templates: HashMap<(String, String), String>,
}

impl<'a> ModuleCtx<'a> {
    pub fn diagnostic(
        &self,
        node: Node,
        severity: Severity,
        construct: &str,
        message: String,
    ) -> Diagnostic {
        let (file, line, col) = self.map.locate(node.start_position());
        Diagnostic {
            severity,
            file: self.map.file_name(file),
            line,
            col,
            construct: construct.to_string(),
            message,
        }
    }

    pub fn span(&self, node: Node) -> Span {
        self.map.span(node)
    }

    pub fn text(&self, node: Node) -> &'a str {
        syntax::text(node, self.src)
    }
}

/// A function definition found in pass 1, to be lowered in pass 2.
pub(crate) struct PendingFunction<'t> {
    pub node: Node<'t>,
    pub name: String,
    pub member: Option<Member>,
    /// The parameters of the class template instance a member belongs to.
    pub bindings: Vec<(String, func::Entry)>,
}

pub(crate) fn lower_translation_unit(pre: &Preprocessed, requests: &[String]) -> Parsed {
    let files = if pre.files.is_empty() {
        vec!["<input>".to_string()]
    } else {
        pre.files.clone()
    };
    // The definitions of called functions hone writes in CUDA follow the
    // user's text, so its positions stay put.
    let mut text = std::borrow::Cow::Borrowed(pre.text.as_str());
    let mut tree = syntax::parse(&text);
    // Single-instruction inline PTX is the C it computes (`lower/asm.rs`).
    if let Some(rewritten) = tree
        .as_ref()
        .and_then(|t| asm::rewrite(t.root_node(), &text))
    {
        text = std::borrow::Cow::Owned(rewritten);
        tree = syntax::parse(&text);
    }
    if let Some(t) = &tree {
        let prelude = prelude::needed(t.root_node(), &text);
        if !prelude.is_empty() {
            text = std::borrow::Cow::Owned(format!("{text}\n{prelude}"));
            tree = syntax::parse(&text);
        }
    }
    let Some(tree) = tree else {
        return Parsed {
            module: Module {
                files: files.clone(),
                ..Module::default()
            },
            instances: Vec::new(),
            diagnostics: vec![Diagnostic {
                severity: Severity::Error,
                file: files[0].clone(),
                line: 1,
                col: 1,
                construct: "parser".into(),
                message: "the CUDA parser could not parse this file".into(),
            }],
        };
    };
    // Which names are types is known only after pass 1; misread casts are
    // repaired with that knowledge and pass 1 runs again on the result.
    if repair::may_need(&tree) {
        let mut first = new_ctx(pre, &text, Vec::new());
        toplevel::collect(tree.root_node(), &mut first, &mut Vec::new());
        let (tree, repaired) = repair::repair(&first, tree);
        let (text, added) = match &repaired {
            Some((repaired, added)) => (repaired.as_str(), added.clone()),
            None => (&*text, Vec::new()),
        };
        return lower_rounds(|| new_ctx(pre, text, added.clone()), &tree, files, requests);
    }
    lower_rounds(|| new_ctx(pre, &text, Vec::new()), &tree, files, requests)
}

/// Rounds of lowering the file make the class template instances it uses:
/// a use found in a function body (often of a function template's instance)
/// is made in pass 1 of the next round, where every struct is made, so the
/// instances are ordinary structs to everything that follows.
fn lower_rounds<'a>(
    make: impl Fn() -> ModuleCtx<'a>,
    tree: &Tree,
    files: Vec<String>,
    requests: &[String],
) -> Parsed {
    let mut wanted: Vec<String> = Vec::new();
    let mut round = 0;
    loop {
        round += 1;
        let mut ctx = make();
        ctx.class_wanted = wanted.clone();
        ctx.class_last_round = round >= classtpl::MAX_ROUNDS;
        let (parsed, asked) = lower_tree(ctx, tree, files.clone(), requests);
        let before = wanted.len();
        for a in asked {
            if !wanted.contains(&a) {
                wanted.push(a);
            }
        }
        if wanted.len() == before || round >= classtpl::MAX_ROUNDS {
            return parsed;
        }
    }
}

/// The context of `text`, which is `pre`'s text or its repair (with bytes
/// added at `added`).
fn new_ctx<'a>(pre: &'a Preprocessed, text: &'a str, added: Vec<usize>) -> ModuleCtx<'a> {
    ModuleCtx {
        src: text,
        map: SourceMap::with_added(pre, text, added),
        typedefs: HashMap::new(),
        constants: HashMap::new(),
        float_constants: HashMap::new(),
        globals: HashMap::new(),
        structs: Vec::new(),
        global_vars: Vec::new(),
        global_ids: HashMap::new(),
        functions: HashMap::new(),
        methods: HashMap::new(),
        static_members: HashSet::new(),
        anon_structs: HashMap::new(),
        unlowerable: HashMap::new(),
        host_functions: HashSet::new(),
        texture_refs: HashMap::new(),
        class_templates: HashMap::new(),
        class_last_round: false,
        class_wanted: Vec::new(),
        class_instances: HashMap::new(),
        class_requests: RefCell::new(Vec::new()),
        instance_args: HashMap::new(),
        member_templates: HashMap::new(),
    }
}

/// Passes 1 and 2 over the tree of `ctx.src`.
/// Also returns the class template instances used but not made.
fn lower_tree(
    mut ctx: ModuleCtx,
    tree: &Tree,
    files: Vec<String>,
    requests: &[String],
) -> (Parsed, Vec<String>) {
    let mut diagnostics = Vec::new();
    let (pending, defs, specializations) =
        toplevel::collect(tree.root_node(), &mut ctx, &mut diagnostics);
    let templates = template::Templates::new(defs, specializations, pending.len() as u32);
    let instances = template::request_instances(
        &ctx,
        &templates,
        tree.root_node(),
        requests,
        &mut diagnostics,
    );

    let mut lowered = Vec::with_capacity(pending.len());
    for p in &pending {
        let result = FnLowerer::lower_function(&ctx, &templates, p);
        diagnostics.extend(result.diagnostics);
        lowered.push(result.function);
    }
    // Instances, including those the instances' own bodies ask for.
    let mut names: Vec<String> = pending.iter().map(|p| p.name.clone()).collect();
    let mut done = 0;
    while done < templates.count() {
        let index = done;
        names.push(templates.instance_name(index));
        let result = FnLowerer::lower_instance(&ctx, &templates, index);
        diagnostics.extend(result.diagnostics);
        lowered.push(result.function);
        done += 1;
    }

    let functions = prune_and_renumber(&ctx, &names, lowered, &mut diagnostics);
    diagnostics.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
    // Instances of one class template report its errors once each.
    diagnostics.dedup();
    let asked = ctx.class_requests.take();
    let parsed = Parsed {
        module: Module {
            files,
            structs: ctx.structs.clone(),
            globals: ctx.global_vars.clone(),
            functions,
        },
        diagnostics,
        instances,
    };
    (parsed, asked)
}

/// Drops functions that call a function that was not lowered (transitively)
/// and renumbers the `FuncId`s of the rest.
fn prune_and_renumber(
    ctx: &ModuleCtx,
    names: &[String],
    lowered: Vec<Option<func::Lowered>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<hone_ir::Function> {
    let mut failed: Vec<bool> = lowered.iter().map(Option::is_none).collect();
    loop {
        let mut changed = false;
        for (i, l) in lowered.iter().enumerate() {
            let Some(l) = l else { continue };
            if failed[i] {
                continue;
            }
            if let Some((callee, span)) = l.calls.iter().find(|(c, _)| failed[c.0 as usize]) {
                failed[i] = true;
                changed = true;
                let callee = &names[callee.0 as usize];
                diagnostics.push(Diagnostic {
                    severity: Severity::Error,
                    file: ctx.map.file_name(span.file),
                    line: span.line,
                    col: span.col,
                    construct: "call".into(),
                    message: format!("calls `{callee}`, which could not be lowered"),
                });
            }
        }
        if !changed {
            break;
        }
    }
    let mut new_ids = Vec::with_capacity(lowered.len());
    let mut next = 0u32;
    for f in &failed {
        new_ids.push(if *f {
            None
        } else {
            next += 1;
            Some(FuncId(next - 1))
        });
    }
    let mut out = Vec::new();
    for (i, l) in lowered.into_iter().enumerate() {
        if failed[i] {
            continue;
        }
        let Some(l) = l else { continue };
        let mut f = l.function;
        walk::remap_calls(&mut f, &|id| new_ids[id.0 as usize].unwrap_or(id));
        out.push(f);
    }
    out
}
