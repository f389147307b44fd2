//! A synthesized kernel as a tuning template: the kernel as the user wrote
//! it and the synthesized one race each other, each with its block shape
//! and z-chunk length as parameters, checked on the GPU against the user's
//! kernel as written.
//!
//! What `hone tune` then measures was first run here in the emulator:
//! every variant, chunked and not, against the original kernel on derived
//! launches with several chunk lengths, outputs bit-equal and no races.
//! Problem sizes are named by the caller (`nx = N`), and the rest follows
//! from how the profile launch's sizes follow its shape
//! ([`crate::launches`]): which integer arguments the grid covers, how long
//! each buffer is.

use std::collections::BTreeMap;

use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_frontend::FrontendOptions;
use hone_gpu::template::{KernelTemplate, TemplateSpec};
use hone_ir::{Builtin, Dim, Expr, ExprKind, Function, Module, Scalar, Type, VarId, VarKind};
use hone_launch::LaunchData;
use serde::Serialize;

use crate::data::fill_random;
use crate::emit::DynShared;
use crate::error::SynthError;
use crate::launches::{self, Factor, IntRule};
use crate::sites::AnnotatedKernel;
use crate::synth::Synthesis;
use crate::zchunk::{self, CHUNK_PARAM};

/// The kernel name every variant takes when its `HONE_VARIANT` is chosen.
pub const TUNED_KERNEL: &str = "hone_tuned";
/// A chunk length that no walk reaches: `ZCHUNK = 0` runs whole columns.
const WHOLE: i64 = 1 << 30;

/// What the template may vary and where it is tuned.
#[derive(Clone, Debug)]
pub struct TemplateOptions {
    /// Each integer argument that sets the problem size, as an expression of
    /// `N` (`nx` -> `N`, `nz` -> `2 * N + 1`).
    pub problem: BTreeMap<String, String>,
    /// Problem sizes `N` to tune at.
    pub sizes: Vec<i64>,
    /// Block extents tried along x and y (where the kernel does not fix them).
    pub block_x: Vec<i64>,
    pub block_y: Vec<i64>,
    /// Chunk lengths tried (0: whole columns).
    pub chunks: Vec<i64>,
    /// Largest relative difference from the reference kernel accepted.
    pub tolerance: f64,
}

impl Default for TemplateOptions {
    fn default() -> Self {
        TemplateOptions {
            problem: BTreeMap::new(),
            sizes: Vec::new(),
            block_x: vec![16, 32, 64, 128, 256],
            block_y: vec![1, 2, 4, 8, 16],
            chunks: vec![0, 4, 8, 16, 32, 64],
            tolerance: 1e-5,
        }
    }
}

/// One kernel in the race.
#[derive(Clone, Debug, Serialize)]
pub struct VariantReport {
    pub variant: i64,
    pub name: String,
    /// Inductions advanced at a chunk's start, when chunked.
    pub chunked: Option<Vec<String>>,
    /// Why it is not chunked.
    pub unchunked_because: Option<String>,
    /// Buffers the chunks add their parts of a column's sum into: the
    /// chunked kernel needs them zero before it runs.
    pub accumulated: Vec<String>,
    /// The emulator runs that admitted it.
    pub checks: Vec<String>,
}

/// The template: CUDA source, description and tuning job.
#[derive(Clone, Debug, Serialize)]
pub struct Tunable {
    pub source: String,
    pub template: TemplateSpec,
    pub job: String,
    pub variants: Vec<VariantReport>,
    /// How the profile launch's sizes follow its shape.
    pub rules: Vec<String>,
}

