//! The GEMM templates: one CUDA file per flavor under `kernels/gemm/`, each
//! described by a JSON file beside it (`sgemm.json`, `dgemm.json`,
//! `sgemm_3xtf32.json`) that names the kernel, its parameters and their
//! values, the constraints between them (integer expressions over the
//! parameters and the device's limits), the launch geometry and dynamic
//! shared memory (expressions over the parameters and M, N, K), and what a
//! problem must satisfy for a configuration to run it (`requires`, over the
//! same names plus lda, ldb, ldc: vector loads need aligned leading
//! dimensions, for instance). The sources and descriptions are built into
//! the crate.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use hone_gpu::{IntExpr, Target};
use serde::Deserialize;

use super::{Config, Flavor, GemmProblem, Layout};

const COMMON: &str = include_str!("../../../../kernels/gemm/gemm_common.cuh");

/// (flavor, description JSON, CUDA source, source file name)
const FILES: [(Flavor, &str, &str, &str); 5] = [
    (
        Flavor::Sgemm,
        include_str!("../../../../kernels/gemm/sgemm.json"),
        include_str!("../../../../kernels/gemm/gemm_fma.cu"),
        "gemm_fma.cu",
    ),
    (
        Flavor::Dgemm,
        include_str!("../../../../kernels/gemm/dgemm.json"),
        include_str!("../../../../kernels/gemm/gemm_dmma.cu"),
        "gemm_dmma.cu",
    ),
    (
        Flavor::Sgemm3xTf32,
        include_str!("../../../../kernels/gemm/sgemm_3xtf32.json"),
        // one template in two files, WGMMA choosing the half that compiles
        concat!(
            include_str!("../../../../kernels/gemm/gemm_3xtf32.cu"),
            "\n#line 1 \"gemm_3xtf32_wg.cu\"\n",
            include_str!("../../../../kernels/gemm/gemm_3xtf32_wg.cu")
        ),
        "gemm_3xtf32.cu",
    ),
    (
        Flavor::Ddgemm,
        include_str!("../../../../kernels/gemm/ddgemm.json"),
        include_str!("../../../../kernels/gemm/gemm_dd.cu"),
        "gemm_dd.cu",
    ),
    (
        Flavor::DdgemmSplit,
        include_str!("../../../../kernels/gemm/ddgemm_split.json"),
        include_str!("../../../../kernels/gemm/gemm_dd.cu"),
        "gemm_dd.cu",
    ),
];

/// A template's description file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Description {
    /// The `extern "C"` kernel.
    entry: String,
    #[serde(default)]
    description: String,
    /// Defines every variant gets (`PREC`).
    #[serde(default)]
    defines: BTreeMap<String, i64>,
    params: BTreeMap<String, Vec<i64>>,
    #[serde(default)]
    constraints: Vec<String>,
    grid: [String; 3],
    block: [String; 3],
    shared_mem: String,
    /// Conditions on the problem (M, N, K, lda, ldb, ldc) and parameters.
    #[serde(default)]
    requires: Vec<String>,
    /// Bytes the A and B pointers must be aligned to.
    #[serde(default = "one")]
    pointer_align: String,
    /// Bytes the C pointer must be aligned to (kernels that store C in
    /// wider words than one element's).
    #[serde(default = "one")]
    c_align: String,
    /// The kernel splits K (parameter SPLITK) and takes, after the BLAS
    /// arguments, the split-K tile counters ([`SPLIT_COUNTERS`] words, zero
    /// between calls) and workspace ([`SPLIT_WORK_BYTES`]).
    #[serde(default)]
    split_k: bool,
    /// Values of parameters that a stored configuration may leave out (those
    /// added to the template after rules were tuned without them).
    #[serde(default)]
    defaults: BTreeMap<String, i64>,
    /// The architecture (90 for sm_90a) whose specific features a
    /// configuration uses, 0 for none: such a kernel is compiled for that
    /// architecture alone and runs on no other.
    #[serde(default = "zero")]
    arch_specific: String,
}

/// Words of split-K tile counters a runner keeps for the kernels that split
/// K: one per tile of C (`split_counters` in the templates' expressions).
pub const SPLIT_COUNTERS: usize = 1 << 16;
/// Bytes of split-K workspace a runner keeps: every slice's partial tile
/// (`split_work_bytes` in the templates' expressions).
pub const SPLIT_WORK_BYTES: usize = 32 << 20;

fn one() -> String {
    "1".to_string()
}

fn zero() -> String {
    "0".to_string()
}

/// A GEMM template, parsed.
#[derive(Debug, Clone)]
pub struct GemmTemplate {
    pub flavor: Flavor,
    pub entry: String,
    pub description: String,
    pub file: &'static str,
    body: &'static str,
    defines: BTreeMap<String, i64>,
    pub params: Vec<(String, Vec<i64>)>,
    pub constraints: Vec<(String, IntExpr)>,
    grid: [IntExpr; 3],
    block: [IntExpr; 3],
    shared_mem: IntExpr,
    requires: Vec<(String, IntExpr)>,
    pointer_align: IntExpr,
    c_align: IntExpr,
    /// Takes the split-K counters and workspace after the BLAS arguments.
    pub split_k: bool,
    defaults: BTreeMap<String, i64>,
    arch_specific: IntExpr,
}

/// One kernel: a template's configuration for one layout.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct GemmKernel {
    pub flavor: Flavor,
    pub layout: Layout,
    pub config: Config,
}

