//! Random expression trees, printed and read back by a small C++ expression
//! parser written here from the grammar (maximal-munch tokens, precedence
//! climbing, C++'s rules for `?:` and assignment): the tree read back must be
//! the tree printed. This checks that parentheses are never missing, that
//! adjacent operators never fuse into other tokens, and that literals keep
//! their value and type.

use hone_ir::print::{print_expr, print_type};
use hone_ir::*;
use proptest::prelude::*;

// ------------------------------------------------------------ the shape

/// What C's grammar sees of an expression: no types, no implicit casts, no
/// parentheses.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Name(String),
    Int { value: u64, suffix: String },
    Float { bits: u64, single: bool },
    Prefix(String, Box<Shape>),
    Postfix(String, Box<Shape>),
    Binary(String, Box<Shape>, Box<Shape>),
    Assign(String, Box<Shape>, Box<Shape>),
    Cond(Box<Shape>, Box<Shape>, Box<Shape>),
    Cast(String, Box<Shape>),
    Index(Box<Shape>, Box<Shape>),
    Member(Box<Shape>, String),
    Call(String, Vec<Shape>),
    Comma(Box<Shape>, Box<Shape>),
    SizeOf(String),
}

fn bx(s: Shape) -> Box<Shape> {
    Box::new(s)
}

/// A type's text with single spaces between tokens, so `float*` and `float *`
/// compare equal.
fn normal_type(text: &str) -> String {
    tokens(text)
        .expect("printed types tokenize")
        .into_iter()
        .map(|t| match t {
            Tok::Word(w) | Tok::Number(w) | Tok::Punct(w) => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The shape the printer is meant to give `e`.
fn shape(m: &Module, f: &Function, e: &Expr) -> Shape {
    let sh = |x: &Expr| bx(shape(m, f, x));
    match &e.kind {
        ExprKind::IntLit(v) => {
            let suffix = match e.ty.scalar() {
                Some(Scalar::I32) => "",
                Some(Scalar::U32) => "u",
                Some(Scalar::I64) => "ll",
                Some(Scalar::U64) => "ull",
                Some(Scalar::I8) => "char",
                other => panic!("generator made an int literal of {other:?}"),
            };
            Shape::Int {
                value: *v,
                suffix: suffix.to_string(),
            }
        }
        ExprKind::FloatLit(v) => {
            let single = e.ty == Type::FLOAT;
            let value = if single { *v as f32 as f64 } else { *v };
            Shape::Float {
                bits: value.to_bits(),
                single,
            }
        }
        ExprKind::BoolLit(b) => Shape::Name(b.to_string()),
        ExprKind::Var(id) => Shape::Name(f.var(*id).name.clone()),
        ExprKind::Builtin(b) => match b {
            Builtin::WarpSize => Shape::Name("warpSize".into()),
            Builtin::ThreadIdx(d) => {
                Shape::Member(bx(Shape::Name("threadIdx".into())), d.name().into())
            }
            Builtin::BlockIdx(d) => {
                Shape::Member(bx(Shape::Name("blockIdx".into())), d.name().into())
            }
            Builtin::BlockDim(d) => {
                Shape::Member(bx(Shape::Name("blockDim".into())), d.name().into())
            }
            Builtin::GridDim(d) => {
                Shape::Member(bx(Shape::Name("gridDim".into())), d.name().into())
            }
        },
        ExprKind::Unary(op, x) => {
            let sym = match op {
                UnaryOp::Neg => "-",
                UnaryOp::Plus => "+",
                UnaryOp::Not => "!",
                UnaryOp::BitNot => "~",
            };
            Shape::Prefix(sym.into(), sh(x))
        }
        ExprKind::Binary(op, l, r) => Shape::Binary(op.symbol().into(), sh(l), sh(r)),
        ExprKind::Assign { op, lhs, rhs } => {
            let sym = op.map_or("=".to_string(), |o| format!("{}=", o.symbol()));
            Shape::Assign(sym, sh(lhs), sh(rhs))
        }
        ExprKind::IncDec {
            increment,
            prefix,
            target,
        } => {
            let sym = if *increment { "++" } else { "--" }.to_string();
            if *prefix {
                Shape::Prefix(sym, sh(target))
            } else {
                Shape::Postfix(sym, sh(target))
            }
        }
        ExprKind::Cond(c, t, x) => Shape::Cond(sh(c), sh(t), sh(x)),
        ExprKind::Cast {
            implicit: true,
            expr,
        } => shape(m, f, expr),
        ExprKind::Cast {
            implicit: false,
            expr,
        } => Shape::Cast(normal_type(&print_type(&e.ty)), sh(expr)),
        ExprKind::Index(b, i) => Shape::Index(sh(b), sh(i)),
        ExprKind::Component(v, c) => Shape::Member(sh(v), ["x", "y", "z", "w"][*c as usize].into()),
        ExprKind::Deref(p) => Shape::Prefix("*".into(), sh(p)),
        ExprKind::AddrOf(x) => Shape::Prefix("&".into(), sh(x)),
        ExprKind::Call(id, args) => Shape::Call(
            m.func(*id).name.clone(),
            args.iter().map(|a| shape(m, f, a)).collect(),
        ),
        ExprKind::Intrinsic(i, args) => {
            let name = match (i, &e.ty) {
                (Intrinsic::MakeVector, Type::Vector(s, n)) => {
                    format!("make_{}{n}", s.vector_prefix().unwrap())
                }
                _ => i.name(),
            };
            Shape::Call(name, args.iter().map(|a| shape(m, f, a)).collect())
        }
        ExprKind::Comma(l, r) => Shape::Comma(sh(l), sh(r)),
        ExprKind::SizeOf(t) => Shape::SizeOf(normal_type(&print_type(t))),
        ExprKind::Global(_) | ExprKind::Field(..) | ExprKind::Aggregate(_) => {
            panic!("the generator makes no file-scope variables or structs")
        }
        ExprKind::StrLit(_) => panic!("the generator makes no string literals"),
    }
}

// ------------------------------------------------------------- the lexer

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Number(String),
    Punct(String),
}

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "->", "+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|",
    "^", "?", ":", ",", ".", "(", ")", "[", "]",
];

/// C's maximal munch: a printer that put `-` next to `-x` would be read as `--`.
fn tokens(text: &str) -> Result<Vec<Tok>, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c == b' ' {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Word(text[start..i].to_string()));
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            // A pp-number: digits, letters, dots, and a sign after an exponent.
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || ((b[i] == b'+' || b[i] == b'-') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            out.push(Tok::Number(text[start..i].to_string()));
        } else if c == b'\'' {
            // A character literal: up to the next quote that no backslash escapes.
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            let lit = text.get(start..i).ok_or("unterminated character literal")?;
            out.push(Tok::Number(lit.to_string()));
        } else {
            let p = PUNCTS
                .iter()
                .find(|p| text[i..].starts_with(**p))
                .ok_or_else(|| format!("stray character at {i} in {text}"))?;
            out.push(Tok::Punct(p.to_string()));
            i += p.len();
        }
    }
    Ok(out)
}