/// Builds the template of `ak` and its verified `synthesis`, named `name`
/// (files `name.cu`, `name.json`, `name.tune.toml`).
///
/// `naive`, when given, is the kernel the user started from (the same
/// parameters, no shared memory): it replaces the annotated kernel as
/// written both in the race and as the reference.
pub fn tunable(
    ak: &AnnotatedKernel,
    synthesis: &Synthesis,
    naive: Option<(&Module, &str)>,
    profile: &LaunchData,
    name: &str,
    opts: &TemplateOptions,
) -> Result<Tunable, SynthError> {
    let input = |m: String| SynthError::Input(m);
    if !synthesis.verified {
        return Err(input(
            "the synthesized kernel was not verified; a template is made only of verified kernels"
                .into(),
        ));
    }
    let original = crate::synth::original_module(ak);
    let parsed = hone_frontend::parse_source(
        "synthesized.cu",
        &synthesis.source,
        &FrontendOptions::default(),
    )
    .map_err(|e| input(format!("the synthesized kernel does not read back: {e}")))?
    .module;
    let (_, synthesized) = parsed
        .kernel(&ak.name)
        .ok_or_else(|| input("the synthesized kernel does not read back".into()))?;
    let kernel = &ak.kernel;
    // The kernel the race starts from and the outputs are checked against,
    // under the annotated kernel's name so that one launch runs either.
    let (start, start_label) = match naive {
        Some((m, name)) => {
            let (_, n) = m
                .kernel(name)
                .ok_or_else(|| input(format!("the naive kernel `{name}` is not in its file")))?;
            let same = n.params.len() == kernel.params.len()
                && n.params
                    .iter()
                    .zip(&kernel.params)
                    .all(|(&a, &b)| n.var(a).ty == kernel.var(b).ty);
            if !same {
                return Err(input(format!(
                    "the naive kernel `{name}` does not take the parameters of `{}`",
                    ak.name
                )));
            }
            let mut m = m.clone();
            let (fid, _) = m.kernel(name).expect("found above");
            m.functions[fid.0 as usize].name = ak.name.clone();
            (m, "naive")
        }
        None => (original.clone(), "as written"),
    };
    let (start_kernel, start_dynamic, _) =
        crate::emit::nvrtc_form(start.kernel(&ak.name).expect("named above").1);
    let start = {
        let mut m = start;
        let (fid, _) = m.kernel(&ak.name).expect("named above");
        m.functions[fid.0 as usize] = start_kernel;
        m
    };
    let start_kernel = start.kernel(&ak.name).expect("named above").1;

    let (launches, _, keep) = launches::derive_suited(&original, kernel, profile, &[], 2)?;
    // Temporal blocking writes halo cells from several blocks with the same
    // value; its folded intermediates are not outputs of the synthesized kernel.
    let tolerate =
        crate::verify::needs_tolerance(&original, &ak.name, launches.first().unwrap_or(profile))
            .map_err(SynthError::Launch)?;
    let compare = Compare {
        tolerate,
        folded: &synthesis.folded,
    };
    let folded = &synthesis.folded;
    let model = launches::infer(kernel, profile, keep);
    let names: Vec<String> = kernel
        .params
        .iter()
        .map(|&p| kernel.var(p).name.clone())
        .collect();
    for p in opts.problem.keys() {
        if !names.contains(p) {
            return Err(input(format!(
                "--problem names `{p}`, which is not a parameter of `{}`",
                ak.name
            )));
        }
    }
    // Each integer argument as an expression of N.
    let mut arg_expr: Vec<Option<String>> = vec![None; names.len()];
    for (i, rule) in model.ints.iter().enumerate() {
        let Some(rule) = rule else { continue };
        arg_expr[i] = Some(match (opts.problem.get(&names[i]), rule) {
            (Some(e), _) => format!("({e})"),
            (None, IntRule::Fixed(v)) => v.to_string(),
            (None, _) => {
                return Err(input(format!(
                    "`{}` sets the problem size (it follows the launch or sizes a buffer): give it as --problem {}=EXPR of N",
                    names[i], names[i]
                )))
            }
        });
    }
    let block_param = |d: usize| ["BX", "BY", "BZ"][d];
    let fixed_block = keep != launches::Keep::Nothing;
    // Grid along each dimension in use, from the argument that follows it.
    let mut grid: Vec<String> = vec!["1".into(); 2];
    let mut constraints: Vec<String> = Vec::new();
    for &d in &model.dims {
        if d > 1 {
            return Err(input(
                "the profile launch uses a third dimension; z-chunking needs it free".into(),
            ));
        }
        let follows = model.ints.iter().enumerate().find_map(|(i, r)| match r {
            Some(IntRule::Extent(dd, o, off)) if *dd == d => Some((i, *o, *off)),
            _ => None,
        });
        let Some((i, o, off)) = follows else {
            return Err(input(format!(
                "no integer argument follows the launch along {}: the template cannot size its grid",
                ["x", "y"][d]
            )));
        };
        let e = arg_expr[i]
            .clone()
            .expect("set for launch-following arguments");
        let covered = format!("({e} - {off})");
        let per_block = format!("({} - {o})", block_param(d));
        constraints.push(format!("{covered} % {per_block} == 0"));
        constraints.push(format!("{covered} / {per_block} >= 1"));
        grid[d] = format!("{covered} / {per_block}");
    }
    let block: Vec<String> = (0..2)
        .map(|d| {
            if model.dims.contains(&d) {
                block_param(d).to_string()
            } else {
                "1".to_string()
            }
        })
        .collect();

    // Which buffers the kernel writes: its outputs.
    let mut before = profile.buffers.clone();
    fill_random(&mut before, 7);
    let mut after = before.clone();
    hone_emulator::run(
        &original,
        &ak.name,
        &profile.config,
        &profile.args,
        &mut after,
        &hone_emulator::Options::default(),
        None,
    )
    .map_err(|e| SynthError::Launch(format!("{}: {e}", profile.name)))?;
    let written: Vec<bool> = before
        .iter()
        .zip(&after)
        .map(|(a, b)| a.data != b.data)
        .collect();

    // Variants, each checked in the emulator.
    let chunk_arg = format!("(ZCHUNK + (ZCHUNK == 0) * {WHOLE})");
    let mut variants = Vec::new();
    let mut printed = Vec::new();
    let mut grid_z_terms = Vec::new();
    let mut shared_terms = Vec::new();
    let dynamic = synthesis.dynamic_layout();
    // The starting kernel exactly as it is runs too: a chunked walk's extra
    // bound can cost whole-column speed (fewer loads in flight), and the
    // race must never end slower than where the user started.
    let as_is = format!("{start_label}, unchanged");
    for (v, (label, module, f, dynamic, chunkable)) in [
        (
            start_label,
            &start,
            start_kernel,
            start_dynamic.as_ref(),
            true,
        ),
        ("synthesized", &parsed, synthesized, dynamic, true),
        (
            as_is.as_str(),
            &start,
            start_kernel,
            start_dynamic.as_ref(),
            false,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let v = v as i64;
        if !chunkable
            && variants
                .first()
                .is_some_and(|r: &VariantReport| r.chunked.is_none())
        {
            // Variant 0 is already the kernel unchanged.
            break;
        }
        let (kernel_v, report, trip) = variant(
            module, f, v, label, &launches, &original, &ak.name, dynamic, chunkable, compare,
        )?;
        match &trip {
            Some(trip) => {
                let trip = trip(&|id: VarId| {
                    let i = f.params.iter().position(|&p| p == id)?;
                    arg_expr[i].clone()
                });
                let Some(trip) = trip else {
                    return Err(input(format!(
                        "{label}: the walk's length is not an expression of the problem sizes"
                    )));
                };
                grid_z_terms.push(format!("(HONE_VARIANT == {v}) * cdiv({trip}, {chunk_arg})"));
            }
            None => {
                grid_z_terms.push(format!("(HONE_VARIANT == {v})"));
                constraints.push(format!("HONE_VARIANT != {v} || ZCHUNK == 0"));
            }
        }
        if let Some(d) = dynamic {
            let bytes = shared_text(d, f, &arg_expr, &block).ok_or_else(|| {
                input(format!(
                    "{label}: the dynamic shared memory's size is not an expression of the block and problem sizes"
                ))
            })?;
            shared_terms.push(format!("(HONE_VARIANT == {v}) * ({bytes})"));
        }
        let mut m = module.clone();
        let (fid, _) = m.kernel(&ak.name).expect("variant kernels keep their name");
        let mut kv = kernel_v;
        kv.name = format!("hone_variant_{v}");
        m.functions[fid.0 as usize] = kv;
        printed.push((format!("hone_v{v}"), m));
        variants.push(report);
    }
    let mut reference = start.clone();
    let (fid, _) = reference.kernel(&ak.name).expect("named above");
    reference.functions[fid.0 as usize].name = format!("{}_reference", ak.name);
    let reference_shared = match &start_dynamic {
        Some(d) => Some(shared_text(d, start_kernel, &arg_expr, &block).ok_or_else(|| {
            input("the dynamic shared memory's size is not an expression of the block and problem sizes".into())
        })?),
        None => None,
    };

    // The source: every kernel in a namespace of its own (their device
    // functions and types may share names), the chosen variant named
    // `hone_tuned` by the preprocessor.
    let mut source = format!(
        "// Tuning template written by hone synth for `{}`: HONE_VARIANT picks the kernel,\n// BX/BY the block and ZCHUNK the planes per thread (0: the whole walk).\n",
        ak.name
    );
    for (v, _) in variants.iter().enumerate() {
        source.push_str(&format!(
            "#{} HONE_VARIANT == {v}\n#define hone_variant_{v} {TUNED_KERNEL}\n",
            if v == 0 { "if" } else { "elif" }
        ));
    }
    source.push_str("#endif\n\n");
    for (ns, m) in std::iter::once(("hone_reference".to_string(), reference)).chain(printed) {
        source.push_str(&format!("namespace {ns} {{\n"));
        source.push_str(&hone_gpu::ir_kernel::cuda_source(
            &hone_ir::print::print_module(&m),
        ));
        source.push_str(&format!("}} // namespace {ns}\n\n"));
    }

    // Buffers, arguments, work.
    let accumulated: Vec<String> = variants
        .iter()
        .flat_map(|v: &VariantReport| v.accumulated.clone())
        .collect();
    let mut buffers = Vec::new();
    let mut bytes = Vec::new();
    for (b, ((m, factors), w)) in profile
        .buffers
        .iter()
        .zip(model.buffers.iter().zip(&written))
    {
        let ty = elem_type(&b.elem)
            .ok_or_else(|| input(format!("buffer `{}`: element type not supported", b.name)))?;
        let mut len = vec![m.to_string()];
        for f in factors {
            len.push(match f {
                Factor::Arg(i) => arg_expr[*i].clone().expect("sizing arguments have a rule"),
                Factor::Extent(d) => format!("({}) * {}", grid[*d], block[*d]),
            });
        }
        let len = len.join(" * ");
        bytes.push(format!("{} * {len}", b.elem_size()));
        buffers.push(serde_json::json!({
            "name": b.name,
            "type": ty,
            "len": len,
            "init": if accumulated.contains(&b.name) {
                "zero"
            } else if *w && !folded.contains(&b.name) {
                "output"
            } else {
                "random"
            },
        }));
    }
    let mut args = Vec::new();
    for (i, a) in profile.args.iter().enumerate() {
        let ty = arith_name(&kernel.var(kernel.params[i]).ty);
        args.push(match a {
            KernelArg::Buffer(b) => serde_json::json!(profile.buffers[*b].name),
            KernelArg::Int(x) => serde_json::json!({
                "expr": arg_expr[i].clone().unwrap_or_else(|| x.to_string()),
                "type": ty.ok_or_else(|| input(format!("argument `{}`: type not supported", names[i])))?,
            }),
            KernelArg::Float(x) => serde_json::json!({
                "value": x,
                "type": ty.ok_or_else(|| input(format!("argument `{}`: type not supported", names[i])))?,
            }),
            KernelArg::BufferAt { .. } => {
                return Err(input(format!(
                    "argument `{}` points into a buffer; a template passes whole buffers",
                    names[i]
                )))
            }
        });
    }
    let mut tuned_args = args.clone();
    tuned_args.push(serde_json::json!({"expr": chunk_arg, "type": "i32"}));
    let outputs: Vec<&str> = profile
        .buffers
        .iter()
        .zip(&written)
        .filter(|(b, w)| **w && !folded.contains(&b.name))
        .map(|(b, _)| b.name.as_str())
        .collect();
    let mut params = serde_json::Map::new();
    params.insert(
        "HONE_VARIANT".into(),
        serde_json::json!((0..variants.len() as i64).collect::<Vec<_>>()),
    );
    for &d in &model.dims {
        let values = if fixed_block {
            vec![profile.config.block[d] as i64]
        } else if d == 0 {
            opts.block_x.clone()
        } else {
            opts.block_y.clone()
        };
        params.insert(block_param(d).into(), serde_json::json!(values));
    }
    params.insert("ZCHUNK".into(), serde_json::json!(opts.chunks));
    let threads = model
        .dims
        .iter()
        .map(|&d| block_param(d))
        .collect::<Vec<_>>()
        .join(" * ");
    if !fixed_block && !threads.is_empty() {
        constraints.insert(0, format!("{threads} <= 1024"));
        constraints.insert(1, format!("{threads} >= 32"));
    }
    let grid_z = format!("max(1, {})", grid_z_terms.join(" + "));
    let shared = if shared_terms.is_empty() {
        None
    } else {
        Some(shared_terms.join(" + "))
    };
    let spec = serde_json::json!({
        "name": name,
        "description": format!(
            "`{}` {start_label} and as synthesized by hone synth, with block shape and z-chunk length, checked against the kernel {start_label}{}",
            ak.name,
            if accumulated.is_empty() {
                String::new()
            } else {
                format!("; chunked variants add column sums into {}, which must be zero before a launch", accumulated.join(", "))
            }
        ),
        "source": format!("{name}.cu"),
        "kernel": TUNED_KERNEL,
        "params": params,
        "constraints": constraints,
        "grid": [grid[0], grid[1], grid_z],
        "block": block,
        "shared_mem": shared,
        "buffers": buffers,
        "args": tuned_args,
        "bytes": bytes.join(" + "),
        "reference": {
            "builtin": "kernel",
            "kernel": format!("{}_reference", ak.name),
            "grid": [grid[0], grid[1]],
            "block": block,
            "shared_mem": reference_shared,
            "args": args,
            "inputs": [],
            "outputs": outputs,
        },
        "tolerance": opts.tolerance,
        "sizes": opts.sizes,
    });
    let template: TemplateSpec = serde_json::from_value(spec)
        .map_err(|e| input(format!("the template does not describe itself: {e}")))?;
    KernelTemplate::new(template.clone(), source.clone())
        .map_err(|e| input(format!("the template is not valid: {e}")))?;
    let job = job_text(name, &template, opts);
    Ok(Tunable {
        source,
        template,
        job,
        variants,
        rules: model.text,
    })
}

type TripText = Box<dyn Fn(&dyn Fn(VarId) -> Option<String>) -> Option<String>>;

/// How variants are compared with the original kernel.
#[derive(Clone, Copy)]
struct Compare<'a> {
    /// Same-value writes from several threads are not races.
    tolerate: bool,
    /// Intermediates the synthesized kernel no longer writes.
    folded: &'a [String],
}

