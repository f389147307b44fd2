//! Functions and statements: 4-space indentation, braces on every body.

use super::expr::{ExprPrinter, ASSIGN};
use super::types;
use crate::{
    Block, FuncKind, Function, Init, Module, Scalar, Stmt, StmtKind, SwitchArm, Type, VarId,
    VarKind,
};

const INDENT: &str = "    ";

pub(super) struct FnPrinter<'a> {
    f: &'a Function,
    ep: ExprPrinter<'a>,
    out: String,
    opts: super::PrintOptions,
    files: &'a [String],
}

impl<'a> FnPrinter<'a> {
    pub(super) fn new(m: &'a Module, f: &'a Function, names: &'a [String]) -> Self {
        FnPrinter {
            f,
            ep: ExprPrinter::new(Some(m), names),
            out: String::new(),
            opts: super::PrintOptions::default(),
            files: &m.files,
        }
    }

    pub(super) fn with_options(mut self, opts: super::PrintOptions) -> Self {
        self.opts = opts;
        self
    }

    /// `#line` for the statement printed next, so that a compiler's line
    /// information names the user's file and line rather than the printed
    /// text's.
    fn directive(&mut self, span: crate::Span) {
        if !self.opts.line_directives || span.line == 0 {
            return;
        }
        let file = self
            .files
            .get(span.file as usize)
            .map(String::as_str)
            .unwrap_or("");
        let escaped = file.replace('\\', "\\\\").replace('"', "\\\"");
        self.out
            .push_str(&format!("#line {} \"{escaped}\"\n", span.line));
    }

    /// `#pragma unroll 1` before a loop when loops are to be kept rolled.
    fn rolled(&mut self, depth: usize) {
        if self.opts.unroll_once {
            self.line(depth, "#pragma unroll 1");
        }
    }

    /// `__device__ float f(float x);`
    pub(super) fn prototype(&self) -> String {
        format!("{};", self.signature())
    }

    pub(super) fn definition(mut self) -> String {
        self.out = format!("{} {{\n", self.signature());
        self.stmts(&self.f.body, 1);
        self.out.push_str("}\n");
        self.out
    }

