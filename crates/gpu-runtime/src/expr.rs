//! Integer expressions over the problem size and template parameters, as
//! written in kernel template files: `cdiv(N, BLOCK_SIZE * VEC)`, `8 * N`,
//! `BLOCK_SIZE * ELEMS_PER_THREAD <= 8192`.
//!
//! Operators, loosest first: `||`; `&&`; `== != < <= > >=`; `<< >>`; `+ -`;
//! `* / %`; unary `- !`. Comparisons and logic yield 0 or 1. Functions:
//! `min(a, b, ...)`, `max(a, b, ...)`, `cdiv(a, b)` (ceiling division),
//! `align(a, b)` (a rounded up to a multiple of b), `abs(a)`, `log2(a)`
//! (floor). Arithmetic is on i64 and overflow is an error.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A parsed expression that remembers its source text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct IntExpr {
    source: String,
    root: Node,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Num(i64),
    Var(String),
    Neg(Box<Node>),
    Not(Box<Node>),
    Bin(BinOp, Box<Node>, Box<Node>),
    Call(Func, Vec<Node>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Func {
    Min,
    Max,
    Cdiv,
    Align,
    Abs,
    Log2,
}

impl Func {
    fn lookup(name: &str) -> Option<Func> {
        Some(match name {
            "min" => Func::Min,
            "max" => Func::Max,
            "cdiv" => Func::Cdiv,
            "align" => Func::Align,
            "abs" => Func::Abs,
            "log2" => Func::Log2,
            _ => return None,
        })
    }

    /// (fewest, most) arguments.
    fn arity(self) -> (usize, usize) {
        match self {
            Func::Min | Func::Max => (1, usize::MAX),
            Func::Cdiv | Func::Align => (2, 2),
            Func::Abs | Func::Log2 => (1, 1),
        }
    }
}

/// A parse or evaluation error; `column` is 1-based where known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub message: String,
    pub column: Option<usize>,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "column {c}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ExprError {}

impl IntExpr {
    pub fn parse(source: &str) -> Result<IntExpr, ExprError> {
        let tokens = tokenize(source)?;
        let mut p = Parser { tokens, pos: 0 };
        let root = p.or()?;
        if let Some(t) = p.tokens.get(p.pos) {
            return Err(ExprError {
                message: format!("unexpected `{}`", t.text),
                column: Some(t.column),
            });
        }
        Ok(IntExpr {
            source: source.to_string(),
            root,
        })
    }

    /// A constant expression.
    pub fn constant(value: i64) -> IntExpr {
        IntExpr {
            source: value.to_string(),
            root: Node::Num(value),
        }
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Every variable the expression names.
    pub fn variables(&self) -> BTreeSet<String> {
        fn walk(n: &Node, out: &mut BTreeSet<String>) {
            match n {
                Node::Num(_) => {}
                Node::Var(v) => {
                    out.insert(v.clone());
                }
                Node::Neg(a) | Node::Not(a) => walk(a, out),
                Node::Bin(_, a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                Node::Call(_, args) => args.iter().for_each(|a| walk(a, out)),
            }
        }
        let mut out = BTreeSet::new();
        walk(&self.root, &mut out);
        out
    }

    /// Evaluates with variables looked up in `env`.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64, ExprError> {
        eval(&self.root, env).map_err(|message| ExprError {
            message: format!("{message} in `{}`", self.source),
            column: None,
        })
    }
}

impl TryFrom<String> for IntExpr {
    type Error = ExprError;
    fn try_from(s: String) -> Result<Self, ExprError> {
        IntExpr::parse(&s)
    }
}

impl From<IntExpr> for String {
    fn from(e: IntExpr) -> String {
        e.source
    }
}

impl fmt::Display for IntExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

fn eval(n: &Node, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64, String> {
    let overflow = || "integer overflow".to_string();
    Ok(match n {
        Node::Num(v) => *v,
        Node::Var(name) => env(name).ok_or_else(|| format!("unknown variable `{name}`"))?,
        Node::Neg(a) => eval(a, env)?.checked_neg().ok_or_else(overflow)?,
        Node::Not(a) => (eval(a, env)? == 0) as i64,
        Node::Bin(op, a, b) => {
            let x = eval(a, env)?;
            // && and || do not evaluate their right side when the left decides.
            match op {
                BinOp::And if x == 0 => return Ok(0),
                BinOp::Or if x != 0 => return Ok(1),
                _ => {}
            }
            let y = eval(b, env)?;
            match op {
                BinOp::Or | BinOp::And => (y != 0) as i64,
                BinOp::Eq => (x == y) as i64,
                BinOp::Ne => (x != y) as i64,
                BinOp::Lt => (x < y) as i64,
                BinOp::Le => (x <= y) as i64,
                BinOp::Gt => (x > y) as i64,
                BinOp::Ge => (x >= y) as i64,
                BinOp::Shl => {
                    if !(0..63).contains(&y) {
                        return Err(format!("shift by {y}"));
                    }
                    let r = x.checked_shl(y as u32).ok_or_else(overflow)?;
                    if r >> y != x {
                        return Err(overflow());
                    }
                    r
                }
                BinOp::Shr => {
                    if !(0..64).contains(&y) {
                        return Err(format!("shift by {y}"));
                    }
                    x >> y
                }
                BinOp::Add => x.checked_add(y).ok_or_else(overflow)?,
                BinOp::Sub => x.checked_sub(y).ok_or_else(overflow)?,
                BinOp::Mul => x.checked_mul(y).ok_or_else(overflow)?,
                BinOp::Div | BinOp::Rem if y == 0 => return Err("division by zero".to_string()),
                BinOp::Div => x.checked_div(y).ok_or_else(overflow)?,
                BinOp::Rem => x.checked_rem(y).ok_or_else(overflow)?,
            }
        }
        Node::Call(f, args) => {
            let v = args
                .iter()
                .map(|a| eval(a, env))
                .collect::<Result<Vec<i64>, String>>()?;
            match f {
                Func::Min => *v.iter().min().expect("arity checked at parse time"),
                Func::Max => *v.iter().max().expect("arity checked at parse time"),
                Func::Cdiv | Func::Align => {
                    let (a, b) = (v[0], v[1]);
                    if b <= 0 {
                        return Err(format!("{f:?}: divisor {b} must be positive").to_lowercase());
                    }
                    let q = a.div_euclid(b) + (a.rem_euclid(b) != 0) as i64;
                    if *f == Func::Cdiv {
                        q
                    } else {
                        q.checked_mul(b).ok_or_else(overflow)?
                    }
                }
                Func::Abs => v[0].checked_abs().ok_or_else(overflow)?,
                Func::Log2 => {
                    if v[0] <= 0 {
                        return Err(format!("log2 of {}", v[0]));
                    }
                    63 - v[0].leading_zeros() as i64
                }
            }
        }
    })
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Ident(String),
    Op(&'static str),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    text: String,
    column: usize,
}

const OPERATORS: [&str; 20] = [
    "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "<", ">", "+", "-", "*", "/", "%", "!", "(",
    ")", ",", "=",
];

fn tokenize(src: &str) -> Result<Vec<Token>, ExprError> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let digits = text.replace('_', "");
            let value = if let Some(hex) = digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
            {
                i64::from_str_radix(hex, 16)
            } else {
                digits.parse::<i64>()
            };
            let value = value.map_err(|_| ExprError {
                message: format!("bad integer `{text}`"),
                column: Some(column),
            })?;
            out.push(Token {
                tok: Tok::Num(value),
                text,
                column,
            });
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            out.push(Token {
                tok: Tok::Ident(text.clone()),
                text,
                column,
            });
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let op = OPERATORS
                .iter()
                .find(|op| rest.starts_with(**op))
                .ok_or_else(|| ExprError {
                    message: format!("unexpected character `{c}`"),
                    column: Some(column),
                })?;
            if *op == "=" {
                return Err(ExprError {
                    message: "`=` is not an operator; compare with `==`".to_string(),
                    column: Some(column),
                });
            }
            i += op.chars().count();
            out.push(Token {
                tok: Tok::Op(op),
                text: op.to_string(),
                column,
            });
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    fn peek_op(&self) -> Option<&'static str> {
        match self.tokens.get(self.pos) {
            Some(Token {
                tok: Tok::Op(op), ..
            }) => Some(op),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn error_here(&self, what: &str) -> ExprError {
        match self.tokens.get(self.pos) {
            Some(t) => ExprError {
                message: format!("expected {what}, found `{}`", t.text),
                column: Some(t.column),
            },
            None => ExprError {
                message: format!("expected {what} at the end"),
                column: None,
            },
        }
    }

    fn binary_level(
        &mut self,
        ops: &[(&str, BinOp)],
        next: fn(&mut Parser) -> Result<Node, ExprError>,
        chain: bool,
    ) -> Result<Node, ExprError> {
        let mut left = next(self)?;
        loop {
            let Some(&(_, op)) = ops.iter().find(|(text, _)| self.peek_op() == Some(*text)) else {
                return Ok(left);
            };
            self.pos += 1;
            let right = next(self)?;
            left = Node::Bin(op, Box::new(left), Box::new(right));
            if !chain {
                // `a < b < c` is almost always a mistake in a size expression.
                if let Some(t) = ops.iter().find(|(text, _)| self.peek_op() == Some(*text)) {
                    return Err(ExprError {
                        message: format!("comparisons do not chain; parenthesise before `{}`", t.0),
                        column: self.tokens.get(self.pos).map(|t| t.column),
                    });
                }
                return Ok(left);
            }
        }
    }

    fn or(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("||", BinOp::Or)], Parser::and, true)
    }

    fn and(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("&&", BinOp::And)], Parser::cmp, true)
    }

    fn cmp(&mut self) -> Result<Node, ExprError> {
        self.binary_level(
            &[
                ("==", BinOp::Eq),
                ("!=", BinOp::Ne),
                ("<=", BinOp::Le),
                (">=", BinOp::Ge),
                ("<", BinOp::Lt),
                (">", BinOp::Gt),
            ],
            Parser::shift,
            false,
        )
    }

    fn shift(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("<<", BinOp::Shl), (">>", BinOp::Shr)], Parser::add, true)
    }

    fn add(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("+", BinOp::Add), ("-", BinOp::Sub)], Parser::mul, true)
    }

    fn mul(&mut self) -> Result<Node, ExprError> {
        self.binary_level(
            &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
            Parser::unary,
            true,
        )
    }

    fn unary(&mut self) -> Result<Node, ExprError> {
        if self.eat("-") {
            return Ok(Node::Neg(Box::new(self.unary()?)));
        }
        if self.eat("!") {
            return Ok(Node::Not(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Node, ExprError> {
        let Some(token) = self.tokens.get(self.pos).cloned() else {
            return Err(self.error_here("a number, a name or `(`"));
        };
        match token.tok {
            Tok::Num(v) => {
                self.pos += 1;
                Ok(Node::Num(v))
            }
            Tok::Ident(name) => {
                self.pos += 1;
                if !self.eat("(") {
                    return Ok(Node::Var(name));
                }
                let func = Func::lookup(&name).ok_or_else(|| ExprError {
                    message: format!(
                        "unknown function `{name}` (known: min, max, cdiv, align, abs, log2)"
                    ),
                    column: Some(token.column),
                })?;
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.or()?);
                        if self.eat(")") {
                            break;
                        }
                        if !self.eat(",") {
                            return Err(self.error_here("`,` or `)`"));
                        }
                    }
                }
                let (lo, hi) = func.arity();
                if args.len() < lo || args.len() > hi {
                    return Err(ExprError {
                        message: format!(
                            "`{name}` takes {} argument(s), got {}",
                            arity_text(lo, hi),
                            args.len()
                        ),
                        column: Some(token.column),
                    });
                }
                Ok(Node::Call(func, args))
            }
            Tok::Op("(") => {
                self.pos += 1;
                let inner = self.or()?;
                if !self.eat(")") {
                    return Err(self.error_here("`)`"));
                }
                Ok(inner)
            }
            Tok::Op(_) => Err(self.error_here("a number, a name or `(`")),
        }
    }
}