/// One variant: chunked where that is possible and verified, otherwise as
/// it is with the chunk parameter unused.
#[allow(clippy::too_many_arguments)]
fn variant(
    module: &Module,
    f: &Function,
    v: i64,
    label: &str,
    launches: &[LaunchData],
    original: &Module,
    kernel: &str,
    dynamic: Option<&DynShared>,
    chunkable: bool,
    compare: Compare,
) -> Result<(Function, VariantReport, Option<TripText>), SynthError> {
    let mut report = VariantReport {
        variant: v,
        name: label.to_string(),
        chunked: None,
        unchunked_because: None,
        accumulated: Vec::new(),
        checks: Vec::new(),
    };
    let chunked = if chunkable {
        zchunk::chunk(module, f).map_err(|e| report.unchunked_because = Some(e))
    } else {
        report.unchunked_because =
            Some("the kernel as it is, in the race beside its chunked form".into());
        Err(())
    };
    if let Ok(c) = chunked {
        // The buffers behind the accumulated pointer parameters.
        let zeroed: Vec<usize> = c
            .accumulated
            .iter()
            .filter_map(|name| f.params.iter().position(|&p| f.var(p).name == *name))
            .filter_map(|i| match launches.first()?.args.get(i)? {
                KernelArg::Buffer(b) => Some(*b),
                _ => None,
            })
            .collect();
        let trip_of = |l: &LaunchData| {
            c.trip_count(
                &|id| match l.args.get(f.params.iter().position(|&p| p == id)?) {
                    Some(KernelArg::Int(x)) => Some(*x),
                    _ => None,
                },
            )
        };
        match check(
            module,
            &c.kernel,
            launches,
            original,
            kernel,
            dynamic,
            &trip_of,
            &[1, 2, 3, 0],
            &zeroed,
            compare,
        ) {
            Ok(checks) => {
                report.chunked = Some(c.inductions.clone());
                report.accumulated = zeroed
                    .iter()
                    .map(|&b| launches[0].buffers[b].name.clone())
                    .collect();
                report.checks = checks;
                let chunked = c.clone();
                let trip: TripText = Box::new(move |name| chunked.trip_text(name));
                return Ok((c.kernel, report, Some(trip)));
            }
            Err(e) => report.unchunked_because = Some(e),
        }
    }
    // Unchunked: the chunk parameter is taken and ignored.
    let mut g = f.clone();
    let id = VarId(g.vars.len() as u32);
    g.vars.push(hone_ir::Var {
        name: CHUNK_PARAM.into(),
        ty: Type::INT,
        kind: VarKind::Param,
        is_const: false,
        is_volatile: false,
        span: f.span,
    });
    g.params.push(id);
    report.checks = check(
        module,
        &g,
        launches,
        original,
        kernel,
        dynamic,
        &|_| Some(1),
        &[0],
        &[],
        compare,
    )
    .map_err(|e| SynthError::Input(format!("{label}: {e}")))?;
    Ok((g, report, None))
}

