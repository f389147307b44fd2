//! Stores that the next statement may overwrite: `a[i] = x;` followed by
//! `if (c) a[i] = y;` (a default that a border case replaces). Compilers
//! make the pair one store of the value chosen, so the warp makes one request
//! where the source makes two whenever `c` holds. Whether they did shows in
//! the compiled code's line information: the conditional store's line has no
//! store instruction.

use hone_ir::{Block, Expr, ExprKind, Module, Span, Stmt, StmtKind};

/// A conditional store that overwrites the store before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overwrite {
    /// The conditional store's assignment (a store site's span).
    pub span: Span,
    /// Where the conditional store is written.
    pub file: u32,
    pub line: u32,
    /// The line of the store it overwrites.
    pub overwritten: u32,
}

/// The overwrites of every function of the module.
pub fn overwrites(module: &Module) -> Vec<Overwrite> {
    let mut out = Vec::new();
    for f in &module.functions {
        walk(&f.body, &mut out);
    }
    out
}

fn walk(b: &Block, out: &mut Vec<Overwrite>) {
    for pair in b.windows(2) {
        if let (Some(first), Some((assign, target))) = (store(&pair[0]), guarded_store(&pair[1])) {
            if first.0 == target {
                out.push(Overwrite {
                    span: assign.span,
                    file: assign.span.file,
                    line: assign.span.line,
                    overwritten: pair[0].span.line,
                });
            }
        }
    }
    for s in b {
        for child in hone_ir::visit::child_blocks(s) {
            walk(child, out);
        }
    }
}

/// `target = value;` where the target is in memory: (target, value).
fn store(s: &Stmt) -> Option<(&Expr, &Expr)> {
    let StmtKind::Expr(Expr {
        kind: ExprKind::Assign { op: None, lhs, rhs },
        ..
    }) = &s.kind
    else {
        return None;
    };
    matches!(
        lhs.kind,
        ExprKind::Index(..) | ExprKind::Deref(..) | ExprKind::Field(..)
    )
    .then_some((&**lhs, &**rhs))
}

/// `if (c) target = value;` with no `else`: the assignment and its target.
fn guarded_store(s: &Stmt) -> Option<(&Expr, &Expr)> {
    let StmtKind::If {
        then, els: None, ..
    } = &s.kind
    else {
        return None;
    };
    let mut arm = then;
    loop {
        match arm.as_slice() {
            [Stmt {
                kind: StmtKind::Block(inner),
                ..
            }] => arm = inner,
            [only] => {
                let StmtKind::Expr(assign) = &only.kind else {
                    return None;
                };
                return store(only).map(|(target, _)| (assign, target));
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_border_case_replacing_a_default_store_is_found() {
        let src = "#define B 16\n\
            __global__ void k(const float* c, int n) {\n\
                __shared__ float s[B][B];\n\
                int tx = threadIdx.x, ty = threadIdx.y;\n\
                s[ty][tx] = c[ty * n + tx];\n\
                if (blockIdx.y == gridDim.y - 1) {\n\
                    s[ty][tx] = c[tx];\n\
                }\n\
                if (blockIdx.x == 0) s[tx][ty] = 0.0f;\n\
                __syncthreads();\n\
            }\n";
        let p = hone_frontend::parse_source("t.cu", src, &Default::default()).unwrap();
        let found = overwrites(&p.module);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].line, found[0].overwritten), (7, 5));
    }
}
