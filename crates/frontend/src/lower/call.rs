//! Calls: module functions, functional casts and CUDA's built-in functions.

use hone_ir::{
    AtomicOp, BinaryOp, Expr, ExprKind, FuncKind, Intrinsic, MathFn, MathOp, Scalar, ShflKind,
    Type, VoteKind,
};
use tree_sitter::Node;

use super::conv::{common_scalar, icast, promoted, type_name};
use super::func::{Abort, Entry, FnLowerer, LResult};
use super::names;
use super::template::ArgSource;
use super::FuncSig;
use crate::syntax;

/// Device intrinsics that are other spellings of math functions.
fn math_alias(name: &str) -> Option<(&'static str, Option<Scalar>)> {
    Some(match name {
        "__expf" => ("expf", None),
        "__logf" => ("logf", None),
        "__log2f" => ("log2f", None),
        "__log10f" => ("log10f", None),
        "__powf" => ("powf", None),
        "__sinf" => ("sinf", None),
        "__cosf" => ("cosf", None),
        "__tanf" => ("tanf", None),
        "__fsqrt_rn" => ("sqrtf", None),
        "__frsqrt_rn" => ("rsqrtf", None),
        "__fmaf_rn" => ("fmaf", None),
        "__fma_rn" => ("fma", None),
        "__dsqrt_rn" => ("sqrt", None),
        "__saturatef" => ("__saturatef", Some(Scalar::F32)),
        // Rounding to nearest, the only mode device code runs in.
        "nearbyintf" => ("rintf", None),
        "nearbyint" => ("rint", None),
        "umin" => ("min", Some(Scalar::U32)),
        "umax" => ("max", Some(Scalar::U32)),
        "llmin" => ("min", Some(Scalar::I64)),
        "llmax" => ("max", Some(Scalar::I64)),
        "ullmin" => ("min", Some(Scalar::U64)),
        "ullmax" => ("max", Some(Scalar::U64)),
        "labs" | "llabs" => ("abs", Some(Scalar::I64)),
        _ => return None,
    })
}

/// Whether `name` is one of CUDA's built-in functions hone lowers itself.
fn is_builtin(name: &str) -> bool {
    MathFn::from_name(name).is_some()
        || math_alias(name).is_some()
        || arith_alias(name).is_some()
        || atomic_op(name).is_some()
        || (name.starts_with("make_") && names::named_type(&name["make_".len()..]).is_some())
}

/// Conversion intrinsics (`__float2int_rn`): the argument's type, the
/// rounding applied before C's conversion (none for those C's conversion
/// already rounds as named: `_rz` to an integer, `_rn` to a float), and
/// the result's type.
fn conversion_alias(name: &str) -> Option<(Scalar, Option<MathOp>, Scalar)> {
    use Scalar::*;
    let (types, mode) = name.strip_prefix("__")?.rsplit_once('_')?;
    let (from, to) = types.split_once('2')?;
    let scalar = |t: &str| {
        Some(match t {
            "float" => F32,
            "double" => F64,
            "int" => I32,
            "uint" => U32,
            "ll" => I64,
            "ull" => U64,
            _ => return None,
        })
    };
    let (from, to) = (scalar(from)?, scalar(to)?);
    if from.is_float() == to.is_float() && from != F64 {
        return None;
    }
    let round = match mode {
        "rz" if !to.is_float() => None,
        "rn" if to.is_float() => None,
        "rn" => Some(MathOp::Rint),
        "rd" if !to.is_float() => Some(MathOp::Floor),
        "ru" if !to.is_float() => Some(MathOp::Ceil),
        _ => return None,
    };
    Some((from, round, to))
}

/// Device intrinsics that are plain arithmetic.
fn arith_alias(name: &str) -> Option<(BinaryOp, Scalar)> {
    use BinaryOp::*;
    Some(match name {
        "__fdividef" | "__fdiv_rn" => (Div, Scalar::F32),
        "__fadd_rn" => (Add, Scalar::F32),
        "__fsub_rn" => (Sub, Scalar::F32),
        "__fmul_rn" => (Mul, Scalar::F32),
        "__dadd_rn" => (Add, Scalar::F64),
        "__dsub_rn" => (Sub, Scalar::F64),
        "__dmul_rn" => (Mul, Scalar::F64),
        "__ddiv_rn" => (Div, Scalar::F64),
        "__mul24" => (Mul, Scalar::I32),
        "__umul24" => (Mul, Scalar::U32),
        _ => return None,
    })
}

fn atomic_op(name: &str) -> Option<AtomicOp> {
    // The system- and block-scoped spellings are the same operation on one
    // GPU; the emulator runs a single device.
    let name = name
        .strip_suffix("_system")
        .or_else(|| name.strip_suffix("_block"))
        .unwrap_or(name);
    Some(match name {
        "atomicAdd" => AtomicOp::Add,
        "atomicSub" => AtomicOp::Sub,
        "atomicExch" => AtomicOp::Exch,
        "atomicMin" => AtomicOp::Min,
        "atomicMax" => AtomicOp::Max,
        "atomicCAS" => AtomicOp::Cas,
        "atomicAnd" => AtomicOp::And,
        "atomicOr" => AtomicOp::Or,
        "atomicXor" => AtomicOp::Xor,
        "atomicInc" => AtomicOp::Inc,
        "atomicDec" => AtomicOp::Dec,
        _ => return None,
    })
}

