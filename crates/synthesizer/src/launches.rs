//! Verification launches derived from a profile launch: other block and
//! grid shapes, distinct in every dimension, with the integer arguments and
//! buffer lengths that follow from them.
//!
//! How sizes follow the launch is inferred from the profile launch: an
//! integer argument within 4 of what a dimension's blocks cover (`gridDim *
//! blockDim`, or `gridDim * (blockDim - 2)` when blocks overlap as in
//! temporal blocking) follows it (`nx = 9` for 3 blocks of 3 threads); a
//! buffer length is a product of integer arguments times a small constant
//! (`nx * ny * nz`, `4 * nx * ny * nz`), or failing that a product with
//! thread extents (per-thread outputs); other integers that size a
//! buffer are free sizes and change too; the rest are kept.
//!
//! Many kernels fix their block size at compile time (`#define BX 32`, with
//! shared arrays sized by it) and some their problem size too; they fault on
//! other block shapes. [`Keep`] says what derived launches keep of the
//! profile launch, and [`derive_suited`] finds the least the
//! annotated kernel needs kept by running it on the candidates.

use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_ir::Function;

use crate::error::SynthError;
use hone_launch::LaunchData;

/// Block and grid shapes tried, per number of dimensions in use. The
/// extents avoid small coincidences (no two within a few of each other),
/// and most blocks span several warps.
const SHAPES_1D: [([u32; 1], [u32; 1]); 4] = [([48], [3]), ([72], [2]), ([40], [5]), ([96], [2])];
const SHAPES_2D: [([u32; 2], [u32; 2]); 4] = [
    ([8, 6], [3, 2]),
    ([13, 5], [2, 3]),
    ([6, 11], [4, 2]),
    ([16, 3], [2, 5]),
];
const SHAPES_3D: [([u32; 3], [u32; 3]); 4] = [
    ([4, 3, 5], [2, 3, 2]),
    ([6, 4, 3], [3, 2, 2]),
    ([3, 7, 4], [4, 2, 2]),
    ([5, 3, 6], [2, 4, 1]),
];

/// What derived launches keep of the profile launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Nothing: other block and grid shapes, sizes following them.
    Nothing,
    /// The block shape, which the kernel fixes: other grids, sizes
    /// following them.
    Block,
    /// The whole launch and every size, which the kernel fixes: only the
    /// data change.
    Launch,
}

impl Keep {
    /// For the rules the report lists.
    pub fn text(self, profile: &LaunchConfig) -> Option<String> {
        let b = profile.block;
        match self {
            Keep::Nothing => None,
            Keep::Block => Some(format!(
                "block {}x{}x{} kept: the annotated kernel faults on other block shapes (its block size is fixed), so derived launches vary the grid and the sizes",
                b[0], b[1], b[2]
            )),
            Keep::Launch => Some(
                "launch and sizes kept: the annotated kernel faults on other grids and blocks (its sizes are fixed), so derived launches vary only the data; an expression that holds only for this grid cannot be caught".into(),
            ),
        }
    }
}

/// Verification launches `0..count` of the derived sequence that keep the
/// least of `profile` the annotated kernel (`original`'s `kernel`) needs to
/// run without faults on all of them, with what they keep; those that keep
/// nothing when no choice suits it (the failing checks then say why).
pub fn derive_suited(
    original: &hone_ir::Module,
    kernel: &Function,
    profile: &LaunchData,
    others: &[LaunchData],
    count: usize,
) -> Result<(Vec<LaunchData>, Rules, Keep), SynthError> {
    let runs_clean = |(i, l): (usize, &LaunchData)| {
        crate::verify::run_original(original, &kernel.name, l, 0x1000 + i as u64, true)
            .is_ok_and(|(_, report)| report.faults.is_empty() && report.completed)
    };
    let first = derive(kernel, profile, others, 0, count, Keep::Nothing)?;
    for keep in [Keep::Nothing, Keep::Block, Keep::Launch] {
        let (ls, rules) = match keep {
            Keep::Nothing => first.clone(),
            _ => derive(kernel, profile, others, 0, count, keep)?,
        };
        if !ls.is_empty() && ls.iter().enumerate().all(runs_clean) {
            return Ok((ls, rules, keep));
        }
    }
    let (ls, rules) = first;
    Ok((ls, rules, Keep::Nothing))
}

