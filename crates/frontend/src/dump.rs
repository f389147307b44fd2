//! A compact, stable textual dump of lowered IR, with the type of every
//! expression: the format of the front end's golden tests, and a debugging aid.
//!
//! Expressions are S-expressions `(op:type operands...)`; leaves are
//! `name%id:type`, `literal:type`, `threadIdx.x:u32`. Implicit conversions are
//! `icast`, explicit ones `cast`. Statements are one per line with their
//! `@line:col`, nested blocks indented.

use std::fmt::Write;

use hone_ir::{
    ArrayLen, Block, Builtin, Expr, ExprKind, FuncKind, Function, Init, Intrinsic, Module, Scalar,
    Stmt, StmtKind, Type, UnaryOp, VarKind,
};

pub fn dump(m: &Module) -> String {
    let mut out = String::new();
    for s in &m.structs {
        let fields: Vec<String> = s
            .fields
            .iter()
            .map(|f| format!("{}@{}: {}", f.name, f.offset, type_str(&f.ty)))
            .collect();
        let keyword = if s.kind == hone_ir::RecordKind::Union {
            "union"
        } else {
            "struct"
        };
        let _ = writeln!(
            out,
            "{keyword} {} size {} align {} {{{}}}",
            s.name,
            s.size,
            s.align,
            fields.join(", ")
        );
    }
    for g in &m.globals {
        let space = match g.space {
            hone_ir::GlobalSpace::Constant => "constant",
            hone_ir::GlobalSpace::Device => "device",
            hone_ir::GlobalSpace::Shared if g.is_extern => "extern shared",
            hone_ir::GlobalSpace::Shared => "shared",
        };
        let mut t = format!("global {}: {} ({space}", g.name, type_str(&g.ty));
        if g.is_const {
            t.push_str(" const");
        }
        if g.is_volatile {
            t.push_str(" volatile");
        }
        t.push(')');
        if let Some(i) = &g.init {
            let _ = write!(t, " = {}", init_str(m, i));
        }
        let _ = writeln!(out, "{t}");
    }
    let top = !out.is_empty();
    for (i, f) in m.functions.iter().enumerate() {
        if i > 0 || top {
            out.push('\n');
        }
        Dumper {
            m,
            f,
            out: &mut out,
        }
        .function();
    }
    out
}

pub fn type_str(t: &Type) -> String {
    match t {
        Type::Void => "void".into(),
        Type::Scalar(s) => scalar_str(*s).into(),
        Type::Vector(s, n) => format!("{}x{n}", scalar_str(*s)),
        Type::Pointer(p) => format!(
            "*{}{}{}{}",
            if p.restrict { "restrict " } else { "" },
            if p.pointee_const { "const " } else { "" },
            if p.pointee_volatile { "volatile " } else { "" },
            type_str(&p.pointee)
        ),
        Type::Struct(s) => format!("struct {}", s.name),
        Type::Array(e, ArrayLen::Const(n)) => format!("[{}; {n}]", type_str(e)),
        Type::Array(e, ArrayLen::Unsized) => format!("[{}; ?]", type_str(e)),
        Type::Array(e, ArrayLen::Expr(x)) => format!("[{}; {}]", type_str(e), expr_str(None, x)),
    }
}

fn scalar_str(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "bool",
        Scalar::I8 => "i8",
        Scalar::U8 => "u8",
        Scalar::I16 => "i16",
        Scalar::U16 => "u16",
        Scalar::I32 => "i32",
        Scalar::U32 => "u32",
        Scalar::I64 => "i64",
        Scalar::U64 => "u64",
        Scalar::F32 => "f32",
        Scalar::F64 => "f64",
    }
}

fn builtin_str(b: Builtin) -> String {
    match b {
        Builtin::ThreadIdx(d) => format!("threadIdx.{}", d.name()),
        Builtin::BlockIdx(d) => format!("blockIdx.{}", d.name()),
        Builtin::BlockDim(d) => format!("blockDim.{}", d.name()),
        Builtin::GridDim(d) => format!("gridDim.{}", d.name()),
        Builtin::WarpSize => "warpSize".into(),
    }
}