/// Runs `g` (a variant of `kernel` in `module`) printed and read back, on
/// every launch with every chunk length, against the original kernel: all
/// buffers bit-equal, no faults, no races.
#[allow(clippy::too_many_arguments)]
fn check(
    module: &Module,
    g: &Function,
    launches: &[LaunchData],
    original: &Module,
    kernel: &str,
    dynamic: Option<&DynShared>,
    trip_of: &dyn Fn(&LaunchData) -> Option<i64>,
    chunks: &[i64],
    zeroed: &[usize],
    compare: Compare,
) -> Result<Vec<String>, String> {
    let mut m = module.clone();
    let (fid, _) = m.kernel(kernel).ok_or("variant kernel missing")?;
    m.functions[fid.0 as usize] = g.clone();
    let text = hone_ir::print::print_module(&m);
    let parsed = hone_frontend::parse_source("variant.cu", &text, &FrontendOptions::default())
        .map_err(|e| format!("the variant does not read back: {e}"))?;
    if parsed.has_errors() {
        return Err("the variant does not read back".into());
    }
    let m = parsed.module;
    let (_, pf) = m.kernel(kernel).ok_or("the variant does not read back")?;
    let options = hone_emulator::Options {
        tolerate_same_value_races: compare.tolerate,
        parallel: false,
        detect_races: true,
        warn_uninitialized_shared: false,
        ..hone_emulator::Options::default()
    };
    if launches.is_empty() {
        return Err("no verification launches".into());
    }
    let mut done = Vec::new();
    for (i, l) in launches.iter().enumerate() {
        let seed = 0x2000 + i as u64;
        // Outputs that chunks add into start at zero for the original too,
        // so that the elements no thread writes agree.
        let mut want: Vec<Buffer> = l.buffers.clone();
        fill_random(&mut want, seed);
        for &b in zeroed {
            want[b].data.fill(0);
        }
        hone_emulator::run(
            original, kernel, &l.config, &l.args, &mut want, &options, None,
        )
        .map_err(|e| format!("{}: {e}", l.name))?;
        let trip = trip_of(l).ok_or("the walk's length is not computable")?;
        for &zc in chunks {
            let mut config: LaunchConfig = l.config.clone();
            let len = if zc == 0 { WHOLE } else { zc };
            config.grid[2] = u32::try_from(((trip + len - 1) / len).max(1)).map_err(|_| "grid")?;
            if let Some(d) = dynamic {
                let ints = |v: VarId| match l.args.get(pf.params.iter().position(|&q| q == v)?) {
                    Some(KernelArg::Int(x)) => Some(*x),
                    _ => None,
                };
                config.dynamic_shared_bytes = d.bytes(config.block, config.grid, &ints)?;
            }
            let mut args = l.args.clone();
            args.push(KernelArg::Int(len));
            let mut buffers: Vec<Buffer> = l.buffers.clone();
            fill_random(&mut buffers, seed);
            for &b in zeroed {
                buffers[b].data.fill(0);
            }
            let report =
                hone_emulator::run(&m, kernel, &config, &args, &mut buffers, &options, None)
                    .map_err(|e| format!("{}: {e}", l.name))?;
            let what = format!(
                "{} with {} plane(s) per chunk",
                l.name,
                if zc == 0 {
                    "all".to_string()
                } else {
                    zc.to_string()
                }
            );
            if let Some(f) = report.faults.first() {
                return Err(format!("{what}: faults: {}", f.message));
            }
            // Temporal blocking as written stores the halos of its global
            // intermediate from several threads; a load racing a store is
            // still a race (a chunk reading planes another chunk makes).
            let halo_stores = |r: &hone_emulator::Race| {
                compare.folded.contains(&r.array)
                    && r.first.kind == hone_emulator::AccessKind::Store
                    && r.second.kind == hone_emulator::AccessKind::Store
            };
            if let Some(r) = report.races.iter().find(|r| !halo_stores(r)) {
                return Err(format!("{what}: races ({})", r.describe(&m)));
            }
            for (i, (w, g)) in want.iter().zip(&buffers).enumerate() {
                if compare.folded.contains(&w.name) {
                    continue;
                }
                // Sums added up by chunks round in another order.
                let same = if zeroed.contains(&i) {
                    close(w, g)
                } else {
                    w.data == g.data
                };
                if !same {
                    return Err(format!(
                        "{what}: `{}` differs from the kernel as written",
                        w.name
                    ));
                }
            }
            done.push(format!(
                "{what}: outputs {}, no races",
                if zeroed.is_empty() {
                    "bit-equal"
                } else {
                    "bit-equal (sums within 1e-5)"
                }
            ));
        }
    }
    Ok(done)
}

