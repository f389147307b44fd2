//! A small integer expression language for constraints and size formulas.
//!
//! Grammar (lowest precedence first):
//! `or := and ('||' and)*`, `and := bor ('&&' bor)*`, `bor := bxor ('|' bxor)*`,
//! `bxor := band ('^' band)*`, `band := eq ('&' eq)*`, `eq := rel (('=='|'!=') rel)?`,
//! `rel := shift (('<'|'<='|'>'|'>=') shift)?`, `shift := add (('<<'|'>>') add)*`,
//! `add := mul (('+'|'-') mul)*`,
//! `mul := unary (('*'|'/'|'%') unary)*`, `unary := ('!'|'-') unary | primary`,
//! `primary := INT | STRING | NAME | NAME '(' args ')' | '(' or ')'`.
//!
//! Values are 64-bit integers or strings; comparisons and logic yield 0 or 1, and
//! any non-zero integer is true. Strings may only be compared with `==` and `!=`.
//! Comparisons do not chain (`a < b < c` is refused). Integers may be written
//! in hex (`0x10`) and with `_` separators. Functions: `min(a, b, ...)`,
//! `max(a, b, ...)`, `cdiv(a, b)` (ceiling division, also `ceil_div`),
//! `align(a, b)` (a rounded up to a multiple of b > 0), `abs(a)`, `log2(a)`
//! (floor, a > 0). Constraints of tuning jobs and the size formulas of kernel
//! templates are written in this one language. Its operators are C's, with
//! C's precedence ([`hone_ir::BinaryOp`]), so `N & (N - 1) == 0` means what it
//! means in C (and is not the power-of-two test: write `(N & (N - 1)) == 0`).

use std::fmt;

use hone_ir::BinaryOp;

/// A parse or type error, located by byte offset in the source text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at column {}: {message}", .offset + 1)]
pub struct ExprError {
    pub offset: usize,
    pub message: String,
}

impl ExprError {
    fn new(offset: usize, message: impl Into<String>) -> Self {
        Self {
            offset,
            message: message.into(),
        }
    }
}

/// Why an expression could not be evaluated for one particular binding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("division by zero")]
    DivisionByZero,
    #[error("integer overflow")]
    Overflow,
    #[error("unknown name `{0}`")]
    UnknownName(String),
    #[error("type mismatch: {0}")]
    Type(String),
    /// An argument outside a function's or operator's domain.
    #[error("{0}")]
    Domain(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    CeilDiv,
    Align,
    Abs,
    Log2,
}

impl Func {
    fn from_name(name: &str) -> Option<Func> {
        match name {
            "min" => Some(Func::Min),
            "max" => Some(Func::Max),
            "cdiv" | "ceil_div" => Some(Func::CeilDiv),
            "align" => Some(Func::Align),
            "abs" => Some(Func::Abs),
            "log2" => Some(Func::Log2),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::CeilDiv => "cdiv",
            Func::Align => "align",
            Func::Abs => "abs",
            Func::Log2 => "log2",
        }
    }

    fn arity_ok(self, n: usize) -> bool {
        match self {
            Func::Min | Func::Max => n >= 1,
            Func::CeilDiv | Func::Align => n == 2,
            Func::Abs | Func::Log2 => n == 1,
        }
    }

    fn arity_text(self) -> &'static str {
        match self {
            Func::Min | Func::Max => "at least 1 argument",
            Func::CeilDiv | Func::Align => "2 arguments",
            Func::Abs | Func::Log2 => "1 argument",
        }
    }
}

/// A parsed expression node with the byte offset where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub offset: usize,
    pub kind: ExprKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Str(String),
    Name(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
}

/// A value seen during evaluation; strings are borrowed from the bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    Int(i64),
    Str(&'a str),
}

/// The static type of an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Int,
    Str,
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Int => "integer",
            Type::Str => "string",
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Int(i64),
    Str(String),
    Name(String),
    Op(&'static str),
    End,
}

