//! Launch setup: argument checking, global and shared memory layout.

use hone_ir::{ArrayLen, BinaryOp, Builtin, Expr, ExprKind, Module, Scalar, Type, UnaryOp, VarId};

use super::arith::{canon, convert_bits};
use super::memory::{GlobalObj, SharedObj};
use crate::buffer::Buffer;
use crate::compile::{granule_of, ncomp, scalar_of, Program, SharedSize};
use crate::config::{KernelArg, LaunchConfig, Options};
use crate::report::SetupError;

/// Shared memory a block may use: 227 KiB, the most an sm_90 block can opt
/// in to.
pub const SHARED_LIMIT: u64 = 227 * 1024;
/// Where the first global buffer is placed, like a device allocation.
const GLOBAL_BASE: u64 = 0x7f00_0000_0000;

/// Everything fixed for the duration of one launch.
pub(crate) struct Launch<'a> {
    pub module: &'a Module,
    pub prog: &'a Program,
    pub cfg: &'a LaunchConfig,
    pub opts: &'a Options,
    pub globals: Vec<GlobalObj>,
    /// Index in `globals` of the first file-scope variable.
    pub symbols_at: u32,
    pub shared: Vec<SharedObj>,
    pub shared_bytes: u64,
    pub shared_cells: u64,
    /// Kernel parameter registers and their values.
    pub params: Vec<(u32, u64)>,
    /// Local memory a thread's call chain may grow to.
    pub local_cap: u64,
    /// When the launch started, and when it must stop.
    pub deadline: Option<std::time::Instant>,
}

fn describe(arg: &KernelArg, buffers: &[Buffer]) -> String {
    match arg {
        KernelArg::Int(v) => format!("integer {v}"),
        KernelArg::Float(v) => format!("floating-point {v}"),
        KernelArg::Buffer(i) | KernelArg::BufferAt { buffer: i, .. } => match buffers.get(*i) {
            Some(b) => format!("buffer `{}` of {}", b.name, type_name(&b.elem)),
            None => format!(
                "buffer index {i}, but only {} buffers were given",
                buffers.len()
            ),
        },
    }
}

pub(crate) fn type_name(t: &Type) -> String {
    match t {
        Type::Void => "void".into(),
        Type::Scalar(s) => s.c_name().into(),
        Type::Vector(s, n) => format!("{}{n}", s.vector_prefix().unwrap_or("?")),
        Type::Pointer(p) => format!("{}*", type_name(&p.pointee)),
        Type::Array(e, _) => format!("{}[]", type_name(e)),
        Type::Struct(s) => s.name.clone(),
    }
}

/// Whether a buffer of `elem` may be passed for a `pointee*` parameter:
/// byte and void pointers take anything, vector pointers their component
/// type, and integer types of equal size may alias.
fn compatible(pointee: &Type, elem: &Type) -> bool {
    let comp = |t: &Type| match t {
        Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
        _ => None,
    };
    if let Type::Struct(st) = pointee {
        // A struct array is passed as its own type, as bytes, or as the one
        // scalar type all its members are made of.
        let mut parts = Vec::new();
        crate::compile::leaves(pointee, 0, &mut parts);
        let one = parts.first().and_then(|(_, t)| comp(t));
        let uniform = parts.iter().all(|(_, t)| comp(t) == one && !t.is_pointer());
        return match elem {
            Type::Struct(e) => e.name == st.name && e.size == st.size,
            _ => {
                matches!(comp(elem), Some(Scalar::I8 | Scalar::U8))
                    || (uniform && one.is_some() && comp(elem) == one)
            }
        };
    }
    match (pointee, comp(pointee), comp(elem)) {
        (Type::Void, _, _) => true,
        (_, Some(Scalar::I8 | Scalar::U8), _) => true,
        (_, Some(a), Some(b)) => {
            a == b || (a.is_integer() && b.is_integer() && a.size() == b.size())
        }
        (Type::Pointer(_), _, _) => {
            matches!(elem, Type::Pointer(_)) || comp(elem) == Some(Scalar::U64)
        }
        // A pointer to arrays (`unsigned int (*)[32]`) takes a buffer of
        // such arrays.
        (Type::Array(..), _, _) => pointee == elem,
        _ => false,
    }
}

fn int_fits(s: Scalar, v: i64) -> bool {
    match s {
        Scalar::Bool => v == 0 || v == 1,
        Scalar::I8 => i8::try_from(v).is_ok(),
        Scalar::U8 => u8::try_from(v).is_ok(),
        Scalar::I16 => i16::try_from(v).is_ok(),
        Scalar::U16 => u16::try_from(v).is_ok(),
        Scalar::I32 => i32::try_from(v).is_ok(),
        Scalar::U32 => u32::try_from(v).is_ok(),
        Scalar::I64 => true,
        Scalar::U64 => v >= 0,
        Scalar::F32 | Scalar::F64 => true,
    }
}