/// Floating-point buffers equal within a relative 1e-5 of the largest
/// magnitude; others bit-equal.
fn close(want: &Buffer, got: &Buffer) -> bool {
    let values = |b: &Buffer| -> Option<Vec<f64>> {
        match &b.elem {
            Type::Scalar(Scalar::F32) => Some(
                b.data
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64)
                    .collect(),
            ),
            Type::Scalar(Scalar::F64) => Some(
                b.data
                    .chunks_exact(8)
                    .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
                    .collect(),
            ),
            _ => None,
        }
    };
    match (values(want), values(got)) {
        (Some(w), Some(g)) if w.len() == g.len() => {
            let scale = w
                .iter()
                .fold(0.0f64, |m, x| m.max(x.abs()))
                .max(f64::MIN_POSITIVE);
            w.iter().zip(&g).all(|(a, b)| (a - b).abs() <= 1e-5 * scale)
        }
        _ => want.data == got.data,
    }
}

/// Bytes of dynamic shared memory as a template expression.
fn shared_text(
    d: &DynShared,
    f: &Function,
    arg_expr: &[Option<String>],
    block: &[String],
) -> Option<String> {
    let size = d.elem.size()?;
    let parts = d
        .arrays
        .iter()
        .map(|(_, len)| {
            len_text(
                len,
                &|id| {
                    let i = f.params.iter().position(|&p| p == id)?;
                    arg_expr[i].clone()
                },
                block,
            )
        })
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

fn elem_type(t: &Type) -> Option<&'static str> {
    match t {
        Type::Scalar(Scalar::F32) => Some("f32"),
        Type::Scalar(Scalar::F64) => Some("f64"),
        Type::Scalar(Scalar::I32) => Some("i32"),
        Type::Scalar(Scalar::U32) => Some("u32"),
        _ => None,
    }
}

fn arith_name(t: &Type) -> Option<&'static str> {
    match t {
        Type::Scalar(Scalar::I32) => Some("i32"),
        Type::Scalar(Scalar::U32) => Some("u32"),
        Type::Scalar(Scalar::I64) => Some("i64"),
        Type::Scalar(Scalar::U64) => Some("u64"),
        Type::Scalar(Scalar::F32) => Some("f32"),
        Type::Scalar(Scalar::F64) => Some("f64"),
        _ => None,
    }
}

/// The tuning job: every configuration at every size (the space is small),
/// the best kept per size.
fn job_text(name: &str, t: &TemplateSpec, opts: &TemplateOptions) -> String {
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