/// How a kernel with `PACK = 1` runs a problem: op(A) and op(B) copied
/// K-contiguous into the runner's workspace where they are not (A of an
/// `N`, B of a `T` layout), then its TN kernel on the copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packing {
    /// The problem the TN kernel runs: layout TN, with `ld` the leading
    /// dimension of each operand copied.
    pub problem: GemmProblem,
    /// The leading dimension of the copies: K rounded up to a multiple of
    /// [`super::LD_MULTIPLE`], so that every column starts 128-byte aligned.
    pub ld: usize,
    pub pack_a: bool,
    pub pack_b: bool,
}

impl Packing {
    /// Elements of the workspace: the copy of A (M columns) and of B (N
    /// columns), each where it is made.
    pub fn elements(&self) -> usize {
        let p = &self.problem;
        self.ld * (p.m * self.pack_a as usize + p.n * self.pack_b as usize)
    }

    /// Element offset of B's copy in the workspace.
    pub fn b_offset(&self) -> usize {
        self.ld * self.problem.m * self.pack_a as usize
    }
}

impl GemmKernel {
    /// Whether the kernel packs its operands K-contiguous first (`PACK = 1`).
    pub fn packs(&self) -> bool {
        self.config.get("PACK").copied().unwrap_or(0) != 0
    }

    /// The same kernel reading its operands where they are (`PACK = 0`).
    pub fn unpacked(&self) -> GemmKernel {
        let mut k = self.clone();
        k.config.insert("PACK".to_string(), 0);
        k
    }

    /// The layout the kernel is compiled for: TN when it packs its operands.
    pub fn compiled_layout(&self) -> Layout {
        if self.packs() {
            Layout {
                a: super::Op::T,
                b: super::Op::N,
            }
        } else {
            self.layout
        }
    }

    /// How the kernel packs `p`'s operands, or `None` where it reads them
    /// as they are.
    pub fn packing(&self, p: &GemmProblem) -> Option<Packing> {
        if !self.packs() {
            return None;
        }
        let ld = p.k.div_ceil(super::LD_MULTIPLE) * super::LD_MULTIPLE;
        let (pack_a, pack_b) = (p.layout.a == super::Op::N, p.layout.b == super::Op::T);
        Some(Packing {
            problem: GemmProblem {
                layout: self.compiled_layout(),
                lda: if pack_a { ld } else { p.lda },
                ldb: if pack_b { ld } else { p.ldb },
                ..*p
            },
            ld,
            pack_a,
            pack_b,
        })
    }