/// An expression; `ctx` names variables and callees when available.
fn expr_str(ctx: Option<(&Module, &Function)>, e: &Expr) -> String {
    let ty = type_str(&e.ty);
    let sub = |x: &Expr| expr_str(ctx, x);
    let node = |op: &str, args: Vec<String>| {
        if args.is_empty() {
            format!("({op}:{ty})")
        } else {
            format!("({op}:{ty} {})", args.join(" "))
        }
    };
    match &e.kind {
        ExprKind::IntLit(v) => format!("{v}:{ty}"),
        ExprKind::FloatLit(v) => format!("{v:?}:{ty}"),
        ExprKind::BoolLit(b) => format!("{b}:{ty}"),
        ExprKind::Var(id) => {
            let name = ctx
                .and_then(|(_, f)| f.vars.get(id.0 as usize))
                .map(|v| v.name.as_str())
                .unwrap_or("");
            format!("{name}%{}:{ty}", id.0)
        }
        ExprKind::Global(id) => {
            let name = ctx
                .and_then(|(m, _)| m.globals.get(id.0 as usize))
                .map(|g| g.name.as_str())
                .unwrap_or("");
            format!("{name}@{}:{ty}", id.0)
        }
        ExprKind::Field(a, i) => {
            let name =
                a.ty.as_struct()
                    .and_then(|s| s.fields.get(*i as usize))
                    .map(|f| f.name.as_str())
                    .unwrap_or("?");
            node(&format!(".{name}"), vec![sub(a)])
        }
        ExprKind::Aggregate(items) => node("aggregate", items.iter().map(sub).collect()),
        ExprKind::Builtin(b) => format!("{}:{ty}", builtin_str(*b)),
        ExprKind::Unary(op, a) => {
            let op = match op {
                UnaryOp::Neg => "neg",
                UnaryOp::Plus => "plus",
                UnaryOp::Not => "not",
                UnaryOp::BitNot => "bitnot",
            };
            node(op, vec![sub(a)])
        }
        ExprKind::Binary(op, a, b) => node(op.symbol(), vec![sub(a), sub(b)]),
        ExprKind::Assign { op, lhs, rhs } => {
            let op = match op {
                None => "=".to_string(),
                Some(o) => format!("{}=", o.symbol()),
            };
            node(&op, vec![sub(lhs), sub(rhs)])
        }
        ExprKind::IncDec {
            increment,
            prefix,
            target,
        } => {
            let op = format!(
                "{}{}",
                if *prefix { "pre" } else { "post" },
                if *increment { "++" } else { "--" }
            );
            node(&op, vec![sub(target)])
        }
        ExprKind::Cond(c, a, b) => node("cond", vec![sub(c), sub(a), sub(b)]),
        ExprKind::Cast { implicit, expr } => {
            node(if *implicit { "icast" } else { "cast" }, vec![sub(expr)])
        }
        ExprKind::Index(a, b) => node("index", vec![sub(a), sub(b)]),
        ExprKind::Component(a, i) => {
            let c = ["x", "y", "z", "w"]
                .get(*i as usize)
                .copied()
                .unwrap_or("?");
            node(&format!(".{c}"), vec![sub(a)])
        }
        ExprKind::Deref(a) => node("deref", vec![sub(a)]),
        ExprKind::AddrOf(a) => node("addr", vec![sub(a)]),
        ExprKind::Call(id, args) => {
            let name = ctx
                .and_then(|(m, _)| m.functions.get(id.0 as usize))
                .map(|f| f.name.clone())
                .unwrap_or_else(|| format!("#{}", id.0));
            node(&format!("call {name}"), args.iter().map(sub).collect())
        }
        ExprKind::Intrinsic(i, args) => {
            let name = match i {
                Intrinsic::MakeVector => "make_vector".to_string(),
                i => i.name(),
            };
            node(&name, args.iter().map(sub).collect())
        }
        ExprKind::Comma(a, b) => node("comma", vec![sub(a), sub(b)]),
        ExprKind::SizeOf(t) => node("sizeof", vec![type_str(t)]),
        ExprKind::StrLit(t) => format!("{t:?}"),
    }
}

