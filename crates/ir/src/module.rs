//! Statements, functions and modules.

use serde::{Deserialize, Serialize};

use std::sync::Arc;

use crate::{AddressSpace, Expr, Span, StructType, Type};

/// Index of a variable in its function's `vars`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VarId(pub u32);

/// Index of a file-scope variable in the module's `globals`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GlobalId(pub u32);

/// Index of a function in the module's `functions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FuncId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VarKind {
    Param,
    /// A local scalar, vector, pointer or local array (thread-private).
    Local,
    /// `__shared__` in a function body: one instance per block.
    Shared,
    /// `extern __shared__ T s[]`: the launch's dynamic shared memory.
    ExternShared,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Var {
    pub name: String,
    pub ty: Type,
    pub kind: VarKind,
    /// `const` on the variable itself (`const int n = ...`, `float *const p`).
    pub is_const: bool,
    /// `volatile` on the variable itself: every read and write is a memory access.
    #[serde(default)]
    pub is_volatile: bool,
    pub span: Span,
}

impl PartialEq for Var {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name
            && self.ty == o.ty
            && self.kind == o.kind
            && self.is_const == o.is_const
            && self.is_volatile == o.is_volatile
    }
}

/// Where a file-scope variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GlobalSpace {
    /// `__constant__`: read-only in device code, one copy for the grid, set by the host.
    Constant,
    /// `__device__`: global memory, one copy for the grid.
    Device,
    /// `__shared__` at file scope: one instance per block, as in a function body.
    Shared,
}

/// A variable declared at file scope (`__constant__ float c[16] = {...};`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GlobalVar {
    pub name: String,
    pub ty: Type,
    pub space: GlobalSpace,
    pub is_const: bool,
    pub is_volatile: bool,
    /// `extern __shared__ T s[];` at file scope: the launch's dynamic shared memory.
    pub is_extern: bool,
    /// Constant initializer; without one the variable starts zeroed (as C's
    /// static storage does), except `__shared__`, which starts undefined.
    pub init: Option<Init>,
    pub span: Span,
}

impl PartialEq for GlobalVar {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name
            && self.ty == o.ty
            && self.space == o.space
            && self.is_const == o.is_const
            && self.is_volatile == o.is_volatile
            && self.is_extern == o.is_extern
            && self.init == o.init
    }
}

impl GlobalVar {
    pub fn address_space(&self) -> AddressSpace {
        match self.space {
            GlobalSpace::Constant => AddressSpace::Constant,
            GlobalSpace::Device => AddressSpace::Global,
            GlobalSpace::Shared => AddressSpace::Shared,
        }
    }
}

impl Var {
    /// A variable of `kind`, neither `const` nor `volatile`.
    pub fn new(name: impl Into<String>, ty: Type, kind: VarKind, span: Span) -> Var {
        Var {
            name: name.into(),
            ty,
            kind,
            is_const: false,
            is_volatile: false,
            span,
        }
    }