fn tokenize(src: &str) -> Result<Vec<(usize, Tok)>, ExprError> {
    // Longest first: `<<` before `<=` and `<`.
    const OPS: [&str; 23] = [
        "<<", ">>", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "!",
        "(", ")", ",", "=", "&", "|", "^",
    ];
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            let (radix, digits_start) = if src[i..].starts_with("0x") || src[i..].starts_with("0X")
            {
                (16, i + 2)
            } else {
                (10, i)
            };
            i = digits_start;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let text: String = src[digits_start..i].chars().filter(|&c| c != '_').collect();
            let v = i64::from_str_radix(&text, radix).map_err(|_| {
                ExprError::new(
                    start,
                    format!("invalid integer literal `{}`", &src[start..i]),
                )
            })?;
            out.push((start, Tok::Int(v)));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((start, Tok::Name(src[start..i].to_string())));
        } else if c == b'"' {
            let start = i;
            i += 1;
            let mut s = String::new();
            loop {
                match src[i..].chars().next() {
                    None => return Err(ExprError::new(start, "unterminated string literal")),
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        let next = src[i + 1..]
                            .chars()
                            .next()
                            .ok_or_else(|| ExprError::new(start, "unterminated string literal"))?;
                        s.push(next);
                        i += 1 + next.len_utf8();
                    }
                    Some(ch) => {
                        s.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            out.push((start, Tok::Str(s)));
        } else {
            let op = OPS.iter().find(|op| src[i..].starts_with(**op));
            match op {
                Some(&"=") => {
                    return Err(ExprError::new(i, "`=` is not an operator; use `==`"));
                }
                Some(op) => {
                    out.push((i, Tok::Op(op)));
                    i += op.len();
                }
                None => {
                    let ch = src[i..].chars().next().unwrap_or('?');
                    return Err(ExprError::new(i, format!("unexpected character `{ch}`")));
                }
            }
        }
    }
    out.push((src.len(), Tok::End));
    Ok(out)
}

struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].1
    }

    fn offset(&self) -> usize {
        self.toks[self.pos].0
    }

    fn eat_op(&mut self, ops: &[&'static str]) -> Option<(usize, &'static str)> {
        if let Tok::Op(op) = self.peek() {
            if let Some(found) = ops.iter().find(|o| *o == op) {
                let at = self.offset();
                self.pos += 1;
                return Some((at, found));
            }
        }
        None
    }

    fn describe(tok: &Tok) -> String {
        match tok {
            Tok::Int(v) => format!("`{v}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Name(n) => format!("`{n}`"),
            Tok::Op(o) => format!("`{o}`"),
            Tok::End => "end of expression".to_string(),
        }
    }

    fn binary_level(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Parser) -> Result<Expr, ExprError>,
    ) -> Result<Expr, ExprError> {
        self.level(ops, next, true)
    }

    /// A level of comparisons: one at most, since `a < b < c` does not
    /// mean what it reads as.
    fn comparison_level(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Parser) -> Result<Expr, ExprError>,
    ) -> Result<Expr, ExprError> {
        self.level(ops, next, false)
    }

    fn level(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Parser) -> Result<Expr, ExprError>,
        chain: bool,
    ) -> Result<Expr, ExprError> {
        let mut lhs = next(self)?;
        let mut seen = false;
        while let Some((at, op)) = self.eat_op(ops) {
            if seen && !chain {
                return Err(ExprError::new(
                    at,
                    format!("comparisons do not chain: write `a {op} b && b {op} c`"),
                ));
            }
            seen = true;
            let rhs = next(self)?;
            let op = BinaryOp::from_symbol(op)
                .ok_or_else(|| ExprError::new(at, format!("`{op}` is not a binary operator")))?;
            let offset = lhs.offset;
            lhs = Expr {
                offset,
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            };
        }
        Ok(lhs)
    }

    fn or(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(&["||"], Parser::and)
    }
    fn and(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(&["&&"], Parser::bit_or)
    }
    fn bit_or(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(&["|"], Parser::bit_xor)
    }
    fn bit_xor(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(&["^"], Parser::bit_and)
    }
    fn bit_and(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(&["&"], Parser::eq)
    }
    fn eq(&mut self) -> Result<Expr, ExprError> {
        self.comparison_level(&["==", "!="], Parser::rel)
    }
    fn rel(&mut self) -> Result<Expr, ExprError> {
        self.comparison_level(&["<=", ">=", "<", ">"], Parser::shift)
    }
    fn shift(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(&["<<", ">>"], Parser::add)
    }
    fn add(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(&["+", "-"], Parser::mul)
    }
    fn mul(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(&["*", "/", "%"], Parser::unary)
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        if let Some((at, op)) = self.eat_op(&["!", "-"]) {
            let inner = self.unary()?;
            let op = if op == "!" { UnOp::Not } else { UnOp::Neg };
            return Ok(Expr {
                offset: at,
                kind: ExprKind::Unary(op, Box::new(inner)),
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, ExprError> {
        let at = self.offset();
        match self.peek().clone() {
            Tok::Int(v) => {
                self.pos += 1;
                Ok(Expr {
                    offset: at,
                    kind: ExprKind::Int(v),
                })
            }
            Tok::Str(s) => {
                self.pos += 1;
                Ok(Expr {
                    offset: at,
                    kind: ExprKind::Str(s),
                })
            }
            Tok::Name(name) => {
                self.pos += 1;
                if self.eat_op(&["("]).is_some() {
                    let func = Func::from_name(&name).ok_or_else(|| {
                        ExprError::new(
                            at,
                            format!(
                                "unknown function `{name}` (known: min, max, cdiv, align, abs, log2)"
                            ),
                        )
                    })?;
                    let mut args = Vec::new();
                    if self.eat_op(&[")"]).is_none() {
                        loop {
                            args.push(self.or()?);
                            if self.eat_op(&[")"]).is_some() {
                                break;
                            }
                            if self.eat_op(&[","]).is_none() {
                                return Err(ExprError::new(
                                    self.offset(),
                                    format!(
                                        "expected `,` or `)` in call of `{name}`, found {}",
                                        Self::describe(self.peek())
                                    ),
                                ));
                            }
                        }
                    }
                    if !func.arity_ok(args.len()) {
                        return Err(ExprError::new(
                            at,
                            format!(
                                "`{}` takes {}, not {}",
                                func.name(),
                                func.arity_text(),
                                args.len()
                            ),
                        ));
                    }
                    Ok(Expr {
                        offset: at,
                        kind: ExprKind::Call(func, args),
                    })
                } else {
                    let kind = match name.as_str() {
                        "true" => ExprKind::Int(1),
                        "false" => ExprKind::Int(0),
                        _ => ExprKind::Name(name),
                    };
                    Ok(Expr { offset: at, kind })
                }
            }
            Tok::Op("(") => {
                self.pos += 1;
                let inner = self.or()?;
                if self.eat_op(&[")"]).is_none() {
                    return Err(ExprError::new(
                        self.offset(),
                        format!("expected `)`, found {}", Self::describe(self.peek())),
                    ));
                }
                Ok(inner)
            }
            other => Err(ExprError::new(
                at,
                format!("expected an operand, found {}", Self::describe(&other)),
            )),
        }
    }
}

impl Expr {
    /// Parses a whole expression; trailing input is an error.
    pub fn parse(src: &str) -> Result<Expr, ExprError> {
        let toks = tokenize(src)?;
        let mut p = Parser { toks, pos: 0 };
        let e = p.or()?;
        if *p.peek() != Tok::End {
            return Err(ExprError::new(
                p.offset(),
                format!(
                    "unexpected {} after a complete expression",
                    Parser::describe(p.peek())
                ),
            ));
        }
        Ok(e)
    }

    /// Every name the expression mentions, in first-seen order, without duplicates.
    pub fn names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        self.visit_names(&mut |n| {
            if !out.contains(&n) {
                out.push(n);
            }
        });
        out
    }

    fn visit_names<'a>(&'a self, f: &mut impl FnMut(&'a str)) {
        match &self.kind {
            ExprKind::Name(n) => f(n),
            ExprKind::Int(_) | ExprKind::Str(_) => {}
            ExprKind::Unary(_, e) => e.visit_names(f),
            ExprKind::Binary(_, a, b) => {
                a.visit_names(f);
                b.visit_names(f);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.visit_names(f)),
        }
    }

    /// Checks operand types given the type of every name; returns the expression's type.
    pub fn check_types(&self, type_of: &impl Fn(&str) -> Option<Type>) -> Result<Type, ExprError> {
        match &self.kind {
            ExprKind::Int(_) => Ok(Type::Int),
            ExprKind::Str(_) => Ok(Type::Str),
            ExprKind::Name(n) => {
                type_of(n).ok_or_else(|| ExprError::new(self.offset, format!("unknown name `{n}`")))
            }
            ExprKind::Unary(op, e) => {
                let t = e.check_types(type_of)?;
                if t != Type::Int {
                    let sym = if *op == UnOp::Neg { "-" } else { "!" };
                    return Err(ExprError::new(
                        self.offset,
                        format!("operator `{sym}` needs an integer, found a {t}"),
                    ));
                }
                Ok(Type::Int)
            }
            ExprKind::Binary(op, a, b) => {
                let ta = a.check_types(type_of)?;
                let tb = b.check_types(type_of)?;
                match op {
                    BinaryOp::Eq | BinaryOp::Ne => {
                        if ta != tb {
                            return Err(ExprError::new(
                                self.offset,
                                format!("`{}` compares a {ta} with a {tb}", op.symbol()),
                            ));
                        }
                    }
                    _ => {
                        if ta != Type::Int || tb != Type::Int {
                            return Err(ExprError::new(
                                self.offset,
                                format!(
                                    "operator `{}` needs integers, found a {ta} and a {tb}",
                                    op.symbol()
                                ),
                            ));
                        }
                    }
                }
                Ok(Type::Int)
            }
            ExprKind::Call(func, args) => {
                for a in args {
                    let t = a.check_types(type_of)?;
                    if t != Type::Int {
                        return Err(ExprError::new(
                            a.offset,
                            format!("`{}` needs integer arguments, found a {t}", func.name()),
                        ));
                    }
                }
                Ok(Type::Int)
            }
        }
    }

    /// Evaluates with names looked up through `lookup`.
    pub fn eval<'a>(
        &'a self,
        lookup: &impl Fn(&str) -> Option<Value<'a>>,
    ) -> Result<Value<'a>, EvalError> {
        self.eval_with(&|name: &'a str| lookup(name))
    }

    fn eval_with<'a>(
        &'a self,
        lookup: &dyn Fn(&'a str) -> Option<Value<'a>>,
    ) -> Result<Value<'a>, EvalError> {
        Ok(match &self.kind {
            ExprKind::Int(v) => Value::Int(*v),
            ExprKind::Str(s) => Value::Str(s),
            ExprKind::Name(n) => lookup(n).ok_or_else(|| EvalError::UnknownName(n.clone()))?,
            ExprKind::Unary(op, e) => {
                let v = int(e.eval_with(lookup)?)?;
                Value::Int(match op {
                    UnOp::Neg => v.checked_neg().ok_or(EvalError::Overflow)?,
                    UnOp::Not => (v == 0) as i64,
                })
            }
            ExprKind::Binary(BinaryOp::LogicAnd, a, b) => {
                let l = int(a.eval_with(lookup)?)?;
                Value::Int((l != 0 && int(b.eval_with(lookup)?)? != 0) as i64)
            }
            ExprKind::Binary(BinaryOp::LogicOr, a, b) => {
                let l = int(a.eval_with(lookup)?)?;
                Value::Int((l != 0 || int(b.eval_with(lookup)?)? != 0) as i64)
            }
            ExprKind::Binary(op, a, b) => {
                let l = a.eval_with(lookup)?;
                let r = b.eval_with(lookup)?;
                binary(*op, l, r)?
            }
            ExprKind::Call(func, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(int(a.eval_with(lookup)?)?);
                }
                Value::Int(call(*func, &vals)?)
            }
        })
    }
}

