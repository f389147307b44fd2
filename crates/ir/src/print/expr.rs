//! Expressions, with the parentheses C's grammar needs and literals that read
//! back to the same value and type.

use std::cell::Cell;

use super::types;
use crate::{BinaryOp, Builtin, Expr, ExprKind, Intrinsic, Module, Scalar, Type, UnaryOp};

// Binding strength of what an expression prints as; an operand printed where a
// stronger one is needed gets parentheses. Binary operators take
// `BINARY_BASE + BinaryOp::precedence()`, which lies between COND and UNARY.
pub(super) const COMMA: u8 = 0;
pub(super) const ASSIGN: u8 = 1;
const COND: u8 = 2;
const BINARY_BASE: u8 = 2;
const UNARY: u8 = 13;
const POSTFIX: u8 = 14;
const PRIMARY: u8 = 15;

pub(crate) struct ExprPrinter<'a> {
    m: Option<&'a Module>,
    /// Printed name of each variable, by `VarId`.
    names: &'a [String],
    /// Whether the text being printed (one statement's expressions) has a
    /// `<` that a parser could take for a template's; `None` outside one.
    template_guard: Cell<Option<bool>>,
}

impl<'a> ExprPrinter<'a> {
    pub(crate) fn new(m: Option<&'a Module>, names: &'a [String]) -> Self {
        ExprPrinter {
            m,
            names,
            template_guard: Cell::new(None),
        }
    }

    /// `e` as a full expression (a comma expression needs no parentheses).
    pub(crate) fn expr(&self, e: &Expr) -> String {
        self.operand(e, COMMA)
    }

    /// `e` in a position that needs binding strength `min` or more.
    pub(super) fn operand(&self, e: &Expr, min: u8) -> String {
        self.region(&[e], || {
            let (text, prec) = self.print(e);
            if prec < min {
                self.parenthesised(e, text)
            } else {
                text
            }
        })
    }

    /// Runs `f`, which prints `roots` as one piece of text (a statement's
    /// expressions, with no `;` or brace between them), unless a piece is
    /// already being printed.
    pub(super) fn region<T>(&self, roots: &[&Expr], f: impl FnOnce() -> T) -> T {
        if self.template_guard.get().is_some() {
            return f();
        }
        self.template_guard
            .set(Some(roots.iter().any(|e| has_less_than(e))));
        let text = f();
        self.template_guard.set(None);
        text
    }

    /// `e`, whose text is `text`, in parentheses. tree-sitter's C++ grammar
    /// cannot read a parenthesised comma expression that starts with an
    /// assignment (`(a = b, c)`), so that assignment gets parentheses of its own.
    fn parenthesised(&self, e: &Expr, text: String) -> String {
        if leftmost_comma_item_is_assignment(e) {
            format!("({})", self.comma_first_assignment_wrapped(e))
        } else if reads_as_type(&text) {
            // In `(a & (b * c)) & d` tree-sitter takes `a & (b * c)` for a
            // type (a reference to a function of a `b *c`) and the rest for
            // a cast of `&d`; no type starts with a parenthesis.
            format!("(({text}))")
        } else {
            format!("({text})")
        }
    }

