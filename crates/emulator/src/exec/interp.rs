//! The bytecode interpreter: runs one warp until it reaches a barrier,
//! finishes, or faults. Each op is applied to all 32 lanes at once; register
//! writes are masked by the active lanes.

use hone_ir::{AtomicOp, Scalar, ShflKind, VoteKind};

use super::access::View;
use super::arith::{atomic, bin, canon, cmp, convert_bits, div, math, un};
use super::block::{BlockCtx, Stop};
use super::memory::{make_ptr, LOCAL_BIT, LOCAL_DEPTH_SHIFT, SHARED_BASE};
use super::printf;
use super::warp::{blend, mask_of, Bits, Frame, LaneOrder, Lanes, Warp};
use crate::compile::ops::{BinK, CmpK, MemTy, ObjRef, Op, Opnd, PrintfArg, Reg, Special};
use crate::report::{AccessKind, FaultKind};
use hone_ir::Arith;

/// Instructions of a block between checks of the launch's step and time
/// limits.
const CHECK_EVERY: u64 = 1 << 16;

#[inline(always)]
fn lanes2(out: &mut Lanes, a: &Lanes, b: &Lanes, f: impl Fn(u64, u64) -> u64) {
    for l in 0..32 {
        out[l] = f(a[l], b[l]);
    }
}

/// Non-faulting binary op over all lanes, specialized per operator and type
/// so the lane loop is branch-free.
fn bin_lanes(k: BinK, ty: Arith, a: &Lanes, b: &Lanes, out: &mut Lanes) {
    macro_rules! per_k {
        ($ty:expr) => {
            match k {
                BinK::Add => lanes2(out, a, b, |x, y| bin(BinK::Add, $ty, x, y)),
                BinK::Sub => lanes2(out, a, b, |x, y| bin(BinK::Sub, $ty, x, y)),
                BinK::Mul => lanes2(out, a, b, |x, y| bin(BinK::Mul, $ty, x, y)),
                BinK::Div => lanes2(out, a, b, |x, y| bin(BinK::Div, $ty, x, y)),
                BinK::Rem => lanes2(out, a, b, |x, y| bin(BinK::Rem, $ty, x, y)),
                BinK::Shl => lanes2(out, a, b, |x, y| bin(BinK::Shl, $ty, x, y)),
                BinK::Shr => lanes2(out, a, b, |x, y| bin(BinK::Shr, $ty, x, y)),
                BinK::And => lanes2(out, a, b, |x, y| bin(BinK::And, $ty, x, y)),
                BinK::Or => lanes2(out, a, b, |x, y| bin(BinK::Or, $ty, x, y)),
                BinK::Xor => lanes2(out, a, b, |x, y| bin(BinK::Xor, $ty, x, y)),
            }
        };
    }
    match ty {
        Arith::I32 => per_k!(Arith::I32),
        Arith::U32 => per_k!(Arith::U32),
        Arith::I64 => per_k!(Arith::I64),
        Arith::U64 => per_k!(Arith::U64),
        Arith::F32 => per_k!(Arith::F32),
        Arith::F64 => per_k!(Arith::F64),
    }
}

fn cmp_lanes(k: CmpK, ty: Arith, a: &Lanes, b: &Lanes, out: &mut Lanes) {
    macro_rules! per_k {
        ($ty:expr) => {
            match k {
                CmpK::Eq => lanes2(out, a, b, |x, y| cmp(CmpK::Eq, $ty, x, y)),
                CmpK::Ne => lanes2(out, a, b, |x, y| cmp(CmpK::Ne, $ty, x, y)),
                CmpK::Lt => lanes2(out, a, b, |x, y| cmp(CmpK::Lt, $ty, x, y)),
                CmpK::Le => lanes2(out, a, b, |x, y| cmp(CmpK::Le, $ty, x, y)),
                CmpK::Gt => lanes2(out, a, b, |x, y| cmp(CmpK::Gt, $ty, x, y)),
                CmpK::Ge => lanes2(out, a, b, |x, y| cmp(CmpK::Ge, $ty, x, y)),
            }
        };
    }
    match ty {
        Arith::I32 | Arith::I64 => per_k!(Arith::I64),
        Arith::U32 | Arith::U64 => per_k!(Arith::U64),
        Arith::F32 => per_k!(Arith::F32),
        Arith::F64 => per_k!(Arith::F64),
    }
}