/// How many launches can be derived in all.
pub const MAX_DERIVED: usize = 4;

/// Extra profile launches, added when verification shows an expression that
/// held only for the profile's sizes: small (one warp per block, as the
/// thesis profiles) and of other sizes than both the profile and the
/// verification launches.
const PROFILE_1D: [([u32; 1], [u32; 1]); 3] = [([20], [3]), ([28], [2]), ([12], [4])];
const PROFILE_2D: [([u32; 2], [u32; 2]); 3] =
    [([5, 6], [2, 3]), ([7, 3], [3, 2]), ([4, 5], [4, 3])];
const PROFILE_3D: [([u32; 3], [u32; 3]); 3] = [
    ([3, 2, 4], [2, 3, 1]),
    ([2, 4, 3], [3, 1, 2]),
    ([4, 3, 2], [2, 2, 3]),
];

/// The grids of extra profile launches when the block shape is kept: other
/// than the verification launches' grids, which [`SHAPES_1D`] ... give, and
/// distinct in every dimension, so that sizes coincide neither with each
/// other nor with the block's extents.
const PROFILE_GRIDS_1D: [[u32; 1]; 3] = [[7], [6], [9]];
const PROFILE_GRIDS_2D: [[u32; 2]; 3] = [[5, 3], [3, 4], [4, 5]];
const PROFILE_GRIDS_3D: [[u32; 3]; 3] = [[5, 3, 4], [3, 5, 3], [4, 2, 5]];

/// How many shapes extra profile launches are chosen from.
const PROFILE_SHAPES: usize = 3;

/// How many extra profile launches can be derived.
pub const MAX_PROFILE: usize = 2;

#[derive(Clone, Debug)]
pub(crate) enum IntRule {
    /// `gridDim[d] * (blockDim[d] - overlap) + offset`
    Extent(usize, i64, i64),
    /// A size not tied to the launch shape.
    Free(i64),
    Fixed(i64),
}

#[derive(Clone, Debug)]
pub(crate) enum Factor {
    Arg(usize),
    Extent(usize),
}

/// The inferred rules, for reports.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    pub text: Vec<String>,
}

fn dim_name(d: usize) -> &'static str {
    ["x", "y", "z"][d]
}

/// Verification launches `first..first + count` of the derived sequence.
pub fn derive(
    kernel: &Function,
    profile: &LaunchData,
    others: &[LaunchData],
    first: usize,
    count: usize,
    keep: Keep,
) -> Result<(Vec<LaunchData>, Rules), SynthError> {
    derive_with(
        kernel,
        profile,
        others,
        (first, count, MAX_DERIVED),
        keep,
        &shape,
        "derived launch",
    )
}

/// An extra profile launch of a shape none of `others` has (the profile and
/// verification launches so far).
pub fn derive_profile(
    kernel: &Function,
    profile: &LaunchData,
    others: &[LaunchData],
    keep: Keep,
) -> Result<Option<LaunchData>, SynthError> {
    let shapes = |ndims: usize, r: usize| {
        let (block, grid) = profile_shape(ndims, r);
        let grid = match (keep, ndims) {
            (Keep::Block, 0 | 1) => PROFILE_GRIDS_1D[r].to_vec(),
            (Keep::Block, 2) => PROFILE_GRIDS_2D[r].to_vec(),
            (Keep::Block, _) => PROFILE_GRIDS_3D[r].to_vec(),
            _ => grid,
        };
        (block, grid)
    };
    let (mut ls, _) = derive_with(
        kernel,
        profile,
        others,
        (0, 1, PROFILE_SHAPES),
        keep,
        &shapes,
        "extra profile launch",
    )?;
    Ok(ls.pop())
}

fn profile_shape(ndims: usize, r: usize) -> (Vec<u32>, Vec<u32>) {
    match ndims {
        0 | 1 => (PROFILE_1D[r].0.to_vec(), PROFILE_1D[r].1.to_vec()),
        2 => (PROFILE_2D[r].0.to_vec(), PROFILE_2D[r].1.to_vec()),
        _ => (PROFILE_3D[r].0.to_vec(), PROFILE_3D[r].1.to_vec()),
    }
}