impl<'a> Launch<'a> {
    pub fn new(
        module: &'a Module,
        prog: &'a Program,
        cfg: &'a LaunchConfig,
        opts: &'a Options,
        args: &[KernelArg],
        buffers: &[Buffer],
        symbols_at: usize,
    ) -> Result<Launch<'a>, SetupError> {
        let f = module.func(hone_ir::FuncId(prog.kernel));
        // CUDA's limits; the block count must also fit the 32-bit block index used here.
        if cfg.grid.contains(&0)
            || cfg.block.contains(&0)
            || cfg.grid[0] > i32::MAX as u32
            || cfg.grid[1] > 65535
            || cfg.grid[2] > 65535
            || cfg.block_count() > u32::MAX as u64
        {
            return Err(SetupError::BadDimensions {
                grid: cfg.grid,
                block: cfg.block,
            });
        }
        let threads = cfg.threads_per_block();
        if threads > 1024 || cfg.block[2] > 64 {
            return Err(SetupError::BlockTooLarge { threads });
        }
        if args.len() != f.params.len() {
            return Err(SetupError::ArgCount {
                kernel: f.name.clone(),
                expected: f.params.len(),
                got: args.len(),
            });
        }
        let mut params = Vec::new();
        let mut reg = 0u32;
        let mut param_ints = Vec::new();
        for (&p, arg) in f.params.iter().zip(args) {
            let var = f.var(p);
            let bad = |expected: String| SetupError::ArgType {
                param: var.name.clone(),
                expected,
                got: describe(arg, buffers),
            };
            let value = match (&var.ty, arg) {
                (
                    Type::Pointer(pt),
                    KernelArg::Buffer(i) | KernelArg::BufferAt { buffer: i, .. },
                ) => {
                    let Some(b) = buffers.get(*i) else {
                        return Err(bad(format!("a buffer for `{}`", type_name(&var.ty))));
                    };
                    if !compatible(&pt.pointee, &b.elem) {
                        return Err(bad(format!("a buffer of {}", type_name(&pt.pointee))));
                    }
                    let offset = match arg {
                        KernelArg::BufferAt { bytes, .. } if *bytes <= b.data.len() as u64 => {
                            *bytes
                        }
                        KernelArg::BufferAt { .. } => {
                            return Err(bad(format!(
                                "a pointer within buffer `{}` ({} bytes)",
                                b.name,
                                b.data.len()
                            )))
                        }
                        _ => 0,
                    };
                    super::memory::make_ptr(*i as u32 + 1, offset as i64)
                }
                // A struct by value: its bytes are the buffer's, member by member
                // into the parameter's registers.
                (Type::Struct(st), KernelArg::Buffer(i)) => {
                    let Some(b) = buffers.get(*i).filter(|b| b.data.len() as u64 == st.size) else {
                        return Err(bad(format!(
                            "a buffer of one `{}` ({} bytes)",
                            st.name, st.size
                        )));
                    };
                    if crate::compile::value_regs(&var.ty) > 255 {
                        return Err(bad(format!(
                            "a struct of at most 255 scalars, not `{}`",
                            st.name
                        )));
                    }
                    let mut leaves = Vec::new();
                    var.ty.scalar_leaves(0, &mut leaves);
                    for (k, (off, s)) in leaves.iter().enumerate() {
                        let off = *off as usize;
                        let bytes = &b.data[off..off + s.size() as usize];
                        params.push((reg + k as u32, canon(*s, super::memory::read_le(bytes))));
                    }
                    reg += leaves.len() as u32;
                    continue;
                }
                // A null pointer, for kernels with optional arrays.
                (Type::Pointer(_), KernelArg::Int(0)) => 0,
                (Type::Pointer(_), _) => {
                    return Err(bad(format!("a buffer for `{}`", type_name(&var.ty))))
                }
                (Type::Scalar(s), KernelArg::Int(v)) => {
                    if !int_fits(*s, *v) {
                        return Err(bad(format!("a value that fits {}", s.c_name())));
                    }
                    param_ints.push((p, *v));
                    if s.is_float() {
                        convert_bits(Scalar::I64, *s, *v as u64)
                    } else {
                        canon(*s, *v as u64)
                    }
                }
                (Type::Scalar(s), KernelArg::Float(v)) if s.is_float() => {
                    convert_bits(Scalar::F64, *s, v.to_bits())
                }
                (Type::Scalar(s), _) => return Err(bad(s.c_name().to_string())),
                (t, _) => {
                    return Err(bad(format!(
                        "a supported parameter type, not {}",
                        type_name(t)
                    )))
                }
            };
            params.push((reg, value));
            reg += ncomp(&var.ty).max(1) as u32;
        }