    fn comma_first_assignment_wrapped(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Comma(l, r) => format!(
                "{}, {}",
                self.comma_first_assignment_wrapped(l),
                self.operand(r, ASSIGN)
            ),
            ExprKind::Cast {
                implicit: true,
                expr,
            } => self.comma_first_assignment_wrapped(expr),
            _ => format!("({})", self.print(e).0),
        }
    }

    pub(super) fn var_name(&self, id: crate::VarId) -> String {
        match self.names.get(id.0 as usize) {
            Some(n) => n.clone(),
            None => format!("v{}", id.0),
        }
    }

    pub(super) fn global_name(&self, id: crate::GlobalId) -> String {
        match self.m.and_then(|m| m.globals.get(id.0 as usize)) {
            Some(g) => g.name.clone(),
            None => format!("g{}", id.0),
        }
    }

    pub(super) fn func_name(&self, id: crate::FuncId) -> String {
        match self.m.and_then(|m| m.functions.get(id.0 as usize)) {
            Some(f) => f.name.clone(),
            None => format!("f{}", id.0),
        }
    }

    /// The text of `e` and how strongly it binds.
    fn print(&self, e: &Expr) -> (String, u8) {
        match &e.kind {
            ExprKind::IntLit(v) => int_literal(*v, &e.ty),
            ExprKind::FloatLit(v) => float_literal(*v, &e.ty),
            ExprKind::BoolLit(b) => match e.ty {
                Type::Scalar(Scalar::Bool) => (b.to_string(), PRIMARY),
                _ => self.cast_text(&e.ty, b.to_string()),
            },
            ExprKind::Var(id) => (self.var_name(*id), PRIMARY),
            ExprKind::Global(id) => (self.global_name(*id), PRIMARY),
            ExprKind::Builtin(b) => (builtin(*b), POSTFIX),
            ExprKind::Unary(op, x) => {
                let sym = match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::Plus => "+",
                    UnaryOp::Not => "!",
                    UnaryOp::BitNot => "~",
                };
                // tree-sitter's C++ grammar reads `-a--` as `(-a)--`.
                if is_postfix_incdec(x) {
                    (format!("{sym}({})", self.operand(x, UNARY)), UNARY)
                } else {
                    (self.prefix(sym, x), UNARY)
                }
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r),
            ExprKind::Assign { op, lhs, rhs } => {
                let sym = match op {
                    Some(op) => format!("{}=", op.symbol()),
                    None => "=".to_string(),
                };
                let text = format!(
                    "{} {sym} {}",
                    self.operand(lhs, UNARY),
                    self.operand(rhs, ASSIGN)
                );
                (text, ASSIGN)
            }
            ExprKind::IncDec {
                increment,
                prefix,
                target,
            } => {
                let sym = if *increment { "++" } else { "--" };
                if *prefix {
                    (self.prefix(sym, target), UNARY)
                } else {
                    (format!("{}{sym}", self.postfix_base(target)), POSTFIX)
                }
            }
            ExprKind::Cond(c, t, f) => {
                // C++ reads `a ? b : c = d` as `a ? b : (c = d)`; the else
                // operand is kept at conditional strength so an assignment there
                // is parenthesised and reads the same in C and C++.
                let text = format!(
                    "{} ? {} : {}",
                    self.operand(c, COND + 1),
                    self.operand(t, ASSIGN),
                    self.operand(f, COND)
                );
                (text, COND)
            }
            ExprKind::Cast {
                implicit: true,
                expr,
            } => self.print(expr),
            ExprKind::Cast {
                implicit: false,
                expr,
            } => {
                let inner = self.operand(expr, UNARY);
                self.cast_text(&e.ty, inner)
            }
            // A comma expression as the index is parenthesised: C++20 deprecates
            // it there and C++23 reads `p[a, b]` as two subscripts.
            ExprKind::Index(base, idx) => (
                format!("{}[{}]", self.postfix_base(base), self.operand(idx, ASSIGN)),
                POSTFIX,
            ),
            ExprKind::Component(v, c) => {
                let field = match c {
                    0 => "x".to_string(),
                    1 => "y".to_string(),
                    2 => "z".to_string(),
                    3 => "w".to_string(),
                    // Vectors have four components at most; an out-of-range one
                    // is printed so that compiling it fails rather than reading a
                    // different component.
                    n => format!("c{n}"),
                };
                (format!("{}.{field}", self.postfix_base(v)), POSTFIX)
            }
            ExprKind::Field(base, i) => {
                let name = field_name(&base.ty, *i);
                match &base.without_implicit_casts().kind {
                    ExprKind::Deref(p) => (format!("{}->{name}", self.postfix_base(p)), POSTFIX),
                    _ => (format!("{}.{name}", self.postfix_base(base)), POSTFIX),
                }
            }
            ExprKind::Aggregate(items) => {
                let items: Vec<String> = items.iter().map(|a| self.operand(a, ASSIGN)).collect();
                (
                    format!("{}{{{}}}", types::type_name(&e.ty, self), items.join(", ")),
                    POSTFIX,
                )
            }
            ExprKind::Deref(p) => (self.prefix("*", p), UNARY),
            ExprKind::AddrOf(x) => (self.prefix("&", x), UNARY),
            ExprKind::Call(f, args) => {
                let name = self.func_name(*f);
                match operator_call(&name, args) {
                    Some(OperatorCall::Binary(op)) => self.binary(op, &args[0], &args[1]),
                    Some(OperatorCall::Neg) => (self.prefix("-", &args[0]), UNARY),
                    None => (self.call(&name, args), POSTFIX),
                }
            }
            ExprKind::Intrinsic(i, args) => (self.call(&intrinsic_name(*i, &e.ty), args), POSTFIX),
            ExprKind::Comma(l, r) => (
                format!("{}, {}", self.operand(l, COMMA), self.operand(r, ASSIGN)),
                COMMA,
            ),
            ExprKind::SizeOf(t) => (format!("sizeof({})", types::type_name(t, self)), UNARY),
            ExprKind::StrLit(text) => (string_literal(text), POSTFIX),
        }
    }

    /// The operand of a postfix operator. A number there is parenthesised: C
    /// reads `0.x` as one malformed number, and parsers that lex a sign into
    /// a number literal would read `-1[p]` as `(-1)[p]`.
    fn postfix_base(&self, e: &Expr) -> String {
        let text = self.operand(e, POSTFIX);
        if text.starts_with(|c: char| c.is_ascii_digit()) {
            format!("({text})")
        } else {
            text
        }
    }

    fn cast_text(&self, ty: &Type, inner: String) -> (String, u8) {
        (format!("({}){inner}", types::type_name(ty, self)), UNARY)
    }

    /// A prefix operator and its operand. An operand that starts with the
    /// operator's last character is parenthesised so the two never fuse into
    /// another token (`-(-x)`, not `--x`; `+(++i)`).
    fn prefix(&self, sym: &str, x: &Expr) -> String {
        let text = self.operand(x, UNARY);
        let fuses = match (sym.chars().last(), text.chars().next()) {
            (Some(a), Some(b)) => a == b && matches!(a, '+' | '-' | '&'),
            _ => false,
        };
        if fuses {
            format!("{sym}({text})")
        } else {
            format!("{sym}{text}")
        }
    }

    fn binary(&self, op: BinaryOp, l: &Expr, r: &Expr) -> (String, u8) {
        let p = binary_prec(op);
        // Left-associative: a right operand of equal strength needs parentheses.
        let lt = self.binary_operand(op, l, p);
        let rt = self.binary_operand(op, r, p + 1);
        let text = format!("{lt} {} {rt}", op.symbol());
        // tree-sitter's C++ grammar reads `i < n && j > (k)` as a call of the
        // template `i<n && j>`, `i < n || j > -k` as `i<n || j>` minus `k`,
        // `i < n || j >= k` as an assignment to `i<n || j>` and
        // `i < n || j >> k` as a comparison with it: where the statement has
        // a `<`, a `>=`, a `>>`, and a `>` followed by anything but a name or
        // a number are enclosed in parentheses.
        let closes_template = self.template_guard.get() == Some(true)
            && match op {
                BinaryOp::Ge | BinaryOp::Shr => true,
                BinaryOp::Gt => !rt.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'),
                _ => false,
            };
        if closes_template {
            (format!("({text})"), PRIMARY)
        } else {
            (text, p)
        }
    }

    fn binary_operand(&self, parent: BinaryOp, e: &Expr, min: u8) -> String {
        let (text, prec) = self.print(e);
        let clarify = binary_child(e).is_some_and(|child| warns_unparenthesized(parent, child));
        if prec < min || clarify {
            self.parenthesised(e, text)
        } else {
            text
        }
    }

    /// Arguments whose top operator holds `<` or `>` are parenthesised: in
    /// `min(y < a, b >> c)` tree-sitter's C++ grammar sees a template.
    fn call(&self, name: &str, args: &[Expr]) -> String {
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                let text = self.operand(a, ASSIGN);
                if angle_bracket_operator(a) {
                    format!("({text})")
                } else {
                    text
                }
            })
            .collect();
        format!("{name}({})", args.join(", "))
    }
}

