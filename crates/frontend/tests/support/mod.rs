//! Helpers shared by the integration tests.
#![allow(dead_code)]

use hone_frontend::{identity_preprocessed, lower_preprocessed, Parsed};
use hone_ir::{ArrayLen, Block, Expr, ExprKind, Function, Init, Module, StmtKind, Type};

/// The `.cu` inputs of the lowering goldens: this crate's own cases and the
/// corpus's paper listings, sorted by file name.
pub fn golden_inputs() -> Vec<std::path::PathBuf> {
    let own = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lower");
    let mut cases: Vec<_> = [
        own,
        hone_testkit::corpus("listings"),
        hone_testkit::corpus("frontend"),
        hone_testkit::corpus("cpp"),
    ]
    .iter()
    .flat_map(|dir| std::fs::read_dir(dir).expect("golden directory"))
    .map(|e| e.expect("readable entry").path())
    .filter(|p| p.extension().is_some_and(|e| e == "cu"))
    .collect();
    cases.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    cases
}

pub fn lower(name: &str, text: &str) -> Parsed {
    lower_preprocessed(&identity_preprocessed(name, text))
}

/// Structural invariants every lowered module must satisfy; returns the first
/// violation.
pub fn check_module(m: &Module) -> Result<(), String> {
    for f in &m.functions {
        let c = Checker { m, f };
        for p in &f.params {
            if p.0 as usize >= f.vars.len() {
                return Err(format!("{}: parameter {p:?} out of range", f.name));
            }
        }
        for v in &f.vars {
            if v.span.line == 0 || v.span.col == 0 {
                return Err(format!("{}: variable `{}` without a span", f.name, v.name));
            }
            c.ty(&v.ty)?;
        }
        c.block(&f.body)?;
    }
    Ok(())
}

struct Checker<'a> {
    m: &'a Module,
    f: &'a Function,
}

impl Checker<'_> {
    fn ty(&self, t: &Type) -> Result<(), String> {
        match t {
            Type::Array(e, len) => {
                if let ArrayLen::Expr(x) = len {
                    self.expr(x)?;
                }
                self.ty(e)
            }
            Type::Pointer(p) => self.ty(&p.pointee),
            _ => Ok(()),
        }
    }

    fn block(&self, b: &Block) -> Result<(), String> {
        for s in b {
            if s.span.line == 0 || s.span.col == 0 {
                return Err(format!("{}: statement without a span", self.f.name));
            }
            match &s.kind {
                StmtKind::Decl { var, init } => {
                    if var.0 as usize >= self.f.vars.len() {
                        return Err(format!("{}: declared {var:?} out of range", self.f.name));
                    }
                    if let Some(i) = init {
                        self.init(i)?;
                    }
                }
                StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e)?,
                StmtKind::If { cond, then, els } => {
                    self.expr(cond)?;
                    self.block(then)?;
                    if let Some(e) = els {
                        self.block(e)?;
                    }
                }
                StmtKind::For {
                    init,
                    cond,
                    step,
                    body,
                } => {
                    self.block(init)?;
                    if let Some(c) = cond {
                        self.expr(c)?;
                    }
                    if let Some(s) = step {
                        self.expr(s)?;
                    }
                    self.block(body)?;
                }
                StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                    self.expr(cond)?;
                    self.block(body)?;
                }
                StmtKind::Switch { value, arms } => {
                    self.expr(value)?;
                    for a in arms {
                        self.block(&a.body)?;
                    }
                }
                StmtKind::Block(b) => self.block(b)?,
                StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) => {}
            }
        }
        Ok(())
    }

    fn init(&self, i: &Init) -> Result<(), String> {
        match i {
            Init::Expr(e) => self.expr(e),
            Init::List(xs) => xs.iter().try_for_each(|x| self.init(x)),
        }
    }

    fn expr(&self, e: &Expr) -> Result<(), String> {
        let name = &self.f.name;
        if e.span.line == 0 || e.span.col == 0 {
            return Err(format!("{name}: expression without a span"));
        }
        match &e.kind {
            ExprKind::Var(id) => {
                let v = self
                    .f
                    .vars
                    .get(id.0 as usize)
                    .ok_or(format!("{name}: {id:?} out of range"))?;
                if v.ty != e.ty {
                    return Err(format!(
                        "{name}: variable `{}` used with another type",
                        v.name
                    ));
                }
            }
            ExprKind::Call(id, args) => {
                let callee = self
                    .m
                    .functions
                    .get(id.0 as usize)
                    .ok_or(format!("{name}: call of {id:?} out of range"))?;
                if callee.ret != e.ty || callee.params.len() != args.len() {
                    return Err(format!(
                        "{name}: call of `{}` disagrees with its signature",
                        callee.name
                    ));
                }
                for (a, p) in args.iter().zip(&callee.params) {
                    if a.ty != callee.vars[p.0 as usize].ty {
                        return Err(format!(
                            "{name}: argument of `{}` not converted",
                            callee.name
                        ));
                    }
                    self.expr(a)?;
                }
            }
            ExprKind::Cast {
                implicit: true,
                expr,
            } if expr.ty == e.ty => {
                return Err(format!("{name}: implicit cast to the same type"));
            }
            ExprKind::Assign { op: None, lhs, rhs } if lhs.ty != rhs.ty || lhs.ty != e.ty => {
                return Err(format!("{name}: assignment not converted"));
            }
            ExprKind::Binary(op, a, b) if op.is_comparison() && e.ty != Type::BOOL => {
                let _ = (a, b);
                return Err(format!("{name}: comparison not of type bool"));
            }
            ExprKind::Global(g) => {
                let gv = self
                    .m
                    .globals
                    .get(g.0 as usize)
                    .ok_or(format!("{name}: {g:?} out of range"))?;
                if gv.ty != e.ty {
                    return Err(format!("{name}: `{}` used with another type", gv.name));
                }
            }
            ExprKind::Field(base, i) => {
                let field = base
                    .ty
                    .as_struct()
                    .and_then(|s| s.fields.get(*i as usize))
                    .ok_or(format!(
                        "{name}: member {i} of a non-struct or out of range"
                    ))?;
                if field.ty != e.ty {
                    return Err(format!("{name}: member `{}` with another type", field.name));
                }
            }
            ExprKind::Aggregate(items) => {
                let st =
                    e.ty.as_struct()
                        .ok_or(format!("{name}: aggregate of a non-struct"))?;
                if items.len() != st.fields.len()
                    || items.iter().zip(&st.fields).any(|(x, f)| x.ty != f.ty)
                {
                    return Err(format!("{name}: aggregate of `{}` not converted", st.name));
                }
            }
            _ => {}
        }
        hone_ir::visit::children(e)
            .into_iter()
            .try_for_each(|c| self.expr(c))
    }
}
