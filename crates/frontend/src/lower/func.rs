//! Per-function lowering state: scopes, variables, diagnostics.

use std::collections::HashMap;

use hone_ir::{Block, Expr, ExprKind, FuncId, FuncKind, Function, Span, Type, Var, VarId, VarKind};
use tree_sitter::Node;

use super::groups::Group;
use super::template::Templates;
use super::texture::TextureBinding;
use super::types::{ArrayCtx, Declared};
use super::{ModuleCtx, PendingFunction, QualType};
use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax;

/// The error of a lowering step. The diagnostic was already recorded, so
/// callers only unwind to the nearest statement.
#[derive(Debug)]
pub(crate) struct Abort;

pub(crate) type LResult<T> = Result<T, Abort>;

/// Deeper nesting than this is reported instead of recursed into, so that no
/// input can exhaust the stack.
const MAX_DEPTH: u32 = 200;
/// Diagnostics kept per function; the rest would mostly be consequences.
const MAX_DIAGNOSTICS: usize = 20;

#[derive(Clone, Debug)]
pub(crate) enum Entry {
    Var(VarId),
    Type(QualType),
    /// A non-type template parameter of the instance being lowered.
    Const(i128, hone_ir::Scalar),
    /// A name whose declaration failed: uses are silent errors.
    Poisoned,
    /// A class template declared inside a class: the key it is filed under
    /// (`Outer_8__Inner` for `Inner` in `Outer<8>`).
    ClassTemplate(String),
    /// A template type parameter made for a cooperative group passed as its
    /// argument (`template <class Group> f(Group &g)` called with a tile).
    Group(super::groups::Group),
    /// A lambda declared in the function, by its index in `FnLowerer::lambdas`.
    Lambda(usize),
}

pub(crate) struct Lowered {
    pub function: Function,
    /// Every call of a module function, for pruning when a callee is dropped.
    pub calls: Vec<(FuncId, Span)>,
}

pub(crate) struct LowerResult {
    pub function: Option<Lowered>,
    pub diagnostics: Vec<Diagnostic>,
}