    pub fn space(&self) -> AddressSpace {
        match self.kind {
            VarKind::Param | VarKind::Local => AddressSpace::Local,
            VarKind::Shared | VarKind::ExternShared => AddressSpace::Shared,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

impl PartialEq for Stmt {
    fn eq(&self, o: &Self) -> bool {
        self.kind == o.kind
    }
}

pub type Block = Vec<Stmt>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Init {
    Expr(Expr),
    /// `= {a, b, c}` for local arrays and vectors.
    List(Vec<Init>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum StmtKind {
    /// Declaration of one variable (`int a = 1, b;` becomes two).
    Decl {
        var: VarId,
        init: Option<Init>,
    },
    Expr(Expr),
    If {
        cond: Expr,
        then: Block,
        els: Option<Block>,
    },
    /// `init` is a `Decl` or `Expr` statement (or several, for `int i = 0, j = 0`).
    For {
        init: Block,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Block,
    },
    While {
        cond: Expr,
        body: Block,
    },
    DoWhile {
        body: Block,
        cond: Expr,
    },
    /// C's switch: arms fall through to the next one unless they `break`.
    Switch {
        value: Expr,
        arms: Vec<SwitchArm>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Block(Block),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwitchArm {
    /// `case` values; `None` in the list is `default:`.
    pub labels: Vec<Option<i64>>,
    pub body: Block,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FuncKind {
    Global,
    Device,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub kind: FuncKind,
    pub ret: Type,
    /// Parameter variables, in order (indices into `vars`).
    pub params: Vec<VarId>,
    /// Every variable of the function, parameters included. Names may repeat
    /// (shadowing in nested scopes); the printer keeps them distinct.
    pub vars: Vec<Var>,
    pub body: Block,
    /// `__launch_bounds__(max_threads[, min_blocks])`
    pub launch_bounds: Option<(u32, Option<u32>)>,
    /// `__forceinline__` / `__noinline__`, kept for printing.
    pub inline: Option<String>,
    pub span: Span,
}

impl PartialEq for Function {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name
            && self.kind == o.kind
            && self.ret == o.ret
            && self.params == o.params
            && self.vars == o.vars
            && self.body == o.body
            && self.launch_bounds == o.launch_bounds
            && self.inline == o.inline
    }
}

impl Function {
    /// A function with no parameters, variables or statements yet, and no
    /// attributes, for code that builds functions rather than lowering them.
    pub fn new(name: impl Into<String>, kind: FuncKind, ret: Type) -> Function {
        Function {
            name: name.into(),
            kind,
            ret,
            params: Vec::new(),
            vars: Vec::new(),
            body: Vec::new(),
            launch_bounds: None,
            inline: None,
            span: Span::default(),
        }
    }

    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }

    /// Adds `var` to the function's variables and returns its id.
    pub fn add_var(&mut self, var: Var) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(var);
        id
    }
}

/// A lowered translation unit: the `__global__` and `__device__` functions hone
/// could lower, in source order. Host code is parsed but not lowered.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Module {
    /// Source file names; `Span::file` indexes this.
    pub files: Vec<String>,
    /// Struct definitions in declaration order (a struct after the structs its
    /// fields use), each once; `Type::Struct` values share them.
    #[serde(default)]
    pub structs: Vec<Arc<StructType>>,
    /// File-scope `__constant__`, `__device__` and `__shared__` variables.
    #[serde(default)]
    pub globals: Vec<GlobalVar>,
    pub functions: Vec<Function>,
}

impl PartialEq for Module {
    fn eq(&self, o: &Self) -> bool {
        self.structs == o.structs && self.globals == o.globals && self.functions == o.functions
    }
}

impl Module {
    pub fn function(&self, name: &str) -> Option<(FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .find(|(_, f)| f.name == name)
            .map(|(i, f)| (FuncId(i as u32), f))
    }
    /// The kernel (`__global__` function) of this name: a device function
    /// may have the same name, as a member function's lowered name can.
    pub fn kernel(&self, name: &str) -> Option<(FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .find(|(_, f)| f.name == name && f.kind == FuncKind::Global)
            .map(|(i, f)| (FuncId(i as u32), f))
    }
    pub fn global(&self, id: GlobalId) -> &GlobalVar {
        &self.globals[id.0 as usize]
    }
    pub fn global_named(&self, name: &str) -> Option<(GlobalId, &GlobalVar)> {
        self.globals
            .iter()
            .enumerate()
            .find(|(_, g)| g.name == name)
            .map(|(i, g)| (GlobalId(i as u32), g))
    }
    pub fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    pub fn kernels(&self) -> impl Iterator<Item = &Function> {
        self.functions.iter().filter(|f| f.kind == FuncKind::Global)
    }
    /// `file:line:col` of a span, for messages.
    pub fn location(&self, span: Span) -> String {
        let file = self
            .files
            .get(span.file as usize)
            .map(String::as_str)
            .unwrap_or("<unknown>");
        format!("{file}:{}:{}", span.line, span.col)
    }
}