/// A call of a user-defined operator function that prints as the operator.
enum OperatorCall {
    Binary(BinaryOp),
    Neg,
}

/// `operator+(a, b)` prints as `a + b` (the front end resolves it back to the
/// same function); only operators whose operands are all values are named
/// `operator...` in the IR.
fn operator_call(name: &str, args: &[Expr]) -> Option<OperatorCall> {
    let sym = name.strip_prefix("operator")?;
    if args.len() == 1 && sym == "-" {
        return Some(OperatorCall::Neg);
    }
    if args.len() != 2 {
        return None;
    }
    use BinaryOp::*;
    let ops = [
        Add, Sub, Mul, Div, Rem, Shl, Shr, BitAnd, BitOr, BitXor, Eq, Ne, Lt, Le, Gt, Ge,
    ];
    ops.into_iter()
        .find(|op| op.symbol() == sym)
        .map(OperatorCall::Binary)
}

/// The name of field `i` of the struct type `ty`.
pub(super) fn field_name(ty: &Type, i: u32) -> String {
    match ty.as_struct().and_then(|s| s.fields.get(i as usize)) {
        Some(f) => f.name.clone(),
        // Printed so that compiling it fails rather than reading another field.
        None => format!("field{i}"),
    }
}

fn is_postfix_incdec(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IncDec { prefix: false, .. } => true,
        ExprKind::Cast {
            implicit: true,
            expr,
        } => is_postfix_incdec(expr),
        _ => false,
    }
}