    fn signature(&self) -> String {
        let f = self.f;
        let mut s = match f.kind {
            FuncKind::Global => "__global__ ".to_string(),
            FuncKind::Device => "__device__ ".to_string(),
        };
        if let Some(inline) = &f.inline {
            s.push_str(inline);
            s.push(' ');
        }
        let params: Vec<String> = f
            .params
            .iter()
            .map(|&p| match f.vars.get(p.0 as usize) {
                Some(v) => types::declaration_q(
                    &v.ty,
                    v.is_const,
                    v.is_volatile,
                    &self.ep.var_name(p),
                    &self.ep,
                ),
                None => format!("int {}", self.ep.var_name(p)),
            })
            .collect();
        let head = format!("{}({})", f.name, params.join(", "));
        // The return type's declarator wraps the name (`float *f(...)`), and
        // `__launch_bounds__` goes between the specifiers and the declarator.
        let (spec, declarator) = types::split(&f.ret, false, head, &self.ep);
        s.push_str(&spec);
        s.push(' ');
        if let Some((threads, blocks)) = f.launch_bounds {
            match blocks {
                Some(b) => s.push_str(&format!("__launch_bounds__({threads}, {b}) ")),
                None => s.push_str(&format!("__launch_bounds__({threads}) ")),
            }
        }
        s.push_str(&declarator);
        s
    }

    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.out.push_str(INDENT);
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn stmts(&mut self, b: &[Stmt], depth: usize) {
        for s in b {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        if matches!(
            s.kind,
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
        ) {
            self.rolled(depth);
        }
        self.directive(s.span);
        match &s.kind {
            StmtKind::Decl { var, init } => {
                let text = format!("{};", self.decl(*var, init.as_ref()));
                self.line(depth, &text);
            }
            StmtKind::Expr(e) => {
                let text = format!("{};", not_a_declaration(self.ep.expr(e)));
                self.line(depth, &text);
            }
            StmtKind::If { cond, then, els } => {
                let mut text = format!("if ({}) {{", self.ep.expr(cond));
                let mut then = then;
                let mut els = els;
                loop {
                    self.line(depth, &text);
                    self.stmts(then, depth + 1);
                    match els.as_deref() {
                        // `else if` is `else` with one `if` statement as its body.
                        Some(
                            [Stmt {
                                kind:
                                    StmtKind::If {
                                        cond,
                                        then: t,
                                        els: e,
                                    },
                                span,
                            }],
                        ) => {
                            self.directive(*span);
                            text = format!("}} else if ({}) {{", self.ep.expr(cond));
                            then = t;
                            els = e;
                        }
                        Some(b) => {
                            self.line(depth, "} else {");
                            self.stmts(b, depth + 1);
                            self.line(depth, "}");
                            break;
                        }
                        None => {
                            self.line(depth, "}");
                            break;
                        }
                    }
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let cond = cond.as_ref().map(|c| self.ep.expr(c)).unwrap_or_default();
                let step = step.as_ref().map(|c| self.ep.expr(c)).unwrap_or_default();
                let clause = |init: &str| {
                    let mut h = format!("for ({init};");
                    if !cond.is_empty() {
                        h.push(' ');
                        h.push_str(&cond);
                    }
                    h.push(';');
                    if !step.is_empty() {
                        h.push(' ');
                        h.push_str(&step);
                    }
                    h.push_str(") {");
                    h
                };
                match self.for_init(init) {
                    Some(i) => {
                        self.line(depth, &clause(&i));
                        self.stmts(body, depth + 1);
                        self.line(depth, "}");
                    }
                    None => {
                        // C cannot write this initialisation in the clause; a
                        // block around the loop gives it the same scope.
                        self.line(depth, "{");
                        self.stmts(init, depth + 1);
                        self.rolled(depth + 1);
                        self.directive(s.span);
                        self.line(depth + 1, &clause(""));
                        self.stmts(body, depth + 2);
                        self.line(depth + 1, "}");
                        self.line(depth, "}");
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let text = format!("while ({}) {{", self.ep.expr(cond));
                self.line(depth, &text);
                self.stmts(body, depth + 1);
                self.line(depth, "}");
            }
            StmtKind::DoWhile { body, cond } => {
                self.line(depth, "do {");
                self.stmts(body, depth + 1);
                self.directive(cond.span);
                let text = format!("}} while ({});", self.ep.expr(cond));
                self.line(depth, &text);
            }
            StmtKind::Switch { value, arms } => {
                let text = format!("switch ({}) {{", self.ep.expr(value));
                self.line(depth, &text);
                for (i, arm) in arms.iter().enumerate() {
                    self.arm(arm, &value.ty, i + 1 == arms.len(), depth + 1);
                }
                self.line(depth, "}");
            }
            StmtKind::Break => self.line(depth, "break;"),
            StmtKind::Continue => self.line(depth, "continue;"),
            StmtKind::Return(None) => self.line(depth, "return;"),
            StmtKind::Return(Some(e)) => {
                let text = format!("return {};", self.ep.expr(e));
                self.line(depth, &text);
            }
            StmtKind::Block(b) => {
                self.line(depth, "{");
                self.stmts(b, depth + 1);
                self.line(depth, "}");
            }
        }
    }

    fn arm(&mut self, arm: &SwitchArm, value_ty: &Type, last: bool, depth: usize) {
        for label in &arm.labels {
            let text = match label {
                Some(v) => match label_value(*v, value_ty) {
                    v if v == i64::MIN as i128 => format!("case ({} - 1):", i64::MIN + 1),
                    v if v > i64::MAX as i128 => format!("case {v}ull:"),
                    v => format!("case {v}:"),
                },
                None => "default:".to_string(),
            };
            self.line(depth, &text);
        }
        if arm.body.is_empty() && last && !arm.labels.is_empty() {
            // A label must label a statement; the empty statement adds nothing.
            self.line(depth + 1, ";");
        }
        self.stmts(&arm.body, depth + 1);
    }

    /// The declaration of `var` without the `;`.
    fn decl(&self, var: VarId, init: Option<&Init>) -> String {
        let mut roots = Vec::new();
        if let Some(i) = init {
            init_exprs(i, &mut roots);
        }
        self.ep.region(&roots, || self.decl_text(var, init))
    }

    fn decl_text(&self, var: VarId, init: Option<&Init>) -> String {
        let name = self.ep.var_name(var);
        let Some(v) = self.f.vars.get(var.0 as usize) else {
            return format!("int {name}");
        };
        let storage = match v.kind {
            VarKind::Shared => "__shared__ ",
            VarKind::ExternShared => "extern __shared__ ",
            VarKind::Param | VarKind::Local => "",
        };
        let mut text = format!(
            "{storage}{}",
            types::declaration_q(&v.ty, v.is_const, v.is_volatile, &name, &self.ep)
        );
        if let Some(i) = init {
            text.push_str(" = ");
            text.push_str(&self.init(i));
        }
        text
    }

    fn init(&self, i: &Init) -> String {
        init_text(&self.ep, i)
    }

    /// The first clause of a `for`, or `None` when C has no way to write
    /// `init` there: declarations share one specifier list, so they must agree
    /// on it, and declarations and expressions cannot be mixed.
    fn for_init(&self, init: &Block) -> Option<String> {
        let mut roots = Vec::new();
        for s in init {
            match &s.kind {
                StmtKind::Expr(e) => roots.push(e),
                StmtKind::Decl { init: Some(i), .. } => init_exprs(i, &mut roots),
                _ => {}
            }
        }
        self.ep.region(&roots, || self.for_init_text(init))
    }

    fn for_init_text(&self, init: &Block) -> Option<String> {
        let exprs: Option<Vec<&crate::Expr>> = init
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Expr(e) => Some(e),
                _ => None,
            })
            .collect();
        match exprs.as_deref() {
            Some([one]) => return Some(not_a_declaration(self.ep.expr(one))),
            Some(many) => {
                let texts: Vec<String> = many.iter().map(|e| self.ep.operand(e, ASSIGN)).collect();
                return Some(not_a_declaration(texts.join(", ")));
            }
            None => {}
        }
        let mut spec = None;
        let mut declarators = Vec::new();
        for s in init {
            let StmtKind::Decl { var, init } = &s.kind else {
                return None;
            };
            let v = self.f.vars.get(var.0 as usize)?;
            if v.kind != VarKind::Local {
                return None;
            }
            let (sp, mut d) = types::split(&v.ty, v.is_const, self.ep.var_name(*var), &self.ep);
            if spec.get_or_insert_with(|| sp.clone()) != &sp {
                return None;
            }
            if let Some(i) = init {
                d.push_str(" = ");
                d.push_str(&self.init(i));
            }
            declarators.push(d);
        }
        Some(types::join(
            &spec.unwrap_or_default(),
            &declarators.join(", "),
        ))
    }
}

/// An expression where a declaration could also stand (a statement, a
/// `for`'s first clause). `a * b`, `a & b`, `a && f(x)` and `a < b, c > d`
/// there read as declarations to parsers that do not know which names are
/// types, so such text is parenthesised.
fn not_a_declaration(text: String) -> String {
    let name_end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let starts_with_name = name_end > 0 && !text.starts_with(|c: char| c.is_ascii_digit());
    let rest = &text[name_end..];
    let looks_declarative = ["* ", "& ", "&& ", "< "]
        .iter()
        .any(|op| rest.strip_prefix(' ').is_some_and(|r| r.starts_with(op)));
    if starts_with_name && looks_declarative {
        format!("({text})")
    } else {
        text
    }
}

fn init_exprs<'e>(i: &'e Init, out: &mut Vec<&'e crate::Expr>) {
    match i {
        Init::Expr(e) => out.push(e),
        Init::List(items) => items.iter().for_each(|i| init_exprs(i, out)),
    }
}

/// A case label as a value of the switch's promoted type. C converts labels
/// to that type; C++ rejects a label whose value the conversion would change
/// (`case -2:` in a switch on `unsigned`), so the printer writes the converted
/// value, which both read the same way.
fn label_value(v: i64, value_ty: &Type) -> i128 {
    let (bits, signed) = match value_ty.scalar() {
        Some(Scalar::I64) => (64, true),
        Some(Scalar::U64) => (64, false),
        Some(Scalar::U32) => (32, false),
        Some(s) if s.is_integer() => (32, true),
        _ => return v as i128,
    };
    let wrapped = (v as i128).rem_euclid(1i128 << bits);
    if signed && wrapped >= 1i128 << (bits - 1) {
        wrapped - (1i128 << bits)
    } else {
        wrapped
    }
}

/// An initializer: an expression or a brace list.
pub(super) fn init_text(ep: &ExprPrinter, i: &Init) -> String {
    match i {
        Init::Expr(e) => ep.operand(e, ASSIGN),
        Init::List(items) => {
            let items: Vec<String> = items.iter().map(|i| init_text(ep, i)).collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}