fn int(v: Value<'_>) -> Result<i64, EvalError> {
    match v {
        Value::Int(i) => Ok(i),
        Value::Str(s) => Err(EvalError::Type(format!(
            "string \"{s}\" used where an integer is needed"
        ))),
    }
}

fn binary<'a>(op: BinaryOp, l: Value<'a>, r: Value<'a>) -> Result<Value<'a>, EvalError> {
    if let (Value::Str(a), Value::Str(b)) = (l, r) {
        return match op {
            BinaryOp::Eq => Ok(Value::Int((a == b) as i64)),
            BinaryOp::Ne => Ok(Value::Int((a != b) as i64)),
            _ => Err(EvalError::Type(format!(
                "operator `{}` applied to strings",
                op.symbol()
            ))),
        };
    }
    let (a, b) = (int(l)?, int(r)?);
    let v = match op {
        BinaryOp::Add => a.checked_add(b).ok_or(EvalError::Overflow)?,
        BinaryOp::Sub => a.checked_sub(b).ok_or(EvalError::Overflow)?,
        BinaryOp::Mul => a.checked_mul(b).ok_or(EvalError::Overflow)?,
        BinaryOp::Div => {
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            a.checked_div(b).ok_or(EvalError::Overflow)?
        }
        BinaryOp::Rem => {
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            a.checked_rem(b).ok_or(EvalError::Overflow)?
        }
        BinaryOp::Eq => (a == b) as i64,
        BinaryOp::Ne => (a != b) as i64,
        BinaryOp::Lt => (a < b) as i64,
        BinaryOp::Le => (a <= b) as i64,
        BinaryOp::Gt => (a > b) as i64,
        BinaryOp::Ge => (a >= b) as i64,
        BinaryOp::Shl => {
            if !(0..63).contains(&b) {
                return Err(EvalError::Domain(format!("shift by {b}")));
            }
            let r = a << b;
            if r >> b != a {
                return Err(EvalError::Overflow);
            }
            r
        }
        BinaryOp::Shr => {
            if !(0..64).contains(&b) {
                return Err(EvalError::Domain(format!("shift by {b}")));
            }
            a >> b
        }
        BinaryOp::BitAnd => a & b,
        BinaryOp::BitOr => a | b,
        BinaryOp::BitXor => a ^ b,
        BinaryOp::LogicAnd => (a != 0 && b != 0) as i64,
        BinaryOp::LogicOr => (a != 0 || b != 0) as i64,
    };
    Ok(Value::Int(v))
}