fn angle_bracket_operator(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast {
            implicit: true,
            expr,
        } => angle_bracket_operator(expr),
        ExprKind::Binary(op, _, _) => matches!(
            op,
            BinaryOp::Lt
                | BinaryOp::Gt
                | BinaryOp::Le
                | BinaryOp::Ge
                | BinaryOp::Shl
                | BinaryOp::Shr
        ),
        _ => false,
    }
}

/// Whether `e` has a `<` comparison anywhere.
fn has_less_than(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Lt, _, _) => true,
        ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::BoolLit(_)
        | ExprKind::Var(_)
        | ExprKind::Global(_)
        | ExprKind::Builtin(_)
        | ExprKind::SizeOf(_)
        | ExprKind::StrLit(_) => false,
        ExprKind::Unary(_, x)
        | ExprKind::Deref(x)
        | ExprKind::AddrOf(x)
        | ExprKind::Component(x, _)
        | ExprKind::Field(x, _)
        | ExprKind::IncDec { target: x, .. }
        | ExprKind::Cast { expr: x, .. } => has_less_than(x),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign { lhs: a, rhs: b, .. }
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => has_less_than(a) || has_less_than(b),
        ExprKind::Cond(a, b, c) => has_less_than(a) || has_less_than(b) || has_less_than(c),
        ExprKind::Call(_, args) | ExprKind::Intrinsic(_, args) | ExprKind::Aggregate(args) => {
            args.iter().any(has_less_than)
        }
    }
}

/// Whether `text` could be read as a type name with an abstract declarator:
/// a name, `*`, `&` or `&&`, then what looks like a parameter list (a
/// parenthesis, a name, then `)`, `,`, `*` or `&`).
fn reads_as_type(text: &str) -> bool {
    fn after_name(s: &str) -> Option<&str> {
        let s = s.trim_start();
        if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return None;
        }
        Some(
            s.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
                .trim_start(),
        )
    }
    let Some(rest) = after_name(text) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(['*', '&']) else {
        return false;
    };
    let Some(params) = rest.trim_start_matches(['*', '&', ' ']).strip_prefix('(') else {
        return false;
    };
    after_name(params).is_some_and(|r| r.starts_with([')', ',', '*', '&']))
}

