//! Compilation of a kernel and the device functions it calls into bytecode.

mod lower;
pub(crate) mod ops;

use hone_ir::{FuncId, FuncKind, Module, Scalar, Span, Type, VarKind};

use crate::report::SetupError;
use ops::{CallInfo, Op, Site, SwitchTable};

/// A local variable that lives in thread-local memory (an array, or a scalar
/// whose address is taken).
#[derive(Clone, Debug)]
pub(crate) struct LocalVar {
    pub name: String,
    /// Offset within the function's frame of local memory.
    pub offset: u64,
    pub size: u64,
}

pub(crate) struct CompiledFn {
    pub name: String,
    pub code: Vec<Op>,
    pub nregs: u32,
    pub nslots: u32,
    /// Registers 0..ret_n of the frame receive the return value.
    pub ret_n: u8,
    pub locals: Vec<LocalVar>,
    pub local_size: u64,
}

/// Length of a shared array, known when compiling or only at launch.
#[derive(Clone, Debug)]
pub(crate) enum SharedSize {
    /// Size of the variable's type, evaluated at launch (lengths may depend on
    /// blockDim/gridDim and scalar parameters).
    Typed(Type),
    /// `extern __shared__`: the dynamic region.
    Dynamic,
}

#[derive(Clone, Debug)]
pub(crate) struct SharedVar {
    pub name: String,
    pub size: SharedSize,
    pub align: u64,
    /// Scalar size of the elements: the granule of race detection.
    pub granule: u32,
    /// Function that declares it (whose parameters a launch-time length may use).
    pub func: u32,
}

pub(crate) struct Program {
    pub funcs: Vec<Option<CompiledFn>>,
    pub kernel: u32,
    pub sites: Vec<Site>,
    pub shared: Vec<SharedVar>,
    pub tables: Vec<SwitchTable>,
    pub calls: Vec<CallInfo>,
    pub uses_atomics: bool,
    /// Whether any compiled function reads `clock()`/`clock64()`.
    pub reads_clock: bool,
    /// Holds a grid barrier: its blocks must all be resident at once.
    pub grid_sync: bool,
    /// File-scope `__shared__` variables used so far: global index -> `shared` index.
    pub global_shared: std::collections::HashMap<u32, u32>,
}

impl Program {
    pub fn func(&self, id: u32) -> &CompiledFn {
        self.funcs[id as usize]
            .as_ref()
            .expect("called functions are compiled")
    }
}

/// Compiles `kernel` and everything it calls.
pub(crate) fn compile(module: &Module, kernel: &str) -> Result<Program, SetupError> {
    let (kid, kf) = module
        .kernel(kernel)
        .or_else(|| module.function(kernel))
        .ok_or_else(|| SetupError::UnknownKernel(kernel.to_string()))?;
    if kf.kind != FuncKind::Global {
        return Err(SetupError::NotAKernel {
            name: kernel.to_string(),
        });
    }
    let mut prog = Program {
        funcs: (0..module.functions.len()).map(|_| None).collect(),
        kernel: kid.0,
        sites: Vec::new(),
        shared: Vec::new(),
        tables: Vec::new(),
        calls: Vec::new(),
        uses_atomics: false,
        reads_clock: false,
        grid_sync: false,
        global_shared: std::collections::HashMap::new(),
    };
    let mut pending = vec![kid];
    let mut queued = vec![false; module.functions.len()];
    queued[kid.0 as usize] = true;
    while let Some(fid) = pending.pop() {
        let (compiled, callees) = lower::lower_function(module, fid, &mut prog)?;
        prog.funcs[fid.0 as usize] = Some(compiled);
        for c in callees {
            let i = c.0 as usize;
            if i >= module.functions.len() {
                return Err(unsupported(
                    module,
                    module.func(fid).span,
                    "call of an unknown function",
                ));
            }
            if module.functions[i].kind == FuncKind::Global {
                return Err(unsupported(
                    module,
                    module.func(fid).span,
                    &format!(
                        "call of __global__ function `{}` from device code",
                        module.functions[i].name
                    ),
                ));
            }
            if !queued[i] {
                queued[i] = true;
                pending.push(FuncId(c.0));
            }
        }
    }
    Ok(prog)
}

