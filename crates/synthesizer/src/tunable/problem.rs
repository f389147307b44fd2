//! The problem a template is tuned over: each integer argument as an
//! expression of `N`, the grid that covers the problem with a block of
//! `BX x BY`, and the buffers the kernel writes.

use hone_emulator::Buffer;
use hone_ir::{Function, Module, VarId};
use hone_launch::LaunchData;

use super::{input, read_back, TemplateOptions};
use crate::data::fill_random;
use crate::emit::DynShared;
use crate::error::SynthError;
use crate::launches::{IntRule, Keep, SizeModel};
use crate::sites::AnnotatedKernel;

/// The expression of `N` that `arg_expr` gives parameter `id` of `f`.
pub(super) fn param_expr(f: &Function, arg_expr: &[Option<String>], id: VarId) -> Option<String> {
    arg_expr[f.params.iter().position(|&p| p == id)?].clone()
}

/// Launch shape and size expressions of the template.
pub(super) struct Shape {
    /// Per kernel parameter: its value as an expression of `N`, for the
    /// integers that set or follow the problem size.
    pub arg_expr: Vec<Option<String>>,
    /// Grid along x and y.
    pub grid: [String; 2],
    /// Block along x and y (`BX`, `BY` or `1`).
    pub block: [String; 2],
    pub constraints: Vec<String>,
    /// The launch dimensions in use.
    pub dims: Vec<usize>,
    /// The kernel fixes its block size: it is not a parameter.
    pub fixed_block: bool,
}

/// The block parameter along `d`.
pub(super) fn block_param(d: usize) -> &'static str {
    ["BX", "BY", "BZ"][d]
}

