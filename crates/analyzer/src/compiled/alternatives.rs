//! Loads that are alternatives of one another: in the arms of an
//! `if / else if / else` chain, each arm setting the same variable from one
//! load (`n = north[ty][tx]` in one arm, `n = temp[ty - 1][tx]` in the next,
//! as stencils handle their borders). Compilers merge such loads: arms that
//! load the same expression share one block, and loads common to every arm
//! are sunk to where the arms join, one load of the address each lane's arm
//! names. The warp then makes one request where the source makes one per
//! arm. Which loads were merged shows in the compiled code's line
//! information: a merged load's line has no instruction, and the merged
//! instruction carries the line of one of them.

use std::collections::HashMap;

use hone_ir::{Block, Expr, ExprKind, Module, Span, Stmt, StmtKind, VarId};

/// One arm's assignment of a chain variable.
#[derive(Clone, Debug)]
pub struct Member {
    /// The memory accesses of the value it assigns (its site is one).
    pub spans: Vec<Span>,
    /// The value assigned.
    pub value: Expr,
    pub file: u32,
    pub line: u32,
}

/// One chain variable's assignments, one per arm.
pub type Group = Vec<Member>;

/// Loads the compiled code makes one: the member whose line has the
/// instruction first.
pub type Cluster = Vec<Member>;

/// Arms longer than this are left as branches by compilers.
const SHORT_ARM: usize = 8;

/// The groups of every function of the module.
pub fn alternatives(module: &Module) -> Vec<Group> {
    let mut out = Vec::new();
    for f in &module.functions {
        walk(&f.body, &mut out);
    }
    out
}

/// The loads of each group that the compiled code made one, given which
/// lines have a load instruction (`has_load(file, line)`): a load on a line
/// without one joins the member with an instruction that loads the same
/// value (the nearest before it, else after it), or, where a single member
/// has an instruction, that member (the load sunk to the join); where none
/// has one, the sunk load took the line of the join, and all are one.
pub fn clusters(groups: &[Group], has_load: impl Fn(u32, u32) -> bool) -> Vec<Cluster> {
    let mut out = Vec::new();
    for g in groups {
        let (kept, merged): (Vec<&Member>, Vec<&Member>) =
            g.iter().partition(|m| has_load(m.file, m.line));
        if merged.is_empty() {
            continue;
        }
        if kept.is_empty() {
            out.push(g.clone());
            continue;
        }
        let mut joined: Vec<Vec<&Member>> = kept.iter().map(|k| vec![*k]).collect();
        for m in merged {
            let same = |k: &&Member| k.value == m.value;
            let before = kept
                .iter()
                .enumerate()
                .filter(|(_, k)| same(k) && k.line < m.line)
                .max_by_key(|(_, k)| k.line);
            let after = kept
                .iter()
                .enumerate()
                .filter(|(_, k)| same(k) && k.line > m.line)
                .min_by_key(|(_, k)| k.line);
            let at = match (before.or(after), kept.len()) {
                (Some((i, _)), _) => i,
                (None, 1) => 0,
                (None, _) => continue,
            };
            joined[at].push(m);
        }
        out.extend(
            joined
                .into_iter()
                .filter(|c| c.len() >= 2)
                .map(|c| c.into_iter().cloned().collect()),
        );
    }
    out
}

/// The spans of every cluster, mapped to the cluster's index.
pub fn index(clusters: &[Cluster]) -> HashMap<Span, usize> {
    let mut out = HashMap::new();
    for (c, members) in clusters.iter().enumerate() {
        for span in members.iter().flat_map(|m| &m.spans) {
            out.insert(*span, c);
        }
    }
    out
}

fn walk(b: &Block, out: &mut Vec<Group>) {
    for s in b {
        match &s.kind {
            StmtKind::If { .. } => {
                let arms = arms(s);
                chain(&arms, out);
                // Statements nested in the arms, not the chain's own `else if`s.
                for a in arms {
                    walk(a, out);
                }
            }
            _ => {
                for child in hone_ir::visit::child_blocks(s) {
                    walk(child, out);
                }
            }
        }
    }
}

/// The arms of the chain an `if` starts: `then`, and each `else if`'s, and
/// a last `else`.
fn arms(s: &Stmt) -> Vec<&Block> {
    let mut out = Vec::new();
    let mut at = s;
    while let StmtKind::If { then, els, .. } = &at.kind {
        out.push(then);
        match els {
            Some(last) => match last.as_slice() {
                [next @ Stmt {
                    kind: StmtKind::If { .. },
                    ..
                }] => at = next,
                _ => {
                    out.push(last);
                    break;
                }
            },
            None => break,
        }
    }
    out
}

fn chain(arms: &[&Block], out: &mut Vec<Group>) {
    if arms.len() < 2 {
        return;
    }
    // Per arm: the variable each plain assignment sets, with its loads.
    let mut per_arm: Vec<HashMap<VarId, Member>> = Vec::new();
    for a in arms {
        if a.len() > SHORT_ARM {
            return;
        }
        let mut sets = HashMap::new();
        for s in a.iter() {
            let StmtKind::Expr(Expr {
                kind: ExprKind::Assign { op: None, lhs, rhs },
                ..
            }) = &s.kind
            else {
                return;
            };
            let ExprKind::Var(v) = lhs.kind else {
                return;
            };
            sets.insert(
                v,
                Member {
                    spans: loads(rhs),
                    value: (**rhs).clone(),
                    file: s.span.file,
                    line: s.span.line,
                },
            );
        }
        per_arm.push(sets);
    }
    let mut vars: Vec<VarId> = per_arm[0].keys().copied().collect();
    vars.sort_by_key(|v| v.0);
    for v in vars {
        let group: Group = per_arm
            .iter()
            .filter_map(|sets| sets.get(&v).cloned())
            .filter(|m| !m.spans.is_empty())
            .collect();
        if group.len() >= 2 {
            out.push(group);
        }
    }
}

/// Spans of the expressions of `e` that may read memory.
fn loads(e: &Expr) -> Vec<Span> {
    let mut out = Vec::new();
    hone_ir::visit::visit_expr(e, &mut |x| {
        if matches!(
            x.kind,
            ExprKind::Index(..) | ExprKind::Deref(..) | ExprKind::Field(..)
        ) {
            out.push(x.span);
        }
    });
    out
}