impl<'a, 'b> BlockCtx<'a, 'b> {
    pub fn run_warp(&mut self, w: &mut Warp) -> Stop {
        let prog = self.l.prog;
        let max_steps = self.l.opts.max_thread_steps;
        // Local pointers encode the frame depth in 11 bits.
        let max_depth = self.l.opts.limits.max_call_depth.clamp(1, 2047) as usize;
        let mut frame: Frame = *w.frames.last().expect("warp has a frame");
        let mut code: &[Op] = &prog.func(frame.func).code;
        let mut pc = w.pc as usize;
        let mut active = w.active;
        let mut rb = frame.reg_base as usize;
        let mut sb = frame.slot_base as usize;
        let mut instr = 0u64;
        let mut ops = 0u64;
        // Limits other than this warp's steps are checked at back-edges every
        // `CHECK_EVERY` instructions of the block (a loop with a barrier in
        // it runs a few instructions per call, so the count carries over).
        let mut check_at = self.until_check;
        let mut flushed = 0u64;
        // Thread operations are counted per run of instructions under one mask.
        let mut run_mask = active;
        let mut run = 0u64;

        macro_rules! get {
            ($o:expr) => {
                match $o {
                    Opnd::R(r) => w.regs[rb + r as usize],
                    Opnd::I(v) => [v; 32],
                }
            };
        }
        // A reference to an operand's lanes; immediates are broadcast into `$tmp`.
        macro_rules! rd {
            ($o:expr, $tmp:ident) => {
                match $o {
                    Opnd::R(r) => &w.regs[rb + r as usize],
                    Opnd::I(v) => {
                        $tmp = [v; 32];
                        &$tmp
                    }
                }
            };
        }
        // Lanes without a thread are never read, so they may be overwritten.
        let absent = !w.present;
        macro_rules! put {
            ($dst:expr, $vals:expr) => {
                blend(&mut w.regs[rb + $dst as usize], &$vals, active | absent)
            };
        }
        macro_rules! comp {
            ($o:expr, $k:expr) => {
                match $o {
                    Opnd::R(r) => Opnd::R(r + $k as u32),
                    imm => imm,
                }
            };
        }

        let stop = loop {
            let op = &code[pc];
            pc += 1;
            instr += 1;
            if active != run_mask {
                ops += run * run_mask.count_ones() as u64;
                run = 0;
                run_mask = active;
            }
            run += 1;
            match *op {
                Op::Mov { dst, src } => {
                    let v = get!(src);
                    put!(dst, v);
                }
                Op::Bin {
                    k,
                    ty,
                    dst,
                    a,
                    b,
                    site,
                } => {
                    let (t1, t2): (Lanes, Lanes);
                    let (x, y) = (rd!(a, t1), rd!(b, t2));
                    let mut out = [0u64; 32];
                    if matches!(k, BinK::Div | BinK::Rem) && !matches!(ty, Arith::F32 | Arith::F64)
                    {
                        let mut failed = None;
                        for l in Bits(active) {
                            match div(k, ty, x[l], y[l]) {
                                Ok(v) => out[l] = v,
                                Err(_) => {
                                    failed = Some(l);
                                    break;
                                }
                            }
                        }
                        if let Some(l) = failed {
                            let span = self.site_span(site);
                            break self.fault(
                                FaultKind::DivisionByZero,
                                span,
                                w.thread(l),
                                "integer division by zero".to_string(),
                            );
                        }
                    } else {
                        bin_lanes(k, ty, x, y, &mut out);
                    }
                    put!(dst, out);
                }
                Op::Cmp { k, ty, dst, a, b } => {
                    let (t1, t2): (Lanes, Lanes);
                    let (x, y) = (rd!(a, t1), rd!(b, t2));
                    let mut out = [0u64; 32];
                    cmp_lanes(k, ty, x, y, &mut out);
                    put!(dst, out);
                }
                Op::Un { k, ty, dst, a } => {
                    let x = get!(a);
                    let mut out = [0u64; 32];
                    for l in 0..32 {
                        out[l] = un(k, ty, x[l]);
                    }
                    put!(dst, out);
                }
                Op::Cast { from, to, dst, a } => {
                    let t1: Lanes;
                    let x = rd!(a, t1);
                    let mut out = [0u64; 32];
                    for l in 0..32 {
                        out[l] = convert_bits(from, to, x[l]);
                    }
                    put!(dst, out);
                }
                Op::Select { dst, c, a, b } => {
                    let (t1, t2, t3): (Lanes, Lanes, Lanes);
                    let (cv, x, y) = (rd!(c, t1), rd!(a, t2), rd!(b, t3));
                    let mut out = [0u64; 32];
                    for l in 0..32 {
                        out[l] = if cv[l] != 0 { x[l] } else { y[l] };
                    }
                    put!(dst, out);
                }
                Op::PtrAdd { dst, p, i, scale } => {
                    let (t1, t2): (Lanes, Lanes);
                    let (pv, iv) = (rd!(p, t1), rd!(i, t2));
                    let mut out = [0u64; 32];
                    for l in 0..32 {
                        out[l] = pv[l].wrapping_add((iv[l] as i64).wrapping_mul(scale) as u64);
                    }
                    put!(dst, out);
                }
                Op::PtrDiff { dst, a, b, scale } => {
                    let (x, y) = (get!(a), get!(b));
                    let mut out = [0u64; 32];
                    for l in 0..32 {
                        out[l] = (x[l].wrapping_sub(y[l]) as i64).wrapping_div(scale) as u64;
                    }
                    put!(dst, out);
                }
                Op::Special { dst, which } => {
                    let out: Lanes = match which {
                        Special::Tid(d) => {
                            let mut o = [0u64; 32];
                            for (o, &t) in o.iter_mut().zip(&w.tid[d as usize]) {
                                *o = t as u64;
                            }
                            o
                        }
                        Special::Ctaid(d) => [self.block[d as usize] as u64; 32],
                        Special::Ntid(d) => [self.l.cfg.block[d as usize] as u64; 32],
                        Special::Nctaid(d) => [self.l.cfg.grid[d as usize] as u64; 32],
                        Special::WarpSize => [32; 32],
                        Special::Clock => {
                            [(w.steps + instr).wrapping_mul(self.l.opts.schedule.clock_rate); 32]
                        }
                    };
                    put!(dst, out);
                }
                Op::ObjPtr { dst, obj } => {
                    let p = match obj {
                        ObjRef::Shared(i) => make_ptr(SHARED_BASE + i, 0),
                        ObjRef::Symbol(g) => make_ptr(self.l.symbols_at + g + 1, 0),
                        ObjRef::Local(i) => {
                            let depth = (w.frames.len() - 1) as u32;
                            make_ptr(LOCAL_BIT | (depth << LOCAL_DEPTH_SHIFT) | i, 0)
                        }
                    };
                    put!(dst, [p; 32]);
                }
                Op::Load { dst, ptr, ty, site } => {
                    let p = get!(ptr);
                    if let Err(stop) = self.do_load(w, active, rb, dst, &p, ty, site) {
                        break stop;
                    }
                }
                Op::Store { ptr, src, ty, site } => {
                    let p = get!(ptr);
                    let mut vals = [[0u64; 32]; 4];
                    for (k, v) in vals.iter_mut().enumerate().take(ty.n as usize) {
                        *v = get!(comp!(src, k));
                    }
                    if let Err(stop) = self.do_store(w, active, &p, &vals, ty, site) {
                        break stop;
                    }
                }
                Op::Atomic {
                    op,
                    ty,
                    dst,
                    ptr,
                    a,
                    b,
                    site,
                } => {
                    let (p, x, y) = (get!(ptr), get!(a), get!(b));
                    match self.do_atomic(w, active, op, ty, &p, &x, &y, site) {
                        Ok(out) => put!(dst, out),
                        Err(stop) => break stop,
                    }
                }
                Op::Math {
                    f,
                    ty,
                    dst,
                    a,
                    b,
                    c,
                } => {
                    let (x, y, z) = (get!(a), get!(b), get!(c));
                    let mut out = [0u64; 32];
                    for l in Bits(active) {
                        out[l] = math(f, ty, x[l], y[l], z[l]);
                    }
                    put!(dst, out);
                }
                Op::Shfl {
                    kind,
                    dst,
                    mask,
                    val,
                    lane,
                    width,
                    site,
                } => {
                    let (m, v, ln, wd) = (get!(mask), get!(val), get!(lane), get!(width));
                    let mut out = [0u64; 32];
                    let mut undefined = None;
                    for l in Bits(active) {
                        let width = (wd[l] as u32).clamp(1, 32) as usize;
                        let seg = (l / width) * width;
                        let d = ln[l] as u32 as usize;
                        let src = match kind {
                            ShflKind::Idx => seg + d % width,
                            ShflKind::Up => {
                                if l - seg < d {
                                    l
                                } else {
                                    l - d
                                }
                            }
                            ShflKind::Down => {
                                if l - seg + d >= width {
                                    l
                                } else {
                                    l + d
                                }
                            }
                            ShflKind::Xor => {
                                let s = l ^ (d & 31);
                                if s >= seg + width {
                                    l
                                } else {
                                    s
                                }
                            }
                        }
                        .min(31);
                        // CUDA defines the value only when the source thread
                        // takes part: active here and named in the mask.
                        let taking_part = active & m[l] as u32;
                        if src != l && taking_part & (1 << src) == 0 && undefined.is_none() {
                            undefined = Some((l, src));
                        }
                        out[l] = v[src];
                    }
                    if let Some((l, src)) = undefined {
                        self.warn_undefined_shuffle(w, l, src, site);
                    }
                    put!(dst, out);
                }
                Op::Printf {
                    dst,
                    ref format,
                    ref args,
                } => {
                    let mut out = [0u64; 32];
                    for l in Bits(active) {
                        let lane_args: Vec<printf::Arg> = args
                            .iter()
                            .map(|a| match a {
                                PrintfArg::Value(o, s) => printf::Arg::Bits(get!(*o)[l], *s),
                                PrintfArg::Str(t) => printf::Arg::Str(t),
                            })
                            .collect();
                        let text = printf::format(format, &lane_args);
                        out[l] = text.len() as u64;
                        self.printed.push(&text);
                    }
                    put!(dst, out);
                }
                Op::Trap { site } => {
                    if active == 0 {
                        continue;
                    }
                    let span = self.site_span(site);
                    let thread = w.thread(active.trailing_zeros() as usize);
                    break self.fault(
                        FaultKind::Trap,
                        span,
                        thread,
                        "the thread executed `__trap()` (a failed `assert` lowers to it)".into(),
                    );
                }
                Op::Vote { kind, dst, pred } => {
                    let m = mask_of(&get!(pred)) & active;
                    let r = match kind {
                        VoteKind::Ballot => m as u64,
                        VoteKind::Any => (m != 0) as u64,
                        VoteKind::All => (m == active) as u64,
                    };
                    put!(dst, [r; 32]);
                }
                Op::SyncThreads { site } | Op::GridSync { site } => {
                    if active == 0 {
                        continue;
                    }
                    let grid = matches!(op, Op::GridSync { .. });
                    let name = if grid {
                        "grid.sync()"
                    } else {
                        "__syncthreads()"
                    };
                    if active != w.present {
                        let missing = w.present & !active;
                        let exited = missing & w.exited;
                        let lane = missing.trailing_zeros() as usize;
                        let why = if exited != 0 {
                            "have exited"
                        } else {
                            "are in a divergent branch"
                        };
                        let span = self.site_span(site);
                        let thread = w.thread(active.trailing_zeros() as usize);
                        let other = w.thread(lane);
                        break self.fault(
                            FaultKind::BarrierDivergence,
                            span,
                            thread,
                            format!(
                                "barrier divergence: {name} reached while threads of the same warp (e.g. {other:?}) {why}"
                            ),
                        );
                    }
                    w.wepoch = w.wepoch.wrapping_add(1);
                    if let Some(sink) = self.trace.as_deref_mut() {
                        sink.barrier(self.block, w.index);
                    }
                    break if grid {
                        Stop::GridBarrier(site)
                    } else {
                        Stop::Barrier(site)
                    };
                }
                Op::SyncWarp => w.wepoch = w.wepoch.wrapping_add(1),

                Op::Jump { to, site } => {
                    pc = to as usize;
                    if w.steps + instr > max_steps {
                        break self.step_fault(w, active, site);
                    }
                    if instr >= check_at {
                        if let Some(stop) = self.check_limits(w, active, site, instr, flushed) {
                            break stop;
                        }
                        flushed = instr;
                        check_at = instr + CHECK_EVERY;
                    }
                }
                Op::IfBegin { slot, c, else_at } => {
                    let t1: Lanes;
                    let t = mask_of(rd!(c, t1)) & active;
                    w.slots[sb + slot as usize][0] = active & !t;
                    active = t;
                    if active == 0 {
                        pc = else_at as usize;
                    }
                }
                Op::Else { slot, end_at } => {
                    let s = &mut w.slots[sb + slot as usize];
                    s[1] = active;
                    active = s[0];
                    if active == 0 {
                        pc = end_at as usize;
                    }
                }
                Op::EndIf { slot } => active |= w.slots[sb + slot as usize][1],
                Op::LoopBegin { slot } => {
                    let s = &mut w.slots[sb + slot as usize];
                    s[0] = 0;
                    s[1] = 0;
                }
                Op::LoopCond { slot, c, exit_at } => {
                    let t1: Lanes;
                    let t = mask_of(rd!(c, t1)) & active;
                    w.slots[sb + slot as usize][0] |= active & !t;
                    active = t;
                    if active == 0 {
                        pc = exit_at as usize;
                    }
                }
                Op::LoopCont { slot } => {
                    let s = &mut w.slots[sb + slot as usize];
                    active |= s[1];
                    s[1] = 0;
                }
                Op::LoopBack {
                    slot,
                    c,
                    body_at,
                    site,
                } => {
                    let t1: Lanes;
                    let t = mask_of(rd!(c, t1)) & active;
                    w.slots[sb + slot as usize][0] |= active & !t;
                    active = t;
                    if active != 0 {
                        pc = body_at as usize;
                        if w.steps + instr > max_steps {
                            break self.step_fault(w, active, site);
                        }
                        if instr >= check_at {
                            if let Some(stop) = self.check_limits(w, active, site, instr, flushed) {
                                break stop;
                            }
                            flushed = instr;
                            check_at = instr + CHECK_EVERY;
                        }
                    }
                }
                Op::LoopEnd { slot } => active |= w.slots[sb + slot as usize][0],
                Op::Break { slot, skip } => {
                    w.slots[sb + slot as usize][0] |= active;
                    active = 0;
                    pc = skip as usize;
                }
                Op::Continue { slot, skip } => {
                    w.slots[sb + slot as usize][1] |= active;
                    active = 0;
                    pc = skip as usize;
                }
                Op::SwitchBegin {
                    slot,
                    val,
                    tgt,
                    table,
                } => {
                    let v = get!(val);
                    let t = &prog.tables[table as usize];
                    let none = t.default.unwrap_or(t.narms);
                    let mut out = w.regs[rb + tgt as usize];
                    for l in Bits(active) {
                        let x = v[l] as i64;
                        out[l] = match t.cases.binary_search_by_key(&x, |c| c.0) {
                            Ok(i) => t.cases[i].1,
                            Err(_) => none,
                        } as u64;
                    }
                    w.regs[rb + tgt as usize] = out;
                    w.slots[sb + slot as usize] = [0, 0, active];
                    active = 0;
                }
                Op::SwitchArm { slot, tgt, arm } => {
                    let entry = w.slots[sb + slot as usize][2];
                    let t = &w.regs[rb + tgt as usize];
                    for l in Bits(entry) {
                        if t[l] == arm as u64 {
                            active |= 1 << l;
                        }
                    }
                }
                Op::SwitchEnd { slot, tgt, arms } => {
                    let s = w.slots[sb + slot as usize];
                    active |= s[0];
                    let t = &w.regs[rb + tgt as usize];
                    for l in Bits(s[2]) {
                        if t[l] == arms as u64 {
                            active |= 1 << l;
                        }
                    }
                }
                Op::MaskPush {
                    slot,
                    c,
                    invert,
                    skip,
                } => {
                    w.slots[sb + slot as usize][0] = active;
                    let mut t = mask_of(&get!(c));
                    if invert {
                        t = !t;
                    }
                    active &= t;
                    if active == 0 {
                        pc = skip as usize;
                    }
                }
                Op::MaskPop { slot } => active = w.slots[sb + slot as usize][0],
                Op::Call { call } => {
                    if active == 0 {
                        continue;
                    }
                    let ci = &prog.calls[call as usize];
                    if w.frames.len() >= max_depth {
                        let depth = w.frames.len() as u32;
                        let span = ci.span;
                        let thread = w.thread(active.trailing_zeros() as usize);
                        break self.fault(
                            FaultKind::StackOverflow { depth },
                            span,
                            thread,
                            format!(
                                "stack overflow: calls of `{}` nested {depth} deep (raise the limit with --max-call-depth)",
                                prog.func(ci.func).name
                            ),
                        );
                    }
                    let cur = prog.func(frame.func);
                    let callee = prog.func(ci.func);
                    let new_rb = rb + cur.nregs as usize;
                    let new_sb = sb + cur.nslots as usize;
                    let new_lb = (frame.local_base + cur.local_size).div_ceil(16) * 16;
                    let need = new_rb + callee.nregs as usize;
                    if w.regs.len() < need {
                        w.regs.resize(need, [0; 32]);
                    }
                    let need = new_sb + callee.nslots as usize;
                    if w.slots.len() < need {
                        w.slots.resize(need, [0; 3]);
                    }
                    let need = new_lb.saturating_add(callee.local_size);
                    if need > self.l.local_cap {
                        let thread = w.thread(active.trailing_zeros() as usize);
                        let limit = self.l.local_cap;
                        break self.fault(
                            FaultKind::LocalMemoryLimit { bytes: need, limit },
                            ci.span,
                            thread,
                            format!(
                                "local memory: calling `{}` needs {need} bytes per thread, more than the {limit} bytes a thread may use",
                                callee.name
                            ),
                        );
                    }
                    let need = need as usize;
                    if callee.local_size > 0 {
                        for l in w.local.iter_mut() {
                            if l.len() < need {
                                l.resize(need, 0);
                            }
                        }
                    }
                    let mut r = new_rb + callee.ret_n as usize;
                    for &(a, n) in &ci.args {
                        for k in 0..n {
                            let v = get!(comp!(a, k));
                            w.regs[r] = v;
                            r += 1;
                        }
                    }
                    let nf = Frame {
                        func: ci.func,
                        ret_pc: pc as u32,
                        reg_base: new_rb as u32,
                        slot_base: new_sb as u32,
                        local_base: new_lb,
                        entry: active,
                        call,
                    };
                    w.frames.push(nf);
                    frame = nf;
                    code = &callee.code;
                    pc = 0;
                    rb = new_rb;
                    sb = new_sb;
                }
                Op::Return { val, skip } => {
                    if let Some((v, n)) = val {
                        for k in 0..n {
                            let x = get!(comp!(v, k));
                            blend(&mut w.regs[rb + k as usize], &x, active | absent);
                        }
                    }
                    if w.frames.len() == 1 {
                        w.exited |= active;
                    }
                    active = 0;
                    pc = skip as usize;
                }
                Op::FuncEnd => {
                    if w.frames.len() == 1 {
                        w.exited = w.present;
                        active = 0;
                        break Stop::Done;
                    }
                    let done = w.frames.pop().expect("callee frame");
                    let caller = *w.frames.last().expect("caller frame");
                    active = done.entry;
                    if let Some((dst, n)) = prog.calls[done.call as usize].dst {
                        for k in 0..n as usize {
                            let v = w.regs[done.reg_base as usize + k];
                            blend(
                                &mut w.regs[caller.reg_base as usize + dst as usize + k],
                                &v,
                                active | absent,
                            );
                        }
                    }
                    frame = caller;
                    code = &prog.func(frame.func).code;
                    pc = done.ret_pc as usize;
                    rb = frame.reg_base as usize;
                    sb = frame.slot_base as usize;
                }
            }
        };
        ops += run * run_mask.count_ones() as u64;
        self.until_check = check_at.saturating_sub(instr);
        self.unreported += instr - flushed;
        w.pc = pc as u32;
        w.active = active;
        w.steps += instr;
        self.warp_instructions += instr;
        self.thread_operations += ops;
        stop
    }