impl Shape {
    /// `guarded[d]`: the kernels check their bounds along `d`, so the grid
    /// may overshoot the problem (see [`guarded`]).
    pub fn new(
        ak: &AnnotatedKernel,
        model: &SizeModel,
        keep: Keep,
        guarded: [bool; 2],
        opts: &TemplateOptions,
    ) -> Result<Shape, SynthError> {
        let kernel = &ak.kernel;
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
        // Grid along each dimension in use, from the argument that follows it.
        let mut grid = ["1".to_string(), "1".to_string()];
        let mut constraints = Vec::new();
        for &d in &model.dims {
            if d > 1 {
                return Err(input(
                    "the profile launch uses a third dimension; z-chunking needs it free",
                ));
            }
            let following: Vec<(usize, i64, i64)> = model
                .ints
                .iter()
                .enumerate()
                .filter_map(|(i, r)| match r {
                    Some(IntRule::Extent(dd, o, off)) if *dd == d => Some((i, *o, *off)),
                    _ => None,
                })
                .collect();
            // A size can land within a few of the extent by chance
            // (`nz = 11` beside 3 blocks of 4); which one sizes the grid is
            // then not known.
            if following.len() > 1 {
                let which: Vec<&str> = following.iter().map(|f| names[f.0].as_str()).collect();
                return Err(input(format!(
                    "{} all follow the profile launch along {}: give a profile launch whose sizes are further apart",
                    which.join(", "),
                    ["x", "y"][d]
                )));
            }
            let Some(&(i, o, off)) = following.first() else {
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
            if guarded[d] {
                grid[d] = format!("cdiv({covered}, {per_block})");
            } else {
                constraints.push(format!("{covered} % {per_block} == 0"));
                grid[d] = format!("{covered} / {per_block}");
            }
            constraints.push(format!("{covered} >= {per_block}"));
        }
        let block = [0, 1].map(|d| {
            if model.dims.contains(&d) {
                block_param(d).to_string()
            } else {
                "1".to_string()
            }
        });
        let fixed_block = keep != Keep::Nothing;
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
        Ok(Shape {
            arg_expr,
            grid,
            block,
            constraints,
            dims: model.dims.clone(),
            fixed_block,
        })
    }
}

/// Per launch dimension: whether every kernel checks its bounds there, seen
/// by running it with one more block along it than the problem needs (on
/// `launch`, which the problem fills exactly): no fault, and every buffer as
/// after the exact launch. A kernel without the check faults or writes past
/// the problem, and its template's sizes must be multiples of the block. The
/// extra block is wholly outside the problem, so this holds only for kernels
/// without barriers, whose threads do not depend on one another.
pub(super) fn guarded(
    kernels: &[(&Module, Option<&DynShared>)],
    kernel: &str,
    launch: &LaunchData,
    dims: &[usize],
) -> [bool; 2] {
    let run = |m: &Module, dynamic: Option<&DynShared>, grid: [u32; 3]| -> Option<Vec<Buffer>> {
        let f = m.kernel(kernel)?.1;
        let mut config = launch.config.clone();
        config.grid = grid;
        if let Some(d) = dynamic {
            config.dynamic_shared_bytes = d.launch_bytes(&f.params, &config, &launch.args).ok()?;
        }
        let mut buffers = launch.buffers.clone();
        fill_random(&mut buffers, 0x3000);
        let report = hone_emulator::run(
            m,
            kernel,
            &config,
            &launch.args,
            &mut buffers,
            &hone_emulator::Options::default(),
            None,
        )
        .ok()?;
        report.faults.is_empty().then_some(buffers)
    };
    // A partial block with a barrier inside the bounds check diverges, and
    // a synthesized halo copy made by the block's last thread is skipped:
    // kernels with barriers keep whole blocks.
    let barrier = kernels.iter().any(|(m, _)| {
        let mut hit = false;
        if let Some((_, f)) = m.kernel(kernel) {
            hone_ir::visit::visit_block(&f.body, &mut |e| {
                hit |= matches!(
                    e.kind,
                    hone_ir::ExprKind::Intrinsic(hone_ir::Intrinsic::SyncThreads, _)
                );
            });
        }
        hit
    });
    let mut out = [false; 2];
    if barrier {
        return out;
    }
    // What runs is each kernel as printed and read back, as in the race.
    let Ok(kernels) = kernels
        .iter()
        .map(|&(m, dynamic)| read_back(m, kernel).map(|m| (m, dynamic)))
        .collect::<Result<Vec<_>, _>>()
    else {
        return out;
    };
    for &d in dims.iter().filter(|&&d| d < 2) {
        out[d] = kernels.iter().all(|(m, dynamic)| {
            let (m, dynamic) = (m, *dynamic);
            let mut grid = launch.config.grid;
            let exact = run(m, dynamic, grid);
            grid[d] += 1;
            let over = run(m, dynamic, grid);
            matches!((exact, over), (Some(a), Some(b)) if a.iter().zip(&b).all(|(x, y)| x.data == y.data))
        });
    }
    out
}

/// Which buffers the original kernel writes on the profile launch: its
/// outputs. A kernel that also reads what it writes (`out[c] += ...`) is
/// refused: the GPU check starts outputs from a fill that says which
/// elements were written, so it could not tell such a kernel's results apart.
pub(super) fn written(
    original: &Module,
    kernel: &str,
    profile: &LaunchData,
) -> Result<Vec<bool>, SynthError> {
    let run = |buffers: &mut Vec<Buffer>| {
        hone_emulator::run(
            original,
            kernel,
            &profile.config,
            &profile.args,
            buffers,
            &hone_emulator::Options::default(),
            None,
        )
        .map(|_| ())
        .map_err(|e| SynthError::Launch(format!("{}: {e}", profile.name)))
    };
    let mut before = profile.buffers.clone();
    fill_random(&mut before, 7);
    let mut after = before.clone();
    run(&mut after)?;
    let written: Vec<bool> = before
        .iter()
        .zip(&after)
        .map(|(a, b)| a.data != b.data)
        .collect();
    // The same inputs, other starting outputs: the written bytes must not
    // change.
    let mut other = profile.buffers.clone();
    fill_random(&mut other, 8);
    for (i, b) in other.iter_mut().enumerate() {
        if !written[i] {
            b.data.clone_from(&before[i].data);
        }
    }
    run(&mut other)?;
    for (i, w) in written.iter().enumerate() {
        if !w {
            continue;
        }
        let (b, a, o) = (&before[i].data, &after[i].data, &other[i].data);
        let reads = (0..a.len()).any(|k| a[k] != b[k] && o[k] != a[k]);
        if reads {
            return Err(input(format!(
                "`{}` is read as well as written: a template needs outputs the kernel only writes",
                before[i].name
            )));
        }
    }
    Ok(written)
}