// ------------------------------------------------------------ the parser

const TYPE_WORDS: &[&str] = &[
    "const",
    "unsigned",
    "signed",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "bool",
    "void",
    "__restrict__",
    "float2",
    "float4",
    "int2",
    "uint2",
    "double2",
];

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

type Parsed = Result<Shape, String>;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn peek_punct(&self) -> Option<&str> {
        match self.peek() {
            Some(Tok::Punct(p)) => Some(p),
            _ => None,
        }
    }
    fn eat(&mut self, p: &str) -> bool {
        if self.peek_punct() == Some(p) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, p: &str) -> Result<(), String> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(format!(
                "expected {p} at token {} ({:?})",
                self.at,
                self.peek()
            ))
        }
    }

    /// expression: assignment-expression (`,` assignment-expression)*
    fn expression(&mut self) -> Parsed {
        let mut l = self.assignment()?;
        while self.eat(",") {
            let r = self.assignment()?;
            l = Shape::Comma(bx(l), bx(r));
        }
        Ok(l)
    }

    /// C++: `logical-or ? expression : assignment` or
    /// `logical-or assignment-op assignment`.
    fn assignment(&mut self) -> Parsed {
        let l = self.binary(1)?;
        if self.eat("?") {
            let t = self.expression()?;
            self.expect(":")?;
            let f = self.assignment()?;
            return Ok(Shape::Cond(bx(l), bx(t), bx(f)));
        }
        const OPS: &[&str] = &[
            "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=",
        ];
        if let Some(op) = self
            .peek_punct()
            .filter(|p| OPS.contains(p))
            .map(str::to_string)
        {
            self.at += 1;
            let r = self.assignment()?;
            return Ok(Shape::Assign(op, bx(l), bx(r)));
        }
        Ok(l)
    }

    fn binary_prec(p: &str) -> Option<u8> {
        Some(match p {
            "*" | "/" | "%" => 10,
            "+" | "-" => 9,
            "<<" | ">>" => 8,
            "<" | "<=" | ">" | ">=" => 7,
            "==" | "!=" => 6,
            "&" => 5,
            "^" => 4,
            "|" => 3,
            "&&" => 2,
            "||" => 1,
            _ => return None,
        })
    }

    /// Precedence climbing over the left-associative binary operators.
    fn binary(&mut self, min: u8) -> Parsed {
        let mut l = self.unary()?;
        while let Some((op, p)) = self
            .peek_punct()
            .and_then(|o| Self::binary_prec(o).map(|p| (o.to_string(), p)))
        {
            if p < min {
                break;
            }
            self.at += 1;
            let r = self.binary(p + 1)?;
            l = Shape::Binary(op, bx(l), bx(r));
        }
        Ok(l)
    }

    fn starts_type(&self, offset: usize) -> bool {
        matches!(self.toks.get(self.at + offset), Some(Tok::Word(w)) if TYPE_WORDS.contains(&w.as_str()))
    }

    /// A type name up to the closing parenthesis, which is consumed.
    fn type_name(&mut self) -> Result<String, String> {
        let mut words = Vec::new();
        let mut depth = 0;
        loop {
            match self.peek().cloned() {
                Some(Tok::Punct(p)) if p == ")" && depth == 0 => {
                    self.at += 1;
                    return Ok(words.join(" "));
                }
                Some(t) => {
                    if let Tok::Punct(p) = &t {
                        depth += (p == "(") as i32 - (p == ")") as i32;
                    }
                    words.push(match t {
                        Tok::Word(w) | Tok::Number(w) | Tok::Punct(w) => w,
                    });
                    self.at += 1;
                }
                None => return Err("unterminated type name".into()),
            }
        }
    }

    fn unary(&mut self) -> Parsed {
        for op in ["++", "--", "-", "+", "!", "~", "*", "&"] {
            if self.eat(op) {
                let x = self.unary()?;
                return Ok(Shape::Prefix(op.into(), bx(x)));
            }
        }
        if self.peek_punct() == Some("(") && self.starts_type(1) {
            self.at += 1;
            let t = self.type_name()?;
            let x = self.unary()?;
            return Ok(Shape::Cast(t, bx(x)));
        }
        if self.peek() == Some(&Tok::Word("sizeof".into())) {
            self.at += 1;
            self.expect("(")?;
            return Ok(Shape::SizeOf(self.type_name()?));
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Parsed {
        let mut e = self.primary()?;
        loop {
            if self.eat("[") {
                let i = self.expression()?;
                self.expect("]")?;
                e = Shape::Index(bx(e), bx(i));
            } else if self.peek_punct() == Some("(") {
                let Shape::Name(name) = e else {
                    return Err("call of a non-name".into());
                };
                self.at += 1;
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.assignment()?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                e = Shape::Call(name, args);
            } else if self.eat(".") {
                match self.peek().cloned() {
                    Some(Tok::Word(w)) => {
                        self.at += 1;
                        e = Shape::Member(bx(e), w);
                    }
                    other => return Err(format!("member name expected, got {other:?}")),
                }
            } else if self.eat("++") {
                e = Shape::Postfix("++".into(), bx(e));
            } else if self.eat("--") {
                e = Shape::Postfix("--".into(), bx(e));
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> Parsed {
        match self.peek().cloned() {
            Some(Tok::Word(w)) => {
                self.at += 1;
                Ok(Shape::Name(w))
            }
            Some(Tok::Number(n)) => {
                self.at += 1;
                number(&n)
            }
            Some(Tok::Punct(p)) if p == "(" => {
                self.at += 1;
                let e = self.expression()?;
                self.expect(")")?;
                Ok(e)
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }
}

fn number(text: &str) -> Parsed {
    if let Some(body) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        let byte = match body.as_bytes() {
            [c] => *c,
            [b'\\', b'n'] => b'\n',
            [b'\\', b't'] => b'\t',
            [b'\\', b'r'] => b'\r',
            [b'\\', b'0'] => 0,
            [b'\\', c @ (b'\\' | b'\'')] => *c,
            [b'\\', b'x', ..] => {
                u8::from_str_radix(&body[2..], 16).map_err(|e| format!("{text}: {e}"))?
            }
            _ => return Err(format!("bad character literal {text}")),
        };
        return Ok(Shape::Int {
            value: byte as i8 as i64 as u64,
            suffix: "char".into(),
        });
    }
    if text.contains(['.', 'e', 'E']) {
        return match text.strip_suffix(['f', 'F']) {
            Some(d) => d
                .parse::<f32>()
                .map(|v| Shape::Float {
                    bits: (v as f64).to_bits(),
                    single: true,
                })
                .map_err(|e| format!("{text}: {e}")),
            None => text
                .parse::<f64>()
                .map(|v| Shape::Float {
                    bits: v.to_bits(),
                    single: false,
                })
                .map_err(|e| format!("{text}: {e}")),
        };
    }
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let value = match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => digits.parse::<u64>(),
    }
    .map_err(|e| format!("{text}: {e}"))?;
    Ok(Shape::Int {
        value,
        suffix: text[digits.len()..].to_lowercase(),
    })
}

fn parse(text: &str) -> Parsed {
    let mut p = Parser {
        toks: tokens(text)?,
        at: 0,
    };
    let e = p.expression()?;
    if p.at != p.toks.len() {
        return Err(format!("trailing tokens from {} in {text}", p.at));
    }
    Ok(e)
}

// ------------------------------------------------------- the generator

fn ex(kind: ExprKind, ty: Type) -> Expr {
    Expr {
        kind,
        ty,
        span: Span::default(),
    }
}

const VAR_NAMES: &[&str] = &["a", "b", "n", "x", "y", "p", "q", "s"];

fn context() -> (Module, Function) {
    let types = [
        Type::INT,
        Type::INT,
        Type::UINT,
        Type::FLOAT,
        Type::DOUBLE,
        Type::ptr(Type::FLOAT),
        Type::Vector(Scalar::F32, 4),
        Type::Array(Box::new(Type::FLOAT), ArrayLen::Const(8)),
    ];
    let vars: Vec<Var> = VAR_NAMES
        .iter()
        .zip(types)
        .map(|(n, ty)| Var {
            name: n.to_string(),
            ty,
            kind: VarKind::Local,
            is_const: false,
            is_volatile: false,
            span: Span::default(),
        })
        .collect();
    let body = (0..vars.len())
        .map(|i| Stmt {
            kind: StmtKind::Decl {
                var: VarId(i as u32),
                init: None,
            },
            span: Span::default(),
        })
        .collect();
    let f = Function {
        name: "k".into(),
        kind: FuncKind::Global,
        ret: Type::Void,
        params: vec![],
        vars,
        body,
        launch_bounds: None,
        inline: None,
        span: Span::default(),
    };
    let callee = Function::new("g", FuncKind::Device, Type::FLOAT);
    (
        Module {
            files: vec![],
            functions: vec![callee, f.clone()],
            ..Module::default()
        },
        f,
    )
}

fn any_type() -> impl Strategy<Value = Type> {
    prop_oneof![
        Just(Type::INT),
        Just(Type::FLOAT),
        Just(Type::Scalar(Scalar::U8)),
        Just(Type::Scalar(Scalar::U64)),
        Just(Type::ptr(Type::FLOAT)),
        Just(Type::Pointer(Box::new(PointerType {
            pointee: Type::Scalar(Scalar::I32),
            pointee_const: true,
            restrict: false,
            pointee_volatile: false,
        }))),
        Just(Type::ptr(Type::ptr(Type::DOUBLE))),
        Just(Type::ptr(Type::Array(
            Box::new(Type::FLOAT),
            ArrayLen::Const(4)
        ))),
        Just(Type::Vector(Scalar::F32, 2)),
    ]
}

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        (0..VAR_NAMES.len()).prop_map(|i| ex(ExprKind::Var(VarId(i as u32)), Type::INT)),
        (0u64..=i32::MAX as u64).prop_map(|v| ex(ExprKind::IntLit(v), Type::INT)),
        prop_oneof![
            0u64..=u32::MAX as u64,
            Just(u32::MAX as u64),
            Just(0x8000_0000),
            Just(0xffff_0000)
        ]
        .prop_map(|v| ex(ExprKind::IntLit(v), Type::UINT)),
        (0u64..=i64::MAX as u64).prop_map(|v| ex(ExprKind::IntLit(v), Type::Scalar(Scalar::I64))),
        any::<u64>().prop_map(|v| ex(ExprKind::IntLit(v), Type::Scalar(Scalar::U64))),
        any::<i8>().prop_map(|v| ex(ExprKind::IntLit(v as i64 as u64), Type::Scalar(Scalar::I8))),
        any::<f32>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(|v| ex(ExprKind::FloatLit(v.abs() as f64), Type::FLOAT)),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(|v| ex(ExprKind::FloatLit(v.abs()), Type::DOUBLE)),
        any::<bool>().prop_map(|b| ex(ExprKind::BoolLit(b), Type::BOOL)),
        prop_oneof![
            Just(Builtin::ThreadIdx(Dim::X)),
            Just(Builtin::BlockIdx(Dim::Y)),
            Just(Builtin::BlockDim(Dim::Z)),
            Just(Builtin::GridDim(Dim::X)),
            Just(Builtin::WarpSize),
        ]
        .prop_map(|b| ex(ExprKind::Builtin(b), Type::UINT)),
        any_type().prop_map(|t| ex(ExprKind::SizeOf(t), Type::Scalar(Scalar::U64))),
    ]
}

fn binary_op() -> impl Strategy<Value = BinaryOp> {
    use BinaryOp::*;
    prop::sample::select(vec![
        Add, Sub, Mul, Div, Rem, Shl, Shr, BitAnd, BitOr, BitXor, LogicAnd, LogicOr, Eq, Ne, Lt,
        Le, Gt, Ge,
    ])
}

fn unary_op() -> impl Strategy<Value = UnaryOp> {
    prop::sample::select(vec![
        UnaryOp::Neg,
        UnaryOp::Plus,
        UnaryOp::Not,
        UnaryOp::BitNot,
    ])
}

fn math_of_arity(n: usize) -> MathOp {
    match n {
        1 => MathOp::Sqrt,
        2 => MathOp::Fmax,
        _ => MathOp::Fma,
    }
}

fn expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(6, 64, 4, |inner| {
        let b = |e: Expr| Box::new(e);
        prop_oneof![
            (unary_op(), inner.clone())
                .prop_map(move |(op, x)| ex(ExprKind::Unary(op, b(x)), Type::INT)),
            (binary_op(), inner.clone(), inner.clone())
                .prop_map(move |(op, l, r)| ex(ExprKind::Binary(op, b(l), b(r)), Type::INT)),
            (
                prop::option::of(binary_op().prop_filter("arithmetic or bitwise", |o| {
                    !o.is_comparison() && !matches!(o, BinaryOp::LogicAnd | BinaryOp::LogicOr)
                })),
                inner.clone(),
                inner.clone()
            )
                .prop_map(move |(op, l, r)| ex(
                    ExprKind::Assign {
                        op,
                        lhs: b(l),
                        rhs: b(r)
                    },
                    Type::INT
                )),
            (any::<bool>(), any::<bool>(), inner.clone()).prop_map(
                move |(increment, prefix, t)| ex(
                    ExprKind::IncDec {
                        increment,
                        prefix,
                        target: b(t)
                    },
                    Type::INT
                )
            ),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(move |(c, t, f)| ex(ExprKind::Cond(b(c), b(t), b(f)), Type::INT)),
            (any::<bool>(), any_type(), inner.clone()).prop_map(move |(implicit, ty, x)| ex(
                ExprKind::Cast {
                    implicit,
                    expr: b(x)
                },
                ty
            )),
            (inner.clone(), inner.clone())
                .prop_map(move |(x, i)| ex(ExprKind::Index(b(x), b(i)), Type::INT)),
            (inner.clone(), 0u8..4)
                .prop_map(move |(v, c)| ex(ExprKind::Component(b(v), c), Type::FLOAT)),
            inner
                .clone()
                .prop_map(move |p| ex(ExprKind::Deref(b(p)), Type::INT)),
            inner
                .clone()
                .prop_map(move |x| ex(ExprKind::AddrOf(b(x)), Type::INT)),
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|args| ex(ExprKind::Call(FuncId(0), args), Type::FLOAT)),
            prop::collection::vec(inner.clone(), 2..=4).prop_map(|args| {
                let n = args.len() as u8;
                ex(
                    ExprKind::Intrinsic(Intrinsic::MakeVector, args),
                    Type::Vector(Scalar::F32, n),
                )
            }),
            prop::collection::vec(inner.clone(), 1..=3).prop_map(|args| ex(
                ExprKind::Intrinsic(
                    Intrinsic::Math(MathFn {
                        func: math_of_arity(args.len()),
                        f32: true
                    }),
                    args
                ),
                Type::FLOAT
            )),
            (inner.clone(), inner.clone())
                .prop_map(move |(l, r)| ex(ExprKind::Comma(b(l), b(r)), Type::INT)),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn printed_expressions_parse_back_to_the_same_tree(e in expr()) {
        let (m, f) = context();
        let text = print_expr(&m, &f, &e);
        let back = parse(&text);
        prop_assert_eq!(back, Ok(shape(&m, &f, &e)), "printed as {}", text);
    }
}