    /// `BM=128 BN=128 ...`, in name order.
    pub fn label(&self) -> String {
        self.config
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn parse(what: &str, text: &str) -> IntExpr {
    IntExpr::parse(text).unwrap_or_else(|e| panic!("built-in GEMM template {what} `{text}`: {e}"))
}

impl GemmTemplate {
    fn load(flavor: Flavor, json: &str, body: &'static str, file: &'static str) -> GemmTemplate {
        // Built into the crate and covered by its tests: a failure here is a
        // bug in the build, not a user error.
        let d: Description = serde_json::from_str(json)
            .unwrap_or_else(|e| panic!("built-in GEMM template for {flavor}: {e}"));
        let exprs = |v: &[String]| -> Vec<(String, IntExpr)> {
            v.iter()
                .map(|c| (c.clone(), parse(flavor.name(), c)))
                .collect()
        };
        let three = |v: &[String; 3]| [0, 1, 2].map(|i| parse(flavor.name(), &v[i]));
        GemmTemplate {
            flavor,
            entry: d.entry,
            description: d.description,
            file,
            body,
            defines: d.defines,
            params: d.params.into_iter().collect(),
            constraints: exprs(&d.constraints),
            grid: three(&d.grid),
            block: three(&d.block),
            shared_mem: parse(flavor.name(), &d.shared_mem),
            requires: exprs(&d.requires),
            pointer_align: parse(flavor.name(), &d.pointer_align),
            c_align: parse(flavor.name(), &d.c_align),
            split_k: d.split_k,
            defaults: d.defaults,
            arch_specific: parse(flavor.name(), &d.arch_specific),
        }
    }

    /// What kernel `k` is compiled for on a device whose own target is
    /// `device`: that target, or the architecture-specific one where the
    /// configuration uses such features (refused on any other architecture).
    pub fn target(&self, k: &GemmKernel, device: &Target) -> Result<Target, String> {
        let env = |name: &str| k.config.get(name).copied();
        let arch = self.arch_specific.eval(&env).map_err(|e| e.to_string())?;
        if arch == 0 {
            return Ok(*device);
        }
        match device.specific() {
            Some(t) if i64::from(t.arch) == arch => Ok(t),
            _ => Err(format!(
                "{} runs on sm_{arch} only (it uses that architecture's own instructions); \
                 this device's code is compiled for {}",
                k.label(),
                device
                    .arch_option()
                    .trim_start_matches("--gpu-architecture=")
            )),
        }
    }

    /// The common header then the kernel file, with `#line` markers so that
    /// compiler messages name the right file.
    pub fn source(&self) -> String {
        format!(
            "#line 1 \"gemm_common.cuh\"\n{COMMON}\n#line 1 \"{}\"\n{}",
            self.file,
            self.body.replace("#include \"gemm_common.cuh\"", "")
        )
    }

    /// Every parameter at its first value, then `pairs` set.
    pub fn config(&self, pairs: &[(&str, i64)]) -> Config {
        let mut c: Config = self.params.iter().map(|(n, v)| (n.clone(), v[0])).collect();
        for (k, v) in pairs {
            c.insert(k.to_string(), *v);
        }
        c
    }

    /// Checks that `config` sets exactly this template's parameters, each to
    /// one of its values.
    pub fn validate(&self, config: &Config) -> Result<(), String> {
        for (name, values) in &self.params {
            match config.get(name) {
                None => {
                    return Err(format!(
                        "{name} is missing ({} takes {})",
                        self.flavor,
                        self.param_names()
                    ))
                }
                Some(v) if !values.contains(v) => {
                    return Err(format!("{name}={v} is not among its values {values:?}"))
                }
                Some(_) => {}
            }
        }
        match config
            .keys()
            .find(|k| !self.params.iter().any(|(n, _)| n == *k))
        {
            Some(extra) => Err(format!(
                "{extra} is not a parameter of {} (it takes {})",
                self.flavor,
                self.param_names()
            )),
            None => Ok(()),
        }
    }

    fn param_names(&self) -> String {
        self.params
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The constraints `config` violates with the device limits `limits`
    /// (a name-to-value lookup).
    pub fn violations(&self, config: &Config, limits: &dyn Fn(&str) -> Option<i64>) -> Vec<String> {
        let env = |name: &str| config.get(name).copied().or_else(|| limits(name));
        self.constraints
            .iter()
            .filter(|(_, e)| e.eval(&env).map(|v| v == 0).unwrap_or(true))
            .map(|(text, _)| text.clone())
            .collect()
    }

    /// The `-D` defines of a kernel.
    pub fn defines(&self, k: &GemmKernel) -> Vec<(String, i64)> {
        let mut d: Vec<(String, i64)> = self
            .defines
            .iter()
            .chain(&k.config)
            .map(|(n, v)| (n.clone(), *v))
            .collect();
        let l = k.compiled_layout();
        d.push(("TRANS_A".into(), l.a.define()));
        d.push(("TRANS_B".into(), l.b.define()));
        d
    }

    /// `k`'s variables on `p`: the problem its main kernel runs, which for
    /// a packing kernel is the packed one ([`GemmKernel::packing`]).
    fn env<'a>(k: &'a GemmKernel, p: &GemmProblem) -> impl Fn(&str) -> Option<i64> + 'a {
        let p = k.packing(p).map_or(*p, |pk| pk.problem);
        let l = k.compiled_layout();
        move |name: &str| match name {
            "M" => Some(p.m as i64),
            "N" => Some(p.n as i64),
            "K" => Some(p.k as i64),
            "lda" => Some(p.lda as i64),
            "ldb" => Some(p.ldb as i64),
            "ldc" => Some(p.ldc as i64),
            "TRANS_A" => Some(l.a.define()),
            "TRANS_B" => Some(l.b.define()),
            "split_counters" => Some(SPLIT_COUNTERS as i64),
            "split_work_bytes" => Some(SPLIT_WORK_BYTES as i64),
            other => k.config.get(other).copied(),
        }
    }

    /// Whether the kernel can run problem `p` (leading dimensions the vector
    /// loads can take, ...); the unmet condition otherwise.
    pub fn accepts(&self, k: &GemmKernel, p: &GemmProblem) -> Result<(), String> {
        if (k.flavor, k.layout) != (p.flavor, p.layout) {
            return Err(format!(
                "the kernel is {} {}, the problem {} {}",
                k.flavor, k.layout, p.flavor, p.layout
            ));
        }
        if let Some(pk) = k.packing(p) {
            // The copies must be matrices the kernels can index (32 bits).
            pk.problem
                .validate()
                .map_err(|e| format!("the packed copies of {p}: {e}"))?;
        }
        let env = GemmTemplate::env(k, p);
        for (text, e) in &self.requires {
            match e.eval(&env) {
                Ok(0) => return Err(format!("this kernel needs {text} ({p})")),
                Ok(_) => {}
                Err(err) => return Err(format!("`{text}`: {err}")),
            }
        }
        Ok(())
    }

    /// Whether A, B and C meet the kernel's alignment (most kernels store
    /// C element by element, so it needs only its element's).
    pub fn aligned(&self, k: &GemmKernel, a: u64, b: u64, c: u64) -> Result<(), String> {
        let env = |name: &str| k.config.get(name).copied();
        let bytes = |e: &IntExpr| -> Result<u64, String> {
            Ok(e.eval(&env).map_err(|e| e.to_string())?.max(1) as u64)
        };
        let (ab, cb) = (bytes(&self.pointer_align)?, bytes(&self.c_align)?);
        for (name, ptr, align) in [("A", a, ab), ("B", b, ab), ("C", c, cb)] {
            if ptr % align != 0 {
                return Err(format!(
                    "{name} at {ptr:#x} is not aligned to {align} bytes, as this kernel's loads need"
                ));
            }
        }
        Ok(())
    }

    /// Grid, block and dynamic shared memory of the kernel on `p`.
    pub fn launch(&self, k: &GemmKernel, p: &GemmProblem) -> hone_gpu::launch::LaunchDims {
        let env = GemmTemplate::env(k, p);
        // The expressions were checked against every parameter when the
        // template loaded; a value outside u32 is clamped to fail the launch.
        let v = |e: &IntExpr| e.eval(&env).unwrap_or(0).clamp(0, u32::MAX as i64) as u32;
        hone_gpu::launch::LaunchDims {
            grid: (v(&self.grid[0]), v(&self.grid[1]), v(&self.grid[2])),
            block: (v(&self.block[0]), v(&self.block[1]), v(&self.block[2])),
            shared_mem: v(&self.shared_mem),
        }
    }
}

/// The template of a flavor.
pub fn template(flavor: Flavor) -> &'static GemmTemplate {
    static TEMPLATES: OnceLock<Vec<GemmTemplate>> = OnceLock::new();
    let all = TEMPLATES.get_or_init(|| {
        FILES
            .iter()
            .map(|&(f, json, body, file)| GemmTemplate::load(f, json, body, file))
            .collect()
    });
    all.iter()
        .find(|t| t.flavor == flavor)
        .expect("every flavor has a template")
}