        let mut globals = Vec::new();
        let mut addr = GLOBAL_BASE;
        let mut shadow = 0u64;
        for (i, b) in buffers.iter().enumerate() {
            let granule = granule_of(&b.elem).unwrap_or(1).max(1) as u64;
            let len = b.data.len() as u64;
            let space = match i
                .checked_sub(symbols_at)
                .and_then(|g| module.globals.get(g))
                .map(|g| g.space)
            {
                Some(hone_ir::GlobalSpace::Constant) => hone_ir::AddressSpace::Constant,
                _ => hone_ir::AddressSpace::Global,
            };
            globals.push(GlobalObj {
                name: b.name.clone(),
                len,
                base_addr: addr,
                granule_shift: granule.trailing_zeros(),
                shadow_base: shadow,
                space,
            });
            shadow += len.div_ceil(granule);
            addr = (addr + len.max(1)).div_ceil(512) * 512;
        }

        let env = Env {
            cfg,
            kernel: prog.kernel,
            ints: &param_ints,
        };
        let mut shared = Vec::new();
        let mut end = 0u64;
        let mut cells = 0u64;
        let mut dynamic = Vec::new();
        for (i, sv) in prog.shared.iter().enumerate() {
            let shift = sv.granule.max(1).trailing_zeros();
            match &sv.size {
                SharedSize::Typed(ty) => {
                    let len = env.size(ty, sv.func).map_err(|m| SetupError::Unsupported {
                        location: module.location(module.func(hone_ir::FuncId(sv.func)).span),
                        message: format!("length of shared `{}`: {m}", sv.name),
                    })?;
                    let offset = end.div_ceil(sv.align) * sv.align;
                    // Refused as soon as it is past the limit, so that the
                    // layout's sums stay small.
                    end = offset.saturating_add(len);
                    if end > SHARED_LIMIT {
                        return Err(SetupError::SharedTooLarge {
                            bytes: end,
                            limit: SHARED_LIMIT,
                        });
                    }
                    shared.push(SharedObj {
                        name: sv.name.clone(),
                        offset,
                        len,
                        granule_shift: shift,
                        shadow_base: cells,
                    });
                    cells += len.div_ceil(1 << shift);
                }
                SharedSize::Dynamic => {
                    dynamic.push(i);
                    shared.push(SharedObj {
                        name: sv.name.clone(),
                        offset: 0,
                        len: cfg.dynamic_shared_bytes,
                        granule_shift: shift,
                        shadow_base: 0,
                    });
                }
            }
        }
        // All extern arrays alias the one dynamic region, so they share its
        // offset and shadow, at the finest granule any of them uses.
        let dyn_off = end.div_ceil(16) * 16;
        let dyn_shift = dynamic
            .iter()
            .map(|&i| shared[i].granule_shift)
            .min()
            .unwrap_or(0);
        for &i in &dynamic {
            shared[i].offset = dyn_off;
            shared[i].granule_shift = dyn_shift;
            shared[i].shadow_base = cells;
        }
        let mut total = end;
        if !dynamic.is_empty() || cfg.dynamic_shared_bytes > 0 {
            total = dyn_off.saturating_add(cfg.dynamic_shared_bytes);
        }
        if total > SHARED_LIMIT {
            return Err(SetupError::SharedTooLarge {
                bytes: total,
                limit: SHARED_LIMIT,
            });
        }
        if !dynamic.is_empty() || cfg.dynamic_shared_bytes > 0 {
            cells += cfg.dynamic_shared_bytes.div_ceil(1 << dyn_shift);
        }
        let local = prog.func(prog.kernel).local_size;
        if local > crate::config::LOCAL_LIMIT {
            return Err(SetupError::LocalTooLarge {
                bytes: local,
                limit: crate::config::LOCAL_LIMIT,
            });
        }
        // Every size here is bounded (buffers exist, shared and local memory
        // are under their limits, a block has at most 1024 threads), so the
        // sums cannot overflow.
        let global_bytes: u64 = buffers.iter().map(|b| b.data.len() as u64).sum();
        let block_local = local * threads;
        let needed = global_bytes + total + block_local;
        let limit = opts.limits.max_memory;
        if needed > limit {
            return Err(SetupError::MemoryLimit {
                bytes: needed,
                limit,
                what: format!(
                    "{global_bytes} in buffers and variables, {total} of shared and {block_local} of local memory per block"
                ),
            });
        }
        let local_cap = ((limit - global_bytes - total) / threads).min(crate::config::LOCAL_LIMIT);
        Ok(Launch {
            module,
            prog,
            cfg,
            opts,
            globals,
            symbols_at: symbols_at as u32,
            shared,
            shared_bytes: total,
            shared_cells: cells,
            params,
            local_cap,
            deadline: opts
                .limits
                .time_limit
                .and_then(|t| std::time::Instant::now().checked_add(t)),
        })
    }

    /// The block that runs `lin`-th (in linear order, or from the last
    /// block under a reversed schedule).
    pub fn block_coords(&self, lin: u32) -> [u32; 3] {
        let lin = if self.opts.schedule.reversed {
            (self.cfg.block_count() as u32 - 1).saturating_sub(lin)
        } else {
            lin
        };
        let g = self.cfg.grid;
        [lin % g[0], (lin / g[0]) % g[1], lin / (g[0] * g[1])]
    }

    pub fn thread_coords(&self, tid: u32) -> [u32; 3] {
        let b = self.cfg.block;
        [tid % b[0], (tid / b[0]) % b[1], tid / (b[0] * b[1])]
    }

    /// The global buffer holding shadow granule `g`, and the byte offset.
    pub fn granule_home(&self, g: u64) -> Option<(u32, u64)> {
        let i = self
            .globals
            .partition_point(|o| o.shadow_base <= g)
            .checked_sub(1)?;
        let o = &self.globals[i];
        Some((i as u32, (g - o.shadow_base) << o.granule_shift))
    }
}

