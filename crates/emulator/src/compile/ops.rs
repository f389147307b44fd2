//! The flat per-function bytecode the interpreter runs. Structured control
//! flow becomes explicit jumps plus mask operations on per-frame mask slots
//! (the SIMT stack), so a warp's whole state is (pc, masks, registers) and it
//! can be suspended at a barrier anywhere in nested control flow.

use hone_ir::{Arith, AtomicOp, MathOp, Scalar, ShflKind, Span, VoteKind};

/// Register index within the current frame. Each register holds one 64-bit
/// slot per lane; vectors occupy consecutive registers.
pub(crate) type Reg = u32;

/// An operand: a register or an immediate broadcast to all lanes. Immediates
/// and registers hold values in canonical form (see `exec::arith::canon`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Opnd {
    R(Reg),
    I(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinK {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CmpK {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnK {
    Neg,
    BitNot,
}

/// Thread-geometry values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Special {
    Tid(u8),
    Ctaid(u8),
    Ntid(u8),
    Nctaid(u8),
    WarpSize,
    /// `clock()`/`clock64()`: the warp's instructions so far.
    Clock,
}

/// Type of a memory access: `n` components of `scalar`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemTy {
    pub scalar: Scalar,
    /// Pointer values are accessed as 8-byte scalars but traced as pointers.
    pub pointer: bool,
    pub n: u8,
}

impl MemTy {
    pub fn size(self) -> u32 {
        self.scalar.size() * self.n as u32
    }
    /// CUDA aligns 2- and 4-vectors to their full size, 3-vectors to a component.
    pub fn align(self) -> u32 {
        if self.n == 3 {
            self.scalar.size()
        } else {
            self.size()
        }
    }
}

/// A variable whose storage is known when compiling: accesses to it skip the
/// pointer decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ObjRef {
    /// Index into `Program::shared`.
    Shared(u32),
    /// Index into the current function's `locals`.
    Local(u32),
    /// A `__device__` or `__constant__` variable: index into `Module::globals`.
    Symbol(u32),
}

/// One argument of `printf` after the format.
#[derive(Clone, Debug)]
pub(crate) enum PrintfArg {
    /// A value of this (promoted) type; pointers are `U64`.
    Value(Opnd, Scalar),
    /// A string literal (for `%s`).
    Str(std::sync::Arc<str>),
}

#[derive(Clone, Debug)]
pub(crate) enum Op {
    /// `printf`: each active lane, in lane order, appends its text to the
    /// launch's output; dst = the characters written.
    Printf {
        dst: Reg,
        format: std::sync::Arc<str>,
        args: Box<[PrintfArg]>,
    },
    /// `__trap()`: the active lanes end the kernel with a fault.
    Trap {
        site: u32,
    },
    /// dst = src on active lanes.
    Mov {
        dst: Reg,
        src: Opnd,
    },
    Bin {
        k: BinK,
        ty: Arith,
        dst: Reg,
        a: Opnd,
        b: Opnd,
        site: u32,
    },
    Cmp {
        k: CmpK,
        ty: Arith,
        dst: Reg,
        a: Opnd,
        b: Opnd,
    },
    Un {
        k: UnK,
        ty: Arith,
        dst: Reg,
        a: Opnd,
    },
    /// C conversion between scalar types (pointers travel as `U64`).
    Cast {
        from: Scalar,
        to: Scalar,
        dst: Reg,
        a: Opnd,
    },
    /// dst = c != 0 ? a : b, all lanes evaluated (operands are pure).
    Select {
        dst: Reg,
        c: Opnd,
        a: Opnd,
        b: Opnd,
    },
    /// dst = p + i * scale (i read as a signed 64-bit value).
    PtrAdd {
        dst: Reg,
        p: Opnd,
        i: Opnd,
        scale: i64,
    },
    /// dst = (a - b) / scale
    PtrDiff {
        dst: Reg,
        a: Opnd,
        b: Opnd,
        scale: i64,
    },
    Special {
        dst: Reg,
        which: Special,
    },
    /// Pointer to a variable of known storage.
    ObjPtr {
        dst: Reg,
        obj: ObjRef,
    },
    Load {
        dst: Reg,
        ptr: Opnd,
        ty: MemTy,
        site: u32,
    },
    Store {
        ptr: Opnd,
        src: Opnd,
        ty: MemTy,
        site: u32,
    },
    /// (ptr, a) or for CAS (ptr, compare = a, value = b); dst = old value.
    Atomic {
        op: AtomicOp,
        ty: Scalar,
        dst: Reg,
        ptr: Opnd,
        a: Opnd,
        b: Opnd,
        site: u32,
    },
    Math {
        f: MathOp,
        ty: Arith,
        dst: Reg,
        a: Opnd,
        b: Opnd,
        c: Opnd,
    },
    Shfl {
        kind: ShflKind,
        dst: Reg,
        /// The lanes that take part (`__shfl_sync`'s first argument).
        mask: Opnd,
        val: Opnd,
        lane: Opnd,
        width: Opnd,
        site: u32,
    },
    Vote {
        kind: VoteKind,
        dst: Reg,
        pred: Opnd,
    },
    SyncThreads {
        site: u32,
    },
    /// A barrier of the block that also waits for every other block.
    GridSync {
        site: u32,
    },
    SyncWarp,

