//! Expressions. Every expression carries its type (after C's promotions) and the
//! source span it came from, so faults, races and traces point at source lines.

use serde::{Deserialize, Serialize};

use crate::{FuncId, GlobalId, Scalar, Span, Type, VarId};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

/// Spans are provenance, not meaning: two expressions that differ only in where
/// they were written are the same expression (this is what makes print/parse
/// round trips comparable).
impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.ty == other.ty
    }
}

impl Expr {
    /// `self` converted to `ty` by C's implicit conversion, made explicit as
    /// `Cast { implicit: true }`; unchanged when it already has that type.
    pub fn implicit_cast(self, ty: Type) -> Expr {
        if self.ty == ty {
            return self;
        }
        let span = self.span;
        Expr {
            kind: ExprKind::Cast {
                implicit: true,
                expr: Box::new(self),
            },
            ty,
            span,
        }
    }

    /// The expression under any implicit conversions: what the user wrote.
    pub fn without_implicit_casts(&self) -> &Expr {
        match &self.kind {
            ExprKind::Cast {
                implicit: true,
                expr,
            } => expr.without_implicit_casts(),
            _ => self,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ExprKind {
    /// Integer literal; its type (int, unsigned, long long, ...) is in `Expr::ty`.
    IntLit(u64),
    /// Floating literal; `Expr::ty` says float (`1.0f`) or double.
    FloatLit(f64),
    BoolLit(bool),
    Var(VarId),
    /// A file-scope variable (`Module::globals`).
    Global(GlobalId),
    /// `threadIdx.x`, `blockDim.y`, `warpSize`, ...
    Builtin(Builtin),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs`, or `lhs op= rhs` when `op` is set. For compound assignment
    /// `rhs` is already converted to the type the operation is done in.
    Assign {
        op: Option<BinaryOp>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `++x`, `x++`, `--x`, `x--`.
    IncDec {
        increment: bool,
        prefix: bool,
        target: Box<Expr>,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Conversion to `Expr::ty`. `implicit` ones were inserted by the front end
    /// for C's usual conversions and are not printed.
    Cast {
        implicit: bool,
        expr: Box<Expr>,
    },
    /// `base[index]`, `base` a pointer or an array.
    Index(Box<Expr>, Box<Expr>),
    /// `.x/.y/.z/.w` of a vector value: component 0..=3.
    Component(Box<Expr>, u8),
    /// Data member `index` of a struct value (`s.f`; `p->f` is `Field(Deref(p))`).
    /// An lvalue when the struct is one.
    Field(Box<Expr>, u32),
    /// A struct value built from one value per field, in order (`T{a, b}`;
    /// a constructor call lowers to a function returning the struct).
    Aggregate(Vec<Expr>),
    Deref(Box<Expr>),
    AddrOf(Box<Expr>),
    /// A call of a `__device__` function of the module.
    Call(FuncId, Vec<Expr>),
    /// A built-in function: math, atomics, shuffles, barriers, vector constructors.
    Intrinsic(Intrinsic, Vec<Expr>),
    /// `a, b`
    Comma(Box<Expr>, Box<Expr>),
    /// `sizeof(T)`: kept unevaluated so printing gives it back; its value is `T::size`.
    SizeOf(Type),
    /// A string literal (`"x = %d\n"`), the text without quotes or escapes;
    /// typed `const char *`. Device code passes them to `printf`.
    StrLit(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Builtin {
    ThreadIdx(Dim),
    BlockIdx(Dim),
    BlockDim(Dim),
    GridDim(Dim),
    WarpSize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dim {
    X,
    Y,
    Z,
}

impl Dim {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        ["x", "y", "z"][self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnaryOp {
    Neg,
    Plus,
    /// `!`
    Not,
    /// `~`
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    /// `&&`, short-circuit
    LogicAnd,
    /// `||`, short-circuit
    LogicOr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinaryOp {
    pub const ALL: [BinaryOp; 18] = {
        use BinaryOp::*;
        [
            Add, Sub, Mul, Div, Rem, Shl, Shr, BitAnd, BitOr, BitXor, LogicAnd, LogicOr, Eq, Ne,
            Lt, Le, Gt, Ge,
        ]
    };

    /// The operator C spells `symbol`.
    pub fn from_symbol(symbol: &str) -> Option<BinaryOp> {
        BinaryOp::ALL.into_iter().find(|op| op.symbol() == symbol)
    }

    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            LogicAnd => "&&",
            LogicOr => "||",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
        }
    }
    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
    /// C precedence, higher binds tighter (multiplicative = 10 ... `||` = 1).
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Mul | Div | Rem => 10,
            Add | Sub => 9,
            Shl | Shr => 8,
            Lt | Le | Gt | Ge => 7,
            Eq | Ne => 6,
            BitAnd => 5,
            BitXor => 4,
            BitOr => 3,
            LogicAnd => 2,
            LogicOr => 1,
        }
    }
}

/// Built-in functions. Math functions carry the precision they were called in
/// (`sqrtf` vs `sqrt`) through the argument types; `name()` gives the spelling back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Intrinsic {
    SyncThreads,
    /// A barrier of the whole grid (`cooperative_groups::this_grid().sync()`):
    /// every thread of every block arrives before any goes on, and memory
    /// written before it is seen after it. The kernel must be launched
    /// cooperatively, all its blocks resident at once.
    GridSync,
    /// `__syncwarp(mask)`
    SyncWarp,
    /// `__threadfence()`
    ThreadFence,
    Atomic(AtomicOp),
    /// `__shfl_sync`, `__shfl_up_sync`, `__shfl_down_sync`, `__shfl_xor_sync`:
    /// (mask, value, lane/delta[, width]).
    Shfl(ShflKind),
    /// `__ballot_sync(mask, pred)`, `__any_sync`, `__all_sync`.
    Vote(VoteKind),
    Math(MathFn),
    /// `make_float2(x, y)` and friends: builds `Expr::ty`, a vector.
    MakeVector,
    /// `clock()`: a per-thread cycle counter (the emulator counts its warp's
    /// instructions), as `clock_t`.
    Clock,
    /// `clock64()`
    Clock64,
    /// `printf(format, args...)`: the format is a `StrLit`, the arguments
    /// promoted as C's variadic calls promote them; the result is `int`.
    Printf,
    /// `__trap()`: ends the kernel with an error (a failed `assert` lowers
    /// to it).
    Trap,
    /// `__activemask()`: the lanes of the warp executing it.
    ActiveMask,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AtomicOp {
    Add,
    Sub,
    Exch,
    Min,
    Max,
    /// (address, compare, value)
    Cas,
    And,
    Or,
    Xor,
    /// `atomicInc(p, v)`: `old >= v ? 0 : old + 1`
    Inc,
    /// `atomicDec(p, v)`: `old == 0 || old > v ? v : old - 1`
    Dec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShflKind {
    Idx,
    Up,
    Down,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VoteKind {
    Ballot,
    Any,
    All,
}

/// Math library. `f32` says the single-precision spelling was used (`sqrtf`);
/// the generic ones (`min`, `max`, `abs`) have `f32: false` and work on any type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MathFn {
    pub func: MathOp,
    pub f32: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MathOp {
    Sqrt,
    Rsqrt,
    Fma,
    Fabs,
    Fmin,
    Fmax,
    /// integer/generic `min`
    Min,
    /// integer/generic `max`
    Max,
    /// integer `abs`
    Abs,
    Exp,
    Exp2,
    Log,
    Log2,
    Log10,
    Pow,
    Sin,
    Cos,
    Tan,
    Tanh,
    Floor,
    Ceil,
    Round,
    Trunc,
    Fmod,
    Sinh,
    Cosh,
    Asin,
    Acos,
    Atan,
    Atan2,
    Asinh,
    Acosh,
    Atanh,
    Cbrt,
    Hypot,
    Exp10,
    Expm1,
    Log1p,
    Erf,
    Erfc,
    Copysign,
    Fdim,
    Rint,
    /// `__saturatef`: clamped to [0, 1], NaN to 0.
    Saturate,
    // Integer intrinsics: each takes its own argument types (`IntrinsicSig`)
    // rather than the result's.
    /// `__popc`
    Popc,
    /// `__popcll`
    Popcll,
    /// `__clz`
    Clz,
    /// `__clzll`
    Clzll,
    /// `__ffs`
    Ffs,
    /// `__ffsll`
    Ffsll,
    /// `__brev`
    Brev,
    /// `__brevll`
    Brevll,
    /// `__mulhi`
    Mulhi,
    /// `__umulhi`
    Umulhi,
    /// `__mul64hi`
    Mul64hi,
    /// `__umul64hi`
    Umul64hi,
    // Reinterpretations: the argument's bits as the result type.
    /// `__float_as_int`
    FloatAsInt,
    /// `__float_as_uint`
    FloatAsUint,
    /// `__int_as_float`
    IntAsFloat,
    /// `__uint_as_float`
    UintAsFloat,
    /// `__double_as_longlong`
    DoubleAsLonglong,
    /// `__longlong_as_double`
    LonglongAsDouble,
    /// `__double2hiint`: the high 32 bits of a double.
    Double2Hiint,
    /// `__double2loint`: the low 32 bits of a double.
    Double2Loint,
    /// `__hiloint2double(hi, lo)`
    Hiloint2double,
    // Arithmetic in a named rounding mode (`__fadd_rd`, `__dsqrt_ru`,
    // `__fmaf_rz`, `__frcp_rn`): round down, up, toward zero or to nearest.
    AddRd,
    AddRu,
    AddRz,
    SubRd,
    SubRu,
    SubRz,
    MulRd,
    MulRu,
    MulRz,
    DivRd,
    DivRu,
    DivRz,
    SqrtRd,
    SqrtRu,
    SqrtRz,
    FmaRd,
    FmaRu,
    FmaRz,
    RcpRn,
    RcpRd,
    RcpRu,
    RcpRz,
}

impl MathOp {
    pub const ALL: [MathOp; 87] = [
        MathOp::Sqrt,
        MathOp::Rsqrt,
        MathOp::Fma,
        MathOp::Fabs,
        MathOp::Fmin,
        MathOp::Fmax,
        MathOp::Min,
        MathOp::Max,
        MathOp::Abs,
        MathOp::Exp,
        MathOp::Exp2,
        MathOp::Log,
        MathOp::Log2,
        MathOp::Log10,
        MathOp::Pow,
        MathOp::Sin,
        MathOp::Cos,
        MathOp::Tan,
        MathOp::Tanh,
        MathOp::Floor,
        MathOp::Ceil,
        MathOp::Round,
        MathOp::Trunc,
        MathOp::Fmod,
        MathOp::Sinh,
        MathOp::Cosh,
        MathOp::Asin,
        MathOp::Acos,
        MathOp::Atan,
        MathOp::Atan2,
        MathOp::Asinh,
        MathOp::Acosh,
        MathOp::Atanh,
        MathOp::Cbrt,
        MathOp::Hypot,
        MathOp::Exp10,
        MathOp::Expm1,
        MathOp::Log1p,
        MathOp::Erf,
        MathOp::Erfc,
        MathOp::Copysign,
        MathOp::Fdim,
        MathOp::Rint,
        MathOp::Saturate,
        MathOp::Popc,
        MathOp::Popcll,
        MathOp::Clz,
        MathOp::Clzll,
        MathOp::Ffs,
        MathOp::Ffsll,
        MathOp::Brev,
        MathOp::Brevll,
        MathOp::Mulhi,
        MathOp::Umulhi,
        MathOp::Mul64hi,
        MathOp::Umul64hi,
        MathOp::FloatAsInt,
        MathOp::FloatAsUint,
        MathOp::IntAsFloat,
        MathOp::UintAsFloat,
        MathOp::DoubleAsLonglong,
        MathOp::LonglongAsDouble,
        MathOp::Double2Hiint,
        MathOp::Double2Loint,
        MathOp::Hiloint2double,
        MathOp::AddRd,
        MathOp::AddRu,
        MathOp::AddRz,
        MathOp::SubRd,
        MathOp::SubRu,
        MathOp::SubRz,
        MathOp::MulRd,
        MathOp::MulRu,
        MathOp::MulRz,
        MathOp::DivRd,
        MathOp::DivRu,
        MathOp::DivRz,
        MathOp::SqrtRd,
        MathOp::SqrtRu,
        MathOp::SqrtRz,
        MathOp::FmaRd,
        MathOp::FmaRu,
        MathOp::FmaRz,
        MathOp::RcpRn,
        MathOp::RcpRd,
        MathOp::RcpRu,
        MathOp::RcpRz,
    ];

    /// Double-precision / generic spelling.
    pub fn base_name(self) -> &'static str {
        use MathOp::*;
        match self {
            Sqrt => "sqrt",
            Rsqrt => "rsqrt",
            Fma => "fma",
            Fabs => "fabs",
            Fmin => "fmin",
            Fmax => "fmax",
            Min => "min",
            Max => "max",
            Abs => "abs",
            Exp => "exp",
            Exp2 => "exp2",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Pow => "pow",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Tanh => "tanh",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Trunc => "trunc",
            Fmod => "fmod",
            Sinh => "sinh",
            Cosh => "cosh",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Atan2 => "atan2",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Cbrt => "cbrt",
            Hypot => "hypot",
            Exp10 => "exp10",
            Expm1 => "expm1",
            Log1p => "log1p",
            Erf => "erf",
            Erfc => "erfc",
            Copysign => "copysign",
            Fdim => "fdim",
            Rint => "rint",
            Saturate => "__saturatef",
            Popc => "__popc",
            Popcll => "__popcll",
            Clz => "__clz",
            Clzll => "__clzll",
            Ffs => "__ffs",
            Ffsll => "__ffsll",
            Brev => "__brev",
            Brevll => "__brevll",
            Mulhi => "__mulhi",
            Umulhi => "__umulhi",
            Mul64hi => "__mul64hi",
            Umul64hi => "__umul64hi",
            FloatAsInt => "__float_as_int",
            FloatAsUint => "__float_as_uint",
            IntAsFloat => "__int_as_float",
            UintAsFloat => "__uint_as_float",
            DoubleAsLonglong => "__double_as_longlong",
            LonglongAsDouble => "__longlong_as_double",
            Double2Hiint => "__double2hiint",
            Double2Loint => "__double2loint",
            Hiloint2double => "__hiloint2double",
            AddRd => "__dadd_rd",
            AddRu => "__dadd_ru",
            AddRz => "__dadd_rz",
            SubRd => "__dsub_rd",
            SubRu => "__dsub_ru",
            SubRz => "__dsub_rz",
            MulRd => "__dmul_rd",
            MulRu => "__dmul_ru",
            MulRz => "__dmul_rz",
            DivRd => "__ddiv_rd",
            DivRu => "__ddiv_ru",
            DivRz => "__ddiv_rz",
            SqrtRd => "__dsqrt_rd",
            SqrtRu => "__dsqrt_ru",
            SqrtRz => "__dsqrt_rz",
            FmaRd => "__fma_rd",
            FmaRu => "__fma_ru",
            FmaRz => "__fma_rz",
            RcpRn => "__drcp_rn",
            RcpRd => "__drcp_rd",
            RcpRu => "__drcp_ru",
            RcpRz => "__drcp_rz",
        }
    }
    /// The single-precision spelling where it is not the generic one with
    /// an `f` appended (`__fadd_rd` beside `__dadd_rd`).
    pub fn f32_name(self) -> Option<&'static str> {
        use MathOp::*;
        Some(match self {
            AddRd => "__fadd_rd",
            AddRu => "__fadd_ru",
            AddRz => "__fadd_rz",
            SubRd => "__fsub_rd",
            SubRu => "__fsub_ru",
            SubRz => "__fsub_rz",
            MulRd => "__fmul_rd",
            MulRu => "__fmul_ru",
            MulRz => "__fmul_rz",
            DivRd => "__fdiv_rd",
            DivRu => "__fdiv_ru",
            DivRz => "__fdiv_rz",
            SqrtRd => "__fsqrt_rd",
            SqrtRu => "__fsqrt_ru",
            SqrtRz => "__fsqrt_rz",
            FmaRd => "__fmaf_rd",
            FmaRu => "__fmaf_ru",
            FmaRz => "__fmaf_rz",
            RcpRn => "__frcp_rn",
            RcpRd => "__frcp_rd",
            RcpRu => "__frcp_ru",
            RcpRz => "__frcp_rz",
            _ => return None,
        })
    }
    /// For arithmetic in a named rounding mode, the operation and the mode.
    pub fn rounded(self) -> Option<(RoundedOp, Rounding)> {
        use MathOp::*;
        Some(match self {
            AddRd => (RoundedOp::Add, Rounding::Down),
            AddRu => (RoundedOp::Add, Rounding::Up),
            AddRz => (RoundedOp::Add, Rounding::Zero),
            SubRd => (RoundedOp::Sub, Rounding::Down),
            SubRu => (RoundedOp::Sub, Rounding::Up),
            SubRz => (RoundedOp::Sub, Rounding::Zero),
            MulRd => (RoundedOp::Mul, Rounding::Down),
            MulRu => (RoundedOp::Mul, Rounding::Up),
            MulRz => (RoundedOp::Mul, Rounding::Zero),
            DivRd => (RoundedOp::Div, Rounding::Down),
            DivRu => (RoundedOp::Div, Rounding::Up),
            DivRz => (RoundedOp::Div, Rounding::Zero),
            SqrtRd => (RoundedOp::Sqrt, Rounding::Down),
            SqrtRu => (RoundedOp::Sqrt, Rounding::Up),
            SqrtRz => (RoundedOp::Sqrt, Rounding::Zero),
            FmaRd => (RoundedOp::Fma, Rounding::Down),
            FmaRu => (RoundedOp::Fma, Rounding::Up),
            FmaRz => (RoundedOp::Fma, Rounding::Zero),
            RcpRn => (RoundedOp::Rcp, Rounding::Nearest),
            RcpRd => (RoundedOp::Rcp, Rounding::Down),
            RcpRu => (RoundedOp::Rcp, Rounding::Up),
            RcpRz => (RoundedOp::Rcp, Rounding::Zero),
            _ => return None,
        })
    }
    pub fn arity(self) -> usize {
        use MathOp::*;
        if let Some((op, _)) = self.rounded() {
            return match op {
                RoundedOp::Fma => 3,
                RoundedOp::Sqrt | RoundedOp::Rcp => 1,
                _ => 2,
            };
        }
        match self {
            Fma => 3,
            Fmin | Fmax | Min | Max | Pow | Fmod | Atan2 | Hypot | Copysign | Fdim => 2,
            Mulhi | Umulhi | Mul64hi | Umul64hi | Hiloint2double => 2,
            _ => 1,
        }
    }
    /// Generic functions have no `f`-suffixed spelling.
    pub fn has_f32_spelling(self) -> bool {
        !matches!(
            self,
            MathOp::Min | MathOp::Max | MathOp::Abs | MathOp::Saturate
        ) && self.integer_sig().is_none()
    }
    /// The integer intrinsics' and reinterpretations' argument and result
    /// types: they neither
    /// follow the arguments' type nor convert them to the result's
    /// (`__popcll` counts the bits of an `unsigned long long` and returns `int`).
    pub fn integer_sig(self) -> Option<(Scalar, Scalar)> {
        use MathOp::*;
        use Scalar::*;
        Some(match self {
            Popc => (U32, I32),
            Popcll => (U64, I32),
            Clz | Ffs => (I32, I32),
            Clzll | Ffsll => (I64, I32),
            Brev => (U32, U32),
            Brevll => (U64, U64),
            Mulhi => (I32, I32),
            Umulhi => (U32, U32),
            Mul64hi => (I64, I64),
            Umul64hi => (U64, U64),
            FloatAsInt => (F32, I32),
            FloatAsUint => (F32, U32),
            IntAsFloat => (I32, F32),
            UintAsFloat => (U32, F32),
            DoubleAsLonglong => (F64, I64),
            LonglongAsDouble => (I64, F64),
            Double2Hiint | Double2Loint => (F64, I32),
            Hiloint2double => (I32, F64),
            _ => return None,
        })
    }
    /// Whether the result is the argument's bits, not its value.
    pub fn is_reinterpretation(self) -> bool {
        use MathOp::*;
        matches!(
            self,
            FloatAsInt
                | FloatAsUint
                | IntAsFloat
                | UintAsFloat
                | DoubleAsLonglong
                | LonglongAsDouble
                | Double2Hiint
                | Double2Loint
                | Hiloint2double
        )
    }
}

/// The operation of a [`MathOp`] done in a named rounding mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundedOp {
    Add,
    Sub,
    Mul,
    Div,
    Sqrt,
    Fma,
    /// `1 / x`
    Rcp,
}

/// IEEE 754's rounding directions, as CUDA's `_rn`, `_rd`, `_ru`, `_rz`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    Nearest,
    Down,
    Up,
    Zero,
}

impl MathFn {
    pub fn name(self) -> String {
        if let (true, Some(n)) = (self.f32, self.func.f32_name()) {
            return n.to_string();
        }
        if self.f32 {
            format!("{}f", self.func.base_name())
        } else {
            self.func.base_name().to_string()
        }
    }
    /// Parses a CUDA math function name (`sqrtf`, `fmax`, `min`).
    pub fn from_name(name: &str) -> Option<MathFn> {
        for op in MathOp::ALL {
            if name == op.base_name() {
                return Some(MathFn {
                    func: op,
                    f32: false,
                });
            }
            if op.f32_name() == Some(name) {
                return Some(MathFn {
                    func: op,
                    f32: true,
                });
            }
            if op.f32_name().is_none()
                && op.has_f32_spelling()
                && name.strip_suffix('f') == Some(op.base_name())
            {
                return Some(MathFn {
                    func: op,
                    f32: true,
                });
            }
        }
        None
    }
}

impl Intrinsic {
    /// The CUDA spelling of the intrinsic.
    pub fn name(self) -> String {
        match self {
            Intrinsic::SyncThreads => "__syncthreads".into(),
            Intrinsic::GridSync => "cooperative_groups::this_grid().sync".into(),
            Intrinsic::SyncWarp => "__syncwarp".into(),
            Intrinsic::ThreadFence => "__threadfence".into(),
            Intrinsic::Clock => "clock".into(),
            Intrinsic::Clock64 => "clock64".into(),
            Intrinsic::Printf => "printf".into(),
            Intrinsic::Trap => "__trap".into(),
            Intrinsic::ActiveMask => "__activemask".into(),
            Intrinsic::Atomic(op) => format!(
                "atomic{}",
                match op {
                    AtomicOp::Add => "Add",
                    AtomicOp::Sub => "Sub",
                    AtomicOp::Exch => "Exch",
                    AtomicOp::Min => "Min",
                    AtomicOp::Max => "Max",
                    AtomicOp::Cas => "CAS",
                    AtomicOp::And => "And",
                    AtomicOp::Or => "Or",
                    AtomicOp::Xor => "Xor",
                    AtomicOp::Inc => "Inc",
                    AtomicOp::Dec => "Dec",
                }
            ),
            Intrinsic::Shfl(k) => match k {
                ShflKind::Idx => "__shfl_sync",
                ShflKind::Up => "__shfl_up_sync",
                ShflKind::Down => "__shfl_down_sync",
                ShflKind::Xor => "__shfl_xor_sync",
            }
            .into(),
            Intrinsic::Vote(v) => match v {
                VoteKind::Ballot => "__ballot_sync",
                VoteKind::Any => "__any_sync",
                VoteKind::All => "__all_sync",
            }
            .into(),
            Intrinsic::Math(m) => m.name(),
            // The printer spells vector constructors from the result type.
            Intrinsic::MakeVector => "make_vector".into(),
        }
    }
}
