//! The generated kernels as a small tree of their own, so that the reducer
//! can remove statements and shrink expressions and render the result again.
//! Every construct renders to CUDA C whose behaviour is defined for all
//! inputs: signed arithmetic goes through unsigned types, divisors and shift
//! amounts are guarded, float-to-integer conversions are clamped into range.

use std::fmt::Write;

use hone_ir::Arith;

/// What the generator asks of a value type beyond its C meaning.
pub trait GenType {
    /// Short name used in variable and buffer names.
    fn tag(self) -> &'static str;
    fn is_signed_int(&self) -> bool;
    /// The unsigned type of the same width, for wrap-around arithmetic.
    fn unsigned(self) -> Arith;
}

impl GenType for Arith {
    fn tag(self) -> &'static str {
        match self {
            Arith::I32 => "i",
            Arith::U32 => "u",
            Arith::I64 => "l",
            Arith::U64 => "q",
            Arith::F32 => "f",
            Arith::F64 => "d",
        }
    }

    fn is_signed_int(&self) -> bool {
        matches!(*self, Arith::I32 | Arith::I64)
    }

    fn unsigned(self) -> Arith {
        if self.size() == 4 {
            Arith::U32
        } else {
            Arith::U64
        }
    }
}

/// Narrow integer types reached only through casts (`(int)(short)x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrow {
    I8,
    U8,
    I16,
    U16,
}

impl Narrow {
    pub const ALL: [Narrow; 4] = [Narrow::I8, Narrow::U8, Narrow::I16, Narrow::U16];
    fn c_name(self) -> &'static str {
        match self {
            Narrow::I8 => "signed char",
            Narrow::U8 => "unsigned char",
            Narrow::I16 => "short",
            Narrow::U16 => "unsigned short",
        }
    }
}

/// Values every thread can read without computing them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    ThreadIdx,
    BlockIdx,
    BlockDim,
    Lane,
    GlobalId,
}

impl Special {
    pub const ALL: [Special; 5] = [
        Special::ThreadIdx,
        Special::BlockIdx,
        Special::BlockDim,
        Special::Lane,
        Special::GlobalId,
    ];
    fn c_text(self) -> &'static str {
        match self {
            Special::ThreadIdx => "threadIdx.x",
            Special::BlockIdx => "blockIdx.x",
            Special::BlockDim => "blockDim.x",
            Special::Lane => "lane",
            Special::GlobalId => "gid",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    /// Integers only.
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    /// Integers only, as are the bit operations and shifts.
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
        CmpOp::Eq,
        CmpOp::Ne,
    ];
    fn c_text(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
}

/// Math functions whose results CUDA specifies exactly (correctly rounded or
/// exact), and, only when asked for, transcendental ones whose last bits
/// differ between implementations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Math {
    Sqrt,
    Fabs,
    Fmin,
    Fmax,
    Floor,
    Ceil,
    Trunc,
    Round,
    Fma,
    Fmod,
    /// Integer `min`/`max`.
    Min,
    Max,
    Exp,
    Log,
    Sin,
    Cos,
}

impl Math {
    pub fn arity(self) -> usize {
        match self {
            Math::Fmin | Math::Fmax | Math::Fmod | Math::Min | Math::Max => 2,
            Math::Fma => 3,
            _ => 1,
        }
    }