/// Whether `e` is a comma expression whose first item is an assignment.
fn leftmost_comma_item_is_assignment(e: &Expr) -> bool {
    fn first(e: &Expr) -> &Expr {
        match &e.kind {
            ExprKind::Comma(l, _) => first(l),
            ExprKind::Cast {
                implicit: true,
                expr,
            } => first(expr),
            _ => e,
        }
    }
    let mut top = e;
    while let ExprKind::Cast {
        implicit: true,
        expr,
    } = &top.kind
    {
        top = expr;
    }
    matches!(top.kind, ExprKind::Comma(..)) && matches!(first(top).kind, ExprKind::Assign { .. })
}

fn binary_prec(op: BinaryOp) -> u8 {
    BINARY_BASE + op.precedence()
}

/// The operator of a binary expression, looking through implicit conversions
/// (which print as nothing).
fn binary_child(e: &Expr) -> Option<BinaryOp> {
    match &e.kind {
        ExprKind::Binary(op, _, _) => Some(*op),
        ExprKind::Cast {
            implicit: true,
            expr,
        } => binary_child(expr),
        _ => None,
    }
}

/// Operand groupings that are correct without parentheses but that compilers
/// flag as likely mistakes (`-Wparentheses`); the printer parenthesises them.
/// Only ever asked about a child that binds at least as tightly as its parent,
/// so the parentheses never change meaning.
fn warns_unparenthesized(parent: BinaryOp, child: BinaryOp) -> bool {
    use BinaryOp::*;
    let bitwise = |o: BinaryOp| matches!(o, BitAnd | BitOr | BitXor);
    let arithmetic = |o: BinaryOp| matches!(o, Add | Sub | Mul | Div | Rem);
    (bitwise(parent) && child != parent)
        || (matches!(parent, Shl | Shr) && arithmetic(child))
        || (parent == LogicOr && child == LogicAnd)
        || (parent.is_comparison() && child.is_comparison())
}

fn builtin(b: Builtin) -> String {
    match b {
        Builtin::ThreadIdx(d) => format!("threadIdx.{}", d.name()),
        Builtin::BlockIdx(d) => format!("blockIdx.{}", d.name()),
        Builtin::BlockDim(d) => format!("blockDim.{}", d.name()),
        Builtin::GridDim(d) => format!("gridDim.{}", d.name()),
        Builtin::WarpSize => "warpSize".to_string(),
    }
}

/// The called name of an intrinsic; vector constructors are named after the
/// vector they build (`make_float4`).
pub(super) fn intrinsic_name(i: Intrinsic, ty: &Type) -> String {
    match (i, ty) {
        (Intrinsic::MakeVector, Type::Vector(s, n)) => match s.vector_prefix() {
            Some(p) => format!("make_{p}{n}"),
            None => i.name(),
        },
        _ => i.name(),
    }
}

/// An integer literal of type `ty` holding `v` (as C converts `v` to `ty`).
/// `int`, `unsigned`, `long long` and `unsigned long long` have literal
/// suffixes and `char` has character literals (a `char` value is held
/// sign-extended, as `'\xff'` is -1); other types, and values out of a
/// literal's range, are a cast of an `int` (or `long long`) literal.
fn int_literal(v: u64, ty: &Type) -> (String, u8) {
    let signed = v as i64;
    match ty.scalar() {
        Some(Scalar::I32) if v <= i32::MAX as u64 => (v.to_string(), PRIMARY),
        Some(Scalar::U32) if v <= u32::MAX as u64 => (format!("{}u", unsigned_digits(v)), PRIMARY),
        Some(Scalar::I64) if v <= i64::MAX as u64 => (format!("{v}ll"), PRIMARY),
        Some(Scalar::U64) => (format!("{}ull", unsigned_digits(v)), PRIMARY),
        Some(Scalar::I8) if i8::try_from(signed).is_ok() => (char_literal(signed as u8), PRIMARY),
        Some(Scalar::I32) if signed >= i32::MIN as i64 && signed < 0 => signed_text(signed, ""),
        Some(Scalar::I64) => signed_text(signed, "ll"),
        _ => {
            let inner = if i32::try_from(signed).is_ok() {
                signed_text(signed, "")
            } else {
                signed_text(signed, "ll")
            };
            let inner = if inner.1 < UNARY {
                format!("({})", inner.0)
            } else {
                inner.0
            };
            let name = match ty {
                Type::Scalar(s) => s.c_name().to_string(),
                other => types::type_name(other, &ExprPrinter::new(None, &[])),
            };
            (format!("({name}){inner}"), UNARY)
        }
    }
}