fn call(func: Func, vals: &[i64]) -> Result<i64, EvalError> {
    Ok(match func {
        Func::Min => *vals.iter().min().ok_or(EvalError::Overflow)?,
        Func::Max => *vals.iter().max().ok_or(EvalError::Overflow)?,
        Func::Abs => vals[0].checked_abs().ok_or(EvalError::Overflow)?,
        Func::CeilDiv => {
            let (a, b) = (vals[0], vals[1]);
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            let q = a.checked_div(b).ok_or(EvalError::Overflow)?;
            if a % b != 0 && ((a < 0) == (b < 0)) {
                q + 1
            } else {
                q
            }
        }
        Func::Align => {
            let (a, b) = (vals[0], vals[1]);
            if b <= 0 {
                return Err(EvalError::Domain(format!(
                    "align: multiple {b} must be positive"
                )));
            }
            let q = a.div_euclid(b) + (a.rem_euclid(b) != 0) as i64;
            q.checked_mul(b).ok_or(EvalError::Overflow)?
        }
        Func::Log2 => {
            if vals[0] <= 0 {
                return Err(EvalError::Domain(format!("log2 of {}", vals[0])));
            }
            63 - vals[0].leading_zeros() as i64
        }
    })
}

/// Where a name's value comes from in a compiled [`Program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// Slot `i` of the value array passed to [`Program::run`].
    Slot(usize),
    /// A constant known at compile time.
    Const(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Push(i64),
    Load(usize),
    Neg,
    Not,
    Bin(BinaryOp),
    /// `&&`: if the top is zero, keep a 0 and jump; else pop and go on.
    AndJump(usize),
    /// `||`: if the top is non-zero, replace it by 1 and jump; else pop and go on.
    OrJump(usize),
    Bool,
    Call(Func, usize),
}

/// An expression compiled to stack code over plain integers.
///
/// Strings are interned to integers at compile time (type checking has already
/// ensured they only meet `==` and `!=`), so a run is pure integer work: this is
/// what keeps the constraint solver fast.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    code: Vec<Op>,
    max_slot: Option<usize>,
}

impl Program {
    /// The highest slot the program reads, if any.
    pub fn max_slot(&self) -> Option<usize> {
        self.max_slot
    }

    /// Runs the program; `slots` must cover [`Program::max_slot`].
    pub fn run(&self, slots: &[i64], stack: &mut Vec<i64>) -> Result<i64, EvalError> {
        stack.clear();
        let mut pc = 0;
        while pc < self.code.len() {
            match self.code[pc] {
                Op::Push(v) => stack.push(v),
                Op::Load(s) => stack.push(slots[s]),
                Op::Neg => {
                    let v = stack.pop().unwrap_or(0);
                    stack.push(v.checked_neg().ok_or(EvalError::Overflow)?);
                }
                Op::Not => {
                    let v = stack.pop().unwrap_or(0);
                    stack.push((v == 0) as i64);
                }
                Op::Bin(op) => {
                    let b = stack.pop().unwrap_or(0);
                    let a = stack.pop().unwrap_or(0);
                    match binary(op, Value::Int(a), Value::Int(b))? {
                        Value::Int(v) => stack.push(v),
                        Value::Str(_) => return Err(EvalError::Type("string result".into())),
                    }
                }
                Op::AndJump(target) => {
                    if stack.last().copied().unwrap_or(0) == 0 {
                        pc = target;
                        continue;
                    }
                    stack.pop();
                }
                Op::OrJump(target) => {
                    if stack.last().copied().unwrap_or(0) != 0 {
                        if let Some(top) = stack.last_mut() {
                            *top = 1;
                        }
                        pc = target;
                        continue;
                    }
                    stack.pop();
                }
                Op::Bool => {
                    if let Some(top) = stack.last_mut() {
                        *top = (*top != 0) as i64;
                    }
                }
                Op::Call(func, n) => {
                    let at = stack.len().saturating_sub(n);
                    let v = call(func, &stack[at..])?;
                    stack.truncate(at);
                    stack.push(v);
                }
            }
            pc += 1;
        }
        stack.pop().ok_or(EvalError::Type("empty program".into()))
    }
}