fn init_str(m: &Module, i: &Init) -> String {
    match i {
        Init::Expr(e) => match m.functions.first() {
            Some(f) => expr_str(Some((m, f)), e),
            None => expr_str(None, e),
        },
        Init::List(xs) => {
            let items: Vec<String> = xs.iter().map(|x| init_str(m, x)).collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

struct Dumper<'m, 'o> {
    m: &'m Module,
    f: &'m Function,
    out: &'o mut String,
}

impl Dumper<'_, '_> {
    fn e(&self, e: &Expr) -> String {
        expr_str(Some((self.m, self.f)), e)
    }

    /// `@line:col`, with the file name when it is not the main file.
    fn at(&self, span: hone_ir::Span) -> String {
        if span.file == 0 {
            format!("@{}:{}", span.line, span.col)
        } else {
            format!("@{}", self.m.location(span))
        }
    }

    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "  ".repeat(depth));
    }

    fn function(&mut self) {
        let f = self.f;
        let kind = match f.kind {
            FuncKind::Global => "global",
            FuncKind::Device => "device",
        };
        let params: Vec<String> = f.params.iter().map(|p| format!("%{}", p.0)).collect();
        let mut head = format!(
            "{kind} {}({}) -> {}",
            f.name,
            params.join(", "),
            type_str(&f.ret)
        );
        if let Some((max, min)) = f.launch_bounds {
            let _ = write!(head, " launch_bounds({max}");
            if let Some(min) = min {
                let _ = write!(head, ", {min}");
            }
            head.push(')');
        }
        if let Some(i) = &f.inline {
            let _ = write!(head, " {i}");
        }
        let _ = write!(head, " {}", self.at(f.span));
        self.line(0, &head);
        for (i, v) in f.vars.iter().enumerate() {
            let kind = match v.kind {
                VarKind::Param => "param",
                VarKind::Local => "local",
                VarKind::Shared => "shared",
                VarKind::ExternShared => "extern shared",
            };
            let c = if v.is_const { " const" } else { "" };
            let c = if v.is_volatile {
                format!("{c} volatile")
            } else {
                c.to_string()
            };
            let text = format!(
                "%{i} {}: {} ({kind}{c}) {}",
                v.name,
                type_str(&v.ty),
                self.at(v.span)
            );
            self.line(1, &text);
        }
        self.block(1, &f.body);
    }

    fn block(&mut self, depth: usize, b: &Block) {
        for s in b {
            self.stmt(depth, s);
        }
    }

    fn stmt(&mut self, d: usize, s: &Stmt) {
        let at = self.at(s.span);
        match &s.kind {
            StmtKind::Decl { var, init } => {
                let mut t = format!("decl %{}", var.0);
                if let Some(i) = init {
                    let _ = write!(t, " = {}", self.init(i));
                }
                self.line(d, &format!("{t} {at}"));
            }
            StmtKind::Expr(e) => {
                let t = format!("expr {} {at}", self.e(e));
                self.line(d, &t);
            }
            StmtKind::If { cond, then, els } => {
                let t = format!("if {} {at}", self.e(cond));
                self.line(d, &t);
                self.line(d + 1, "then");
                self.block(d + 2, then);
                if let Some(els) = els {
                    self.line(d + 1, "else");
                    self.block(d + 2, els);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.line(d, &format!("for {at}"));
                if !init.is_empty() {
                    self.line(d + 1, "init");
                    self.block(d + 2, init);
                }
                if let Some(c) = cond {
                    let t = format!("cond {}", self.e(c));
                    self.line(d + 1, &t);
                }
                if let Some(s) = step {
                    let t = format!("step {}", self.e(s));
                    self.line(d + 1, &t);
                }
                self.line(d + 1, "body");
                self.block(d + 2, body);
            }
            StmtKind::While { cond, body } => {
                let t = format!("while {} {at}", self.e(cond));
                self.line(d, &t);
                self.block(d + 1, body);
            }
            StmtKind::DoWhile { body, cond } => {
                let t = format!("do-while {} {at}", self.e(cond));
                self.line(d, &t);
                self.block(d + 1, body);
            }
            StmtKind::Switch { value, arms } => {
                let t = format!("switch {} {at}", self.e(value));
                self.line(d, &t);
                for a in arms {
                    let labels: Vec<String> = a
                        .labels
                        .iter()
                        .map(|l| match l {
                            Some(v) => format!("case {v}"),
                            None => "default".into(),
                        })
                        .collect();
                    self.line(d + 1, &labels.join(", "));
                    self.block(d + 2, &a.body);
                }
            }
            StmtKind::Break => self.line(d, &format!("break {at}")),
            StmtKind::Continue => self.line(d, &format!("continue {at}")),
            StmtKind::Return(None) => self.line(d, &format!("return {at}")),
            StmtKind::Return(Some(e)) => {
                let t = format!("return {} {at}", self.e(e));
                self.line(d, &t);
            }
            StmtKind::Block(b) => {
                self.line(d, &format!("block {at}"));
                self.block(d + 1, b);
            }
        }
    }

    fn init(&self, i: &Init) -> String {
        match i {
            Init::Expr(e) => self.e(e),
            Init::List(xs) => {
                let items: Vec<String> = xs.iter().map(|x| self.init(x)).collect();
                format!("{{{}}}", items.join(", "))
            }
        }
    }
}