    /// The back edge of a loop (`site`: the loop, for the step-limit fault).
    Jump {
        to: u32,
        site: u32,
    },
    /// slot.a = active & !c (lanes for the else branch); active &= c; jump
    /// to `else_at` (the `Else` op) when no lane takes the then branch.
    IfBegin {
        slot: u32,
        c: Opnd,
        else_at: u32,
    },
    /// slot.b = active (lanes finishing the then branch); active = slot.a;
    /// jump to `end_at` (the `EndIf` op) when no lane takes the else branch.
    Else {
        slot: u32,
        end_at: u32,
    },
    /// active |= slot.b
    EndIf {
        slot: u32,
    },
    /// slot.a = 0 (lanes leaving the loop), slot.b = 0 (lanes that continued).
    LoopBegin {
        slot: u32,
    },
    /// Lanes with c == 0 leave; jump to `exit_at` when none is left.
    LoopCond {
        slot: u32,
        c: Opnd,
        exit_at: u32,
    },
    /// active |= slot.b; slot.b = 0
    LoopCont {
        slot: u32,
    },
    /// do-while test: lanes with c == 0 leave; jump to `body_at` if any stays.
    LoopBack {
        slot: u32,
        c: Opnd,
        body_at: u32,
        site: u32,
    },
    /// active |= slot.a
    LoopEnd {
        slot: u32,
    },
    /// slot.a |= active; active = 0; jump to `skip` (the next op that can
    /// reactivate lanes).
    Break {
        slot: u32,
        skip: u32,
    },
    /// slot.b |= active; active = 0; jump to `skip`.
    Continue {
        slot: u32,
        skip: u32,
    },
    /// slot.c = active; slot.a = 0; tgt = arm index per lane; active = 0.
    SwitchBegin {
        slot: u32,
        val: Opnd,
        tgt: Reg,
        table: u32,
    },
    /// active |= slot.c & (tgt == arm)
    SwitchArm {
        slot: u32,
        tgt: Reg,
        arm: u32,
    },
    /// active |= slot.a | (slot.c & tgt == none)
    SwitchEnd {
        slot: u32,
        tgt: Reg,
        arms: u32,
    },
    /// Short-circuit and `?:` on impure operands: slot.a = active; active &= c.
    MaskPush {
        slot: u32,
        c: Opnd,
        invert: bool,
        skip: u32,
    },
    /// active = slot.a
    MaskPop {
        slot: u32,
    },
    Call {
        call: u32,
    },
    /// Write the return value (if any) for the active lanes, retire them.
    Return {
        val: Option<(Opnd, u8)>,
        skip: u32,
    },
    /// End of a function body: reactivate the lanes that entered it and go back to the caller.
    FuncEnd,
}

pub(crate) struct SwitchTable {
    /// (case value, arm) sorted by value.
    pub cases: Vec<(i64, u32)>,
    pub default: Option<u32>,
    pub narms: u32,
}

pub(crate) struct CallInfo {
    pub func: u32,
    /// Arguments, each already converted to the parameter type, with its register count.
    pub args: Vec<(Opnd, u8)>,
    /// Where the result goes in the caller's frame.
    pub dst: Option<(Reg, u8)>,
    pub span: Span,
}

/// A source position an instruction reports (memory accesses, barriers,
/// integer divisions).
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub span: Span,
}
