//! The names variables are printed with.
//!
//! A variable keeps its `Var::name` unless C would then read the program
//! differently. The printer walks the function with C++'s block scopes
//! (parameters share the scope of the body's outermost block, and a `for`'s
//! initialisation shares the scope of its body's outermost block, as C++
//! forbids redeclaring either) and renames a variable when
//!
//! 1. its name is not an identifier, or is a C++/CUDA keyword, a CUDA built-in
//!    variable (`threadIdx`, `warpSize`, ...) or a built-in type name
//!    (`float4`, `dim3`, ...);
//! 2. another variable of the same scope already has its name;
//! 3. a use of some other variable, or a call of a function or intrinsic, at a
//!    point where it is in scope would find it instead (shadowing that a
//!    rewrite made wrong, or `int x = x;` meaning the outer `x`).
//!
//! Characters outside `[A-Za-z0-9_]` are first replaced by `_` (an empty name
//! becomes `v`, one starting with a digit gets a leading `_`). A renamed
//! variable becomes `<name>_<k>` with the smallest `k >= 1` that no variable of
//! the function, no module function and no reserved word has. The walk is
//! repeated until it finds no conflict; each round renames the first
//! conflicting variable in program order, so the result is deterministic.

use std::collections::{HashMap, HashSet};

use super::expr::intrinsic_name;
use crate::{ArrayLen, Block, Expr, ExprKind, Function, Init, Module, StmtKind, Type, VarId};

/// The printed name of every variable of `f`, by `VarId`.
pub(super) fn resolve(m: &Module, f: &Function) -> Vec<String> {
    let mut names: Vec<String> = f.vars.iter().map(|v| sanitize(&v.name)).collect();
    // Every round gives one variable a name no other one has, so there are at
    // most as many rounds as variables; the bound only guards against a bug.
    for _ in 0..=f.vars.len() {
        match Walk::new(m, &names).function(f) {
            Err(v) => rename(m, &mut names, v),
            Ok(()) => break,
        }
    }
    names
}

fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        s.push('v');
    } else if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

fn rename(m: &Module, names: &mut [String], v: VarId) {
    let taken: HashSet<&str> = names.iter().map(String::as_str).collect();
    let funcs: HashSet<&str> = m
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .chain(m.globals.iter().map(|g| g.name.as_str()))
        .chain(m.structs.iter().map(|s| s.name.as_str()))
        .collect();
    let base = &names[v.0 as usize];
    let mut k = 1u32;
    let fresh = loop {
        let candidate = format!("{base}_{k}");
        let free = !taken.contains(candidate.as_str())
            && !funcs.contains(candidate.as_str())
            && !is_reserved(&candidate);
        if free {
            break candidate;
        }
        k += 1;
    };
    names[v.0 as usize] = fresh;
}

#[rustfmt::skip]
const KEYWORDS: &[&str] = &[
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
    "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
    "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "restrict", "_Bool",
    "__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__",
    "__restrict__", "__launch_bounds__", "__forceinline__", "__noinline__", "__grid_constant__",
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "size_t", "NULL",
];

#[rustfmt::skip]
const VECTOR_PREFIXES: &[&str] = &[
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong",
    "float", "double",
];

fn is_reserved(name: &str) -> bool {
    if KEYWORDS.contains(&name) {
        return true;
    }
    VECTOR_PREFIXES.iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|n| matches!(n, "1" | "2" | "3" | "4"))
    })
}

/// One pass over a function with C's scopes; `Err` is the first variable
/// found in conflict, which the caller renames.
struct Walk<'a> {
    m: &'a Module,
    names: &'a [String],
    scopes: Vec<HashMap<&'a str, VarId>>,
}

type Step = Result<(), VarId>;