/// The kernel a tuner configuration stands for, checked against its
/// template's parameters.
pub fn kernel_of(
    flavor: Flavor,
    layout: Layout,
    config: &hone_tuner::Config,
) -> Result<GemmKernel, String> {
    let t = template(flavor);
    let mut ints = t.defaults.clone();
    for (name, value) in config.entries() {
        let v = value
            .as_int()
            .ok_or_else(|| format!("{name} = `{value}` is not an integer"))?;
        ints.insert(name.clone(), v);
    }
    t.validate(&ints)?;
    Ok(GemmKernel {
        flavor,
        layout,
        config: ints,
    })
}

/// `kernel`, or the same kernel without warp specialization (WS = 0) where
/// the shape splits K, which the specialized kernels do not; without
/// packing (PACK = 0) for a thin C (`pack_for_shape`) or copies too large
/// to index with 32 bits; with element loads (VEC = 1) when `p`'s leading
/// dimensions or the pointers do not suit its vector loads, and without
/// split-K (SPLITK = 1) when C's tiles outnumber the split-K counters or
/// their partial tiles overflow the workspace: a BLAS caller may pass any
/// problem and should get an answer, a little slower. `kernel` itself where
/// no variant runs `p` either.
pub fn fitting(
    kernel: GemmKernel,
    p: &GemmProblem,
    a: u64,
    b: u64,
    limits: &dyn Fn(&str) -> Option<i64>,
) -> GemmKernel {
    let t = template(kernel.flavor);
    let runs = |k: &GemmKernel| {
        t.validate(&k.config).is_ok()
            && t.violations(&k.config, limits).is_empty()
            && t.accepts(k, p).is_ok()
            && t.aligned(k, a, b, 0).is_ok()
    };
    let kernel = split_for_shape(pack_for_shape(kernel, p), p, limits);
    if runs(&kernel) {
        return kernel;
    }
    let with = |pairs: &[(&str, i64)]| {
        let mut k = kernel.clone();
        for (name, v) in pairs {
            if k.config.contains_key(*name) {
                k.config.insert(name.to_string(), *v);
            }
        }
        k
    };
    [
        with(&[("WS", 0)]),
        with(&[("PACK", 0)]),
        with(&[("VEC", 1)]),
        with(&[("SPLITK", 1)]),
        with(&[("PACK", 0), ("VEC", 1)]),
        with(&[("VEC", 1), ("SPLITK", 1)]),
        with(&[("PACK", 0), ("VEC", 1), ("SPLITK", 1)]),
    ]
    .into_iter()
    .find(|k| runs(k))
    .unwrap_or(kernel)
}

/// Packing copies the operands it packs once (M K elements for A, N K for
/// B) for a product of 2 M N K flops, whose every k step it spares a
/// transpose: it pays where C is large beside the copies. The rules are
/// tuned on squares, where it pays from N = 1056-1184 up
/// (`bench/results/gemm/h200/3xtf32-pack/`). A shape that copies more than
/// M N / [`PACK_MIN_REUSE`] elements per k (a thin C, tall-skinny or thin
/// panels with a long K, whose cube root can still reach a packing rule)
/// runs the kernel without packing; TN copies nothing and keeps it.
fn pack_for_shape(kernel: GemmKernel, p: &GemmProblem) -> GemmKernel {
    let Some(pk) = kernel.packing(p) else {
        return kernel;
    };
    let copied = p.m as u128 * pk.pack_a as u128 + p.n as u128 * pk.pack_b as u128;
    if copied * PACK_MIN_REUSE as u128 > p.m as u128 * p.n as u128 {
        kernel.unpacked()
    } else {
        kernel
    }
}

/// Elements of C per element a packing kernel copies (per k) below which it
/// does not pack (see `pack_for_shape`): a square packs one operand from
/// N = 512 and both from 1024, below where the rules start packing.
pub const PACK_MIN_REUSE: u64 = 512;

