//! Lambdas declared in device code: `auto f = [&acc, n](int i) -> float {...};`.
//!
//! A lambda is a compile-time handle, as a cooperative group is: its variable
//! vanishes from the IR. Its body becomes a device function of its own, made
//! where the lambda is declared (so that the names it uses are the ones in
//! scope there), whose first parameters are the captures: a variable captured
//! by reference (`[&]`, `[&x]`) is a reference parameter, one captured by
//! value (`[=]`, `[x]`) is copied where the lambda is declared, as C++ copies
//! it, and the copy is passed. A call `f(args)` passes the captures, then the
//! arguments. A lambda is called where it is in scope; passing it to another
//! function is reported as unsupported.

use hone_ir::{Expr, ExprKind, FuncId, Function, Stmt, StmtKind, Type, Var, VarId, VarKind};
use tree_sitter::Node;

use super::func::{Entry, FnLowerer, LResult, Lowered, Param};
use super::{FuncSig, QualType};
use crate::syntax;

/// What a call of a lambda passes before its arguments.
#[derive(Clone, Copy, Debug)]
enum Capture {
    /// The variable itself, by reference.
    Ref(VarId),
    /// The copy made where the lambda was declared.
    Copy(VarId),
}

/// A lambda declared in the function being lowered.
#[derive(Clone, Debug)]
pub(crate) struct Lambda {
    /// The name it is declared with, for messages.
    declared: String,
    sig: FuncSig,
    captures: Vec<Capture>,
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// `auto name = [captures](params) -> R { body };`: the lambda's function
    /// is made now; copies of the variables captured by value are declared
    /// into `out`.
    pub fn declare_lambda(&mut self, name: &str, lam: Node, out: &mut Vec<Stmt>) -> LResult<()> {
        let Some(ts) = self.templates else {
            return Err(self.error(lam, "lambda", "lambdas are supported in function bodies"));
        };
        let body = self.field(lam, "body")?;
        let declarator = lam.child_by_field_name("declarator");
        if let Some(m) = declarator.and_then(|d| {
            syntax::children(d)
                .into_iter()
                .find(|c| matches!(c.kind(), "lambda_specifier" | "mutable"))
        }) {
            let t = self.text(m).trim().to_string();
            return Err(self.error(m, "lambda", format!("`{t}` lambdas are not supported")));
        }
        let params_node = declarator.and_then(|d| d.child_by_field_name("parameters"));
        let trailing = declarator.and_then(|d| {
            syntax::named_children(d)
                .into_iter()
                .find(|c| c.kind() == "trailing_return_type")
        });
        let param_names: Vec<String> = params_node
            .map(|p| {
                syntax::named_children(p)
                    .into_iter()
                    .filter_map(|d| d.child_by_field_name("declarator"))
                    .filter_map(|d| super::toplevel::declarator_name(d, self.ctx.src))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let captured = self.captured(lam, body, &param_names)?;

        let span = self.span(lam);
        let mut captures = Vec::new();
        let mut params = Vec::new();
        for (cname, by_ref, at) in captured {
            let Some(Entry::Var(v)) = self.lookup(&cname).cloned() else {
                return Err(self.error(
                    at,
                    "lambda",
                    format!("`{cname}` is captured by the lambda but is not a variable"),
                ));
            };
            let var = self.var(v).clone();
            let (value_ty, is_const) = match (&var.ty, self.refs.contains(&v)) {
                (Type::Pointer(p), true) => (p.pointee.clone(), p.pointee_const),
                (t, _) => (t.clone(), var.is_const),
            };
            // Shared memory has static storage: it is never copied, a
            // lambda reads the block's memory itself.
            let shared = matches!(var.kind, VarKind::Shared | VarKind::ExternShared);
            if by_ref || shared {
                captures.push(Capture::Ref(v));
                params.push(Param {
                    name: cname,
                    qt: QualType::new(Type::Pointer(Box::new(hone_ir::PointerType {
                        pointee: value_ty,
                        pointee_const: is_const,
                        restrict: false,
                        pointee_volatile: var.is_volatile,
                    }))),
                    span: var.span,
                    by_ref: true,
                });
            } else {
                if matches!(value_ty, Type::Array(..)) {
                    return Err(self.error(
                        at,
                        "lambda",
                        format!("array `{cname}` captured by value is not supported; capture it by reference"),
                    ));
                }
                let value = self.variable_value(v, span);
                let copy = self.add_var(Var {
                    name: String::new(),
                    ty: value_ty.clone(),
                    kind: VarKind::Local,
                    is_const: false,
                    is_volatile: false,
                    span,
                });
                self.vars[copy.0 as usize].name = format!("{name}_{cname}");
                out.push(Stmt {
                    kind: StmtKind::Decl {
                        var: copy,
                        init: Some(hone_ir::Init::Expr(value)),
                    },
                    span,
                });
                captures.push(Capture::Copy(copy));
                params.push(Param {
                    name: cname,
                    qt: QualType {
                        ty: value_ty,
                        is_const: true,
                        is_volatile: false,
                    },
                    span: var.span,
                    by_ref: false,
                });
            }
        }

        let mut sub = FnLowerer::new(self.ctx);
        sub.templates = self.templates;
        sub.groups = self.groups.clone();
        // The enclosing function's types and constants (an instance's
        // template parameters) are the lambda's too.
        for scope in &self.scopes {
            for (k, e) in scope {
                if !matches!(e, Entry::Var(_) | Entry::Poisoned | Entry::Lambda(_)) {
                    sub.bind(k, e.clone());
                }
            }
        }
        if let Some(p) = params_node {
            match sub.parameters(p) {
                Ok(ps) => params.extend(ps),
                Err(e) => {
                    self.diags.append(&mut sub.diags);
                    return Err(e);
                }
            }
        }
        let ids = sub.declare_params(&params);
        let declared_ret = trailing
            .and_then(|t| syntax::named_children(t).into_iter().next())
            .map(|td| sub.type_descriptor(td));
        match declared_ret {
            Some(Ok(t)) => sub.ret = t,
            Some(Err(e)) => {
                self.diags.append(&mut sub.diags);
                return Err(e);
            }
            None => sub.deduce_ret = true,
        }
        let block = sub.function_body(body, Vec::new());
        let failed = sub.has_errors();
        self.diags.append(&mut sub.diags);
        let block = match block {
            Ok(b) if !failed => b,
            Ok(_) => return Err(super::func::Abort),
            Err(e) => return Err(e),
        };
        let (_, line, col) = self.ctx.map.locate(lam.start_position());
        let ir_name = format!("lambda_{name}_{line}_{col}_{}", ts.count());
        let ret = sub.ret.clone();
        let sig = FuncSig {
            id: None,
            kind: hone_ir::FuncKind::Device,
            ret: ret.clone(),
            params: params.iter().map(|p| p.qt.ty.clone()).collect(),
            by_ref: params.iter().map(|p| p.by_ref).collect(),
            ret_ref: false,
            defaults: vec![None; params.len()],
        };
        let function = Function {
            name: ir_name.clone(),
            kind: hone_ir::FuncKind::Device,
            ret,
            params: ids,
            vars: std::mem::take(&mut sub.vars),
            body: block,
            launch_bounds: None,
            inline: None,
            span,
        };
        let (id, sig) = ts.add_made(
            ir_name,
            sig,
            Lowered {
                function,
                calls: std::mem::take(&mut sub.calls),
            },
        );
        let _: FuncId = id;
        self.lambdas.push(Lambda {
            declared: name.to_string(),
            sig,
            captures,
        });
        self.bind(name, Entry::Lambda(self.lambdas.len() - 1));
        Ok(())
    }

    /// `f(args)` of the lambda `index`: its captures, then the arguments.
    pub fn call_lambda(&mut self, n: Node, index: usize, arg_nodes: &[Node]) -> LResult<Expr> {
        let l = self.lambdas[index].clone();
        let span = self.span(n);
        let mut args: Vec<Expr> = l
            .captures
            .iter()
            .map(|c| match *c {
                Capture::Ref(v) | Capture::Copy(v) => self.variable_value(v, span),
            })
            .collect();
        for a in arg_nodes {
            args.push(self.expr(*a)?);
        }
        if args.len() != l.sig.params.len() {
            return Err(self.error(
                n,
                "call",
                format!(
                    "lambda `{}` takes {} argument(s), {} given",
                    l.declared,
                    l.sig.params.len() - l.captures.len(),
                    arg_nodes.len()
                ),
            ));
        }
        self.call_overload(n, &l.declared, &[l.sig], args, arg_nodes)
    }

    /// A variable as an expression: read through its address when it is a
    /// reference.
    fn variable_value(&self, v: VarId, span: hone_ir::Span) -> Expr {
        let ty = self.var(v).ty.clone();
        let e = self.mk(ExprKind::Var(v), ty.clone(), span);
        match (ty, self.refs.contains(&v)) {
            (Type::Pointer(p), true) => self.mk(ExprKind::Deref(Box::new(e)), p.pointee, span),
            _ => e,
        }
    }

    /// The variables a lambda captures, by name, whether by reference, and
    /// where: those its capture list names, and with a default capture
    /// (`[&]`, `[=]`) every variable of the enclosing function its body
    /// names (a name its own parameters or locals hide is passed unused).
    fn captured<'t>(
        &mut self,
        lam: Node<'t>,
        body: Node<'t>,
        params: &[String],
    ) -> LResult<Vec<(String, bool, Node<'t>)>> {
        let src = self.ctx.src;
        let mut out: Vec<(String, bool, Node<'t>)> = Vec::new();
        let mut default = None;
        if let Some(list) = lam.child_by_field_name("captures") {
            let mut by_ref = false;
            for c in syntax::children(list) {
                let text = syntax::text(c, src).trim();
                match c.kind() {
                    "lambda_default_capture" => default = Some(text == "&"),
                    "&" => by_ref = true,
                    "identifier" => {
                        out.push((text.to_string(), by_ref, c));
                        by_ref = false;
                    }
                    "this" | "pointer_expression" => {
                        return Err(self.error(c, "lambda", "capturing `this` is not supported"))
                    }
                    "," | "[" | "]" => by_ref = false,
                    k if c.is_named() => {
                        let k = k.to_string();
                        return Err(self.error(
                            c,
                            "lambda",
                            format!("lambda capture `{text}` ({k}) is not supported"),
                        ));
                    }
                    _ => {}
                }
            }
        }
        if let Some(by_ref) = default {
            let mut stack = vec![body];
            let mut seen = 0usize;
            while let Some(n) = stack.pop() {
                seen += 1;
                if seen > 1_000_000 {
                    break;
                }
                if n.kind() == "identifier" {
                    let t = syntax::text(n, src);
                    let named = params.iter().any(|p| p == t) || out.iter().any(|(c, _, _)| c == t);
                    if !named && matches!(self.lookup(t), Some(Entry::Var(_))) {
                        out.push((t.to_string(), by_ref, n));
                    }
                    continue;
                }
                let mut cursor = n.walk();
                let children: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
                stack.extend(children.into_iter().rev());
            }
        }
        Ok(out)
    }
}
