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
        .function(kernel)
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

pub(crate) fn ncomp(ty: &Type) -> u8 {
    match ty {
        Type::Vector(_, n) => *n,
        Type::Void => 0,
        _ => 1,
    }
}

/// Innermost element type of a (possibly multi-dimensional) array.
pub(crate) fn innermost(ty: &Type) -> &Type {
    match ty {
        Type::Array(e, _) => innermost(e),
        t => t,
    }
}

pub(crate) fn shared_var(
    module: &Module,
    func: FuncId,
    var: &hone_ir::Var,
) -> Result<SharedVar, SetupError> {
    let elem = innermost(&var.ty);
    let granule = match elem {
        Type::Scalar(s) | Type::Vector(s, _) => s.size(),
        Type::Pointer(_) => 8,
        _ => {
            return Err(unsupported(
                module,
                var.span,
                &format!("shared variable `{}` of unsupported type", var.name),
            ))
        }
    };
    let size = match var.kind {
        VarKind::ExternShared => SharedSize::Dynamic,
        _ => SharedSize::Typed(var.ty.clone()),
    };
    Ok(SharedVar {
        name: var.name.clone(),
        size,
        align: var.ty.align().max(1),
        granule,
        func: func.0,
    })
}