/// Evaluates launch-time array lengths (`blockDim.x + 2`, `n * 4`).
struct Env<'e> {
    cfg: &'e LaunchConfig,
    kernel: u32,
    ints: &'e [(VarId, i64)],
}

impl Env<'_> {
    fn size(&self, ty: &Type, func: u32) -> Result<u64, String> {
        match ty {
            Type::Array(e, len) => {
                let n = match len {
                    ArrayLen::Const(n) => *n,
                    ArrayLen::Expr(x) => {
                        let v = self.eval(x, func)?;
                        u64::try_from(v).map_err(|_| format!("negative length {v}"))?
                    }
                    ArrayLen::Unsized => return Err("unsized array".into()),
                };
                self.size(e, func)?
                    .checked_mul(n)
                    .ok_or_else(|| "a length whose size in bytes overflows".to_string())
            }
            t => t.size().ok_or_else(|| "type without a size".to_string()),
        }
    }

    fn eval(&self, e: &Expr, func: u32) -> Result<i64, String> {
        Ok(match &e.kind {
            ExprKind::IntLit(v) => *v as i64,
            ExprKind::SizeOf(t) => t.size().ok_or("sizeof of an unsized type")? as i64,
            ExprKind::Builtin(Builtin::BlockDim(d)) => self.cfg.block[d.index()] as i64,
            ExprKind::Builtin(Builtin::GridDim(d)) => self.cfg.grid[d.index()] as i64,
            ExprKind::Builtin(Builtin::WarpSize) => 32,
            ExprKind::Var(v) if func == self.kernel => self
                .ints
                .iter()
                .find(|(p, _)| p == v)
                .map(|(_, x)| *x)
                .ok_or(
                    "only blockDim, gridDim and integer kernel parameters may size a shared array",
                )?,
            ExprKind::Cast { expr, .. } => {
                if !scalar_of(&e.ty).is_integer() {
                    return Err("non-integer length".into());
                }
                self.eval(expr, func)?
            }
            ExprKind::Unary(UnaryOp::Neg, a) => self.eval(a, func)?.wrapping_neg(),
            ExprKind::Unary(UnaryOp::Plus, a) => self.eval(a, func)?,
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(a, func)?, self.eval(b, func)?);
                match op {
                    BinaryOp::Add => x.wrapping_add(y),
                    BinaryOp::Sub => x.wrapping_sub(y),
                    BinaryOp::Mul => x.wrapping_mul(y),
                    BinaryOp::Div | BinaryOp::Rem if y == 0 => {
                        return Err("division by zero".into())
                    }
                    BinaryOp::Div => x.wrapping_div(y),
                    BinaryOp::Rem => x.wrapping_rem(y),
                    BinaryOp::Shl => x.wrapping_shl(y as u32),
                    BinaryOp::Shr => x.wrapping_shr(y as u32),
                    BinaryOp::BitAnd => x & y,
                    BinaryOp::BitOr => x | y,
                    BinaryOp::BitXor => x ^ y,
                    _ => return Err(format!("operator `{}` in a length", op.symbol())),
                }
            }
            _ => return Err("unsupported expression in a length".into()),
        })
    }
}
