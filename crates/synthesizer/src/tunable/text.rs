//! The template's text: the CUDA source of every variant and the
//! reference, size expressions of shared memory, and the tuning job.

use hone_gpu::host::ElemType;
use hone_gpu::template::TemplateSpec;
use hone_ir::{Arith, Builtin, Dim, Expr, ExprKind, Function, Module, Scalar, Type, VarId};

use super::problem::param_expr;
use super::{TemplateOptions, TUNED_KERNEL};
use crate::emit::DynShared;
use crate::zchunk::CHUNK_PARAM;

/// What the source marks in the chunked variants: per variant whether it
/// is chunked, and whether their walks are unrolled by `UNROLL` and their
/// pointer parameters restricted by `RESTRICT`.
pub(super) struct Marks<'a> {
    pub chunked: &'a [bool],
    pub unroll: bool,
    pub restrict: bool,
}

/// The source: the reference and every variant in a namespace of its own
/// (their device functions and types may share names), the chosen variant
/// named `hone_tuned` by the preprocessor.
pub(super) fn source(
    kernel: &str,
    start: &Module,
    variants: &[(String, Module)],
    marks: &Marks,
) -> String {
    let mut reference = start.clone();
    let (fid, _) = reference.kernel(kernel).expect("the starting kernel");
    reference.functions[fid.0 as usize].name = format!("{kernel}_reference");
    let mut source = format!(
        "// Tuning template written by hone synth for `{kernel}`: HONE_VARIANT picks the kernel,\n// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk){}.\n",
        match (marks.unroll, marks.restrict) {
            (true, true) => ",\n// UNROLL the unroll factor of the chunked walks, RESTRICT whether their pointers are __restrict__",
            (true, false) => ",\n// UNROLL the unroll factor of the chunked walks",
            (false, true) => ",\n// RESTRICT whether the chunked kernels' pointers are __restrict__",
            (false, false) => "",
        }
    );
    if marks.restrict {
        source.push_str("#if RESTRICT\n#define HONE_RESTRICT __restrict__\n#else\n#define HONE_RESTRICT\n#endif\n");
    }
    for v in 0..variants.len() {
        source.push_str(&format!(
            "#{} HONE_VARIANT == {v}\n#define hone_variant_{v} {TUNED_KERNEL}\n",
            if v == 0 { "if" } else { "elif" }
        ));
    }
    source.push_str("#endif\n\n");
    let all = std::iter::once(("hone_reference", &reference, false)).chain(
        variants
            .iter()
            .zip(marks.chunked.iter().chain(std::iter::repeat(&false)))
            .map(|((ns, m), &c)| (ns.as_str(), m, c)),
    );
    for (ns, m, chunked) in all {
        source.push_str(&format!("namespace {ns} {{\n"));
        let mut text = if chunked && marks.restrict {
            let mut m = m.clone();
            restrict_params(&mut m);
            hone_gpu::ir_kernel::cuda_source(&hone_ir::print::print_module(&m))
                .replace("__restrict__", "HONE_RESTRICT")
        } else {
            hone_gpu::ir_kernel::cuda_source(&hone_ir::print::print_module(m))
        };
        if chunked && marks.unroll {
            text = unroll_walk(&text);
        }
        source.push_str(&text);
        source.push_str(&format!("}} // namespace {ns}\n\n"));
    }
    source
}

/// Declares the pointer parameters of the kernels of `m` `__restrict__`.
fn restrict_params(m: &mut Module) {
    for f in m
        .functions
        .iter_mut()
        .filter(|f| f.kind == hone_ir::FuncKind::Global)
    {
        for p in &f.params {
            if let Type::Pointer(pt) = &mut f.vars[p.0 as usize].ty {
                pt.restrict = true;
            }
        }
    }
}