    fn c_name(self, ty: Arith) -> String {
        let base = match self {
            Math::Sqrt => "sqrt",
            Math::Fabs => "fabs",
            Math::Fmin => "fmin",
            Math::Fmax => "fmax",
            Math::Floor => "floor",
            Math::Ceil => "ceil",
            Math::Trunc => "trunc",
            Math::Round => "round",
            Math::Fma => "fma",
            Math::Fmod => "fmod",
            Math::Min => return "min".into(),
            Math::Max => return "max".into(),
            Math::Exp => "exp",
            Math::Log => "log",
            Math::Sin => "sin",
            Math::Cos => "cos",
        };
        if ty == Arith::F32 {
            format!("{base}f")
        } else {
            base.to_string()
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// Local `ty` number `n`.
    Var(Arith, usize),
    /// A constant given by its bits (two's complement or IEEE).
    Const(Arith, u64),
    Special(Special),
    /// The counter of the enclosing loop number `n` (an `int`).
    LoopVar(usize),
    /// An element of the read-only input of the type, at `index & 255`.
    Input(Arith, Box<Expr>),
    Un(UnOp, Arith, Box<Expr>),
    Bin(BinOp, Arith, Box<Expr>, Box<Expr>),
    /// Conversion to `Arith` from the operand's type.
    Cast(Arith, Box<Expr>),
    /// `(int)(narrow)e` with `e` an `int`.
    Narrow(Narrow, Box<Expr>),
    Select(Arith, Box<Cond>, Box<Expr>, Box<Expr>),
    Math(Math, Arith, Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflKind {
    Idx,
    Up,
    Down,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteKind {
    Ballot,
    Any,
    All,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    And,
    Or,
    Xor,
    Min,
    Max,
}

impl AtomicOp {
    pub const ALL: [AtomicOp; 6] = [
        AtomicOp::Add,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Min,
        AtomicOp::Max,
    ];
    fn c_name(self) -> &'static str {
        match self {
            AtomicOp::Add => "atomicAdd",
            AtomicOp::And => "atomicAnd",
            AtomicOp::Or => "atomicOr",
            AtomicOp::Xor => "atomicXor",
            AtomicOp::Min => "atomicMin",
            AtomicOp::Max => "atomicMax",
        }
    }
}

/// How many times a loop runs: a constant, or a thread-dependent count
/// below 8.
#[derive(Clone, Debug, PartialEq)]
pub enum Trips {
    Const(u32),
    Varying(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Assign(Arith, usize, Expr),
    If(Cond, Vec<Stmt>, Vec<Stmt>),
    /// `for (int kN = 0; kN < trips; kN++)`.
    Loop(usize, Trips, Vec<Stmt>),
    /// `if (cond) break;`
    Break(Cond),
    /// `if (cond) continue;`
    Continue(Cond),
    /// A warp shuffle of `value` into local (`ty`, n); converged code only.
    Shuffle {
        ty: Arith,
        dst: usize,
        kind: ShflKind,
        value: Expr,
        /// Source lane, delta or lane mask (an `unsigned`).
        lane: Expr,
        width: u32,
    },
    /// `__ballot_sync` into an `unsigned` local, `__any_sync`/`__all_sync`
    /// into an `int` one; converged code only.
    Vote {
        dst: usize,
        kind: VoteKind,
        cond: Cond,
    },
    /// Every thread stores `value` to shared memory, the block synchronises,
    /// each thread reads its neighbour at distance `offset` (mod the block
    /// size) into local (`ty`, `dst`), and the block synchronises again.
    Exchange {
        ty: Arith,
        dst: usize,
        value: Expr,
        offset: Expr,
    },
    /// A block-wide atomic reduction in shared memory (initialised by thread
    /// 0), whose result every thread reads after a barrier into local (`ty`,
    /// `dst`); `ty` is `U32` or `U64`.
    SharedAtomic {
        ty: Arith,
        dst: usize,
        op: AtomicOp,
        init: u64,
        value: Expr,
    },
    /// An atomic on a global accumulator slot; only its final value is
    /// observed, and each slot takes one operation (`AtomicOp::ALL[slot]`),
    /// so the order of threads does not matter.
    GlobalAtomic {
        ty: Arith,
        op: AtomicOp,
        slot: usize,
        value: Expr,
    },
}

/// Locals of each type per thread.
pub const LOCALS: usize = 3;
/// Elements of each input array (a power of two: indices are masked).
pub const INPUT_LEN: usize = 256;
/// Global accumulator slots of each atomic type: one per operation.
pub const ACC_SLOTS: usize = AtomicOp::ALL.len();
/// The largest block the generator uses (shared arrays are this long).
pub const MAX_BLOCK: u32 = 256;

#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub grid: u32,
    pub block: u32,
    /// The statements between the locals' initialisation and the stores of
    /// every local to the output buffers.
    pub body: Vec<Stmt>,
}

/// Input types and the output buffers, in parameter order.
pub const INPUT_TYPES: [Arith; 4] = [Arith::I32, Arith::U64, Arith::F32, Arith::F64];

impl Kernel {
    /// Threads of the launch.
    pub fn threads(&self) -> usize {
        (self.grid * self.block) as usize
    }

    /// CUDA C of the kernel; with `c_linkage` its name is not mangled (for
    /// loading by name from a module of many kernels).
    pub fn render(&self, c_linkage: bool) -> String {
        let mut out = String::new();
        if c_linkage {
            out.push_str("extern \"C\" ");
        }
        let mut params: Vec<String> = INPUT_TYPES
            .iter()
            .map(|t| format!("const {} *in_{}", t.c_name(), t.tag()))
            .collect();
        params.extend(
            Arith::ALL
                .iter()
                .map(|t| format!("{} *out_{}", t.c_name(), t.tag())),
        );
        params.push("unsigned *acc_u".into());
        params.push("unsigned long long *acc_q".into());
        let _ = writeln!(
            out,
            "__global__ void {}({})\n{{",
            self.name,
            params.join(", ")
        );
        out.push_str("    unsigned lane = threadIdx.x & 31u;\n");
        out.push_str("    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;\n");
        for t in Arith::ALL {
            let _ = writeln!(
                out,
                "    __shared__ {} sh_{}[{MAX_BLOCK}];",
                t.c_name(),
                t.tag()
            );
        }
        out.push_str("    __shared__ unsigned sacc_u[1];\n");
        out.push_str("    __shared__ unsigned long long sacc_q[1];\n");
        for t in Arith::ALL {
            for n in 0..LOCALS {
                let _ = writeln!(
                    out,
                    "    {} {} = {};",
                    t.c_name(),
                    var_name(t, n),
                    initial(t, n)
                );
            }
        }
        let mut r = Renderer { out, depth: 1 };
        r.stmts(&self.body);
        let mut out = r.out;
        for t in Arith::ALL {
            for n in 0..LOCALS {
                let _ = writeln!(
                    out,
                    "    out_{}[gid * {LOCALS}u + {n}u] = {};",
                    t.tag(),
                    var_name(t, n)
                );
            }
        }
        out.push_str("}\n");
        out
    }
}

pub fn var_name(t: Arith, n: usize) -> String {
    format!("{}{n}", t.tag())
}

/// The locals start from the inputs, so that every thread has its own values.
fn initial(t: Arith, n: usize) -> String {
    let index = format!("(gid * 7u + {}u) & 255u", n * 3 + t as usize);
    match t {
        Arith::I32 => format!("in_i[{index}]"),
        Arith::U32 => format!("(unsigned)in_i[{index}] ^ gid"),
        Arith::I64 => format!("(long long)in_q[{index}]"),
        Arith::U64 => format!("in_q[{index}] + gid"),
        Arith::F32 => format!("in_f[{index}]"),
        Arith::F64 => format!("in_d[{index}]"),
    }
}

/// The text of a constant of `t` with bits `bits`, parenthesised when negative.
pub fn const_text(t: Arith, bits: u64) -> String {
    match t {
        Arith::I32 => {
            let v = bits as u32 as i32;
            if v == i32::MIN {
                "(-2147483647 - 1)".into()
            } else if v < 0 {
                format!("({v})")
            } else {
                format!("{v}")
            }
        }
        Arith::U32 => format!("{}u", bits as u32),
        Arith::I64 => {
            let v = bits as i64;
            if v == i64::MIN {
                "(-9223372036854775807ll - 1ll)".into()
            } else if v < 0 {
                format!("({v}ll)")
            } else {
                format!("{v}ll")
            }
        }
        Arith::U64 => format!("{bits}ull"),
        Arith::F32 => {
            let v = f32::from_bits(bits as u32);
            let s = format!("{v:e}f");
            if v.is_sign_negative() {
                format!("({s})")
            } else {
                s
            }
        }
        Arith::F64 => {
            let v = f64::from_bits(bits);
            let s = format!("{v:e}");
            if v.is_sign_negative() {
                format!("({s})")
            } else {
                s
            }
        }
    }
}

/// The range a float is clamped to before conversion to `to`: the largest
/// and smallest values of the float type that convert without overflow.
fn clamp_bounds(from: Arith, to: Arith) -> (String, String) {
    let (lo, hi): (f64, f64) = match (from, to) {
        (Arith::F32, Arith::I32) => (-2147483648.0, 2147483520.0),
        (Arith::F32, Arith::U32) => (0.0, 4294967040.0),
        (Arith::F32, Arith::I64) => (-9223372036854775808.0, 9223371487098961920.0),
        (Arith::F32, Arith::U64) => (0.0, 18446742974197923840.0),
        (Arith::F64, Arith::I32) => (-2147483648.0, 2147483647.0),
        (Arith::F64, Arith::U32) => (0.0, 4294967295.0),
        (Arith::F64, Arith::I64) => (-9223372036854775808.0, 9223372036854774784.0),
        (Arith::F64, Arith::U64) => (0.0, 18446744073709549568.0),
        _ => unreachable!("clamp_bounds is asked only for float-to-integer conversions"),
    };
    let bits = |v: f64| {
        if from == Arith::F32 {
            (v as f32).to_bits() as u64
        } else {
            v.to_bits()
        }
    };
    (const_text(from, bits(lo)), const_text(from, bits(hi)))
}

struct Renderer {
    out: String,
    depth: usize,
}

impl Renderer {
    fn line(&mut self, text: &str) {
        for _ in 0..self.depth {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn block(&mut self, body: &[Stmt]) {
        self.depth += 1;
        self.stmts(body);
        self.depth -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Assign(t, n, e) => {
                let text = format!("{} = {};", var_name(*t, *n), expr(e));
                self.line(&text);
            }
            Stmt::If(c, then, els) => {
                self.line(&format!("if ({}) {{", cond(c)));
                self.block(then);
                if els.is_empty() {
                    self.line("}");
                } else {
                    self.line("} else {");
                    self.block(els);
                    self.line("}");
                }
            }
            Stmt::Loop(k, trips, body) => {
                let bound = match trips {
                    Trips::Const(n) => format!("{n}"),
                    Trips::Varying(e) => format!("(int)(({}) & 7u)", expr(e)),
                };
                self.line(&format!("for (int k{k} = 0; k{k} < {bound}; k{k}++) {{"));
                self.block(body);
                self.line("}");
            }
            Stmt::Break(c) => self.line(&format!("if ({}) break;", cond(c))),
            Stmt::Continue(c) => self.line(&format!("if ({}) continue;", cond(c))),
            Stmt::Shuffle {
                ty,
                dst,
                kind,
                value,
                lane,
                width,
            } => {
                let f = match kind {
                    ShflKind::Idx => "__shfl_sync",
                    ShflKind::Up => "__shfl_up_sync",
                    ShflKind::Down => "__shfl_down_sync",
                    ShflKind::Xor => "__shfl_xor_sync",
                };
                let width = if *width == 32 {
                    String::new()
                } else {
                    format!(", {width}")
                };
                let text = format!(
                    "{} = {f}(0xffffffffu, {}, {}{width});",
                    var_name(*ty, *dst),
                    expr(value),
                    expr(lane)
                );
                self.line(&text);
            }
            Stmt::Vote { dst, kind, cond: c } => {
                let (f, t) = match kind {
                    VoteKind::Ballot => ("__ballot_sync", Arith::U32),
                    VoteKind::Any => ("__any_sync", Arith::I32),
                    VoteKind::All => ("__all_sync", Arith::I32),
                };
                // `__any_sync` and `__all_sync` promise only "non-zero".
                let text = if t == Arith::I32 {
                    format!(
                        "{} = ({f}(0xffffffffu, {}) != 0);",
                        var_name(t, *dst),
                        cond(c)
                    )
                } else {
                    format!("{} = {f}(0xffffffffu, {});", var_name(t, *dst), cond(c))
                };
                self.line(&text);
            }
            Stmt::Exchange {
                ty,
                dst,
                value,
                offset,
            } => {
                let sh = format!("sh_{}", ty.tag());
                self.line(&format!("{sh}[threadIdx.x] = {};", expr(value)));
                self.line("__syncthreads();");
                let text = format!(
                    "{} = {sh}[(threadIdx.x + ({})) % blockDim.x];",
                    var_name(*ty, *dst),
                    expr(offset)
                );
                self.line(&text);
                self.line("__syncthreads();");
            }
            Stmt::SharedAtomic {
                ty,
                dst,
                op,
                init,
                value,
            } => {
                let acc = format!("sacc_{}", ty.tag());
                self.line("if (threadIdx.x == 0u) {");
                self.depth += 1;
                self.line(&format!("{acc}[0] = {};", const_text(*ty, *init)));
                self.depth -= 1;
                self.line("}");
                self.line("__syncthreads();");
                self.line(&format!("{}(&{acc}[0], {});", op.c_name(), expr(value)));
                self.line("__syncthreads();");
                self.line(&format!("{} = {acc}[0];", var_name(*ty, *dst)));
                self.line("__syncthreads();");
            }
            Stmt::GlobalAtomic {
                ty,
                op,
                slot,
                value,
            } => {
                let text = format!(
                    "{}(&acc_{}[{slot}], {});",
                    op.c_name(),
                    ty.tag(),
                    expr(value)
                );
                self.line(&text);
            }
        }
    }
}

pub fn cond(c: &Cond) -> String {
    match c {
        Cond::Cmp(op, a, b) => format!("({} {} {})", expr(a), op.c_text(), expr(b)),
        Cond::Not(c) => format!("!{}", cond(c)),
        Cond::And(a, b) => format!("({} && {})", cond(a), cond(b)),
        Cond::Or(a, b) => format!("({} || {})", cond(a), cond(b)),
    }
}

pub fn expr(e: &Expr) -> String {
    match e {
        Expr::Var(t, n) => var_name(*t, *n),
        Expr::Const(t, bits) => const_text(*t, *bits),
        Expr::Special(s) => s.c_text().to_string(),
        Expr::LoopVar(k) => format!("k{k}"),
        Expr::Input(t, i) => {
            let index = format!("({}) & 255u", expr(i));
            match t {
                Arith::I32 => format!("in_i[{index}]"),
                Arith::U32 => format!("((unsigned)in_i[{index}])"),
                Arith::I64 => format!("((long long)in_q[{index}])"),
                Arith::U64 => format!("in_q[{index}]"),
                Arith::F32 => format!("in_f[{index}]"),
                Arith::F64 => format!("in_d[{index}]"),
            }
        }
        Expr::Un(op, t, a) => match (op, t.is_signed_int()) {
            (UnOp::Neg, true) => {
                let u = t.unsigned();
                format!(
                    "(({})({} - ({})({})))",
                    t.c_name(),
                    const_text(u, 0),
                    u.c_name(),
                    expr(a)
                )
            }
            (UnOp::Neg, false) => format!("(-{})", expr(a)),
            (UnOp::Not, _) => format!("(~{})", expr(a)),
        },
        Expr::Bin(op, t, a, b) => bin(*op, *t, a, b),
        Expr::Cast(to, a) => {
            let from = ty_of(a);
            if from.is_float() && !to.is_float() {
                let (lo, hi) = clamp_bounds(from, *to);
                let f = if from == Arith::F32 { "f" } else { "" };
                format!(
                    "(({})fmin{f}(fmax{f}({}, {lo}), {hi}))",
                    to.c_name(),
                    expr(a)
                )
            } else {
                format!("(({}){})", to.c_name(), expr(a))
            }
        }
        Expr::Narrow(n, a) => format!("((int)({}){})", n.c_name(), expr(a)),
        Expr::Select(_, c, a, b) => format!("({} ? {} : {})", cond(c), expr(a), expr(b)),
        Expr::Math(m, t, args) => {
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("{}({})", m.c_name(*t), args.join(", "))
        }
    }
}

fn bin(op: BinOp, t: Arith, a: &Expr, b: &Expr) -> String {
    let (x, y) = (expr(a), expr(b));
    let sym = match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
    };
    if t.is_float() {
        return format!("({x} {sym} {y})");
    }
    let bits = if t.size() == 4 { "31u" } else { "63u" };
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul if t.is_signed_int() => {
            let u = t.unsigned().c_name();
            format!("(({})(({u}){x} {sym} ({u}){y}))", t.c_name())
        }
        BinOp::Div | BinOp::Rem if t.is_signed_int() => {
            // Neither zero nor -1 (INT_MIN / -1 overflows).
            let zero = const_text(t, 0);
            let one = const_text(t, 1);
            let minus = const_text(t, u64::MAX);
            format!("({x} {sym} ((({y}) == {zero} || ({y}) == {minus}) ? {one} : ({y})))")
        }
        BinOp::Div | BinOp::Rem => {
            let zero = const_text(t, 0);
            let one = const_text(t, 1);
            format!("({x} {sym} (({y}) == {zero} ? {one} : ({y})))")
        }
        BinOp::Shl if t.is_signed_int() => {
            let u = t.unsigned().c_name();
            format!("(({})(({u}){x} << ((unsigned)({y}) & {bits})))", t.c_name())
        }
        BinOp::Shl | BinOp::Shr => format!("({x} {sym} ((unsigned)({y}) & {bits}))"),
        _ => format!("({x} {sym} {y})"),
    }
}

/// The type of an expression.
pub fn ty_of(e: &Expr) -> Arith {
    match e {
        Expr::Var(t, _)
        | Expr::Const(t, _)
        | Expr::Input(t, _)
        | Expr::Un(_, t, _)
        | Expr::Bin(_, t, _, _)
        | Expr::Cast(t, _)
        | Expr::Select(t, ..)
        | Expr::Math(_, t, _) => *t,
        Expr::Special(_) => Arith::U32,
        Expr::LoopVar(_) | Expr::Narrow(..) => Arith::I32,
    }
}