impl<'a> Walk<'a> {
    fn new(m: &'a Module, names: &'a [String]) -> Self {
        Walk {
            m,
            names,
            scopes: vec![HashMap::new()],
        }
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// A name the code refers to as `wanted` (a variable, or `None` for a
    /// function): finding a different variable there is a conflict of that one.
    fn refer(&self, name: &str, wanted: Option<VarId>) -> Step {
        match self.lookup(name) {
            Some(found) if Some(found) != wanted => Err(found),
            _ => Ok(()),
        }
    }

    fn function(mut self, f: &'a Function) -> Step {
        for &p in &f.params {
            self.declare(f, p)?;
        }
        self.stmts(f, &f.body)
    }

    fn declare(&mut self, f: &'a Function, v: VarId) -> Step {
        let (Some(name), Some(var)) = (self.names.get(v.0 as usize), f.vars.get(v.0 as usize))
        else {
            return Ok(());
        };
        // Array lengths are read before the declared name comes into scope.
        self.ty(&var.ty)?;
        if is_reserved(name) {
            return Err(v);
        }
        let scope = self
            .scopes
            .last_mut()
            .expect("the function scope is never popped");
        match scope.get(name.as_str()) {
            Some(&other) if other != v => Err(v),
            _ => {
                scope.insert(name, v);
                Ok(())
            }
        }
    }

    fn stmts(&mut self, f: &'a Function, b: &'a Block) -> Step {
        b.iter().try_for_each(|s| self.stmt(f, &s.kind))
    }

    fn scoped(&mut self, f: &'a Function, b: &'a Block) -> Step {
        self.scopes.push(HashMap::new());
        let r = self.stmts(f, b);
        self.scopes.pop();
        r
    }

    fn stmt(&mut self, f: &'a Function, s: &'a StmtKind) -> Step {
        match s {
            StmtKind::Decl { var, init } => {
                self.declare(f, *var)?;
                // The declared name is already in scope in its initialiser.
                match init {
                    Some(i) => self.init(i),
                    None => Ok(()),
                }
            }
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::If { cond, then, els } => {
                self.expr(cond)?;
                self.scoped(f, then)?;
                match els {
                    Some(b) => self.scoped(f, b),
                    None => Ok(()),
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.scopes.push(HashMap::new());
                let r = self.for_parts(f, init, cond.as_ref(), step.as_ref(), body);
                self.scopes.pop();
                r
            }
            StmtKind::While { cond, body } => {
                self.expr(cond)?;
                self.scoped(f, body)
            }
            StmtKind::DoWhile { body, cond } => {
                self.scoped(f, body)?;
                self.expr(cond)
            }
            StmtKind::Switch { value, arms } => {
                self.expr(value)?;
                // All arms are one block: a name declared in one is in scope in
                // the arms after it.
                self.scopes.push(HashMap::new());
                let r = arms.iter().try_for_each(|a| self.stmts(f, &a.body));
                self.scopes.pop();
                r
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) => Ok(()),
            StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Block(b) => self.scoped(f, b),
        }
    }

    /// A `for` statement's parts, all in one scope: C++ forbids redeclaring
    /// the initialisation's names in the body's outermost block.
    fn for_parts(
        &mut self,
        f: &'a Function,
        init: &'a Block,
        cond: Option<&'a Expr>,
        step: Option<&'a Expr>,
        body: &'a Block,
    ) -> Step {
        self.stmts(f, init)?;
        if let Some(c) = cond {
            self.expr(c)?;
        }
        if let Some(s) = step {
            self.expr(s)?;
        }
        self.stmts(f, body)
    }

    fn init(&self, i: &Init) -> Step {
        match i {
            Init::Expr(e) => self.expr(e),
            Init::List(items) => items.iter().try_for_each(|i| self.init(i)),
        }
    }

    fn ty(&self, t: &Type) -> Step {
        match t {
            Type::Pointer(p) => self.ty(&p.pointee),
            Type::Array(elem, len) => {
                if let ArrayLen::Expr(e) = len {
                    self.expr(e)?;
                }
                self.ty(elem)
            }
            Type::Void | Type::Scalar(_) | Type::Vector(..) | Type::Struct(_) => Ok(()),
        }
    }

    fn expr(&self, e: &Expr) -> Step {
        match &e.kind {
            ExprKind::IntLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::BoolLit(_)
            | ExprKind::Builtin(_) => Ok(()),
            ExprKind::Var(id) => match self.names.get(id.0 as usize) {
                Some(n) => self.refer(n, Some(*id)),
                None => Ok(()),
            },
            ExprKind::Global(id) => match self.m.globals.get(id.0 as usize) {
                Some(g) => self.refer(&g.name, None),
                None => Ok(()),
            },
            ExprKind::Aggregate(items) => items.iter().try_for_each(|a| self.expr(a)),
            ExprKind::Unary(_, x)
            | ExprKind::Deref(x)
            | ExprKind::AddrOf(x)
            | ExprKind::Component(x, _)
            | ExprKind::Field(x, _)
            | ExprKind::IncDec { target: x, .. } => self.expr(x),
            ExprKind::Cast { expr, .. } => {
                self.ty(&e.ty)?;
                self.expr(expr)
            }
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign { lhs: a, rhs: b, .. }
            | ExprKind::Index(a, b)
            | ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Cond(a, b, c) => {
                self.expr(a)?;
                self.expr(b)?;
                self.expr(c)
            }
            ExprKind::Call(fid, args) => {
                if let Some(callee) = self.m.functions.get(fid.0 as usize) {
                    self.refer(&callee.name, None)?;
                }
                args.iter().try_for_each(|a| self.expr(a))
            }
            ExprKind::Intrinsic(i, args) => {
                self.refer(&intrinsic_name(*i, &e.ty), None)?;
                args.iter().try_for_each(|a| self.expr(a))
            }
            ExprKind::SizeOf(t) => self.ty(t),
            ExprKind::StrLit(_) => Ok(()),
        }
    }
}
