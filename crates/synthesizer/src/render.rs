//! Search results as IR expressions of the kernel.

use hone_ir::{BinaryOp, Expr, ExprKind, Span, Type, UnaryOp};

use crate::search::cond::{Atom, BExp, Op};
use crate::search::split::Split;
use crate::search::{Lin, Term, Terms};
use crate::symbols::Symbol;
use hone_ir::build;

/// The chosen index: one `exp`, or the split `cond ? then : else`.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexExp {
    Lin(Lin),
    Split(Split),
}

pub struct Render<'a> {
    pub symbols: &'a [Symbol],
    pub terms: &'a Terms,
    pub span: Span,
}

impl Render<'_> {
    fn sym(&self, s: u16, signed: bool) -> Expr {
        let e = self.symbols[s as usize].expr(self.span);
        // Ordered comparisons of unsigned builtins would wrap below zero.
        if signed && e.ty.scalar().is_some_and(|s| !s.is_signed()) {
            build::cast(e, &Type::INT)
        } else {
            e
        }
    }

    fn term(&self, t: u32, signed: bool) -> Expr {
        let two = || build::lit(2, self.span);
        match self.terms.list[t as usize] {
            Term::Sym(s) => self.sym(s, signed),
            Term::Twice(s) => build::arith(BinaryOp::Mul, two(), self.sym(s, signed)),
            Term::Prod(a, b) => {
                build::arith(BinaryOp::Mul, self.sym(a, signed), self.sym(b, signed))
            }
            Term::TwiceProd(a, b) => build::arith(
                BinaryOp::Mul,
                build::arith(BinaryOp::Mul, two(), self.sym(a, signed)),
                self.sym(b, signed),
            ),
        }
    }

    /// `Σ terms + k`, positive terms first, the constant last.
    fn sum(&self, terms: &[(i8, u32)], k: i64, signed: bool) -> Expr {
        let mut ordered: Vec<(i8, u32)> = terms.iter().copied().filter(|t| t.0 > 0).collect();
        ordered.extend(terms.iter().copied().filter(|t| t.0 < 0));
        let mut acc: Option<Expr> = None;
        for (s, t) in ordered {
            let e = self.term(t, signed);
            acc = Some(match (acc, s > 0) {
                (None, true) => e,
                (None, false) => {
                    let ty = e.ty.clone();
                    build::mk(ExprKind::Unary(UnaryOp::Neg, Box::new(e)), ty, self.span)
                }
                (Some(a), true) => build::arith(BinaryOp::Add, a, e),
                (Some(a), false) => build::arith(BinaryOp::Sub, a, e),
            });
        }
        match acc {
            None => self.constant(k),
            Some(a) if k > 0 => build::arith(BinaryOp::Add, a, build::lit(k as u64, self.span)),
            Some(a) if k < 0 => {
                build::arith(BinaryOp::Sub, a, build::lit(k.unsigned_abs(), self.span))
            }
            Some(a) => a,
        }
    }

    fn constant(&self, k: i64) -> Expr {
        let l = build::lit(k.unsigned_abs(), self.span);
        if k < 0 {
            let ty = l.ty.clone();
            build::mk(ExprKind::Unary(UnaryOp::Neg, Box::new(l)), ty, self.span)
        } else {
            l
        }
    }

    pub fn lin(&self, l: &Lin) -> Expr {
        self.sum(&l.terms, l.k, false)
    }

    /// `N + k op 0` written as `positive terms op negative terms - k`, with
    /// the non-constant side on the left.
    pub fn atom(&self, a: &Atom) -> Expr {
        let has_pos = a.n.iter().any(|t| t.0 > 0);
        let (n, k, flip) = if has_pos || a.n.is_empty() {
            (a.n.clone(), a.k, false)
        } else {
            (a.n.iter().map(|&(s, t)| (-s, t)).collect(), -a.k, true)
        };
        let signed = matches!(a.op, Op::Lt | Op::Le);
        let pos: Vec<(i8, u32)> = n.iter().copied().filter(|t| t.0 > 0).collect();
        let neg: Vec<(i8, u32)> = n.iter().filter(|t| t.0 < 0).map(|&(_, t)| (1, t)).collect();
        let lhs = self.sum(&pos, 0, signed);
        let rhs = self.sum(&neg, -k, signed);
        let op = match (a.op, flip) {
            (Op::Eq, _) => BinaryOp::Eq,
            (Op::Ne, _) => BinaryOp::Ne,
            (Op::Lt, false) => BinaryOp::Lt,
            (Op::Le, false) => BinaryOp::Le,
            (Op::Lt, true) => BinaryOp::Gt,
            (Op::Le, true) => BinaryOp::Ge,
        };
        build::compare(op, lhs, rhs)
    }

    pub fn bexp(&self, b: &BExp) -> Expr {
        match b {
            BExp::True => build::mk(ExprKind::BoolLit(true), Type::BOOL, self.span),
            BExp::False => build::mk(ExprKind::BoolLit(false), Type::BOOL, self.span),
            BExp::Atom(a) => self.atom(a),
            BExp::Or(a, b) => build::logic(BinaryOp::LogicOr, self.atom(a), self.atom(b)),
            BExp::And(a, b) => build::logic(BinaryOp::LogicAnd, self.atom(a), self.atom(b)),
        }
    }

    pub fn index(&self, i: &IndexExp) -> Expr {
        match i {
            IndexExp::Lin(l) => self.lin(l),
            IndexExp::Split(s) => {
                let (a, b) = (self.lin(&s.then), self.lin(&s.els));
                let t = Type::Scalar(build::usual(
                    a.ty.scalar().unwrap_or(hone_ir::Scalar::I32),
                    b.ty.scalar().unwrap_or(hone_ir::Scalar::I32),
                ));
                build::select(self.bexp(&s.cond), build::conv(a, &t), build::conv(b, &t))
            }
        }
    }
}