/// How a profile launch's sizes follow its shape, inferred from its values.
#[derive(Clone, Debug)]
pub(crate) struct SizeModel {
    /// The launch dimensions in use.
    pub dims: Vec<usize>,
    /// Per argument: how an integer follows the launch (`None` otherwise).
    pub ints: Vec<Option<IntRule>>,
    /// Per buffer: a constant times a product of factors.
    pub buffers: Vec<(u64, Vec<Factor>)>,
    pub text: Vec<String>,
}

/// Threads along dimension `d` of a launch.
fn extent(c: &LaunchConfig, d: usize) -> i64 {
    c.grid[d] as i64 * c.block[d] as i64
}

/// What blocks cover along `d` when neighbours overlap by `o` (temporal
/// blocking's blocks cover `blockDim - overlap` each).
fn covered(c: &LaunchConfig, d: usize, o: i64) -> i64 {
    c.grid[d] as i64 * (c.block[d] as i64 - o)
}

fn param_names(kernel: &Function) -> Vec<String> {
    kernel
        .params
        .iter()
        .map(|&p| kernel.var(p).name.clone())
        .collect()
}

/// Infers the [`SizeModel`] of `profile`.
pub(crate) fn infer(kernel: &Function, profile: &LaunchData, keep: Keep) -> SizeModel {
    let cfg = &profile.config;
    let dims: Vec<usize> = (0..3)
        .filter(|&d| cfg.block[d] > 1 || cfg.grid[d] > 1)
        .collect();
    let names = param_names(kernel);

    // Integer arguments that follow a dimension's extent.
    let mut rules: Vec<Option<IntRule>> = vec![None; profile.args.len()];
    let mut taken: Vec<usize> = Vec::new();
    for (i, a) in profile.args.iter().enumerate() {
        let KernelArg::Int(v) = *a else { continue };
        let best = dims
            .iter()
            .flat_map(|&d| {
                (0..=2)
                    .filter(move |&o| cfg.block[d] as i64 > o + 1)
                    .map(move |o| (d, o))
            })
            .map(|(d, o)| (d, o, v - covered(cfg, d, o)))
            // Overlapping blocks cover the size exactly.
            .filter(|&(_, o, off)| if o == 0 { off.abs() <= 4 } else { off == 0 })
            .min_by_key(|&(d, o, off)| (taken.contains(&d), off.abs(), o, d));
        if let Some((d, o, off)) = best {
            taken.push(d);
            rules[i] = Some(IntRule::Extent(d, o, off));
        }
    }
    // Buffer lengths as products.
    let int_args: Vec<(usize, i64)> = profile
        .args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            KernelArg::Int(v) if *v >= 2 => Some((i, *v)),
            _ => None,
        })
        .collect();
    let mut factors: Vec<(Factor, i64)> =
        int_args.iter().map(|&(i, v)| (Factor::Arg(i), v)).collect();
    factors.extend(dims.iter().map(|&d| (Factor::Extent(d), extent(cfg, d))));
    let mut buffer_rules: Vec<(u64, Vec<Factor>)> = Vec::new();
    let mut text: Vec<String> = keep.text(cfg).into_iter().collect();
    for b in &profile.buffers {
        let len = b.len() as i64;
        // Products of arguments alone first (problem sizes), then with
        // thread extents (per-thread outputs); more factors, then a smaller
        // constant, win.
        let nargs = int_args.len();
        let mut best: Option<(usize, i64, Vec<usize>)> = None;
        for pool in [nargs.min(12), factors.len().min(12)] {
            for mask in 0u32..(1 << pool) {
                let chosen: Vec<usize> = (0..pool).filter(|i| mask & (1 << i) != 0).collect();
                if chosen.len() > 4 {
                    continue;
                }
                let prod: i64 = chosen.iter().map(|&i| factors[i].1).product();
                if prod == 0 || len % prod != 0 || !(1..=16).contains(&(len / prod)) {
                    continue;
                }
                let m = len / prod;
                if best
                    .as_ref()
                    .is_none_or(|(n, bm, _)| (chosen.len(), -m) > (*n, -*bm))
                {
                    best = Some((chosen.len(), m, chosen));
                }
            }
            if best.as_ref().is_some_and(|(n, _, _)| *n > 0) {
                break;
            }
        }
        let (m, chosen) = match best {
            Some((_, m, c)) => (
                m as u64,
                c.into_iter()
                    .map(|i| factors[i].0.clone())
                    .collect::<Vec<_>>(),
            ),
            None => (len as u64, Vec::new()),
        };
        let mut parts: Vec<String> = chosen
            .iter()
            .map(|f| match f {
                Factor::Arg(i) => names[*i].clone(),
                Factor::Extent(d) => format!("gridDim.{0}*blockDim.{0}", dim_name(*d)),
            })
            .collect();
        if m != 1 || parts.is_empty() {
            parts.insert(0, m.to_string());
        }
        text.push(format!("{}: {} elements", b.name, parts.join("*")));
        buffer_rules.push((m, chosen));
    }
    for (i, a) in profile.args.iter().enumerate() {
        let KernelArg::Int(v) = *a else { continue };
        if rules[i].is_none() {
            let sizes = buffer_rules
                .iter()
                .any(|(_, fs)| fs.iter().any(|f| matches!(f, Factor::Arg(j) if *j == i)));
            rules[i] = Some(if sizes {
                IntRule::Free(v)
            } else {
                IntRule::Fixed(v)
            });
        }
        match rules[i].as_ref().expect("set") {
            IntRule::Extent(d, o, off) => text.push(format!(
                "{} = gridDim.{1}*{2}{3}",
                names[i],
                dim_name(*d),
                if *o == 0 {
                    format!("blockDim.{}", dim_name(*d))
                } else {
                    format!("(blockDim.{} - {o})", dim_name(*d))
                },
                if *off == 0 {
                    String::new()
                } else {
                    format!(" {} {}", if *off > 0 { "+" } else { "-" }, off.abs())
                }
            )),
            IntRule::Free(_) => text.push(format!("{} is a free size", names[i])),
            IntRule::Fixed(v) => text.push(format!("{} = {v} (kept)", names[i])),
        }
    }

    SizeModel {
        dims,
        ints: rules,
        buffers: buffer_rules,
        text,
    }
}