/// The element types CUDA overloads each atomic for.
fn atomic_types(op: AtomicOp) -> &'static [Scalar] {
    use Scalar::*;
    match op {
        AtomicOp::Add => &[I32, U32, U64, F32, F64],
        AtomicOp::Sub => &[I32, U32],
        AtomicOp::Exch => &[I32, U32, U64, F32],
        AtomicOp::Min | AtomicOp::Max => &[I32, U32, I64, U64],
        AtomicOp::Cas => &[I32, U32, U64, U16],
        AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => &[I32, U32, U64],
        AtomicOp::Inc | AtomicOp::Dec => &[U32],
    }
}

fn shfl_kind(name: &str) -> Option<ShflKind> {
    Some(match name {
        "__shfl_sync" => ShflKind::Idx,
        "__shfl_up_sync" => ShflKind::Up,
        "__shfl_down_sync" => ShflKind::Down,
        "__shfl_xor_sync" => ShflKind::Xor,
        _ => return None,
    })
}

fn vote_kind(name: &str) -> Option<VoteKind> {
    Some(match name {
        "__ballot_sync" => VoteKind::Ballot,
        "__any_sync" => VoteKind::Any,
        "__all_sync" => VoteKind::All,
        _ => return None,
    })
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    pub fn call(&mut self, n: Node) -> LResult<Expr> {
        if let Some(k) = syntax::children(n)
            .into_iter()
            .find(|c| c.kind() == "kernel_call_syntax")
        {
            return Err(self.error(
                k,
                "dynamic parallelism",
                "kernel launches in device code are not supported",
            ));
        }
        let f = self.field(n, "function")?;
        let args_node = self.field(n, "arguments")?;
        let args = syntax::named_children(args_node);
        match f.kind() {
            "identifier" => {
                let name = self.text(f);
                self.call_named(n, f, name, &args)
            }
            "primitive_type" => {
                let name = self.text(f);
                let ty = names::primitive_type(name).unwrap_or(Type::Void);
                self.functional_cast(n, ty, &args)
            }
            "template_function" => {
                let name = f
                    .child_by_field_name("name")
                    .map(|c| self.text(c))
                    .unwrap_or("");
                match name {
                    "static_cast" | "reinterpret_cast" | "const_cast" => {
                        let targs = f
                            .child_by_field_name("arguments")
                            .map(syntax::named_children)
                            .unwrap_or_default();
                        let [t] = targs.as_slice() else {
                            return Err(self.error(f, "cast", format!("malformed `{name}`")));
                        };
                        let ty = self.type_descriptor(*t)?;
                        self.functional_cast(n, ty, &args)
                    }
                    "dynamic_cast" => {
                        Err(self.error(f, "class", "`dynamic_cast` is not supported"))
                    }
                    _ => {
                        let targs = f
                            .child_by_field_name("arguments")
                            .map(syntax::named_children)
                            .unwrap_or_default();
                        if let Some(r) = self.texture_fetch(n, name, Some(&targs), &args) {
                            return r;
                        }
                        if let Some(ty) = self.class_instance_type(f)? {
                            return self.construct(n, &ty, &args);
                        }
                        if self.templates.is_some_and(|t| t.is_template(name)) {
                            let (deduced, groups) = self.deduce_with_groups(name, &args)?;
                            let args = self.without_groups(&args);
                            let (_, sig, inst) =
                                self.instance(name, f, ArgSource::Nodes(targs), &deduced, &groups)?;
                            return self.call_function(n, f, &inst, sig, &args);
                        }
                        if let Some(e) =
                            self.implicit_member_template_call(n, f, name, &targs, &args)?
                        {
                            return Ok(e);
                        }
                        Err(self.error(
                            f,
                            "template",
                            format!("call of template function `{}`", self.text(f)),
                        ))
                    }
                }
            }
            "parenthesized_expression" => match self.paren_type_name(f) {
                Some((tn, tname)) => {
                    let ty = self.type_from_name(tn, tname)?;
                    self.functional_cast(n, ty, &args)
                }
                None => Err(self.error(
                    f,
                    "function pointer",
                    "calls through expressions are not supported",
                )),
            },
            "qualified_identifier" => {
                if let Some(e) = self.scoped_static_call(n, f, &args)? {
                    return Ok(e);
                }
                let t = self.text(f);
                if names::is_cooperative_groups(t) {
                    return self.group_function(n, f, &args);
                }
                if names::is_cooperative_groups(t) {
                    return Err(self.error(
                        f,
                        "cooperative groups",
                        "cooperative groups are not supported",
                    ));
                }
                // Namespaces share the file's one scope (`ns::f`, `std::min`).
                let name = t.rsplit("::").next().unwrap_or(t).trim();
                if name.contains('<') || name.is_empty() {
                    return Err(self.error(
                        f,
                        "template",
                        format!("call of template function `{t}`"),
                    ));
                }
                self.global_call = t.trim_start().starts_with("::");
                self.call_named(n, f, name, &args)
            }
            "field_expression" => {
                let (arg, field, op) = self.fields3(f, "argument", "field", "operator")?;
                let method = self.text(field);
                if let Some(r) = self.group_method(n, arg, method, &args) {
                    return r;
                }
                let obj = self.expr(arg)?;
                let obj = if self.text(op) == "->" {
                    self.deref(obj, arg)?
                } else {
                    obj
                };
                // `obj.f<A>(...)`, or `obj.template f<A>(...)` in a template.
                let method = syntax::without_template_keyword(field);
                if method.kind() == "template_method" {
                    let name = self.field(method, "name")?;
                    let name = self.text(name);
                    let targs = method
                        .child_by_field_name("arguments")
                        .map(syntax::named_children)
                        .unwrap_or_default();
                    return self.member_template_call(n, method, Some(obj), name, &targs, &args);
                }
                let name = self.text(field);
                self.method_call(n, obj, name, &args)
            }
            "lambda_expression" => Err(self.error(
                f,
                "lambda",
                "a lambda is supported declared as `auto name = [captures](params) {...};` and called by that name, not passed or called where it is written",
            )),
            _ => Err(self.error(
                f,
                "function pointer",
                "calls through expressions are not supported",
            )),
        }
    }

    fn functional_cast(&mut self, n: Node, ty: Type, args: &[Node]) -> LResult<Expr> {
        if let Type::Struct(_) = ty {
            return self.construct(n, &ty, args);
        }
        let [arg] = args else {
            return Err(self.error(n, "cast", "a functional cast takes exactly one argument"));
        };
        let e = self.expr(*arg)?;
        self.explicit_cast(e, ty, n)
    }

    fn args(&mut self, args: &[Node]) -> LResult<Vec<Expr>> {
        args.iter().map(|a| self.expr(*a)).collect()
    }

    fn arity(&mut self, n: Node, name: &str, args: &[Node], allowed: &[usize]) -> LResult<()> {
        self.arity_of(n, name, args, allowed, false)
    }

    /// As [`Self::arity`] for the user's functions, whose declarations may
    /// give default arguments.
    fn user_arity(&mut self, n: Node, name: &str, args: &[Node], allowed: &[usize]) -> LResult<()> {
        self.arity_of(n, name, args, allowed, true)
    }

    fn arity_of(
        &mut self,
        n: Node,
        name: &str,
        args: &[Node],
        allowed: &[usize],
        user: bool,
    ) -> LResult<()> {
        if allowed.contains(&args.len()) {
            return Ok(());
        }
        // A miscount is most often the grammar reading `f(y < a, b >> c)`
        // with `y<a, b>` as a template: say that instead.
        for a in args {
            let mut cur = *a;
            while cur.kind() == "binary_expression" {
                match cur.child_by_field_name("left") {
                    Some(l) => cur = l,
                    None => break,
                }
            }
            if cur.kind() == "template_function" {
                self.expr(cur)?;
            }
        }
        let want: Vec<String> = allowed.iter().map(|a| a.to_string()).collect();
        let fewer = user && allowed.iter().all(|&a| args.len() < a);
        Err(self.error(
            n,
            "call",
            format!(
                "`{name}` takes {} argument(s), {} given{}",
                want.join(" or "),
                args.len(),
                if fewer {
                    " (and the declaration gives no default for the rest)"
                } else {
                    ""
                }
            ),
        ))
    }

    fn call_named(&mut self, n: Node, f: Node, name: &str, args: &[Node]) -> LResult<Expr> {
        // `::f(...)`: the file's `f`, never a member of the class we are in.
        let global = std::mem::take(&mut self.global_call);
        // Groups are not values: a function taking one dropped its parameter
        // (and one taking any group is made for the ones passed).
        if self.templates.is_some_and(|t| t.is_template(name)) && self.lookup(name).is_none() {
            let (deduced, groups) = self.deduce_with_groups(name, args)?;
            let args = self.without_groups(args);
            let (_, sig, inst) =
                self.instance(name, f, ArgSource::Texts(Vec::new()), &deduced, &groups)?;
            return self.call_function(n, f, &inst, sig, &args);
        }
        let kept = self.without_groups(args);
        let args = &kept[..];
        match self.lookup(name).cloned() {
            Some(Entry::Var(_)) if matches!(self.expr(f).map(|e| e.ty), Ok(Type::Struct(_))) => {
                // A function object: its `operator()`.
                let obj = self.expr(f)?;
                return self.method_call(n, obj, "operator()", args);
            }
            Some(Entry::ClassTemplate(_)) => {
                return Err(self.error(
                    f,
                    "class template",
                    format!("class template `{name}` needs its template arguments"),
                ))
            }
            Some(Entry::Lambda(i)) => return self.call_lambda(n, i, args),
            Some(Entry::Group(_)) => {
                return Err(self.error(
                    f,
                    "cooperative groups",
                    format!(
                    "`{name}` stands for a cooperative group type here; groups are not constructed"
                ),
                ))
            }
            Some(Entry::Var(_)) | Some(Entry::Const(..)) => {
                return Err(self.error(
                    f,
                    "function pointer",
                    format!("`{name}` is a variable, not a function"),
                ))
            }
            Some(Entry::Type(qt)) => return self.functional_cast(n, qt.ty, args),
            Some(Entry::Poisoned) => return Err(Abort),
            None => {}
        }
        // Inside a member function its class's members hide free functions.
        if !global {
            if let Some(e) = self.implicit_member_call(n, name, args)? {
                return Ok(e);
            }
        }
        // `frexp` and the like, unless the program defines its own: the
        // definition hone appended (`prelude`).
        if !self.ctx.functions.contains_key(name) && super::prelude::callee(name, None).is_some() {
            let first = match args.first() {
                Some(a) => self.expr(*a)?.ty.scalar(),
                None => None,
            };
            if let Some(own) = super::prelude::callee(name, first) {
                if self.ctx.functions.contains_key(own) {
                    self.global_call = global;
                    return self.call_named(n, f, own, args);
                }
            }
        }
        if let Some(sigs) = self.ctx.functions.get(name).cloned() {
            // A call without `<<<...>>>` cannot mean a kernel; a kernel may
            // share its name with device functions (a lowered member's).
            let sigs: Vec<_> = sigs
                .into_iter()
                .filter(|s| s.kind != FuncKind::Global)
                .collect();
            if sigs.is_empty() {
                return Err(self.error(
                    f,
                    "dynamic parallelism",
                    format!("`{name}` is a __global__ function; launching kernels from device code is not supported"),
                ));
            }
            // A user overload of a built-in (`make_float3(float)`, `min` on
            // a struct) leaves the built-in's own forms to the built-in.
            let builtin = is_builtin(name);
            // A texture object argument is the parameters it became.
            let expanded = self.texture_expanded_args(args)?;
            let count = expanded.as_ref().map_or(args.len(), Vec::len);
            let viable: Vec<_> = sigs
                .iter()
                .filter(|s| s.params.len() == count)
                .cloned()
                .collect();
            if viable.is_empty() && !builtin && expanded.is_none() {
                // Arguments left out: the declaration's default values.
                if let Some(full) = sigs.iter().find_map(|s| self.with_defaults(n, args, s)) {
                    self.global_call = global;
                    return self.call_named(n, f, name, &full);
                }
            }
            if !viable.is_empty() {
                let lowered = match expanded {
                    Some(e) => e,
                    None => self.args(args)?,
                };
                if !builtin || self.pick(&viable, &lowered).is_ok() {
                    return self.call_overload(n, name, &viable, lowered, args);
                }
            } else if !builtin {
                let mut arities: Vec<usize> = sigs.iter().map(|s| s.params.len()).collect();
                arities.sort_unstable();
                arities.dedup();
                self.user_arity(n, name, args, &arities)?;
            }
        }
        if let Some(reason) = self.ctx.unlowerable.get(name) {
            let msg = format!("calls `{name}`, which could not be lowered ({reason})");
            return Err(self.error(f, "call", msg));
        }
        if self.is_type_name(name) {
            let ty = self.type_from_name(f, name)?;
            return self.functional_cast(n, ty, args);
        }
        if let Some(r) = self.texture_fetch(n, name, None, args) {
            return r;
        }
        if let Some(r) = self.intrinsic(n, name, args) {
            return r;
        }
        if name == "memcpy" {
            return self.memcpy_call(n, args);
        }
        if matches!(name, "nanf" | "nan") && !self.ctx.functions.contains_key(name) {
            return self.quiet_nan(n, name, args);
        }
        if let Some(construct) = names::unsupported_function(name) {
            return Err(self.error(
                f,
                construct,
                format!("`{name}` is not supported in device code"),
            ));
        }
        if self.ctx.host_functions.contains(name) {
            return Err(self.error(f, "host function", format!("`{name}` is a host function")));
        }
        Err(self.error(f, "unknown function", format!("unknown function `{name}`")))
    }

    /// `nanf("")` and `nan("")`: the quiet NaN CUDA returns (all bits of
    /// the payload set), as the bits it is.
    fn quiet_nan(&mut self, n: Node, name: &str, args: &[Node]) -> LResult<Expr> {
        self.arity(n, name, args, &[1])?;
        if !matches!(args[0].kind(), "string_literal" | "concatenated_string") {
            return Err(self.error(args[0], "nan", format!("`{name}` takes a string literal")));
        }
        let span = self.span(n);
        let (bits, ty, op) = if name == "nanf" {
            (0x7fff_ffffu64, Type::INT, MathOp::IntAsFloat)
        } else {
            (
                0x7fff_ffff_ffff_ffffu64,
                Type::Scalar(Scalar::I64),
                MathOp::LonglongAsDouble,
            )
        };
        let lit = self.mk(ExprKind::IntLit(bits), ty, span);
        let result = if name == "nanf" {
            Scalar::F32
        } else {
            Scalar::F64
        };
        Ok(self.mk(
            ExprKind::Intrinsic(
                Intrinsic::Math(MathFn {
                    func: op,
                    f32: false,
                }),
                vec![lit],
            ),
            Type::Scalar(result),
            span,
        ))
    }

    /// A template's arguments deduced from a call's arguments, groups
    /// among them: a parameter of a template type parameter's type takes
    /// the group (`Arg::Group`); the groups passed to generic `thread_group`
    /// parameters are returned, in order, for the instance to be made for.
    fn deduce_with_groups(
        &mut self,
        name: &str,
        args: &[Node],
    ) -> LResult<(super::template::Deduced, Vec<super::groups::Group>)> {
        let mut types = Vec::new();
        let mut passed = Vec::new();
        for a in args {
            match self.group_of(*a) {
                Some(g) => {
                    let g = g?;
                    passed.push(Some(g));
                    types.push(Type::Void);
                }
                None => {
                    // Lowered once more when the call is built; lowering has
                    // no effects but diagnostics.
                    passed.push(None);
                    types.push(self.expr(*a)?.ty);
                }
            }
        }
        let mut deduced = self.deduce(name, &types);
        let generic = self.deduce_groups(name, &passed, &mut deduced);
        Ok((deduced, generic))
    }

    /// A call of an instance of a template function.
    fn call_function(
        &mut self,
        n: Node,
        f: Node,
        name: &str,
        sig: FuncSig,
        args: &[Node],
    ) -> LResult<Expr> {
        if sig.kind == FuncKind::Global {
            return Err(self.error(
                f,
                "dynamic parallelism",
                format!("`{name}` is a __global__ function; launching kernels from device code is not supported"),
            ));
        }
        if let Some(full) = self.with_defaults(n, args, &sig) {
            return self.call_function(n, f, name, sig, &full);
        }
        let lowered = match self.texture_expanded_args(args)? {
            Some(e) => e,
            None => self.args(args)?,
        };
        if lowered.len() != sig.params.len() {
            self.user_arity(n, name, args, &[sig.params.len()])?;
        }
        self.call_overload(n, name, &[sig], lowered, args)
    }

    /// `args` followed by the default values of the parameters a call of
    /// `sig` leaves out, when the declaration gives all of them.
    fn with_defaults<'t>(
        &self,
        n: Node<'t>,
        args: &[Node<'t>],
        sig: &FuncSig,
    ) -> Option<Vec<Node<'t>>> {
        let missing = sig.defaults.get(args.len()..)?;
        if missing.is_empty() || sig.params.len() != sig.defaults.len() {
            return None;
        }
        let mut root = n;
        while let Some(p) = root.parent() {
            root = p;
        }
        let mut out = args.to_vec();
        for d in missing {
            let (s, e) = (*d)?;
            out.push(root.descendant_for_byte_range(s, e)?);
        }
        Some(out)
    }

    /// The arguments lowered with each texture object expanded to the
    /// parameters it became; `None` when no argument is a texture object.
    fn texture_expanded_args(&mut self, args: &[Node]) -> LResult<Option<Vec<Expr>>> {
        if !args.iter().any(|a| self.texture_object_arg(*a).is_some()) {
            return Ok(None);
        }
        let mut out = Vec::new();
        for a in args {
            match self.texture_object_arg(*a) {
                Some(exprs) => out.extend(exprs),
                None => out.push(self.expr(*a)?),
            }
        }
        Ok(Some(out))
    }

    /// `printf(format, ...)`: the arguments after the format promoted as
    /// C promotes variadic arguments (`float` to `double`, small integers to
    /// `int`, arrays to pointers).
    fn printf(&mut self, n: Node, args: &[Node]) -> LResult<Expr> {
        let Some((&first, rest)) = args.split_first() else {
            return Err(self.error(n, "printf", "`printf` needs a format"));
        };
        let format = self.expr(first)?;
        if !matches!(format.kind, ExprKind::StrLit(_)) {
            return Err(self.error(
                first,
                "printf",
                "the format of `printf` must be a string literal",
            ));
        }
        let mut lowered = vec![format];
        for &a in rest {
            let e = self.expr(a)?;
            let e = match e.ty.clone() {
                Type::Scalar(Scalar::F32) => e.implicit_cast(Type::DOUBLE),
                Type::Scalar(_) => self.promote(e),
                Type::Pointer(_) => e,
                Type::Array(..) => self.decay(e),
                other => {
                    return Err(self.error(
                        a,
                        "printf",
                        format!(
                            "`printf` cannot print a value of type `{}`",
                            super::conv::type_name(&other)
                        ),
                    ))
                }
            };
            lowered.push(e);
        }
        Ok(self.mk(
            ExprKind::Intrinsic(Intrinsic::Printf, lowered),
            Type::INT,
            self.span(n),
        ))
    }

    fn intrinsic(&mut self, n: Node, name: &str, args: &[Node]) -> Option<LResult<Expr>> {
        // Intrinsics without arguments, with their result's type.
        let simple = match name {
            "__syncthreads" => Some((Intrinsic::SyncThreads, Type::Void)),
            // A fence of another scope orders at least as much as the emulator needs.
            "__threadfence" | "__threadfence_block" | "__threadfence_system" => {
                Some((Intrinsic::ThreadFence, Type::Void))
            }
            "__trap" => Some((Intrinsic::Trap, Type::Void)),
            "__activemask" => Some((Intrinsic::ActiveMask, Type::UINT)),
            "clock" => Some((Intrinsic::Clock, Type::Scalar(Scalar::I64))),
            "clock64" => Some((Intrinsic::Clock64, Type::Scalar(Scalar::I64))),
            _ => None,
        };
        if let Some((i, ty)) = simple {
            return Some(
                self.arity(n, name, args, &[0])
                    .map(|_| self.mk(ExprKind::Intrinsic(i, vec![]), ty, self.span(n))),
            );
        }
        if name == "__syncwarp" {
            return Some(self.syncwarp(n, args));
        }
        if name == "printf" {
            return Some(self.printf(n, args));
        }
        if let Some(op) = atomic_op(name) {
            return Some(self.atomic(n, name, op, args));
        }
        if let Some(k) = shfl_kind(name) {
            return Some(self.shfl(n, name, k, args));
        }
        if let Some(k) = vote_kind(name) {
            return Some(self.vote(n, name, k, args));
        }
        // Stores with a cache hint are stores.
        if matches!(name, "__stcs" | "__stcg" | "__stwb" | "__stwt") {
            return Some(self.arity(n, name, args, &[2]).and_then(|_| {
                let p = self.expr(args[0])?;
                let target = self.deref(p, n)?;
                let v = self.expr(args[1])?;
                let v = self.convert(v, &target.ty.clone(), args[1], "argument")?;
                Ok(hone_ir::build::assign(target, v, self.span(n)))
            }));
        }
        // Loads with a cache hint are loads.
        if matches!(
            name,
            "__ldg" | "__ldcs" | "__ldcg" | "__ldca" | "__ldcv" | "__ldlu"
        ) {
            return Some(self.arity(n, name, args, &[1]).and_then(|_| {
                let p = self.expr(args[0])?;
                self.deref(p, n)
            }));
        }
        if let Some((op, s)) = arith_alias(name) {
            return Some(self.arith_alias(n, name, op, s, args));
        }
        if let Some((from, round, to)) = conversion_alias(name) {
            return Some(self.conversion_alias(n, name, from, round, to, args));
        }
        if let Some((base, forced)) = math_alias(name) {
            let mf = MathFn::from_name(base)?;
            return Some(self.math(n, name, mf, forced, args));
        }
        if let Some(mf) = MathFn::from_name(name) {
            return Some(self.math(n, name, mf, None, args));
        }
        match name.strip_prefix("make_").and_then(names::named_type) {
            Some(Type::Vector(s, len)) if name != "make_dim3" => {
                Some(self.make_vector(n, name, s, len, args))
            }
            _ => None,
        }
    }

    fn syncwarp(&mut self, n: Node, args: &[Node]) -> LResult<Expr> {
        self.arity(n, "__syncwarp", args, &[0, 1])?;
        let span = self.span(n);
        let mask = match args.first() {
            Some(a) => {
                let e = self.expr(*a)?;
                self.convert(e, &Type::UINT, *a, "argument 1 of `__syncwarp`")?
            }
            // The documented default: all lanes.
            None => self.mk(ExprKind::IntLit(0xffff_ffff), Type::UINT, span),
        };
        Ok(self.mk(
            ExprKind::Intrinsic(Intrinsic::SyncWarp, vec![mask]),
            Type::Void,
            span,
        ))
    }

    fn atomic(&mut self, n: Node, name: &str, op: AtomicOp, args: &[Node]) -> LResult<Expr> {
        let arity = if op == AtomicOp::Cas { 3 } else { 2 };
        self.arity(n, name, args, &[arity])?;
        let p = self.expr(args[0])?;
        let p = self.decay(p);
        let elem = match &p.ty {
            Type::Pointer(pt) if pt.pointee_const => {
                return Err(self.error(
                    args[0],
                    "atomic",
                    format!("`{name}` on a pointer to const"),
                ));
            }
            Type::Pointer(pt) => pt.pointee.scalar().filter(|s| atomic_types(op).contains(s)),
            _ => None,
        };
        let Some(elem) = elem else {
            let t = type_name(&p.ty);
            return Err(self.error(
                args[0],
                "atomic",
                format!("`{name}` is not defined for `{t}`"),
            ));
        };
        let mut out = vec![p];
        for (i, a) in args[1..].iter().enumerate() {
            let e = self.expr(*a)?;
            out.push(self.convert(
                e,
                &Type::Scalar(elem),
                *a,
                &format!("argument {} of `{name}`", i + 2),
            )?);
        }
        Ok(self.mk(
            ExprKind::Intrinsic(Intrinsic::Atomic(op), out),
            Type::Scalar(elem),
            self.span(n),
        ))
    }

    fn shfl(&mut self, n: Node, name: &str, kind: ShflKind, args: &[Node]) -> LResult<Expr> {
        self.arity(n, name, args, &[3, 4])?;
        let mask = self.expr(args[0])?;
        let mask = self.convert(mask, &Type::UINT, args[0], &format!("the mask of `{name}`"))?;
        let var = self.expr(args[1])?;
        use Scalar::*;
        let t = match var.ty.scalar() {
            Some(s @ (I32 | U32 | I64 | U64 | F32 | F64)) => s,
            Some(s) if s.is_integer() => promoted(s),
            _ => {
                let t = type_name(&var.ty);
                return Err(self.error(
                    args[1],
                    "warp shuffle",
                    format!("`{name}` of `{t}` is not supported"),
                ));
            }
        };
        let var = icast(var, Type::Scalar(t));
        let lane_ty = match kind {
            ShflKind::Up | ShflKind::Down => Type::UINT,
            ShflKind::Idx | ShflKind::Xor => Type::INT,
        };
        let lane = self.expr(args[2])?;
        let mut out = vec![
            mask,
            var,
            self.convert(lane, &lane_ty, args[2], &format!("the lane of `{name}`"))?,
        ];
        if let Some(w) = args.get(3) {
            let e = self.expr(*w)?;
            out.push(self.convert(e, &Type::INT, *w, &format!("the width of `{name}`"))?);
        }
        Ok(self.mk(
            ExprKind::Intrinsic(Intrinsic::Shfl(kind), out),
            Type::Scalar(t),
            self.span(n),
        ))
    }

    fn vote(&mut self, n: Node, name: &str, kind: VoteKind, args: &[Node]) -> LResult<Expr> {
        self.arity(n, name, args, &[2])?;
        let mask = self.expr(args[0])?;
        let mask = self.convert(mask, &Type::UINT, args[0], &format!("the mask of `{name}`"))?;
        let pred = self.expr(args[1])?;
        let pred = self.convert(
            pred,
            &Type::INT,
            args[1],
            &format!("the predicate of `{name}`"),
        )?;
        let ty = if kind == VoteKind::Ballot {
            Type::UINT
        } else {
            Type::INT
        };
        Ok(self.mk(
            ExprKind::Intrinsic(Intrinsic::Vote(kind), vec![mask, pred]),
            ty,
            self.span(n),
        ))
    }

    /// `__float2int_rn(x)` as `(int)rintf((float)x)`: the conversions
    /// written out, so that the printed code reads back the same.
    fn conversion_alias(
        &mut self,
        n: Node,
        name: &str,
        from: Scalar,
        round: Option<MathOp>,
        to: Scalar,
        args: &[Node],
    ) -> LResult<Expr> {
        self.arity(n, name, args, &[1])?;
        let a = self.expr(args[0])?;
        if a.ty.scalar().is_none() {
            let t = type_name(&a.ty);
            return Err(self.error(args[0], "call", format!("`{name}` of a `{t}`")));
        }
        let from_ty = Type::Scalar(from);
        let mut v = hone_ir::build::cast(a, &from_ty);
        if let Some(op) = round {
            let f32 = from == Scalar::F32;
            v = self.mk(
                ExprKind::Intrinsic(Intrinsic::Math(MathFn { func: op, f32 }), vec![v]),
                from_ty,
                self.span(n),
            );
        }
        Ok(hone_ir::build::cast(v, &Type::Scalar(to)))
    }

    fn arith_alias(
        &mut self,
        n: Node,
        name: &str,
        op: BinaryOp,
        s: Scalar,
        args: &[Node],
    ) -> LResult<Expr> {
        self.arity(n, name, args, &[2])?;
        let a = self.alias_arg(args[0], s, name)?;
        let b = self.alias_arg(args[1], s, name)?;
        self.binary(op, a, b, n)
    }

    /// An argument of an intrinsic lowered to a generic operation: converted
    /// explicitly, since the generic operation would pick another type.
    fn alias_arg(&mut self, a: Node, s: Scalar, name: &str) -> LResult<Expr> {
        let e = self.expr(a)?;
        match e.ty.scalar() {
            Some(t) if t == s => Ok(e),
            Some(_) => self.explicit_cast(e, Type::Scalar(s), a),
            None => {
                let t = type_name(&e.ty);
                Err(self.error(a, "call", format!("argument of `{name}` has type `{t}`")))
            }
        }
    }

    /// Math functions. The `f`-suffixed spellings work in float; the others are
    /// C++ overload sets that pick float when all arguments are float and
    /// double otherwise; `min`/`max` use the usual arithmetic conversions
    /// (nvcc rejects some mixed pairs as ambiguous; they are accepted here).
    fn math(
        &mut self,
        n: Node,
        name: &str,
        mf: MathFn,
        forced: Option<Scalar>,
        args: &[Node],
    ) -> LResult<Expr> {
        self.arity(n, name, args, &[mf.func.arity()])?;
        if let Some((arg, result)) = mf.func.integer_sig() {
            let mut out = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                let e = self.expr(*a)?;
                out.push(self.convert(
                    e,
                    &Type::Scalar(arg),
                    *a,
                    &format!("argument {} of `{name}`", i + 1),
                )?);
            }
            return Ok(self.mk(
                ExprKind::Intrinsic(Intrinsic::Math(mf), out),
                Type::Scalar(result),
                self.span(n),
            ));
        }
        if let Some(f) = forced {
            let mut out = Vec::with_capacity(args.len());
            for a in args {
                out.push(self.alias_arg(*a, f, name)?);
            }
            return Ok(self.mk(
                ExprKind::Intrinsic(Intrinsic::Math(mf), out),
                Type::Scalar(f),
                self.span(n),
            ));
        }
        let xs = self.args(args)?;
        let mut scalars = Vec::new();
        for (x, a) in xs.iter().zip(args) {
            match x.ty.scalar() {
                Some(s) => scalars.push(s),
                None => {
                    let t = type_name(&x.ty);
                    return Err(self.error(
                        *a,
                        "math",
                        format!("`{name}` of `{t}` is not supported"),
                    ));
                }
            }
        }
        let ty = if mf.f32 {
            Scalar::F32
        } else {
            match mf.func {
                MathOp::Min | MathOp::Max => scalars.iter().copied().fold(Scalar::I32, |acc, s| {
                    // Folding from int only adds int when every operand is narrower.
                    common_scalar(acc, s)
                }),
                MathOp::Abs => promoted(scalars[0]),
                // <cmath>: float only when every argument is float; integers
                // count as double (`pow(x, 2)` is double for float `x`).
                _ if scalars.iter().all(|s| *s == Scalar::F32) => Scalar::F32,
                _ => Scalar::F64,
            }
        };
        let mut out = Vec::with_capacity(xs.len());
        for (i, (x, a)) in xs.into_iter().zip(args).enumerate() {
            out.push(self.convert(
                x,
                &Type::Scalar(ty),
                *a,
                &format!("argument {} of `{name}`", i + 1),
            )?);
        }
        Ok(self.mk(
            ExprKind::Intrinsic(Intrinsic::Math(mf), out),
            Type::Scalar(ty),
            self.span(n),
        ))
    }

    fn make_vector(
        &mut self,
        n: Node,
        name: &str,
        s: Scalar,
        len: u8,
        args: &[Node],
    ) -> LResult<Expr> {
        self.arity(n, name, args, &[len as usize])?;
        let mut out = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let e = self.expr(*a)?;
            out.push(self.convert(
                e,
                &Type::Scalar(s),
                *a,
                &format!("argument {} of `{name}`", i + 1),
            )?);
        }
        Ok(self.mk(
            ExprKind::Intrinsic(Intrinsic::MakeVector, out),
            Type::Vector(s, len),
            self.span(n),
        ))
    }
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// `S::f(args)` or `S<T>::f(args)`: a `static` member function; `None`
    /// when the scope names no struct with one.
    fn scoped_static_call(&mut self, n: Node, f: Node, args: &[Node]) -> LResult<Option<Expr>> {
        let (Some(scope), Some(name)) = (
            f.child_by_field_name("scope"),
            f.child_by_field_name("name"),
        ) else {
            return Ok(None);
        };
        // `ns::S<A>::f(...)`: namespaces share the file's one scope.
        if name.kind() == "qualified_identifier" && scope.kind() == "namespace_identifier" {
            return self.scoped_static_call(n, name, args);
        }
        // `S::f<A>(...)` and `S::template f<A>(...)`: a static member template.
        let name = syntax::without_template_keyword(name);
        let template = name.kind() == "template_function";
        if name.kind() != "identifier" && !template {
            return Ok(None);
        }
        let ty = match scope.kind() {
            "template_type" => self.class_instance_type(scope)?,
            "namespace_identifier" | "type_identifier" => {
                let s = self.text(scope);
                match self.lookup(s) {
                    Some(super::func::Entry::Type(qt)) => Some(qt.ty.clone()),
                    _ => match self.ctx.typedefs.get(s) {
                        Some(super::TypeEntry::Ok(qt)) => Some(qt.ty.clone()),
                        _ => None,
                    },
                }
            }
            _ => None,
        };
        let Some(Type::Struct(st)) = ty else {
            return Ok(None);
        };
        if template {
            let member = self.field(name, "name")?;
            let member = self.text(member);
            let targs = name
                .child_by_field_name("arguments")
                .map(syntax::named_children)
                .unwrap_or_default();
            return self
                .member_template_call_of(n, name, None, &st, member, &targs, args)
                .map(Some);
        }
        let member = self.text(name);
        self.static_call(n, &st, member, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversion_intrinsics_name_their_types_and_rounding() {
        use Scalar::*;
        assert_eq!(
            conversion_alias("__float2int_rn"),
            Some((F32, Some(MathOp::Rint), I32))
        );
        assert_eq!(conversion_alias("__float2int_rz"), Some((F32, None, I32)));
        assert_eq!(
            conversion_alias("__double2uint_rd"),
            Some((F64, Some(MathOp::Floor), U32))
        );
        assert_eq!(
            conversion_alias("__float2ll_ru"),
            Some((F32, Some(MathOp::Ceil), I64))
        );
        assert_eq!(conversion_alias("__ull2float_rn"), Some((U64, None, F32)));
        assert_eq!(
            conversion_alias("__double2float_rn"),
            Some((F64, None, F32))
        );
        // Directed rounding to a float is not C's conversion; others are no conversions.
        assert_eq!(conversion_alias("__int2float_rz"), None);
        assert_eq!(conversion_alias("__double2float_ru"), None);
        assert_eq!(conversion_alias("__int2ll_rn"), None);
        assert_eq!(conversion_alias("__float2double_rn"), None);
        assert_eq!(conversion_alias("__float_as_int"), None);
    }
}
