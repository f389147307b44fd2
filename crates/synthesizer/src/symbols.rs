//! The symbols recorded at each site and offered to the search: thread and
//! block ids and dimensions, and integer variables in scope (section 4.2.2).
//!
//! The thesis has the user choose the variables, since every extra one
//! multiplies the candidate space. Without `--vars`, hone takes the
//! variables that matter to a shared-memory index: those in the marked
//! expression and in its variables' definitions, those in the indices of the
//! stores into shared memory, and helper variables the kernel computes but
//! never uses (written for the synthesized code) with the variables they are
//! computed from, plus `threadIdx` and
//! `blockDim` of every dimension the profile launches span.

use std::collections::BTreeMap;

use hone_ir::{
    Builtin, Dim, Expr, ExprKind, Function, Init, Scalar, StmtKind, Type, VarId, VarKind,
};

use hone_ir::build::{self, peel};
use hone_ir::path as walk;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymKind {
    Builtin(Builtin),
    Var(VarId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    pub kind: SymKind,
    pub name: String,
    pub ty: Type,
    /// The launch axis the symbol belongs to: that of a thread or block id
    /// or dimension, of a variable computed from those of one axis only
    /// (`i = blockDim.x * blockIdx.x + threadIdx.x`), or of a size compared
    /// with such a variable (`nx` in `i == nx - 1`).
    pub axis: Option<u8>,
}

impl Symbol {
    pub fn builtin(b: Builtin) -> Symbol {
        let name = match b {
            Builtin::ThreadIdx(d) => format!("threadIdx.{}", d.name()),
            Builtin::BlockIdx(d) => format!("blockIdx.{}", d.name()),
            Builtin::BlockDim(d) => format!("blockDim.{}", d.name()),
            Builtin::GridDim(d) => format!("gridDim.{}", d.name()),
            Builtin::WarpSize => "warpSize".into(),
        };
        let axis = match b {
            Builtin::ThreadIdx(d)
            | Builtin::BlockIdx(d)
            | Builtin::BlockDim(d)
            | Builtin::GridDim(d) => Some(d.index() as u8),
            Builtin::WarpSize => None,
        };
        Symbol {
            kind: SymKind::Builtin(b),
            name,
            ty: Type::UINT,
            axis,
        }
    }

    pub fn var(f: &Function, v: VarId) -> Symbol {
        Symbol {
            kind: SymKind::Var(v),
            name: f.var(v).name.clone(),
            ty: f.var(v).ty.clone(),
            axis: var_axis(f, v),
        }
    }

    /// The symbol as an expression of the kernel.
    pub fn expr(&self, span: hone_ir::Span) -> Expr {
        match self.kind {
            SymKind::Builtin(b) => build::builtin(b, span),
            SymKind::Var(v) => build::var(v, &self.ty, span),
        }
    }
}

pub fn is_integer(ty: &Type) -> bool {
    matches!(ty, Type::Scalar(s) if s.is_integer() && *s != Scalar::Bool)
}

/// For each variable, the variables read by the expressions assigned to it.
pub fn definitions(f: &Function) -> BTreeMap<VarId, Vec<VarId>> {
    let mut defs: BTreeMap<VarId, Vec<VarId>> = BTreeMap::new();
    walk::each_stmt(&f.body, &mut |s, _| {
        if let StmtKind::Decl {
            var,
            init: Some(Init::Expr(e)),
        } = &s.kind
        {
            walk::vars_read(e, defs.entry(*var).or_default());
        }
    });
    walk::each_expr(&f.body, &mut |e, _, _| match &e.kind {
        ExprKind::Assign { op, lhs, rhs } => {
            if let ExprKind::Var(v) = peel(lhs).kind {
                let out = defs.entry(v).or_default();
                if op.is_some() && !out.contains(&v) {
                    out.push(v);
                }
                walk::vars_read(rhs, out);
            }
        }
        ExprKind::IncDec { target, .. } => {
            if let ExprKind::Var(v) = peel(target).kind {
                let out = defs.entry(v).or_default();
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        _ => {}
    });
    defs
}

/// What is known of a variable's launch axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    Unknown,
    One(u8),
    Mixed,
}

fn builtin_axis(e: &Expr) -> Option<u8> {
    match e.kind {
        ExprKind::Builtin(
            Builtin::ThreadIdx(d)
            | Builtin::BlockIdx(d)
            | Builtin::BlockDim(d)
            | Builtin::GridDim(d),
        ) => Some(d.index() as u8),
        _ => None,
    }
}

/// The leaves added or compared at the top of `e` (through `+`, `-`,
/// comparisons, negation and casts, not through products or calls).
fn additive_leaves<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    use hone_ir::BinaryOp as B;
    match &e.kind {
        ExprKind::Binary(B::Add | B::Sub | B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge, a, b) => {
            additive_leaves(a, out);
            additive_leaves(b, out);
        }
        ExprKind::Cast { expr, .. } | ExprKind::Unary(hone_ir::UnaryOp::Neg, expr) => {
            additive_leaves(expr, out)
        }
        ExprKind::Var(_) | ExprKind::Builtin(_) => out.push(e),
        _ => {}
    }
}

/// Launch axes of the kernel's variables: a variable computed (through
/// other variables) from thread and block ids and dimensions of one axis
/// has that axis, one computed from several has none; a variable not
/// computed from them (a size parameter) takes the axis of what it is added
/// to or compared with (`i == nx - 1` gives `nx` the axis of `i`).
fn axes(f: &Function) -> BTreeMap<VarId, Axis> {
    let defs = definitions(f);
    let mut masks: BTreeMap<VarId, u8> = BTreeMap::new();
    let mut note = |var: VarId, e: &Expr| {
        walk::visit(e, &mut |x| {
            if let Some(d) = builtin_axis(x) {
                *masks.entry(var).or_default() |= 1 << d;
            }
        })
    };
    walk::each_stmt(&f.body, &mut |s, _| {
        if let StmtKind::Decl {
            var,
            init: Some(Init::Expr(e)),
        } = &s.kind
        {
            note(*var, e);
        }
    });
    walk::each_expr(&f.body, &mut |e, _, _| {
        if let ExprKind::Assign { lhs, rhs, .. } = &e.kind {
            if let ExprKind::Var(var) = peel(lhs).kind {
                note(var, rhs);
            }
        }
    });
    // Axes flow along definitions until nothing changes.
    for _ in 0..16 {
        let mut changed = false;
        for (var, uses) in &defs {
            let mut m = masks.get(var).copied().unwrap_or(0);
            for u in uses {
                m |= masks.get(u).copied().unwrap_or(0);
            }
            if m != masks.get(var).copied().unwrap_or(0) {
                masks.insert(*var, m);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out: BTreeMap<VarId, Axis> = (0..f.vars.len() as u32)
        .map(VarId)
        .map(|v| {
            let a = match masks.get(&v).copied().unwrap_or(0) {
                0 => Axis::Unknown,
                m if m.count_ones() == 1 => Axis::One(m.trailing_zeros() as u8),
                _ => Axis::Mixed,
            };
            (v, a)
        })
        .collect();
    // Then from use: sums and comparisons with exactly one known axis.
    let mut groups: Vec<Vec<&Expr>> = Vec::new();
    walk::each_expr(&f.body, &mut |e, _, _| {
        if let ExprKind::Binary(op, _, _) = &e.kind {
            if op.is_comparison() {
                let mut leaves = Vec::new();
                additive_leaves(e, &mut leaves);
                groups.push(leaves);
            }
        }
    });
    for _ in 0..4 {
        let mut changed = false;
        for g in &groups {
            let mut found: Vec<u8> = Vec::new();
            for leaf in g {
                let a = match leaf.kind {
                    ExprKind::Var(v) => match out[&v] {
                        Axis::One(a) => Some(a),
                        _ => None,
                    },
                    _ => builtin_axis(leaf),
                };
                if let Some(a) = a {
                    if !found.contains(&a) {
                        found.push(a);
                    }
                }
            }
            if let [a] = found[..] {
                for leaf in g {
                    if let ExprKind::Var(v) = leaf.kind {
                        if out[&v] == Axis::Unknown {
                            out.insert(v, Axis::One(a));
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    out
}

/// The launch axis of variable `v` (see [`Symbol::axis`]).
pub fn var_axis(f: &Function, v: VarId) -> Option<u8> {
    match axes(f).get(&v) {
        Some(Axis::One(a)) => Some(*a),
        _ => None,
    }
}

/// Local integer variables assigned but never read: helpers declared for the
/// code to be synthesized (as `csb` in the thesis's source 4.8).
pub fn unused_helpers(f: &Function) -> Vec<VarId> {
    let mut all_read = Vec::new();
    walk::each_stmt(&f.body, &mut |s, _| {
        for (_, e) in walk::stmt_exprs(s) {
            walk::vars_read(e, &mut all_read);
        }
    });
    (0..f.vars.len() as u32)
        .map(VarId)
        .filter(|v| {
            let var = f.var(*v);
            var.kind == VarKind::Local && is_integer(&var.ty) && !all_read.contains(v)
        })
        .collect()
}

/// Integer variables read in the index expressions of stores into shared
/// arrays (the user's copies into shared memory).
pub fn shared_store_index_vars(f: &Function) -> Vec<VarId> {
    let mut out = Vec::new();
    walk::each_expr(&f.body, &mut |e, _, _| {
        if let ExprKind::Assign { lhs, .. } = &e.kind {
            if let ExprKind::Index(base, idx) = &peel(lhs).kind {
                if let ExprKind::Var(b) = peel(base).kind {
                    if matches!(f.var(b).kind, VarKind::Shared | VarKind::ExternShared) {
                        walk::vars_read(idx, &mut out);
                    }
                }
            }
        }
    });
    out
}

/// `threadIdx` and `blockDim` of the dimensions some launch's block spans.
pub fn thread_builtins(blocks: &[[u32; 3]]) -> Vec<Symbol> {
    let dims = [Dim::X, Dim::Y, Dim::Z];
    let used: Vec<Dim> = dims
        .into_iter()
        .filter(|d| blocks.iter().any(|b| b[d.index()] > 1))
        .collect();
    let mut out: Vec<Symbol> = used
        .iter()
        .map(|&d| Symbol::builtin(Builtin::ThreadIdx(d)))
        .collect();
    out.extend(used.iter().map(|&d| Symbol::builtin(Builtin::BlockDim(d))));
    out
}

/// The default symbols of a site: see the module documentation. `seeds` are
/// the expressions whose variables (and their definitions) are wanted;
/// `scope` the variables visible where the synthesized code goes.
pub fn default_symbols(
    f: &Function,
    seeds: &[&Expr],
    scope: &[VarId],
    blocks: &[[u32; 3]],
) -> Vec<Symbol> {
    let defs = definitions(f);
    let mut vars: Vec<VarId> = Vec::new();
    let push = |v: VarId, vars: &mut Vec<VarId>| {
        if !vars.contains(&v) && is_integer(&f.var(v).ty) && scope.contains(&v) {
            vars.push(v);
        }
    };
    for v in shared_store_index_vars(f) {
        push(v, &mut vars);
    }
    let mut direct = Vec::new();
    for e in seeds {
        let idx = match &peel(e).kind {
            ExprKind::Index(_, idx) => idx,
            _ => *e,
        };
        walk::vars_read(idx, &mut direct);
    }
    for &v in &direct {
        push(v, &mut vars);
        for &d in defs.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
            push(d, &mut vars);
        }
    }
    for v in unused_helpers(f) {
        push(v, &mut vars);
        for &d in defs.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
            push(d, &mut vars);
        }
    }
    let mut out = thread_builtins(blocks);
    out.extend(vars.into_iter().map(|v| Symbol::var(f, v)));
    out
}

/// Resolves `--vars` names: builtins (`threadIdx.x`, `blockDim.y`,
/// `blockIdx.z`, `gridDim.x`) and integer variables in scope (the innermost
/// of that name).
pub fn named_symbols(
    f: &Function,
    names: &[String],
    scope: &[VarId],
    at: &str,
) -> Result<Vec<Symbol>, String> {
    let mut out = Vec::new();
    for name in names {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        let builtin = name.split_once('.').and_then(|(base, d)| {
            let d = match d {
                "x" => Dim::X,
                "y" => Dim::Y,
                "z" => Dim::Z,
                _ => return None,
            };
            Some(match base {
                "threadIdx" => Builtin::ThreadIdx(d),
                "blockIdx" => Builtin::BlockIdx(d),
                "blockDim" => Builtin::BlockDim(d),
                "gridDim" => Builtin::GridDim(d),
                _ => return None,
            })
        });
        let sym = if let Some(b) = builtin {
            Symbol::builtin(b)
        } else if let Some(&v) = scope.iter().rev().find(|v| f.var(**v).name == name) {
            if !is_integer(&f.var(v).ty) {
                return Err(format!("--vars: `{name}` is not an integer variable"));
            }
            Symbol::var(f, v)
        } else {
            let known: Vec<&str> = scope
                .iter()
                .filter(|v| is_integer(&f.var(**v).ty))
                .map(|v| f.var(*v).name.as_str())
                .collect();
            return Err(format!(
                "--vars: no integer variable `{name}` in scope at {at} (in scope: {}; builtins are written threadIdx.x, blockDim.y, blockIdx.x, gridDim.x)",
                known.join(", ")
            ));
        };
        if !out.contains(&sym) {
            out.push(sym);
        }
    }
    Ok(out)
}
