//! The template's description (`hone-gpu`'s JSON format): parameters,
//! constraints, launch, buffers, arguments and the reference kernel.

use hone_emulator::KernelArg;
use hone_launch::LaunchData;

use super::problem::{block_param, Shape};
use super::race::{chunk_arg, Race};
use super::text::{arith, elem_type, shared_text};
use super::{input, Start, TemplateOptions, VariantReport, TUNED_KERNEL};
use crate::error::SynthError;
use crate::launches::{Factor, SizeModel};
use crate::sites::AnnotatedKernel;

/// What the description is made from.
pub(super) struct Parts<'a> {
    pub ak: &'a AnnotatedKernel,
    pub name: &'a str,
    pub start: &'a Start,
    pub profile: &'a LaunchData,
    pub model: &'a SizeModel,
    pub shape: &'a Shape,
    pub race: &'a Race,
    /// Per profile buffer: whether the kernel writes it.
    pub written: &'a [bool],
    /// Intermediates the synthesized kernel no longer writes.
    pub folded: &'a [String],
    pub opts: &'a TemplateOptions,
}

pub(super) fn spec(p: Parts) -> Result<serde_json::Value, SynthError> {
    let Parts {
        ak,
        name,
        start,
        profile,
        model,
        shape,
        race,
        written,
        folded,
        opts,
    } = p;
    let kernel = &ak.kernel;
    // Every chunked variant adds into the same outputs: each named once.
    let mut accumulated: Vec<String> = race
        .reports
        .iter()
        .flat_map(|v: &VariantReport| v.accumulated.clone())
        .collect();
    accumulated.sort();
    accumulated.dedup();
    let (grid, block, arg_expr) = (&shape.grid, &shape.block, &shape.arg_expr);

    let mut buffers = Vec::new();
    let mut bytes = Vec::new();
    for (b, ((m, factors), w)) in profile
        .buffers
        .iter()
        .zip(model.buffers.iter().zip(written))
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
        let init = if accumulated.contains(&b.name) {
            "zero"
        } else if *w && !folded.contains(&b.name) {
            "output"
        } else {
            "random"
        };
        buffers.push(serde_json::json!({"name": b.name, "type": ty, "len": len, "init": init}));
    }

    let mut args = Vec::new();
    for (i, a) in profile.args.iter().enumerate() {
        let param = kernel.var(kernel.params[i]);
        let ty = || {
            arith(&param.ty)
                .ok_or_else(|| input(format!("argument `{}`: type not supported", param.name)))
        };
        args.push(match a {
            KernelArg::Buffer(b) => serde_json::json!(profile.buffers[*b].name),
            KernelArg::Int(x) => serde_json::json!({
                "expr": arg_expr[i].clone().unwrap_or_else(|| x.to_string()),
                "type": ty()?,
            }),
            KernelArg::Float(x) => serde_json::json!({"value": x, "type": ty()?}),
            KernelArg::BufferAt { .. } => {
                return Err(input(format!(
                    "argument `{}` points into a buffer; a template passes whole buffers",
                    param.name
                )))
            }
        });
    }
    let mut tuned_args = args.clone();
    tuned_args.push(serde_json::json!({"expr": chunk_arg(), "type": "i32"}));

    let outputs: Vec<&str> = profile
        .buffers
        .iter()
        .zip(written)
        .filter(|(b, w)| **w && !folded.contains(&b.name))
        .map(|(b, _)| b.name.as_str())
        .collect();
    let mut params = serde_json::Map::new();
    params.insert(
        "HONE_VARIANT".into(),
        serde_json::json!((0..race.reports.len() as i64).collect::<Vec<_>>()),
    );
    for &d in &shape.dims {
        let values = if shape.fixed_block {
            vec![profile.config.block[d] as i64]
        } else if d == 0 {
            opts.block_x.clone()
        } else {
            opts.block_y.clone()
        };
        params.insert(block_param(d).into(), serde_json::json!(values));
    }
    params.insert("ZCHUNK".into(), serde_json::json!(opts.chunks));
    if opts.unroll != [1] {
        params.insert("UNROLL".into(), serde_json::json!(opts.unroll));
    }
    if opts.restrict {
        params.insert("RESTRICT".into(), serde_json::json!([0, 1]));
    }
    let reference_shared = match &start.dynamic {
        Some(d) => Some(
            shared_text(d, start.kernel(&ak.name), arg_expr, block).ok_or_else(|| {
                input("the dynamic shared memory's size is not an expression of the block and problem sizes")
            })?,
        ),
        None => None,
    };
    let label = start.label;
    let zeroed = if accumulated.is_empty() {
        String::new()
    } else {
        format!(
            "; chunked variants add column sums into {}, which must be zero before a launch",
            accumulated.join(", ")
        )
    };
    Ok(serde_json::json!({
        "name": name,
        "description": format!(
            "`{}` {label} and as synthesized by hone synth, with {}, checked against the kernel {label}{zeroed}",
            ak.name,
            match (opts.unroll != [1], opts.restrict) {
                (true, true) => "block shape, z-chunk length, unroll factor and __restrict__ pointers",
                (true, false) => "block shape, z-chunk length and unroll factor",
                (false, true) => "block shape, z-chunk length and __restrict__ pointers",
                (false, false) => "block shape and z-chunk length",
            },
        ),
        "source": format!("{name}.cu"),
        "kernel": TUNED_KERNEL,
        "params": params,
        "constraints": shape.constraints,
        "grid": [grid[0], grid[1], race.grid_z],
        "block": block,
        "shared_mem": race.shared,
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
        "rounding_ulps": opts.rounding_ulps,
        "sizes": opts.sizes,
    }))
}