impl Expr {
    /// Compiles to stack code. `resolve` maps a name to its operand and `intern`
    /// maps a string literal to the integer standing for it.
    pub fn compile(
        &self,
        resolve: &impl Fn(&str) -> Option<Operand>,
        intern: &mut impl FnMut(&str) -> i64,
    ) -> Result<Program, ExprError> {
        let mut prog = Program {
            code: Vec::new(),
            max_slot: None,
        };
        self.emit(&mut prog, resolve, intern)?;
        Ok(prog)
    }

    fn emit(
        &self,
        p: &mut Program,
        resolve: &impl Fn(&str) -> Option<Operand>,
        intern: &mut impl FnMut(&str) -> i64,
    ) -> Result<(), ExprError> {
        match &self.kind {
            ExprKind::Int(v) => p.code.push(Op::Push(*v)),
            ExprKind::Str(s) => p.code.push(Op::Push(intern(s))),
            ExprKind::Name(n) => match resolve(n) {
                Some(Operand::Const(v)) => p.code.push(Op::Push(v)),
                Some(Operand::Slot(s)) => {
                    p.max_slot = Some(p.max_slot.map_or(s, |m| m.max(s)));
                    p.code.push(Op::Load(s));
                }
                None => {
                    return Err(ExprError::new(self.offset, format!("unknown name `{n}`")));
                }
            },
            ExprKind::Unary(op, e) => {
                e.emit(p, resolve, intern)?;
                p.code.push(match op {
                    UnOp::Neg => Op::Neg,
                    UnOp::Not => Op::Not,
                });
            }
            ExprKind::Binary(op @ (BinaryOp::LogicAnd | BinaryOp::LogicOr), a, b) => {
                a.emit(p, resolve, intern)?;
                let jump_at = p.code.len();
                p.code.push(Op::Bool);
                b.emit(p, resolve, intern)?;
                p.code.push(Op::Bool);
                let end = p.code.len();
                p.code[jump_at] = if *op == BinaryOp::LogicAnd {
                    Op::AndJump(end)
                } else {
                    Op::OrJump(end)
                };
            }
            ExprKind::Binary(op, a, b) => {
                a.emit(p, resolve, intern)?;
                b.emit(p, resolve, intern)?;
                p.code.push(Op::Bin(*op));
            }
            ExprKind::Call(func, args) => {
                for a in args {
                    a.emit(p, resolve, intern)?;
                }
                p.code.push(Op::Call(*func, args.len()));
            }
        }
        Ok(())
    }
}

