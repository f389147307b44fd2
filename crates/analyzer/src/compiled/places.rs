//! Where each expression of a kernel lands in the compiled code's line
//! information: the line of the statement the printer gave a `#line`
//! directive to, and the loops around it, counting those around the calls
//! of the device function it is in.

use std::collections::HashMap;

use hone_ir::{Block, Expr, ExprKind, FuncId, Init, Module, Span, Stmt, StmtKind};

/// The place of one expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: u32,
    pub line: u32,
    /// Loops around it in its function, plus the fewest loops around any
    /// call of that function from the kernel.
    pub depth: u32,
    /// How many copies of its function the kernel's code holds once every
    /// call is inlined (1 for the kernel itself).
    pub copies: u32,
}

/// Places of the expressions of the kernel and of the functions it calls,
/// by span.
pub fn places(module: &Module, kernel: FuncId) -> HashMap<Span, Place> {
    let mut local: HashMap<u32, Vec<(Span, Place)>> = HashMap::new();
    // Calls found in each function: (callee, loops around the call).
    let mut calls: HashMap<u32, Vec<(u32, u32)>> = HashMap::new();
    let mut pending = vec![kernel.0];
    while let Some(f) = pending.pop() {
        if local.contains_key(&f) {
            continue;
        }
        let Some(func) = module.functions.get(f as usize) else {
            continue;
        };
        let mut w = Walker::default();
        w.block(&func.body, 0);
        for &(callee, _) in &w.calls {
            pending.push(callee);
        }
        calls.insert(f, w.calls);
        local.insert(f, w.out);
    }
    // Outer loops and inlined copies of each function, from the kernel down
    // (call graphs of device code are acyclic: CUDA forbids nothing, but
    // recursion cannot be inlined, and a bound stops any cycle here).
    let mut outer: HashMap<u32, (u32, u32)> = HashMap::new();
    outer.insert(kernel.0, (0, 1));
    for _ in 0..64 {
        let mut next: HashMap<u32, (u32, u32)> = HashMap::new();
        next.insert(kernel.0, (0, 1));
        for (&f, list) in &calls {
            let Some(&(depth, copies)) = outer.get(&f) else {
                continue;
            };
            for &(callee, at) in list {
                let e = next.entry(callee).or_insert((u32::MAX, 0));
                e.0 = e.0.min(depth + at);
                e.1 = e.1.saturating_add(copies);
            }
        }
        if next == outer {
            break;
        }
        outer = next;
    }
    let mut out = HashMap::new();
    for (f, list) in local {
        let (depth, copies) = outer.get(&f).copied().unwrap_or((0, 1));
        for (span, mut p) in list {
            p.depth += depth;
            p.copies = copies.max(1);
            out.entry(span).or_insert(p);
        }
    }
    out
}

#[derive(Default)]
struct Walker {
    out: Vec<(Span, Place)>,
    calls: Vec<(u32, u32)>,
}

impl Walker {
    fn block(&mut self, b: &Block, depth: u32) {
        for s in b {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: u32) {
        let at = |span: Span| Place {
            file: span.file,
            line: span.line,
            depth,
            copies: 1,
        };
        match &s.kind {
            StmtKind::Decl { init, .. } => {
                if let Some(i) = init {
                    self.init(i, at(s.span));
                }
            }
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e, at(s.span)),
            StmtKind::If { cond, then, els } => {
                self.expr(cond, at(s.span));
                self.block(then, depth);
                if let Some(b) = els {
                    // `else if` prints its condition on its own line.
                    self.block(b, depth);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                for i in init {
                    // Printed in the loop's header, on its line.
                    match &i.kind {
                        StmtKind::Decl { init: Some(v), .. } => self.init(v, at(s.span)),
                        StmtKind::Expr(e) => self.expr(e, at(s.span)),
                        _ => self.stmt(i, depth),
                    }
                }
                let inside = Place {
                    depth: depth + 1,
                    ..at(s.span)
                };
                for e in cond.iter().chain(step) {
                    self.expr(e, inside);
                }
                self.block(body, depth + 1);
            }
            StmtKind::While { cond, body } => {
                let inside = Place {
                    depth: depth + 1,
                    ..at(s.span)
                };
                self.expr(cond, inside);
                self.block(body, depth + 1);
            }
            StmtKind::DoWhile { body, cond } => {
                self.block(body, depth + 1);
                let inside = Place {
                    depth: depth + 1,
                    ..at(cond.span)
                };
                self.expr(cond, inside);
            }
            StmtKind::Switch { value, arms } => {
                self.expr(value, at(s.span));
                for a in arms {
                    self.block(&a.body, depth);
                }
            }
            StmtKind::Block(b) => self.block(b, depth),
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => {}
        }
    }

    fn init(&mut self, i: &Init, p: Place) {
        match i {
            Init::Expr(e) => self.expr(e, p),
            Init::List(l) => l.iter().for_each(|i| self.init(i, p)),
        }
    }

    fn expr(&mut self, e: &Expr, p: Place) {
        hone_ir::visit::visit_expr(e, &mut |x| {
            self.out.push((x.span, p));
            if let ExprKind::Call(callee, _) = &x.kind {
                self.calls.push((callee.0, p.depth));
            }
        });
    }
}