/// The rules are tuned on square sizes, where C has tiles enough for every
/// SM. A C with fewer tiles than the GPU has SMs and a K at least four times
/// M and N (a product of thin panels) would leave most SMs idle through a
/// long K loop, so the rule's kernel gets its K split: the most slices (a
/// power of two among the template's values) that keep tiles x slices within
/// the SM count and each slice at least 8 k tiles long (a kernel the rule
/// already splits keeps its slices where that gives fewer). Templates
/// without split-K and other shapes are left as they are.
fn split_for_shape(
    kernel: GemmKernel,
    p: &GemmProblem,
    limits: &dyn Fn(&str) -> Option<i64>,
) -> GemmKernel {
    let t = template(kernel.flavor);
    let get = |n: &str| kernel.config.get(n).copied();
    let (Some(ruled), Some(bk), Some(sms)) = (get("SPLITK"), get("BK"), limits("sm_count")) else {
        return kernel;
    };
    // the launch's first grid dimension counts C's tiles
    let tiles = t.launch(&kernel, p).grid.0 as i64;
    if !t.split_k || p.k < 4 * p.m.max(p.n) || tiles >= sms {
        return kernel;
    }
    let k_tiles = p.k.div_ceil(bk.max(1) as usize) as i64;
    let values = t
        .params
        .iter()
        .find(|(name, _)| name == "SPLITK")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let slices = values
        .into_iter()
        .filter(|&s| tiles * s <= sms && k_tiles >= 8 * s)
        .max()
        .unwrap_or(1)
        .max(ruled);
    let mut split = kernel;
    split.config.insert("SPLITK".to_string(), slices);
    split
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::Op;
    use crate::symv::DeviceLimits;

    fn h100() -> impl Fn(&str) -> Option<i64> {
        let l = DeviceLimits::h100_sxm();
        move |n: &str| l.get(n)
    }

    fn configs(t: &GemmTemplate) -> Vec<Config> {
        hone_gpu::template::cartesian(t.params.iter().map(|(n, v)| (n, v)))
    }

    #[test]
    fn every_expression_names_known_variables_and_spaces_are_not_empty() {
        let limits = h100();
        for f in Flavor::ALL {
            let t = template(f);
            assert!(
                t.source().contains(&format!("{}(", t.entry)) || t.source().contains("KERNEL_NAME")
            );
            let valid: Vec<Config> = configs(t)
                .into_iter()
                .filter(|c| t.violations(c, &limits).is_empty())
                .collect();
            assert!(valid.len() >= 8, "{f}: {} valid", valid.len());
            // Launch expressions evaluate on every valid configuration and
            // every layout, giving a legal block.
            let p = GemmProblem::packed(f, Layout { a: Op::T, b: Op::N }, 1000, 333, 129);
            for c in &valid {
                let k = GemmKernel {
                    flavor: f,
                    layout: p.layout,
                    config: c.clone(),
                };
                let d = t.launch(&k, &p);
                let threads = d.block.0 * d.block.1 * d.block.2;
                assert!((32..=1024).contains(&threads), "{f} {}", k.label());
                assert!(
                    d.grid.0 >= 1 && d.shared_mem as i64 <= limits("smem_per_block_optin").unwrap()
                );
            }
        }
    }

    #[test]
    fn the_measured_best_configurations_are_in_the_spaces() {
        let limits = h100();
        let cases: [(Flavor, &[(&str, i64)]); 4] = [
            (
                Flavor::Sgemm,
                &[
                    ("BM", 256),
                    ("BN", 128),
                    ("BK", 8),
                    ("TM", 16),
                    ("TN", 8),
                    ("VEC", 4),
                ],
            ),
            (
                Flavor::Sgemm,
                &[
                    ("BM", 64),
                    ("BN", 64),
                    ("BK", 8),
                    ("TM", 4),
                    ("TN", 8),
                    ("VEC", 4),
                ],
            ),
            (
                Flavor::Dgemm,
                &[
                    ("BM", 128),
                    ("BN", 64),
                    ("BK", 8),
                    ("WARPS_M", 2),
                    ("WARPS_N", 2),
                    ("MMA_K", 8),
                    ("STAGES", 4),
                    ("VEC", 2),
                    ("GROUP", 16),
                ],
            ),
            (
                Flavor::Sgemm3xTf32,
                &[
                    ("BM", 128),
                    ("BN", 128),
                    ("BK", 32),
                    ("WARPS_M", 2),
                    ("WARPS_N", 4),
                    ("STAGES", 3),
                    ("VEC", 4),
                ],
            ),
        ];
        for (f, pairs) in cases {
            let t = template(f);
            let c = t.config(pairs);
            assert!(t.validate(&c).is_ok(), "{f}: {:?}", t.validate(&c));
            assert_eq!(t.violations(&c, &limits), Vec::<String>::new(), "{f} {c:?}");
        }
    }

    /// The warpgroup-MMA 3xTF32 kernels: valid on an H100 in the tile
    /// shapes measured, launched with a warpgroup per 64 rows and their
    /// swizzled stages, and compiled for sm_90a, which no other GPU runs.
    #[test]
    fn wgmma_kernels_need_sm_90_and_its_specific_target() {
        let limits = h100();
        let t = template(Flavor::Sgemm3xTf32);
        let wg = |bm: i64, bn: i64, stages: i64| {
            t.config(&[
                ("WGMMA", 1),
                ("BM", bm),
                ("BN", bn),
                ("BK", 32),
                ("STAGES", stages),
                ("FLUSH", 4),
            ])
        };
        for (bm, bn, stages) in [(128, 128, 3), (64, 128, 4), (128, 64, 4), (192, 64, 3)] {
            let c = wg(bm, bn, stages);
            assert_eq!(t.violations(&c, &limits), Vec::<String>::new(), "{c:?}");
            let k = GemmKernel {
                flavor: Flavor::Sgemm3xTf32,
                layout: Layout { a: Op::N, b: Op::T },
                config: c,
            };
            let p = GemmProblem::packed(Flavor::Sgemm3xTf32, k.layout, 1000, 333, 129);
            let d = t.launch(&k, &p);
            assert_eq!(d.block, ((bm / 64 * 128) as u32, 1, 1));
            assert_eq!(d.shared_mem as i64, stages * (2 * bm + 2 * bn) * 128 + 1024);
            // any leading dimension: the kernel loads element by element where it must
            assert!(t.accepts(&k, &GemmProblem { lda: 1001, ..p }).is_ok());
            let sm90 = Target {
                arch: 90,
                kind: hone_gpu::ImageKind::Cubin,
                arch_specific: false,
            };
            let specific = t.target(&k, &sm90).unwrap();
            assert!(specific.arch_specific);
            assert_eq!(specific.arch_option(), "--gpu-architecture=sm_90a");
            for other in [
                Target { arch: 100, ..sm90 },
                Target { arch: 80, ..sm90 },
                Target {
                    kind: hone_gpu::ImageKind::Ptx,
                    ..sm90
                },
            ] {
                let e = t.target(&k, &other).unwrap_err();
                assert!(e.contains("runs on sm_90 only"), "{e}");
            }
            let mma = GemmKernel {
                config: t.config(&[("BK", 32), ("VEC", 4)]),
                ..k.clone()
            };
            assert_eq!(t.target(&mma, &sm90).unwrap(), sm90);
        }
        // 128 x 128 tiles need all the registers of an SM: no third warpgroup
        assert!(!t.violations(&wg(192, 128, 3), &limits).is_empty());
        // four 128 x 128 stages do not fit in shared memory
        assert!(!t.violations(&wg(128, 128, 4), &limits).is_empty());
        // the mma.sync kernel keeps its own flush and tiles
        let odd = t.config(&[("BK", 32), ("VEC", 4), ("FLUSH", 4)]);
        assert!(!t.violations(&odd, &limits).is_empty());
    }

    /// The warp-specialized form (WS = 1): 128 x 128 warpgroup-MMA tiles
    /// only, two producer warpgroups beside the two that issue the MMAs, the
    /// same stages; a shape the library splits K for runs its
    /// non-specialized twin split.
    #[test]
    fn warp_specialized_kernels_have_producer_warpgroups_and_give_way_to_split_k() {
        let limits = h100();
        let t = template(Flavor::Sgemm3xTf32);
        let ws = |pairs: &[(&str, i64)]| {
            let mut c = t.config(&[
                ("WGMMA", 1),
                ("WS", 1),
                ("BM", 128),
                ("BN", 128),
                ("BK", 32),
                ("STAGES", 3),
                ("FLUSH", 4),
            ]);
            for (n, v) in pairs {
                c.insert(n.to_string(), *v);
            }
            c
        };
        let c = ws(&[]);
        assert_eq!(t.violations(&c, &limits), Vec::<String>::new(), "{c:?}");
        let tn = Layout { a: Op::T, b: Op::N };
        let k = GemmKernel {
            flavor: Flavor::Sgemm3xTf32,
            layout: tn,
            config: c,
        };
        let square = GemmProblem::packed(Flavor::Sgemm3xTf32, tn, 4096, 4096, 4096);
        let d = t.launch(&k, &square);
        assert_eq!(d.block, (512, 1, 1));
        assert_eq!(d.shared_mem, 3 * 512 * 128 + 1024);
        assert_eq!(fitting(k.clone(), &square, 4096, 8192, &limits), k);
        // thin panels with a long K: split, by the kernel without producers
        let thin = GemmProblem::packed(Flavor::Sgemm3xTf32, tn, 256, 256, 16384);
        let f = fitting(k.clone(), &thin, 4096, 8192, &limits);
        assert_eq!((f.config["WS"], f.config["WGMMA"]), (0, 1));
        assert!(f.config["SPLITK"] > 1, "{:?}", f.config);
        for bad in [ws(&[("SPLITK", 2)]), ws(&[("BN", 64)]), ws(&[("BM", 64)])] {
            assert!(!t.violations(&bad, &limits).is_empty(), "{bad:?}");
        }
        // the mma.sync kernel has no specialized form
        let mma = |ws: i64| {
            t.config(&[
                ("BM", 128),
                ("BN", 128),
                ("BK", 32),
                ("WARPS_M", 2),
                ("WARPS_N", 4),
                ("STAGES", 3),
                ("VEC", 4),
                ("WS", ws),
            ])
        };
        assert_eq!(t.violations(&mma(0), &limits), Vec::<String>::new());
        assert!(!t.violations(&mma(1), &limits).is_empty());
    }

    /// The warp-specialized 3xTF32 kernel that packs its operands.
    fn packing_ws_config(t: &GemmTemplate) -> Config {
        t.config(&[
            ("WGMMA", 1),
            ("WS", 1),
            ("PACK", 1),
            ("BM", 128),
            ("BN", 128),
            ("BK", 32),
            ("STAGES", 3),
            ("FLUSH", 4),
        ])
    }

    #[test]
    fn packing_kernels_run_the_tn_kernel_on_k_contiguous_copies() {
        let t = template(Flavor::Sgemm3xTf32);
        let config = packing_ws_config(t);
        let tn = Layout { a: Op::T, b: Op::N };
        for layout in Layout::ALL {
            let k = GemmKernel {
                flavor: Flavor::Sgemm3xTf32,
                layout,
                config: config.clone(),
            };
            let d = t.defines(&k);
            assert!(d.contains(&("TRANS_A".to_string(), 1)), "{layout}");
            assert!(d.contains(&("TRANS_B".to_string(), 0)), "{layout}");
            // an odd K: the copies' columns start at multiples of 32
            let mut p = GemmProblem::packed(Flavor::Sgemm3xTf32, layout, 300, 200, 97);
            p.lda += 3;
            p.ldb += 5;
            let pk = k.packing(&p).expect("PACK = 1 packs");
            assert_eq!(pk.ld, 128);
            assert_eq!(pk.problem.layout, tn);
            assert_eq!(
                (pk.pack_a, pk.pack_b),
                (layout.a == Op::N, layout.b == Op::T)
            );
            // an operand already K-contiguous is read where it is
            assert_eq!(pk.problem.lda, if pk.pack_a { 128 } else { p.lda });
            assert_eq!(pk.problem.ldb, if pk.pack_b { 128 } else { p.ldb });
            assert_eq!(
                pk.elements(),
                128 * (300 * pk.pack_a as usize + 200 * pk.pack_b as usize)
            );
            assert_eq!(pk.b_offset(), 128 * 300 * pk.pack_a as usize);
            t.accepts(&k, &p).unwrap();
            // the launch is the TN kernel's
            let mut plain = GemmKernel {
                layout: tn,
                ..k.clone()
            };
            plain.config.insert("PACK".into(), 0);
            assert_eq!(t.launch(&k, &p), t.launch(&plain, &pk.problem));
        }
        // without PACK nothing is packed
        let mut k = GemmKernel {
            flavor: Flavor::Sgemm3xTf32,
            layout: Layout::ALL[0],
            config,
        };
        k.config.insert("PACK".into(), 0);
        let p = GemmProblem::packed(Flavor::Sgemm3xTf32, k.layout, 64, 64, 64);
        assert!(k.packing(&p).is_none());
        assert!(t.defines(&k).contains(&("TRANS_A".to_string(), 0)));
    }

    /// Packing pays on squares from N = 1056 up; a thin C (tall-skinny, or
    /// thin panels with a long K) whose cube root reaches a packing rule
    /// runs without it.
    #[test]
    fn thin_shapes_run_without_packing() {
        let t = template(Flavor::Sgemm3xTf32);
        let limits = h100();
        let k = GemmKernel {
            flavor: Flavor::Sgemm3xTf32,
            layout: Layout::ALL[0],
            config: packing_ws_config(t),
        };
        let pack = |m, n, kk| {
            let p = GemmProblem::packed(Flavor::Sgemm3xTf32, k.layout, m, n, kk);
            fitting(k.clone(), &p, 0, 0, &limits).config["PACK"]
        };
        // NN copies A alone (M K elements)
        assert_eq!(pack(1056, 1056, 1056), 1);
        assert_eq!(pack(8192, 8192, 8192), 1);
        assert_eq!(pack(511, 511, 4096), 0);
        // a rank-256 update of a large C still packs its thin operands
        assert_eq!(pack(4096, 4096, 256), 1);
        // a short A beside a wide C is cheap to copy
        assert_eq!(pack(64, 100_000, 64), 1);
        assert_eq!(pack(256, 256, 16384), 0);
        assert_eq!(pack(8192, 64, 8192), 0);
        assert_eq!(pack(16, 16, 1 << 22), 0);
        // NT copies both; TN copies nothing and keeps its configuration
        let with = |layout, m, n| {
            let k = GemmKernel {
                layout,
                ..k.clone()
            };
            let p = GemmProblem::packed(Flavor::Sgemm3xTf32, layout, m, n, 64);
            fitting(k, &p, 0, 0, &limits).config["PACK"]
        };
        assert_eq!(with(Layout::ALL[1], 1024, 1024), 1);
        assert_eq!(with(Layout::ALL[1], 1000, 1000), 0);
        assert_eq!(with(Layout::ALL[2], 16, 16), 1);
    }

    /// The mma.sync kernel's 16-byte loads need leading dimensions that
    /// are multiples of 4: a packing kernel meets that on the copies, so an
    /// NN problem with odd ones keeps its vector loads; copies too large to
    /// index with 32 bits make `fitting` drop the packing.
    #[test]
    fn packing_kernels_are_judged_on_the_copies() {
        let t = template(Flavor::Sgemm3xTf32);
        let limits = h100();
        let config = t.config(&[
            ("BM", 64),
            ("BN", 64),
            ("BK", 16),
            ("WARPS_M", 2),
            ("WARPS_N", 2),
            ("STAGES", 3),
            ("VEC", 4),
            ("PACK", 1),
        ]);
        let k = GemmKernel {
            flavor: Flavor::Sgemm3xTf32,
            layout: Layout::ALL[0],
            config,
        };
        let mut p = GemmProblem::packed(Flavor::Sgemm3xTf32, k.layout, 1201, 1103, 97);
        p.lda += 1;
        p.ldb += 2;
        assert_eq!((p.lda % 4, p.ldb % 4), (2, 3));
        // NN packs A; B's own leading dimension still has to suit VEC.
        assert!(t.accepts(&k, &p).is_err());
        p.ldb += 1;
        t.accepts(&k, &p).unwrap();
        let mut plain = k.clone();
        plain.config.insert("PACK".into(), 0);
        assert!(t.accepts(&plain, &p).is_err(), "lda {} is odd", p.lda);
        // the shared memory follows the compiled (TN) layout
        let tn = GemmKernel {
            layout: Layout { a: Op::T, b: Op::N },
            ..plain.clone()
        };
        let pk = k.packing(&p).unwrap();
        assert_eq!(t.launch(&k, &p), t.launch(&tn, &pk.problem));
        assert_ne!(t.launch(&k, &p), t.launch(&plain, &p));
        assert_eq!(fitting(k.clone(), &p, 0, 0, &limits), k);
        // M x K copies past 2^31 - 1 elements: the kernel without packing
        let big = GemmProblem::packed(Flavor::Sgemm3xTf32, k.layout, 65536, 1024, 32767);
        big.validate().unwrap();
        assert!(t.accepts(&k, &big).is_err());
        let f = fitting(k.clone(), &big, 0, 0, &limits);
        assert_eq!(f.config["PACK"], 0, "{}", f.label());
    }

    #[test]
    fn vector_kernels_fall_back_to_element_loads() {
        let limits = h100();
        let t = template(Flavor::Sgemm);
        let c = t.config(&[
            ("BM", 128),
            ("BN", 64),
            ("BK", 16),
            ("TM", 8),
            ("TN", 4),
            ("VEC", 4),
        ]);
        let nn = Layout { a: Op::N, b: Op::N };
        let k = GemmKernel {
            flavor: Flavor::Sgemm,
            layout: nn,
            config: c,
        };
        let good = GemmProblem::packed(Flavor::Sgemm, nn, 64, 64, 64);
        assert_eq!(fitting(k.clone(), &good, 4096, 8192, &limits), k);
        let mut odd = good;
        odd.lda = 65;
        let e = t.accepts(&k, &odd).unwrap_err();
        assert!(e.contains("lda % VEC == 0"), "{e}");
        assert_eq!(
            fitting(k.clone(), &odd, 4096, 8192, &limits).config["VEC"],
            1
        );
        assert!(t
            .aligned(&k, 4100, 8192, 0)
            .unwrap_err()
            .contains("not aligned to 16 bytes"));
        assert_eq!(
            fitting(k.clone(), &good, 4100, 8192, &limits).config["VEC"],
            1
        );
        let other = GemmProblem::packed(Flavor::Dgemm, nn, 64, 64, 64);
        assert!(t
            .accepts(&k, &other)
            .unwrap_err()
            .contains("the problem dgemm"));
    }

    #[test]
    fn defines_carry_the_layout_and_the_configuration() {
        let t = template(Flavor::Dgemm);
        let k = GemmKernel {
            flavor: Flavor::Dgemm,
            layout: Layout { a: Op::T, b: Op::N },
            config: t.config(&[]),
        };
        let d = t.defines(&k);
        assert!(d.contains(&("TRANS_A".to_string(), 1)) && d.contains(&("TRANS_B".to_string(), 0)));
        assert!(d.iter().any(|(n, _)| n == "STAGES"));
        let c = crate::gemm::template::kernel_of(
            Flavor::Dgemm,
            k.layout,
            &hone_tuner::Config::new(
                k.config
                    .iter()
                    .map(|(n, v)| (n.clone(), hone_tuner::ParamValue::Int(*v)))
                    .collect(),
            ),
        )
        .unwrap();
        assert_eq!(c, k);
        let bad = hone_tuner::Config::new(vec![("BM".into(), hone_tuner::ParamValue::Int(96))]);
        assert!(kernel_of(Flavor::Dgemm, k.layout, &bad).is_err());
    }

    #[test]
    fn split_k_launches_a_grid_row_per_slice_and_falls_back_past_the_counters() {
        let limits = h100();
        let t = template(Flavor::Dgemm);
        assert!(t.split_k && template(Flavor::Sgemm).split_k && !template(Flavor::Ddgemm).split_k);
        let nn = Layout { a: Op::N, b: Op::N };
        let k = GemmKernel {
            flavor: Flavor::Dgemm,
            layout: nn,
            config: t.config(&[("BM", 64), ("BN", 64), ("SPLITK", 4), ("VEC", 2)]),
        };
        let small = GemmProblem::packed(Flavor::Dgemm, nn, 256, 256, 512);
        assert_eq!(t.launch(&k, &small).grid, (16, 4, 1));
        assert_eq!(fitting(k.clone(), &small, 4096, 8192, &limits), k);
        // 64 x 64 tiles of a 20000 x 20000 C outnumber the counters
        let big = GemmProblem::packed(Flavor::Dgemm, nn, 20000, 20000, 64);
        assert!(t.accepts(&k, &big).unwrap_err().contains("split_counters"));
        let f = fitting(k.clone(), &big, 4096, 8192, &limits);
        assert_eq!((f.config["SPLITK"], f.config["VEC"]), (1, 2));
        // with odd leading dimensions too, both fall back
        let mut odd = big;
        odd.lda += 1;
        let f = fitting(k, &odd, 4096, 8192, &limits);
        assert_eq!((f.config["SPLITK"], f.config["VEC"]), (1, 1));
    }

    #[test]
    fn thin_panels_with_a_long_k_get_k_split_and_square_shapes_keep_the_rule() {
        let limits = h100();
        let t = template(Flavor::Dgemm);
        let nn = Layout { a: Op::N, b: Op::N };
        let k = GemmKernel {
            flavor: Flavor::Dgemm,
            layout: nn,
            config: t.config(&[("BM", 64), ("BN", 128), ("BK", 16), ("VEC", 2)]),
        };
        let slices = |m, n, kk| {
            let p = GemmProblem::packed(Flavor::Dgemm, nn, m, n, kk);
            fitting(k.clone(), &p, 4096, 8192, &limits).config["SPLITK"]
        };
        // 8 tiles on 132 SMs: 16 slices of 64 k tiles
        assert_eq!(slices(256, 256, 16384), 16);
        // 2 tiles, and 8 slices of 8 k tiles: 1024 / 16 = 64 k tiles
        assert_eq!(slices(128, 128, 1024), 8);
        // square, or tiles enough for the SMs: the rule's kernel as it is
        assert_eq!(slices(256, 256, 256), 1);
        assert_eq!(slices(2048, 2048, 16384), 1);
        // K too short for slices of 8 k tiles
        assert_eq!(slices(16, 16, 100), 1);
        // a kernel the rule already splits (small square C) gets more
        // slices for a long K, and keeps its own elsewhere
        let s = template(Flavor::Sgemm);
        let split = GemmKernel {
            flavor: Flavor::Sgemm,
            layout: nn,
            config: s.config(&[
                ("BM", 64),
                ("BN", 64),
                ("BK", 8),
                ("TM", 4),
                ("TN", 8),
                ("SPLITK", 2),
            ]),
        };
        let sgemm_slices = |m, n, kk| {
            let p = GemmProblem::packed(Flavor::Sgemm, nn, m, n, kk);
            fitting(split.clone(), &p, 4096, 8192, &limits).config["SPLITK"]
        };
        // 16 tiles on 132 SMs: 8 slices of 256 k tiles
        assert_eq!(sgemm_slices(256, 256, 16384), 8);
        assert_eq!(sgemm_slices(256, 256, 256), 2);
        assert_eq!(sgemm_slices(16, 16, 100), 2);
    }

    #[test]
    fn stored_configurations_without_split_k_take_its_default() {
        let t = template(Flavor::Dgemm);
        let mut stored = t.config(&[]);
        stored.remove("SPLITK");
        let c = hone_tuner::Config::new(
            stored
                .iter()
                .map(|(n, v)| (n.clone(), hone_tuner::ParamValue::Int(*v)))
                .collect(),
        );
        let k = kernel_of(Flavor::Dgemm, Layout { a: Op::N, b: Op::T }, &c).unwrap();
        assert_eq!(k.config["SPLITK"], 1);
    }
}