/// Digits of an unsigned literal: masks and single bits (`0xffffffff`,
/// `0xffff0000`, `0x80000000`) are easier to read in hexadecimal, other values
/// in decimal. With a `u` suffix both have the same type.
fn unsigned_digits(v: u64) -> String {
    let hex = format!("{v:x}");
    let mask = hex.chars().all(|c| c == 'f' || c == '0');
    let bit = matches!(hex.as_bytes()[0], b'1' | b'2' | b'4' | b'8')
        && hex[1..].chars().all(|c| c == '0');
    if v >= 0x10000 && (mask || bit) {
        format!("0x{hex}")
    } else {
        v.to_string()
    }
}

/// A character literal of type `char` with byte `b`: the character itself
/// when printable, a short escape where C has one, `\xNN` otherwise.
fn char_literal(b: u8) -> String {
    match b {
        b'\'' => r"'\''".to_string(),
        b'\\' => r"'\\'".to_string(),
        b'\n' => r"'\n'".to_string(),
        b'\t' => r"'\t'".to_string(),
        b'\r' => r"'\r'".to_string(),
        0 => r"'\0'".to_string(),
        0x20..=0x7e => format!("'{}'", b as char),
        _ => format!("'\\x{b:02x}'"),
    }
}

/// A signed value of `int` (`suffix` empty) or `long long` (`ll`) type. The
/// most negative value has no literal (its magnitude does not fit), so it is
/// written as `(-MAX - 1)`.
fn signed_text(v: i64, suffix: &str) -> (String, u8) {
    let min = if suffix.is_empty() {
        i32::MIN as i64
    } else {
        i64::MIN
    };
    if v == min {
        (format!("({}{suffix} - 1)", v + 1), PRIMARY)
    } else if v < 0 {
        (format!("-{}{suffix}", v.unsigned_abs()), UNARY)
    } else {
        (format!("{v}{suffix}"), PRIMARY)
    }
}

/// A floating literal: the shortest decimal text that reads back to `v`, `f`
/// suffixed for `float`. Infinities and NaN have no literal; they are printed
/// as the divisions `(1.0f / 0.0f)` and `(0.0f / 0.0f)`, which NVRTC folds to
/// the IEEE values and which need no header.
fn float_literal(v: f64, ty: &Type) -> (String, u8) {
    let single = match ty {
        Type::Scalar(Scalar::F32) => true,
        Type::Scalar(Scalar::F64) => false,
        other => {
            let (inner, prec) = float_literal(v, &Type::DOUBLE);
            let inner = if prec < UNARY {
                format!("({inner})")
            } else {
                inner
            };
            let name = types::type_name(other, &ExprPrinter::new(None, &[]));
            return (format!("({name}){inner}"), UNARY);
        }
    };
    let suffix = if single { "f" } else { "" };
    if v.is_nan() {
        return (format!("(0.0{suffix} / 0.0{suffix})"), PRIMARY);
    }
    if v.is_infinite() {
        let sign = if v < 0.0 { "-" } else { "" };
        return (format!("({sign}1.0{suffix} / 0.0{suffix})"), PRIMARY);
    }
    let mag = v.abs();
    // A `float` literal whose value is a float prints as the shortest float
    // text; one holding a value between floats keeps its double text, which
    // C rounds to the same float as the value.
    let mut text = if single && (mag as f32) as f64 == mag {
        format!("{:?}", mag as f32)
    } else {
        format!("{mag:?}")
    };
    if !text.contains(['.', 'e', 'E']) {
        text.push_str(".0");
    }
    text.push_str(suffix);
    if v.is_sign_negative() {
        (format!("-{text}"), UNARY)
    } else {
        (text, PRIMARY)
    }
}

/// `text` as a C string literal: quotes, backslashes and characters outside
/// printable ASCII escaped, the latter as three octal digits (a following
/// digit cannot extend such an escape, as it would a `\x` one).
pub(crate) fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for b in text.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}