/// Launches `first..first + count` of at most `max` (`range`).
fn derive_with(
    kernel: &Function,
    profile: &LaunchData,
    others: &[LaunchData],
    range: (usize, usize, usize),
    keep: Keep,
    shapes: &dyn Fn(usize, usize) -> (Vec<u32>, Vec<u32>),
    what: &str,
) -> Result<(Vec<LaunchData>, Rules), SynthError> {
    let (first, count, max) = range;
    let cfg = &profile.config;
    let names = param_names(kernel);
    let SizeModel {
        dims,
        ints: rules,
        buffers: buffer_rules,
        text,
    } = infer(kernel, profile, keep);
    let mut out = Vec::new();
    let mut r = first;
    while out.len() < count && r < max {
        let shape = shapes(dims.len(), r);
        r += 1;
        let mut config = LaunchConfig::new([1; 3], [1; 3]);
        for (slot, &d) in dims.iter().enumerate() {
            config.block[d] = shape.0[slot];
            config.grid[d] = shape.1[slot];
        }
        match keep {
            Keep::Nothing => {}
            Keep::Block => config.block = cfg.block,
            Keep::Launch => config = cfg.clone(),
        }
        // With the launch kept, the data are what differ.
        if keep != Keep::Launch
            && std::iter::once(profile)
                .chain(others)
                .any(|l| l.config.block == config.block && l.config.grid == config.grid)
        {
            continue;
        }
        let mut args = profile.args.clone();
        let mut value = vec![0i64; args.len()];
        for (i, a) in args.iter_mut().enumerate() {
            if let KernelArg::Int(_) = a {
                let v = match rules[i].as_ref().expect("set") {
                    IntRule::Extent(d, o, off) => covered(&config, *d, *o) + off,
                    IntRule::Free(v) if keep != Keep::Launch => v + 1 + r as i64,
                    IntRule::Free(v) | IntRule::Fixed(v) => *v,
                };
                *a = KernelArg::Int(v);
                value[i] = v;
            }
        }
        let buffers: Vec<Buffer> = profile
            .buffers
            .iter()
            .zip(&buffer_rules)
            .map(|(b, (m, fs))| {
                let n: i64 = fs
                    .iter()
                    .map(|f| match f {
                        Factor::Arg(i) => value[*i],
                        Factor::Extent(d) => extent(&config, *d),
                    })
                    .product();
                Buffer::zeros(&b.name, b.elem.clone(), (*m as i64 * n).max(1) as usize)
            })
            .collect();
        let mut l = LaunchData {
            name: String::new(),
            config,
            args,
            buffers,
            symbols: profile.symbols.clone(),
        };
        l.name = format!("{what} {}", l.describe(&names));
        out.push(l);
    }
    if dims.is_empty() {
        return Err(SynthError::Launch(format!(
            "{}: the profile launch has one thread; give verification launches explicitly",
            profile.name
        )));
    }
    Ok((out, Rules { text }))
}