pub(crate) fn unsupported(module: &Module, span: Span, message: &str) -> SetupError {
    SetupError::Unsupported {
        location: module.location(span),
        message: message.to_string(),
    }
}

/// Scalar component of a type (pointers and arrays travel as 64-bit addresses).
pub(crate) fn scalar_of(ty: &Type) -> Scalar {
    match ty {
        Type::Scalar(s) | Type::Vector(s, _) => *s,
        _ => Scalar::U64,
    }
}

/// Registers a value of `ty` occupies: vectors one per component, structs
/// one per scalar, vector or pointer inside (arrays in them element by
/// element), arrays one (they travel as their address). Struct values needing
/// more than 255 registers saturate here and are refused where they are
/// used (`value_regs`).
pub(crate) fn ncomp(ty: &Type) -> u8 {
    match ty {
        Type::Vector(_, n) => *n,
        Type::Void => 0,
        Type::Struct(_) => value_regs(ty).min(255) as u8,
        _ => 1,
    }
}

/// Registers of a value of `ty` held whole, arrays inside structs counted
/// element by element.
pub(crate) fn value_regs(ty: &Type) -> u64 {
    match ty {
        Type::Vector(_, n) => *n as u64,
        Type::Void => 0,
        Type::Struct(s) => s.fields.iter().map(|f| field_regs(&f.ty)).sum(),
        _ => 1,
    }
}

fn field_regs(ty: &Type) -> u64 {
    match ty {
        Type::Array(e, hone_ir::ArrayLen::Const(n)) => n.saturating_mul(field_regs(e)),
        t => value_regs(t),
    }
}

/// First register of field `i` within a struct value of type `st`.
pub(crate) fn field_reg(st: &hone_ir::StructType, i: usize) -> u32 {
    st.fields[..i.min(st.fields.len())]
        .iter()
        .map(|f| field_regs(&f.ty))
        .sum::<u64>() as u32
}

/// The scalars, vectors and pointers a value of `ty` is made of, with their
/// byte offsets, in register order.
pub(crate) fn leaves(ty: &Type, offset: u64, out: &mut Vec<(u64, Type)>) {
    match ty {
        Type::Struct(s) => {
            for f in &s.fields {
                leaves(&f.ty, offset + f.offset, out);
            }
        }
        Type::Array(e, hone_ir::ArrayLen::Const(n)) => {
            let size = e.size().unwrap_or(0);
            for k in 0..*n {
                leaves(e, offset + k * size, out);
            }
        }
        t => out.push((offset, t.clone())),
    }
}

/// Whether a struct holds an array (then a variable of it lives in memory,
/// so that the array can be indexed).
pub(crate) fn has_array(ty: &Type) -> bool {
    match ty {
        Type::Struct(s) => s.fields.iter().any(|f| has_array(&f.ty)),
        Type::Array(..) => true,
        _ => false,
    }
}

/// Smallest scalar a type is made of: the granule of race detection.
pub(crate) fn granule_of(ty: &Type) -> Option<u32> {
    match ty {
        Type::Scalar(s) | Type::Vector(s, _) => Some(s.size()),
        Type::Pointer(_) => Some(8),
        Type::Array(e, _) => granule_of(e),
        Type::Struct(s) => s.fields.iter().filter_map(|f| granule_of(&f.ty)).min(),
        Type::Void => None,
    }
}

pub(crate) fn shared_var(
    module: &Module,
    func: FuncId,
    var: &hone_ir::Var,
) -> Result<SharedVar, SetupError> {
    shared_obj(
        module,
        func,
        &var.name,
        &var.ty,
        var.kind == VarKind::ExternShared,
        var.span,
    )
}

/// A `__shared__` variable of a function or of the file (then `func` is the kernel).
pub(crate) fn shared_obj(
    module: &Module,
    func: FuncId,
    name: &str,
    ty: &Type,
    is_extern: bool,
    span: Span,
) -> Result<SharedVar, SetupError> {
    let Some(granule) = granule_of(ty) else {
        return Err(unsupported(
            module,
            span,
            &format!("shared variable `{name}` of unsupported type"),
        ));
    };
    let size = if is_extern {
        SharedSize::Dynamic
    } else {
        SharedSize::Typed(ty.clone())
    };
    Ok(SharedVar {
        name: name.to_string(),
        size,
        align: ty.align().max(1),
        granule,
        func: func.0,
    })
}