impl fmt::Display for Expr {
    /// Prints fully parenthesised so the output re-parses to the same tree.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Int(v) => write!(f, "{v}"),
            ExprKind::Str(s) => write!(f, "\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
            ExprKind::Name(n) => f.write_str(n),
            ExprKind::Unary(UnOp::Neg, e) => write!(f, "(-{e})"),
            ExprKind::Unary(UnOp::Not, e) => write!(f, "(!{e})"),
            ExprKind::Binary(op, a, b) => write!(f, "({a} {} {b})", op.symbol()),
            ExprKind::Call(func, args) => {
                write!(f, "{}(", func.name())?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_int(src: &str, vars: &[(&str, i64)]) -> Result<i64, EvalError> {
        let e = Expr::parse(src).unwrap();
        let v = e.eval(&|n| {
            vars.iter()
                .find(|(k, _)| *k == n)
                .map(|(_, v)| Value::Int(*v))
        })?;
        int(v)
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(eval_int("1 + 2 * 3", &[]), Ok(7));
        assert_eq!(eval_int("(1 + 2) * 3", &[]), Ok(9));
        assert_eq!(eval_int("10 - 4 - 3", &[]), Ok(3));
        assert_eq!(eval_int("100 / 10 / 5", &[]), Ok(2));
        assert_eq!(eval_int("7 % 4 * 2", &[]), Ok(6));
        assert_eq!(eval_int("-2 * -3", &[]), Ok(6));
        assert_eq!(eval_int("1 < 2 == 1", &[]), Ok(1));
        assert_eq!(eval_int("1 || 0 && 0", &[]), Ok(1));
        assert_eq!(eval_int("!0 && !(3 > 4)", &[]), Ok(1));
        // C's precedence: `&` below `==`, then `^`, then `|`, all above `&&`.
        assert_eq!(eval_int("(96 & (96 - 1)) == 0", &[]), Ok(0));
        assert_eq!(eval_int("(64 & (64 - 1)) == 0", &[]), Ok(1));
        assert_eq!(eval_int("6 & 3 == 3", &[]), Ok(0));
        assert_eq!(eval_int("1 | 6 ^ 3 & 5", &[]), Ok(7));
        assert_eq!(eval_int("4 | 1 && 0 | 2", &[]), Ok(1));
    }

    #[test]
    fn names_and_functions() {
        let vars = [("BLOCK_SIZE", 96), ("UX", 14), ("smem_per_sm", 49152)];
        assert_eq!(eval_int("BLOCK_SIZE % 32 == 0", &vars), Ok(1));
        assert_eq!(
            eval_int("UX + max(16384 / (2 * 8), UX * UX) < 16384", &vars),
            Ok(1)
        );
        assert_eq!(eval_int("ceil_div(BLOCK_SIZE, 64)", &vars), Ok(2));
        assert_eq!(eval_int("ceil_div(-7, 2)", &vars), Ok(-3));
        assert_eq!(eval_int("min(5, UX, 9)", &vars), Ok(5));
        assert_eq!(eval_int("abs(-4)", &vars), Ok(4));
        assert_eq!(eval_int("0x10 + 1_000", &vars), Ok(1016));
        assert_eq!(eval_int("cdiv(BLOCK_SIZE, 64)", &vars), Ok(2));
        assert_eq!(eval_int("align(65, 32)", &vars), Ok(96));
        assert_eq!(eval_int("log2(1 << 20)", &vars), Ok(20));
        assert_eq!(eval_int("1 << 2 + 1", &vars), Ok(8));
        assert_eq!(eval_int("(1 < 2) < 3", &vars), Ok(1));
        assert!(Expr::parse("1 < UX < 3")
            .unwrap_err()
            .message
            .contains("chain"));
        assert!(eval_int("1 << 64", &vars).is_err());
        assert!(eval_int("log2(0)", &vars).is_err());
        assert!(eval_int("align(4, 0)", &vars).is_err());
        let e = Expr::parse("BLOCK_SIZE * UX * 8 <= smem_per_sm && UX > 2").unwrap();
        assert_eq!(e.names(), vec!["BLOCK_SIZE", "UX", "smem_per_sm"]);
    }

    #[test]
    fn evaluation_errors() {
        assert_eq!(eval_int("1 / (2 - 2)", &[]), Err(EvalError::DivisionByZero));
        assert_eq!(eval_int("5 % 0", &[]), Err(EvalError::DivisionByZero));
        assert_eq!(
            eval_int("9223372036854775807 + 1", &[]),
            Err(EvalError::Overflow)
        );
        assert_eq!(
            eval_int("X + 1", &[]),
            Err(EvalError::UnknownName("X".into()))
        );
        // Short-circuit: the division is never evaluated.
        assert_eq!(eval_int("0 && 1 / 0", &[]), Ok(0));
    }

    #[test]
    fn strings_compare_by_equality_only() {
        let e = Expr::parse("LAYOUT == \"TN\" || LAYOUT != \"NN\"").unwrap();
        let v = e
            .eval(&|n| (n == "LAYOUT").then_some(Value::Str("NN")))
            .unwrap();
        assert_eq!(v, Value::Int(0));
        let ty = |n: &str| (n == "LAYOUT").then_some(Type::Str);
        assert_eq!(e.check_types(&ty), Ok(Type::Int));
        let bad = Expr::parse("LAYOUT + 1 > 0").unwrap();
        let err = bad.check_types(&ty).unwrap_err();
        assert!(err.message.contains("needs integers"), "{err}");
        let bad = Expr::parse("LAYOUT == 3").unwrap();
        assert!(bad.check_types(&ty).is_err());
    }

    #[test]
    fn parse_errors_are_located() {
        let err = Expr::parse("BLOCK_SIZE %% 32").unwrap_err();
        assert_eq!(err.offset, 12);
        assert!(err.message.contains("expected an operand"), "{err}");
        let err = Expr::parse("(1 + 2").unwrap_err();
        assert!(err.message.contains("expected `)`"), "{err}");
        let err = Expr::parse("A = 2").unwrap_err();
        assert!(err.message.contains("use `==`"), "{err}");
        let err = Expr::parse("foo(1)").unwrap_err();
        assert!(err.message.contains("unknown function"), "{err}");
        let err = Expr::parse("1 2").unwrap_err();
        assert!(err.message.contains("after a complete expression"), "{err}");
        let err = Expr::parse("ceil_div(1)").unwrap_err();
        assert!(err.message.contains("argument"), "{err}");
        assert!(Expr::parse("\"abc").is_err());
        assert!(Expr::parse("3 $ 4").is_err());
        assert!(Expr::parse("").is_err());
    }

    #[test]
    fn display_round_trips() {
        for src in [
            "a + b * -c",
            "!(x < 3) || y % 2 == 1 && z",
            "max(a, b + 1) >= ceil_div(c, 4)",
            "s == \"q\\\"uote\"",
            "a & b | c ^ d && e",
        ] {
            let e = Expr::parse(src).unwrap();
            let printed = e.to_string();
            let again = Expr::parse(&printed).unwrap();
            // Printing is canonical, so a second round trip must not change the text.
            assert_eq!(printed, again.to_string(), "{src}");
            assert_eq!(e.names(), again.names(), "{src}");
        }
        assert_eq!(Expr::parse("a+b*c").unwrap().to_string(), "(a + (b * c))");
    }

    #[test]
    fn compiled_program_agrees_with_tree_evaluation() {
        let srcs = [
            "a * 8 * m <= 49152 && a % 32 == 0",
            "a != 0 && 100 / a > 2 || !m",
            "max(a, m * 3) - ceil_div(a, 7) >= -m",
            "s == \"x\" || s != \"y\" && a > 3",
            "(a & (a - 1)) == 0 || (a ^ m) | 1 > 40",
        ];
        let mut interned: Vec<String> = vec!["x".into(), "y".into(), "z".into()];
        for src in srcs {
            let e = Expr::parse(src).unwrap();
            let resolve = |n: &str| match n {
                "a" => Some(Operand::Slot(0)),
                "m" => Some(Operand::Slot(1)),
                "s" => Some(Operand::Slot(2)),
                _ => None,
            };
            let prog = e
                .compile(
                    &resolve,
                    &mut |s: &str| match interned.iter().position(|x| x == s) {
                        Some(i) => i as i64,
                        None => {
                            interned.push(s.to_string());
                            interned.len() as i64 - 1
                        }
                    },
                )
                .unwrap();
            let mut stack = Vec::new();
            for a in [0i64, 5, 32, 96, 200] {
                for m in 0..4i64 {
                    for (s, sv) in interned.iter().take(3).enumerate() {
                        let tree = e.eval(&|n| match n {
                            "a" => Some(Value::Int(a)),
                            "m" => Some(Value::Int(m)),
                            "s" => Some(Value::Str(sv)),
                            _ => None,
                        });
                        let run = prog.run(&[a, m, s as i64], &mut stack);
                        assert_eq!(
                            tree.map(|v| int(v).unwrap()),
                            run,
                            "{src} a={a} m={m} s={s}"
                        );
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn arithmetic_matches_rust(a in -1000i64..1000, b in -1000i64..1000, c in 1i64..50) {
            let vars = [("a", a), ("b", b), ("c", c)];
            proptest::prop_assert_eq!(eval_int("a + b * c - (a % c)", &vars), Ok(a + b * c - (a % c)));
            proptest::prop_assert_eq!(eval_int("(a < b) + (a >= b) * 2", &vars), Ok(if a < b { 1 } else { 2 }));
            proptest::prop_assert_eq!(eval_int("a / c", &vars), Ok(a / c));
        }
    }
}