    #[cold]
    fn step_fault(&mut self, w: &Warp, active: u32, site: u32) -> Stop {
        let span = self.site_span(site);
        let thread = w.thread(active.trailing_zeros().min(31) as usize);
        self.fault(
            FaultKind::StepLimit { steps: w.steps },
            span,
            thread,
            format!(
                "warp {} ran past the step limit of {} instructions in this loop (endless loop? raise the limit with --max-steps)",
                w.index, self.l.opts.max_thread_steps
            ),
        )
    }

    /// Reports the instructions of this call of `run_warp` since `flushed`
    /// to the launch's progress and checks the launch's step and time limits.
    #[cold]
    fn check_limits(
        &mut self,
        w: &Warp,
        active: u32,
        site: u32,
        instr: u64,
        flushed: u64,
    ) -> Option<Stop> {
        let limits = &self.l.opts.limits;
        self.l
            .opts
            .progress
            .add_instructions(self.unreported + instr - flushed);
        self.unreported = 0;
        let span = self.site_span(site);
        let thread = w.thread(active.trailing_zeros().min(31) as usize);
        // The block's own instructions, so that where the limit is reached
        // does not depend on how blocks were spread over cores.
        let steps = self.warp_instructions + instr;
        if steps > limits.max_steps {
            let limit = limits.max_steps;
            return Some(self.fault(
                FaultKind::LaunchStepLimit { steps, limit },
                span,
                thread,
                format!("the launch ran past its step limit of {limit} warp instructions in this loop (endless loop? raise the limit with --max-steps)"),
            ));
        }
        if let Some(deadline) = self.l.deadline {
            if std::time::Instant::now() >= deadline {
                let seconds = limits.time_limit.unwrap_or_default().as_secs_f64();
                return Some(self.fault(
                    FaultKind::TimeLimit { seconds },
                    span,
                    thread,
                    format!("the launch ran past its time limit of {seconds} s in this loop (endless loop? raise the limit with --time-limit)"),
                ));
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn do_load(
        &mut self,
        w: &mut Warp,
        active: u32,
        rb: usize,
        dst: Reg,
        p: &Lanes,
        ty: MemTy,
        site: u32,
    ) -> Result<(), Stop> {
        let size = ty.size();
        let align = ty.align();
        let s = ty.scalar.size() as usize;
        let n = ty.n as usize;
        let tracing = self.trace.is_some();
        let mut traced = false;
        let mut cache = View::NONE;
        for l in LaneOrder::new(active, self.l.opts.schedule.reversed) {
            let loc = match self.locate(w, &mut cache, p[l], size, align) {
                Ok(loc) => loc,
                Err(k) => {
                    if traced {
                        self.flush_trace();
                    }
                    return Err(self.access_fault(w, l, k, site, "load"));
                }
            };
            let mut vals = [0u64; 4];
            if n == 1 {
                vals[0] = canon(ty.scalar, self.read_raw(w, l, &loc, 0, s));
                w.regs[rb + dst as usize][l] = vals[0];
            } else {
                for (k, v) in vals.iter_mut().enumerate().take(n) {
                    *v = canon(ty.scalar, self.read_raw(w, l, &loc, (k * s) as u64, s));
                    w.regs[rb + dst as usize + k][l] = *v;
                }
            }
            self.note_read(w, l, &loc, size, site);
            if tracing {
                if !traced {
                    self.begin_trace(w, &loc, site, AccessKind::Load, size);
                    traced = true;
                }
                self.trace_lane(w, l, &loc, Self::value_of(ty, &vals[..n]));
            }
        }
        if traced {
            self.flush_trace();
        }
        Ok(())
    }

    fn do_store(
        &mut self,
        w: &mut Warp,
        active: u32,
        p: &Lanes,
        vals: &[Lanes; 4],
        ty: MemTy,
        site: u32,
    ) -> Result<(), Stop> {
        let size = ty.size();
        let align = ty.align();
        let s = ty.scalar.size() as usize;
        let n = ty.n as usize;
        let tracing = self.trace.is_some();
        let mut traced = false;
        let mut olds = [0u64; 32];
        let mut cache = View::NONE;
        for l in LaneOrder::new(active, self.l.opts.schedule.reversed) {
            let loc = match self.locate(w, &mut cache, p[l], size, align) {
                Ok(loc) => loc,
                Err(k) => {
                    if traced {
                        self.flush_trace();
                    }
                    return Err(self.access_fault(w, l, k, site, "store"));
                }
            };
            let noting = self.granule_olds(w, l, &loc, size, &mut olds);
            if n == 1 {
                self.write_raw(w, l, &loc, 0, s, vals[0][l]);
            } else {
                for (k, v) in vals.iter().enumerate().take(n) {
                    self.write_raw(w, l, &loc, (k * s) as u64, s, v[l]);
                }
            }
            if noting {
                self.note_write(w, l, &loc, size, site, false, &olds);
            }
            if tracing {
                if !traced {
                    self.begin_trace(w, &loc, site, AccessKind::Store, size);
                    traced = true;
                }
                let mut bits = [0u64; 4];
                for k in 0..n {
                    bits[k] = vals[k][l];
                }
                self.trace_lane(w, l, &loc, Self::value_of(ty, &bits[..n]));
            }
        }
        if traced {
            self.flush_trace();
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn do_atomic(
        &mut self,
        w: &mut Warp,
        active: u32,
        op: AtomicOp,
        ty: Scalar,
        p: &Lanes,
        a: &Lanes,
        b: &Lanes,
        site: u32,
    ) -> Result<Lanes, Stop> {
        let size = ty.size();
        let tracing = self.trace.is_some();
        let mut traced = false;
        let mut olds = [0u64; 32];
        let mut out = [0u64; 32];
        let mt = MemTy {
            scalar: ty,
            pointer: false,
            n: 1,
        };
        let mut cache = View::NONE;
        // Lanes of one warp instruction apply in lane order (or the reverse).
        for l in LaneOrder::new(active, self.l.opts.schedule.reversed) {
            let loc = match self.locate(w, &mut cache, p[l], size, size) {
                Ok(loc) => loc,
                Err(k) => {
                    if traced {
                        self.flush_trace();
                    }
                    return Err(self.access_fault(w, l, k, site, "atomic"));
                }
            };
            let noting = self.granule_olds(w, l, &loc, size, &mut olds);
            if noting {
                self.warn_uninit_atomic(w, l, &loc, size, site);
            }
            let old = canon(ty, self.read_raw(w, l, &loc, 0, size as usize));
            let new = atomic(op, ty, old, a[l], b[l]);
            self.write_raw(w, l, &loc, 0, size as usize, new);
            out[l] = old;
            if noting {
                self.note_write(w, l, &loc, size, site, true, &olds);
            }
            if tracing {
                if !traced {
                    self.begin_trace(w, &loc, site, AccessKind::Atomic, size);
                    traced = true;
                }
                self.trace_lane(w, l, &loc, Self::value_of(mt, &[new]));
            }
        }
        if traced {
            self.flush_trace();
        }
        Ok(out)
    }
}