fn arity_text(lo: usize, hi: usize) -> String {
    if lo == hi {
        lo.to_string()
    } else if hi == usize::MAX {
        format!("at least {lo}")
    } else {
        format!("{lo} to {hi}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn eval_with(src: &str, vars: &[(&str, i64)]) -> Result<i64, ExprError> {
        let e = IntExpr::parse(src)?;
        e.eval(&|name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| *v))
    }

    #[test]
    fn precedence_follows_c() {
        assert_eq!(eval_with("1 + 2 * 3", &[]).unwrap(), 7);
        assert_eq!(eval_with("(1 + 2) * 3", &[]).unwrap(), 9);
        assert_eq!(eval_with("1 << 2 + 1", &[]).unwrap(), 8);
        assert_eq!(eval_with("10 - 4 - 3", &[]).unwrap(), 3);
        assert_eq!(eval_with("2 * 3 < 7 && 1 == 1", &[]).unwrap(), 1);
        assert_eq!(eval_with("0 || 5 > 6", &[]).unwrap(), 0);
        assert_eq!(eval_with("-3 * -2", &[]).unwrap(), 6);
        assert_eq!(eval_with("!0 + !7", &[]).unwrap(), 1);
    }

    #[test]
    fn grid_of_vcopy_covers_every_element() {
        let vars = [("N", 1_000_003), ("BLOCK_SIZE", 256), ("VEC", 4)];
        let grid = eval_with("cdiv(N, BLOCK_SIZE * VEC)", &vars).unwrap();
        assert!(grid * 256 * 4 >= 1_000_003);
        assert!((grid - 1) * 256 * 4 < 1_000_003);
        assert_eq!(eval_with("align(N, 1024)", &vars).unwrap() % 1024, 0);
        assert_eq!(eval_with("max(1, min(N, 7), 3)", &vars).unwrap(), 7);
        assert_eq!(eval_with("log2(1 << 20)", &[]).unwrap(), 20);
        assert_eq!(eval_with("0x10 + 1_000", &[]).unwrap(), 1016);
    }

    #[test]
    fn variables_are_listed() {
        let e = IntExpr::parse("cdiv(N, BLOCK_SIZE) + VEC * 0").unwrap();
        let vars: Vec<String> = e.variables().into_iter().collect();
        assert_eq!(vars, vec!["BLOCK_SIZE", "N", "VEC"]);
    }

    #[test]
    fn errors_name_the_problem_and_column() {
        let err = IntExpr::parse("N + * 2").unwrap_err();
        assert_eq!(err.column, Some(5));
        assert!(err.message.contains('*'));
        let err = IntExpr::parse("foo(N)").unwrap_err();
        assert!(err.message.contains("unknown function `foo`"));
        let err = IntExpr::parse("cdiv(N)").unwrap_err();
        assert!(err.message.contains("takes 2"));
        let err = IntExpr::parse("N = 3").unwrap_err();
        assert!(err.message.contains("=="));
        let err = IntExpr::parse("1 < N < 3").unwrap_err();
        assert!(err.message.contains("chain"));
        let err = IntExpr::parse("(N + 1").unwrap_err();
        assert!(err.message.contains("`)`"));
        let err = IntExpr::parse("N $ 2").unwrap_err();
        assert_eq!(err.column, Some(3));
    }

    #[test]
    fn evaluation_errors_are_reported_not_panics() {
        assert!(eval_with("N / 0", &[("N", 3)])
            .unwrap_err()
            .message
            .contains("division by zero"));
        assert!(eval_with("M + 1", &[])
            .unwrap_err()
            .message
            .contains("unknown variable `M`"));
        assert!(eval_with("9223372036854775807 + 1", &[])
            .unwrap_err()
            .message
            .contains("overflow"));
        assert!(eval_with("1 << 64", &[]).is_err());
        assert!(eval_with("1 << 62 << 2", &[]).is_err());
        assert!(eval_with("cdiv(4, 0)", &[]).is_err());
        assert!(eval_with("log2(0)", &[]).is_err());
    }

    #[test]
    fn short_circuit_skips_the_right_side() {
        assert_eq!(eval_with("0 && 1 / 0", &[]).unwrap(), 0);
        assert_eq!(eval_with("1 || 1 / 0", &[]).unwrap(), 1);
    }

    #[test]
    fn serde_keeps_the_source_text() {
        let e: IntExpr = serde_json::from_str("\"cdiv(N, 4)\"").unwrap();
        assert_eq!(serde_json::to_string(&e).unwrap(), "\"cdiv(N, 4)\"");
        assert!(serde_json::from_str::<IntExpr>("\"cdiv(N,\"").is_err());
    }

    proptest! {
        #[test]
        fn cdiv_is_the_ceiling_of_the_quotient(a in -1_000_000i64..1_000_000, b in 1i64..10_000) {
            let q = eval_with("cdiv(a, b)", &[("a", a), ("b", b)]).unwrap();
            prop_assert!(q * b >= a);
            prop_assert!((q - 1) * b < a);
        }

        #[test]
        fn arithmetic_matches_rust(a in -1000i64..1000, b in 1i64..1000, c in -1000i64..1000) {
            let got = eval_with("a * b + c % b - (a - c) / b", &[("a", a), ("b", b), ("c", c)]).unwrap();
            prop_assert_eq!(got, a * b + c % b - (a - c) / b);
        }
    }
}