pub(crate) struct FnLowerer<'c, 'a> {
    pub ctx: &'c ModuleCtx<'a>,
    /// The file's templates, where instances can be made (function bodies).
    pub templates: Option<&'c Templates<'c>>,
    /// Textures this function reads, by name, bound to its parameters.
    pub textures: HashMap<String, TextureBinding>,
    /// Lowering an explicit specialization, whose declarator is `k<int>`.
    pub specializing: bool,
    /// Cooperative-group handles in scope, by name.
    pub groups: HashMap<String, Group>,
    pub vars: Vec<Var>,
    pub scopes: Vec<HashMap<String, Entry>>,
    /// Values of `const` integer variables with constant initializers.
    pub const_vals: HashMap<VarId, i128>,
    pub diags: Vec<Diagnostic>,
    pub calls: Vec<(FuncId, Span)>,
    pub ret: Type,
    pub depth: u32,
    pub loops: u32,
    pub breakables: u32,
    /// Variables that are C++ references: held as pointers, read through them.
    pub refs: std::collections::HashSet<VarId>,
    /// The member function being lowered: its struct, kind and `self` variable.
    pub member: Option<(super::Member, VarId)>,
    /// A mutating member declared to return `*this` by reference: it returns
    /// nothing, and `return *this;` is a plain `return;`.
    pub returns_self: bool,
    /// The struct of the `static` member function being lowered.
    pub static_of: Option<std::sync::Arc<hone_ir::StructType>>,
    /// A member function returning `T&`: it returns the object's address.
    pub returns_ref: bool,
    /// Objects made for temporaries a member function changes (a
    /// non-`const` conversion of `S()`), declared first in the body.
    pub temps: Vec<VarId>,
    /// Variables an expression of the statement being lowered needs
    /// (`cg::reduce`'s accumulator), declared just before that statement, so
    /// that the printed code declares them in the order they were made.
    pub statement_temps: Vec<VarId>,
    /// Reading a member function's header, whose name may be qualified
    /// (`S::f` defined outside its class).
    pub member_declarator: bool,
    /// The groups a generic `thread_group` parameter stands for, in order,
    /// in the instance of a function being made for them.
    pub group_args: std::collections::VecDeque<Group>,
    /// The lambdas declared so far ([`Entry::Lambda`]).
    pub lambdas: Vec<super::lambda::Lambda>,
    /// A lambda without a declared return type: the first `return` sets `ret`.
    pub deduce_ret: bool,
    /// The call being lowered names the global scope (`::f(...)`).
    pub global_call: bool,
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    pub fn new(ctx: &'c ModuleCtx<'a>) -> Self {
        FnLowerer {
            ctx,
            templates: None,
            textures: HashMap::new(),
            specializing: false,
            groups: HashMap::new(),
            vars: Vec::new(),
            scopes: vec![HashMap::new()],
            const_vals: HashMap::new(),
            diags: Vec::new(),
            calls: Vec::new(),
            ret: Type::Void,
            depth: 0,
            loops: 0,
            breakables: 0,
            refs: Default::default(),
            member: None,
            returns_self: false,
            temps: Vec::new(),
            statement_temps: Vec::new(),
            returns_ref: false,
            static_of: None,
            member_declarator: false,
            group_args: Default::default(),
            lambdas: Vec::new(),
            deduce_ret: false,
            global_call: false,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn error(&mut self, node: Node, construct: &str, message: impl Into<String>) -> Abort {
        self.report(node, Severity::Error, construct, message.into());
        Abort
    }

    pub fn warn(&mut self, node: Node, construct: &str, message: impl Into<String>) {
        self.report(node, Severity::Warning, construct, message.into());
    }

    fn report(&mut self, node: Node, severity: Severity, construct: &str, message: String) {
        if self.diags.len() < MAX_DIAGNOSTICS {
            let d = self.ctx.diagnostic(node, severity, construct, message);
            self.diags.push(d);
        }
    }

    pub fn span(&self, node: Node) -> Span {
        self.ctx.span(node)
    }

    pub fn text(&self, node: Node) -> &'a str {
        self.ctx.text(node)
    }

    /// Runs `f` one nesting level deeper, or reports that the input nests too deeply.
    pub fn nested<T>(&mut self, node: Node, f: impl FnOnce(&mut Self) -> LResult<T>) -> LResult<T> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(node, "nesting", "nesting is too deep"));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub fn lookup(&self, name: &str) -> Option<&Entry> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub fn bind(&mut self, name: &str, entry: Entry) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), entry);
        }
    }

    pub fn add_var(&mut self, var: Var) -> VarId {
        let id = VarId(self.vars.len() as u32);
        let name = var.name.clone();
        self.vars.push(var);
        if !name.is_empty() {
            self.bind(&name, Entry::Var(id));
        }
        id
    }

    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }

    pub fn global(&self, id: hone_ir::GlobalId) -> &hone_ir::GlobalVar {
        &self.ctx.global_vars[id.0 as usize]
    }

    pub fn mk(&self, kind: ExprKind, ty: Type, span: Span) -> Expr {
        Expr { kind, ty, span }
    }

    /// Lowers one function definition found in pass 1.
    pub fn lower_function(
        ctx: &'c ModuleCtx<'a>,
        templates: &'c Templates<'c>,
        p: &PendingFunction,
    ) -> LowerResult {
        let mut l = FnLowerer::new(ctx);
        l.templates = Some(templates);
        Self::lower_with(l, p)
    }

    /// Lowers `p` with a lowerer prepared by the caller (an instance's
    /// template parameters bound).
    pub fn lower_with(mut l: Self, p: &PendingFunction) -> LowerResult {
        for (name, entry) in &p.bindings {
            l.bind(name, entry.clone());
        }
        // Report every syntax error of the function rather than the first
        // consequence of one.
        let errors = syntax::syntax_errors(p.node, MAX_DIAGNOSTICS);
        for e in &errors {
            let msg = if e.is_missing() {
                format!("syntax error: missing `{}`", e.kind())
            } else {
                let t = l.text(*e);
                let t: String = t.chars().take(40).collect();
                format!("syntax error near `{}`", t.trim())
            };
            l.error(*e, "syntax error", msg);
        }
        let function = if errors.is_empty() {
            l.function(p).ok()
        } else {
            None
        };
        let function = match function {
            Some(f) if !l.has_errors() => Some(Lowered {
                function: f,
                calls: std::mem::take(&mut l.calls),
            }),
            _ => None,
        };
        LowerResult {
            function,
            diagnostics: l.diags,
        }
    }

    fn function(&mut self, p: &PendingFunction) -> LResult<Function> {
        let (header, member) = match &p.member {
            Some(m) => {
                let mh = self.member_header(p.node, &m.st)?;
                (mh.header, Some((m.clone(), mh.returns_self)))
            }
            None => (self.function_header(p.node)?, None),
        };
        self.ret = header.ret.clone();
        self.returns_ref = header.ret_ref;
        let params = self.declare_params(&header.params);
        let Some(body) = p.node.child_by_field_name("body") else {
            return Err(self.error(p.node, "function", "function without a body"));
        };
        if body.kind() != "compound_statement" {
            return Err(self.error(body, "function", "unsupported function body"));
        }
        let mut prologue = Vec::new();
        if let Some((m, _)) = member
            .as_ref()
            .filter(|(m, _)| m.kind == super::MemberKind::Static)
        {
            self.static_of = Some(m.st.clone());
        } else if let Some((m, returns_self)) = member {
            self.returns_self = returns_self;
            let self_var = match m.kind {
                super::MemberKind::Ctor => self.ctor_object(p.node, &m.st, &mut prologue)?,
                _ => params[0],
            };
            self.member = Some((m.clone(), self_var));
            if m.kind == super::MemberKind::Ctor {
                self.member_initializers(p.node, &mut prologue)?;
            }
        }
        let mut block = self.function_body(body, prologue)?;
        if let Some((m, v)) = &self.member {
            if m.kind == super::MemberKind::Ctor {
                let span = self.span(p.node);
                let obj = self.mk(hone_ir::ExprKind::Var(*v), header.ret.clone(), span);
                block.push(hone_ir::Stmt {
                    kind: hone_ir::StmtKind::Return(Some(obj)),
                    span,
                });
            }
        }
        Ok(Function {
            name: header.name,
            kind: header.kind,
            ret: header.ret,
            params,
            vars: std::mem::take(&mut self.vars),
            body: block,
            launch_bounds: header.launch_bounds,
            inline: header.inline,
            span: self.span(p.node),
        })
    }

    /// The variables of a function's parameters, references marked.
    pub fn declare_params(&mut self, params: &[Param]) -> Vec<VarId> {
        let mut ids = Vec::new();
        for p in params {
            let id = self.add_var(Var {
                name: p.name.clone(),
                ty: p.qt.ty.clone(),
                kind: VarKind::Param,
                is_const: p.qt.is_const,
                is_volatile: p.qt.is_volatile,
                span: p.span,
            });
            if p.by_ref {
                self.refs.insert(id);
            }
            ids.push(id);
        }
        ids
    }

    /// A function's body after its `prologue`, the temporaries its members
    /// need declared first.
    pub fn function_body(&mut self, body: Node, mut prologue: Block) -> LResult<Block> {
        // Parameters and the outermost block share one scope in C++.
        let mut block = self.block_in_scope(body, false)?;
        for &t in self.temps.iter().rev() {
            let span = self.vars[t.0 as usize].span;
            prologue.insert(
                0,
                hone_ir::Stmt {
                    kind: hone_ir::StmtKind::Decl { var: t, init: None },
                    span,
                },
            );
        }
        prologue.append(&mut block);
        Ok(prologue)
    }

    /// Name, kind, return and parameter types of a function definition or
    /// prototype; used by pass 1 for signatures and pass 2 for parameters.
    pub fn function_header(&mut self, node: Node) -> LResult<Header> {
        let specs = self.specs(node)?;
        let kind = if specs.global {
            FuncKind::Global
        } else {
            FuncKind::Device
        };
        let base = self.base_type(&specs, node)?;
        let Some(decl) = node.child_by_field_name("declarator") else {
            return Err(self.error(node, "function", "function without a declarator"));
        };
        let Declared {
            name,
            qt,
            params,
            node: name_node,
            is_ref,
        } = self.declarator(base, decl, ArrayCtx::Const)?;
        // A `const T &` result can only be read: the value is returned.
        if is_ref && !qt.is_const {
            return Err(self.error(
                decl,
                "reference",
                "functions returning references to non-const objects are not supported",
            ));
        }
        let Some(params_node) = params else {
            return Err(self.error(decl, "function", "expected a function declarator"));
        };
        let Some(name) = name else {
            return Err(self.error(decl, "function", "function without a name"));
        };
        if kind == FuncKind::Global && qt.ty != Type::Void {
            return Err(self.error(
                name_node,
                "kernel",
                "a __global__ function must return void",
            ));
        }
        if matches!(qt.ty, Type::Array(..)) {
            return Err(self.error(name_node, "function", "a function cannot return an array"));
        }
        let mut params = self.parameters(params_node)?;
        if kind == FuncKind::Global {
            params.extend(self.texture_ref_params(node));
        }
        let (name, alias) = if name.starts_with("operator") && params.iter().any(|p| p.by_ref) {
            (super::members::operator_ident(&name), Some(name))
        } else {
            (name, None)
        };
        let launch_bounds = match specs.launch_bounds {
            Some(lb) => Some(self.launch_bounds(lb)?),
            None => None,
        };
        let inline = specs.inline();
        let defaults = default_values(params_node, params.len());
        Ok(Header {
            name,
            alias,
            kind,
            ret: qt.ty,
            params,
            launch_bounds,
            inline,
            ret_ref: false,
            defaults,
        })
    }

    pub fn parameters(&mut self, list: Node) -> LResult<Vec<Param>> {
        let mut out = Vec::new();
        let children = syntax::named_children(list);
        for p in &children {
            if let Some(r) = self.group_param(*p) {
                r?;
                continue;
            }
            if let Some(ps) = self.texture_object_param(*p) {
                out.extend(ps?);
                continue;
            }
            match p.kind() {
                // A default value only serves calls that leave the argument
                // out: a kernel's launch passes every argument, and a device
                // call that leaves one out is refused by its argument count.
                "parameter_declaration" | "optional_parameter_declaration" => {}
                "variadic_parameter" | "variadic_parameter_declaration" => {
                    return Err(self.error(
                        *p,
                        "variadic function",
                        "variadic parameters are not supported",
                    ))
                }
                k => {
                    let k = k.to_string();
                    return Err(self.error(*p, &k, format!("unsupported parameter `{k}`")));
                }
            }
            let specs = self.specs(*p)?;
            let base = self.base_type(&specs, *p)?;
            let (name, qt, node, is_ref) = match p.child_by_field_name("declarator") {
                Some(d) => {
                    let decl = self.declarator(base, d, ArrayCtx::Param)?;
                    if decl.params.is_some() {
                        return Err(self.error(
                            d,
                            "function pointer",
                            "function pointer parameters are not supported",
                        ));
                    }
                    (
                        decl.name.unwrap_or_default(),
                        decl.qt,
                        self.span(decl.node),
                        decl.is_ref,
                    )
                }
                None => (String::new(), base, self.span(*p), false),
            };
            // Two parameters of one name: C++ rejects the function, and the
            // body's uses of the name could not be printed back unambiguously.
            if !name.is_empty() && out.iter().any(|q: &Param| q.name == name) {
                return Err(self.error(
                    *p,
                    "parameter",
                    format!("parameter `{name}` is declared twice"),
                ));
            }
            if is_ref {
                // `const T&` is the value (nothing can write through it);
                // `T&` is the object's address.
                if qt.is_const && !qt.is_volatile && !matches!(qt.ty, Type::Array(..)) {
                    out.push(Param {
                        name,
                        qt,
                        span: node,
                        by_ref: false,
                    });
                } else {
                    let ty = Type::Pointer(Box::new(hone_ir::PointerType {
                        pointee: qt.ty,
                        pointee_const: qt.is_const,
                        restrict: false,
                        pointee_volatile: qt.is_volatile,
                    }));
                    out.push(Param {
                        name,
                        qt: QualType::new(ty),
                        span: node,
                        by_ref: true,
                    });
                }
                continue;
            }
            if qt.ty == Type::Void {
                // `f(void)` declares no parameters.
                if children.len() == 1 && name.is_empty() {
                    return Ok(Vec::new());
                }
                return Err(self.error(*p, "parameter", "parameter of type void"));
            }
            let qt = match qt.ty {
                // Array parameters are pointers.
                Type::Array(elem, _) => {
                    QualType::new(Type::Pointer(Box::new(hone_ir::PointerType {
                        pointee: *elem,
                        pointee_const: qt.is_const,
                        restrict: false,
                        pointee_volatile: qt.is_volatile,
                    })))
                }
                _ => qt,
            };
            out.push(Param {
                name,
                qt,
                span: node,
                by_ref: false,
            });
        }
        Ok(out)
    }

    fn launch_bounds(&mut self, node: Node) -> LResult<(u32, Option<u32>)> {
        let args = syntax::named_children(node);
        let mut vals = Vec::new();
        for a in &args {
            let v = self.const_int(*a, "__launch_bounds__")?;
            match u32::try_from(v) {
                Ok(v) => vals.push(v),
                Err(_) => {
                    return Err(self.error(
                        *a,
                        "__launch_bounds__",
                        format!("launch bound {v} is out of range"),
                    ))
                }
            }
        }
        match vals.as_slice() {
            [max] => Ok((*max, None)),
            [max, min] => Ok((*max, Some(*min))),
            _ => Err(self.error(
                node,
                "__launch_bounds__",
                "expected one or two launch bounds",
            )),
        }
    }

    /// Value of an integer constant expression, or a diagnostic.
    pub fn const_int(&mut self, node: Node, what: &str) -> LResult<i128> {
        let e = self.expr(node)?;
        self.fold(&e).ok_or_else(|| {
            self.error(
                node,
                what,
                format!("{what} must be an integer constant expression"),
            )
        })
    }

    pub fn fold(&self, e: &Expr) -> Option<i128> {
        crate::consteval::eval(e, &|id| self.const_vals.get(&id).copied())
    }

    pub fn block_in_scope(&mut self, node: Node, new_scope: bool) -> LResult<Block> {
        if new_scope {
            self.push_scope();
        }
        let mut out = Vec::new();
        for child in syntax::named_children(node) {
            // A failed statement has reported itself; keep going to report the
            // rest of the function too.
            let at = out.len();
            let _ = self.stmt_into(child, &mut out);
            for (i, var) in self.statement_temps.drain(..).enumerate() {
                let span = self.vars[var.0 as usize].span;
                out.insert(
                    at + i,
                    hone_ir::Stmt {
                        kind: hone_ir::StmtKind::Decl { var, init: None },
                        span,
                    },
                );
            }
        }
        if new_scope {
            self.pop_scope();
        }
        Ok(out)
    }
}