fn shape(ndims: usize, r: usize) -> (Vec<u32>, Vec<u32>) {
    match ndims {
        0 | 1 => (SHAPES_1D[r].0.to_vec(), SHAPES_1D[r].1.to_vec()),
        2 => (SHAPES_2D[r].0.to_vec(), SHAPES_2D[r].1.to_vec()),
        _ => (SHAPES_3D[r].0.to_vec(), SHAPES_3D[r].1.to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hone_ir::{FuncKind, Span, Type, Var, VarId, VarKind};

    fn kernel(params: &[(&str, Type)]) -> Function {
        let mut f = Function::new("k", FuncKind::Global, Type::Void);
        f.params = (0..params.len() as u32).map(VarId).collect();
        f.vars = params
            .iter()
            .map(|(n, t)| Var {
                name: n.to_string(),
                ty: t.clone(),
                kind: VarKind::Param,
                is_const: false,
                is_volatile: false,
                span: Span::default(),
            })
            .collect();
        f
    }

    #[test]
    fn himeno_like_sizes_follow_the_launch() {
        let k = kernel(&[
            ("p", Type::ptr(Type::FLOAT)),
            ("a", Type::ptr(Type::FLOAT)),
            ("gosa", Type::ptr(Type::FLOAT)),
            ("nx", Type::INT),
            ("ny", Type::INT),
            ("nz", Type::INT),
        ]);
        let profile = LaunchData {
            name: "p.json".into(),
            config: LaunchConfig::new([3, 2, 1], [5, 4, 1]),
            args: vec![
                KernelArg::Buffer(0),
                KernelArg::Buffer(1),
                KernelArg::Buffer(2),
                KernelArg::Int(17),
                KernelArg::Int(10),
                KernelArg::Int(3),
            ],
            buffers: vec![
                Buffer::zeros("p", Type::FLOAT, 510),
                Buffer::zeros("a", Type::FLOAT, 4 * 510),
                Buffer::zeros("gosa", Type::FLOAT, 170),
            ],
            symbols: Vec::new(),
        };
        let (ls, rules) = derive(&k, &profile, &[], 0, 2, Keep::Nothing).unwrap();
        assert_eq!(ls.len(), 2);
        for l in &ls {
            let [gx, gy, _] = l.config.grid;
            let [bx, by, _] = l.config.block;
            let ints: Vec<i64> = l
                .args
                .iter()
                .filter_map(|a| {
                    if let KernelArg::Int(v) = a {
                        Some(*v)
                    } else {
                        None
                    }
                })
                .collect();
            assert_eq!(ints[0], (gx * bx) as i64 + 2);
            assert_eq!(ints[1], (gy * by) as i64 + 2);
            assert_ne!(ints[2], 3, "nz is a free size and changes");
            let cells = (ints[0] * ints[1] * ints[2]) as usize;
            assert_eq!(l.buffers[0].len(), cells);
            assert_eq!(l.buffers[1].len(), 4 * cells);
            assert_eq!(l.buffers[2].len(), (ints[0] * ints[1]) as usize);
            assert_ne!(gx * bx, gy * by, "extents differ per dimension");
        }
        assert!(
            rules
                .text
                .iter()
                .any(|t| t == "nx = gridDim.x*blockDim.x + 2"),
            "{:?}",
            rules.text
        );
    }
}