/// `#pragma unroll UNROLL` before the chunked walk: the one loop whose
/// header names the chunk length (the IR has no place for a pragma).
fn unroll_walk(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("for (") && trimmed.contains(CHUNK_PARAM) {
            let indent = &line[..line.len() - trimmed.len()];
            out.push_str(&format!("{indent}#pragma unroll UNROLL\n"));
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Bytes of dynamic shared memory as a template expression.
pub(super) fn shared_text(
    d: &DynShared,
    f: &Function,
    arg_expr: &[Option<String>],
    block: &[String],
) -> Option<String> {
    let size = d.elem.size()?;
    let parts = d
        .arrays
        .iter()
        .map(|(_, len)| len_text(len, &|id| param_expr(f, arg_expr, id), block))
        .collect::<Option<Vec<_>>>()?;
    Some(format!("{size} * ({})", parts.join(" + ")))
}

fn len_text(e: &Expr, name: &dyn Fn(VarId) -> Option<String>, block: &[String]) -> Option<String> {
    Some(match &e.kind {
        ExprKind::IntLit(v) => v.to_string(),
        ExprKind::Var(v) => name(*v)?,
        ExprKind::Builtin(Builtin::BlockDim(d)) => match d {
            Dim::X => block[0].clone(),
            Dim::Y => block[1].clone(),
            Dim::Z => "1".into(),
        },
        ExprKind::Cast { expr, .. } => len_text(expr, name, block)?,
        ExprKind::SizeOf(t) => t.size()?.to_string(),
        ExprKind::Binary(op, a, b) => {
            let sym = match op {
                hone_ir::BinaryOp::Add => "+",
                hone_ir::BinaryOp::Sub => "-",
                hone_ir::BinaryOp::Mul => "*",
                hone_ir::BinaryOp::Div => "/",
                _ => return None,
            };
            format!(
                "({} {sym} {})",
                len_text(a, name, block)?,
                len_text(b, name, block)?
            )
        }
        _ => return None,
    })
}

/// The template element type of a buffer of `t`.
pub(super) fn elem_type(t: &Type) -> Option<ElemType> {
    Some(match t {
        Type::Scalar(Scalar::F32) => ElemType::F32,
        Type::Scalar(Scalar::F64) => ElemType::F64,
        Type::Scalar(Scalar::I32) => ElemType::I32,
        Type::Scalar(Scalar::U32) => ElemType::U32,
        _ => return None,
    })
}

/// The template type of a scalar argument of `t`.
pub(super) fn arith(t: &Type) -> Option<Arith> {
    Arith::ALL
        .into_iter()
        .find(|a| *t == Type::Scalar(a.scalar()))
}

/// The tuning job: every configuration at every size (the space is small),
/// the best kept per size.
pub(super) fn job(name: &str, t: &TemplateSpec, opts: &TemplateOptions) -> String {
    let mut s = format!(
        "# Tuning job for the template `{name}` written by hone synth:\n#\n#   hone tune {name}.tune.toml --db {name}.sqlite --check-max {}\n#\n# Every configuration is measured at every size and checked against the\n# kernel as written (the reference kernel) at sizes up to --check-max.\n\nname = \"{name}\"\ntop_k = 5\nsizes = {:?}\nstrategy = {{ kind = \"exhaustive\" }}\nconstraints = [\n",
        opts.sizes.iter().copied().max().unwrap_or(0),
        opts.sizes
    );
    // Those naming N are the template's, checked per size.
    for c in t
        .constraints
        .iter()
        .filter(|c| !c.variables().contains("N"))
    {
        s.push_str(&format!("    \"{}\",\n", c.source()));
    }
    s.push_str(&format!(
        "]\n\n[kernel]\nname = \"{name}\"\ntemplate = \"{name}.json\"\nsources = [\"{name}.cu\"]\n"
    ));
    for (p, values) in &t.params {
        s.push_str(&format!(
            "\n[[param]]\nname = \"{p}\"\nvalues = {values:?}\n"
        ));
    }
    s
}