pub(crate) struct Header {
    /// The IR function's name.
    pub name: String,
    /// The operator a function with another IR name implements (`operator+=`
    /// taking its left operand by reference is `operator_add_assign`: C++
    /// has no operator on a pointer).
    pub alias: Option<String>,
    pub kind: FuncKind,
    pub ret: Type,
    pub params: Vec<Param>,
    pub launch_bounds: Option<(u32, Option<u32>)>,
    pub inline: Option<String>,
    /// A member function returning `T&`: `ret` is the pointer it returns.
    pub ret_ref: bool,
    /// The byte range of each parameter's default value, if it has one.
    pub defaults: Vec<Option<(usize, usize)>>,
}

pub(crate) struct Param {
    pub name: String,
    pub qt: QualType,
    pub span: Span,
    /// A `T&` parameter: `qt` is the pointer the IR passes.
    pub by_ref: bool,
}

impl Header {
    pub fn signature(&self, id: Option<FuncId>) -> super::FuncSig {
        super::FuncSig {
            id,
            kind: self.kind,
            ret: self.ret.clone(),
            params: self.params.iter().map(|p| p.qt.ty.clone()).collect(),
            by_ref: self.params.iter().map(|p| p.by_ref).collect(),
            ret_ref: self.ret_ref,
            defaults: self.defaults.clone(),
        }
    }
}

/// The byte ranges of the default values in a parameter list (`int c = 0`),
/// one entry per IR parameter; none where a parameter became several (a
/// texture object).
pub(crate) fn default_values(list: Node, params: usize) -> Vec<Option<(usize, usize)>> {
    let out: Vec<Option<(usize, usize)>> = syntax::named_children(list)
        .into_iter()
        .filter(|p| {
            matches!(
                p.kind(),
                "parameter_declaration" | "optional_parameter_declaration"
            )
        })
        .map(|p| {
            p.child_by_field_name("default_value")
                .map(|d| (d.start_byte(), d.end_byte()))
        })
        .collect();
    if out.len() == params {
        out
    } else {
        vec![None; params]
    }
}
