//! Tunable kernel templates: a CUDA C source with `-D` parameters and a JSON
//! description of how to launch, feed, measure and check it.
//!
//! ```json
//! {
//!   "name": "vcopy",
//!   "source": "vcopy.cu",
//!   "kernel": "vcopy",
//!   "params": { "BLOCK_SIZE": [128, 256], "VEC": [1, 2, 4] },
//!   "constraints": ["BLOCK_SIZE * VEC <= 4096"],
//!   "grid": ["cdiv(N, BLOCK_SIZE * VEC)"],
//!   "block": ["BLOCK_SIZE"],
//!   "buffers": [
//!     { "name": "src", "type": "f32", "len": "N", "init": "random" },
//!     { "name": "dst", "type": "f32", "len": "N", "init": "output" }
//!   ],
//!   "args": ["dst", "src", { "expr": "N", "type": "u64" }],
//!   "bytes": "8 * N",
//!   "flops": "0",
//!   "reference": { "builtin": "copy", "inputs": ["src"], "outputs": ["dst"] }
//! }
//! ```
//!
//! Every expression is an [`IntExpr`] over `N` (the problem size) and the
//! parameters.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use hone_ir::Arith;
use serde::{Deserialize, Serialize};

use crate::error::{GpuError, Result};
use crate::expr::IntExpr;
use crate::host::ElemType;
use crate::nvrtc::CompileOptions;
use crate::reference::{Builtin, ReferenceSpec};

/// The variable that names the problem size in expressions.
pub const SIZE_VAR: &str = "N";

/// Parameter values of one variant.
pub type Config = BTreeMap<String, i64>;

/// Every combination of the parameters' values, the last parameter varying
/// fastest.
pub fn cartesian<'a, S: AsRef<str> + 'a>(
    params: impl IntoIterator<Item = (&'a S, &'a Vec<i64>)>,
) -> Vec<Config> {
    let mut all: Vec<Config> = vec![Config::new()];
    for (name, values) in params {
        all = all
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.insert(name.as_ref().to_string(), *v);
                    c
                })
            })
            .collect();
    }
    all
}

/// How a buffer starts before a checked run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Init {
    /// Fresh uniform random data for every evaluation.
    Random,
    /// Zeros (for accumulators the kernel adds into).
    Zero,
    /// Written by the kernel: poisoned before the checked run.
    Output,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: ElemType,
    /// Length in elements.
    pub len: IntExpr,
    pub init: Init,
}

/// One kernel argument: a buffer's device pointer, a scalar computed from
/// the size and the parameters, or a constant (a stencil's coefficients).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ArgSpec {
    Buffer(String),
    Scalar {
        expr: IntExpr,
        #[serde(rename = "type")]
        ty: Arith,
    },
    Constant {
        value: f64,
        #[serde(rename = "type")]
        ty: Arith,
    },
}

// Constants are checked finite when a template is validated.
impl Eq for ArgSpec {}

/// A scalar argument's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScalarValue {
    Int(i64),
    Real(f64),
}

/// Launch geometry and scalar arguments of a reference kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceLaunch {
    pub kernel: String,
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    pub shared_mem: u32,
    /// The reference kernel's arguments.
    pub args: Vec<ArgSpec>,
    /// Their scalar values (`None` for buffers).
    pub scalars: Vec<Option<(Arith, ScalarValue)>>,
}

/// The file format of a template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The CUDA C file, relative to the template file.
    pub source: String,
    /// The `extern "C"` kernel to launch.
    pub kernel: String,
    /// Each parameter's candidate values; each becomes `-D NAME=VALUE`.
    pub params: BTreeMap<String, Vec<i64>>,
    /// Boolean expressions a variant must satisfy (non-zero = true).
    #[serde(default)]
    pub constraints: Vec<IntExpr>,
    /// 1 to 3 expressions: x, y, z.
    pub grid: Vec<IntExpr>,
    pub block: Vec<IntExpr>,
    /// Dynamic shared memory in bytes.
    #[serde(default)]
    pub shared_mem: Option<IntExpr>,
    pub buffers: Vec<BufferSpec>,
    pub args: Vec<ArgSpec>,
    /// Bytes the kernel must move at least (each input read once, each output
    /// written once): the basis of GB/s.
    pub bytes: IntExpr,
    /// Floating-point operations: the basis of GFLOP/s.
    #[serde(default)]
    pub flops: Option<IntExpr>,
    pub reference: ReferenceSpec,
    /// Largest relative error accepted against the reference.
    #[serde(default)]
    pub tolerance: f64,
    /// Units in the last place of the largest reference magnitude by which
    /// an element near zero may also differ (0: none; see
    /// [`crate::host::floor_fraction`]): for outputs where terms cancel and
    /// the variants sum them in other orders.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rounding_ulps: f64,
    #[serde(default)]
    pub fast_math: bool,
    /// Further NVRTC options.
    #[serde(default)]
    pub compile_options: Vec<String>,
    /// Problem sizes the template is meant to be tuned over.
    #[serde(default)]
    pub sizes: Vec<i64>,
}

/// A validated template with its source text: everything needed to compile,
/// launch and check a variant, so it can be sent whole to a worker process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelTemplate {
    pub spec: TemplateSpec,
    pub source_text: String,
    /// Where the template was read from, for messages.
    #[serde(default)]
    pub origin: Option<PathBuf>,
}

/// Launch geometry and buffers of one variant at one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resolved {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    pub shared_mem: u32,
    pub buffers: Vec<ResolvedBuffer>,
    pub bytes: f64,
    pub flops: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolvedBuffer {
    pub name: String,
    pub ty: ElemType,
    pub len: usize,
    pub init: Init,
}

impl Resolved {
    pub fn threads_per_block(&self) -> u64 {
        self.block.0 as u64 * self.block.1 as u64 * self.block.2 as u64
    }

    pub fn buffer_bytes(&self) -> usize {
        self.buffers.iter().map(|b| b.len * b.ty.size()).sum()
    }
}

/// A constant argument must be finite, and whole for an integer type.
fn check_constant(a: &ArgSpec) -> std::result::Result<(), String> {
    if let ArgSpec::Constant { value, ty } = a {
        if !value.is_finite() {
            return Err(format!("constant {value} is not finite"));
        }
        if !matches!(ty, Arith::F32 | Arith::F64) && value.fract() != 0.0 {
            return Err(format!("constant {value} is not a whole number for {ty:?}"));
        }
    }
    Ok(())
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl KernelTemplate {
    /// Reads a template file and the source it names.
    pub fn load(path: &Path) -> Result<KernelTemplate> {
        let text = std::fs::read_to_string(path).map_err(|e| GpuError::io(path, e))?;
        let spec: TemplateSpec = serde_json::from_str(&text)
            .map_err(|e| GpuError::Template(format!("{}: {e}", path.display())))?;
        let source_path = path.parent().unwrap_or(Path::new(".")).join(&spec.source);
        let source_text =
            std::fs::read_to_string(&source_path).map_err(|e| GpuError::io(&source_path, e))?;
        let mut t = KernelTemplate::new(spec, source_text)
            .map_err(|e| GpuError::Template(format!("{}: {e}", path.display())))?;
        t.origin = Some(path.to_path_buf());
        Ok(t)
    }

    /// Validates `spec` against itself: names, arities, expression variables.
    pub fn new(spec: TemplateSpec, source_text: String) -> Result<KernelTemplate> {
        let err = |m: String| Err(GpuError::Template(m));
        if !is_identifier(&spec.kernel) {
            return err(format!("kernel `{}` is not a C identifier", spec.kernel));
        }
        for (name, values) in &spec.params {
            if !is_identifier(name) || name == SIZE_VAR {
                return err(format!(
                    "parameter `{name}` must be a C identifier other than `{SIZE_VAR}`"
                ));
            }
            if values.is_empty() {
                return err(format!("parameter `{name}` has no values"));
            }
        }
        for (what, dims) in [("grid", &spec.grid), ("block", &spec.block)] {
            if dims.is_empty() || dims.len() > 3 {
                return err(format!(
                    "{what} needs 1 to 3 expressions, got {}",
                    dims.len()
                ));
            }
        }
        let mut names = BTreeSet::new();
        for b in &spec.buffers {
            if !names.insert(b.name.as_str()) {
                return err(format!("buffer `{}` is declared twice", b.name));
            }
        }
        for a in &spec.args {
            if let ArgSpec::Buffer(name) = a {
                if !names.contains(name.as_str()) {
                    return err(format!("argument `{name}` names no buffer"));
                }
            }
        }
        let buffer = |name: &str| spec.buffers.iter().find(|b| b.name == name);
        for (i, a) in spec.args.iter().enumerate() {
            check_constant(a).map_err(|e| GpuError::Template(format!("args[{i}]: {e}")))?;
        }
        let r = &spec.reference;
        match (&r.builtin, r.builtin.arity()) {
            (_, Some((ni, no))) => {
                if r.inputs.len() != ni || r.outputs.len() != no {
                    return err(format!(
                        "reference `{}` takes {ni} input(s) and {no} output(s)",
                        r.builtin.name()
                    ));
                }
            }
            (
                Builtin::Kernel {
                    kernel,
                    grid,
                    block,
                    args,
                    ..
                },
                None,
            ) => {
                if !is_identifier(kernel) {
                    return err(format!("reference kernel `{kernel}` is not a C identifier"));
                }
                if r.outputs.is_empty() {
                    return err("a reference kernel needs at least one output".into());
                }
                for (what, dims) in [("grid", grid), ("block", block)] {
                    if dims.is_empty() || dims.len() > 3 {
                        return err(format!(
                            "reference {what} needs 1 to 3 expressions, got {}",
                            dims.len()
                        ));
                    }
                }
                for (i, a) in args.iter().flatten().enumerate() {
                    match a {
                        ArgSpec::Buffer(name) if !names.contains(name.as_str()) => {
                            return err(format!("reference argument `{name}` names no buffer"))
                        }
                        a => check_constant(a)
                            .map_err(|e| GpuError::Template(format!("reference args[{i}]: {e}")))?,
                    }
                }
            }
            (_, None) => unreachable!("only a reference kernel has no arity"),
        }
        for name in &r.inputs {
            match buffer(name) {
                None => return err(format!("reference input `{name}` names no buffer")),
                Some(b) if b.init == Init::Output => {
                    return err(format!("reference input `{name}` is an output buffer"))
                }
                Some(_) => {}
            }
        }
        // A reference kernel writes fresh buffers, so an output the variant
        // adds into may start at zero.
        let kernel_reference = matches!(r.builtin, Builtin::Kernel { .. });
        for name in &r.outputs {
            match buffer(name) {
                None => return err(format!("reference output `{name}` names no buffer")),
                Some(b) if kernel_reference && b.init == Init::Zero => {}
                Some(b) if b.init != Init::Output => {
                    return err(format!(
                        "reference output `{name}` must have init \"output\""
                    ))
                }
                Some(_) => {}
            }
        }
        if spec.tolerance.is_nan() || spec.tolerance < 0.0 {
            return err(format!("tolerance {} must be >= 0", spec.tolerance));
        }
        if !spec.rounding_ulps.is_finite() || spec.rounding_ulps < 0.0 {
            return err(format!(
                "rounding_ulps {} must be finite and >= 0",
                spec.rounding_ulps
            ));
        }
        let known: BTreeSet<String> = spec
            .params
            .keys()
            .cloned()
            .chain([SIZE_VAR.to_string()])
            .collect();
        let t = KernelTemplate {
            spec,
            source_text,
            origin: None,
        };
        for (field, e) in t.expressions() {
            if let Some(v) = e.variables().iter().find(|v| !known.contains(*v)) {
                return err(format!(
                    "{field}: `{e}` uses `{v}`, which is neither `{SIZE_VAR}` nor a parameter"
                ));
            }
        }
        Ok(t)
    }

    /// Every expression with the field it came from.
    fn expressions(&self) -> Vec<(String, &IntExpr)> {
        let s = &self.spec;
        let mut out = Vec::new();
        for (i, e) in s.constraints.iter().enumerate() {
            out.push((format!("constraints[{i}]"), e));
        }
        for (i, e) in s.grid.iter().enumerate() {
            out.push((format!("grid[{i}]"), e));
        }
        for (i, e) in s.block.iter().enumerate() {
            out.push((format!("block[{i}]"), e));
        }
        if let Some(e) = &s.shared_mem {
            out.push(("shared_mem".to_string(), e));
        }
        for b in &s.buffers {
            out.push((format!("buffers.{}.len", b.name), &b.len));
        }
        for (i, a) in s.args.iter().enumerate() {
            if let ArgSpec::Scalar { expr, .. } = a {
                out.push((format!("args[{i}]"), expr));
            }
        }
        out.push(("bytes".to_string(), &s.bytes));
        if let Some(e) = &s.flops {
            out.push(("flops".to_string(), e));
        }
        for e in s.reference.builtin.expressions() {
            out.push(("reference".to_string(), e));
        }
        out
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// Fails unless `config` gives exactly the template's parameters and
    /// satisfies its constraints.
    pub fn check_config(&self, config: &Config) -> std::result::Result<(), String> {
        for name in self.spec.params.keys() {
            if !config.contains_key(name) {
                return Err(format!("parameter `{name}` has no value"));
            }
        }
        if let Some(extra) = config.keys().find(|k| !self.spec.params.contains_key(*k)) {
            return Err(format!(
                "`{extra}` is not a parameter of `{}`",
                self.spec.name
            ));
        }
        let env = |name: &str| config.get(name).copied();
        for c in &self.spec.constraints {
            // A constraint that names N cannot be decided per variant; it is
            // checked per size in `resolve`.
            if c.variables().contains(SIZE_VAR) {
                continue;
            }
            if c.eval(&env).map_err(|e| e.to_string())? == 0 {
                return Err(format!("constraint `{c}` does not hold"));
            }
        }
        Ok(())
    }

    /// The Cartesian product of the parameter values, less those that break a
    /// constraint.
    pub fn configs(&self) -> Vec<Config> {
        let mut all = cartesian(&self.spec.params);
        all.retain(|c| self.check_config(c).is_ok());
        all
    }

    /// `-D` definitions and options for one variant.
    pub fn compile_options(&self, config: &Config) -> CompileOptions {
        let mut o = CompileOptions::with_defines(config.iter());
        o.fast_math = self.spec.fast_math;
        o.extra = self.spec.compile_options.clone();
        o
    }

    /// Launch geometry, buffers and work counts of `config` at size `n`.
    pub fn resolve(&self, config: &Config, n: i64) -> std::result::Result<Resolved, String> {
        self.check_config(config)?;
        let env = size_env(config, n);
        let eval = |field: &str, e: &IntExpr| e.eval(&env).map_err(|err| format!("{field}: {err}"));
        for c in &self.spec.constraints {
            if eval("constraint", c)? == 0 {
                return Err(format!(
                    "constraint `{c}` does not hold at {SIZE_VAR} = {n}"
                ));
            }
        }
        let grid = eval_dims("grid", &self.spec.grid, &env)?;
        let block = eval_dims("block", &self.spec.block, &env)?;
        let shared_mem = match &self.spec.shared_mem {
            Some(e) => {
                let v = eval("shared_mem", e)?;
                u32::try_from(v).map_err(|_| format!("shared_mem = {v} bytes is out of range"))?
            }
            None => 0,
        };
        let buffers = self
            .spec
            .buffers
            .iter()
            .map(|b| {
                let len = eval(&format!("buffers.{}.len", b.name), &b.len)?;
                let len = usize::try_from(len)
                    .map_err(|_| format!("buffer `{}` has negative length {len}", b.name))?;
                Ok(ResolvedBuffer {
                    name: b.name.clone(),
                    ty: b.ty,
                    len,
                    init: b.init,
                })
            })
            .collect::<std::result::Result<Vec<_>, String>>()?;
        let bytes = eval("bytes", &self.spec.bytes)? as f64;
        let flops = match &self.spec.flops {
            Some(e) => eval("flops", e)? as f64,
            None => 0.0,
        };
        Ok(Resolved {
            grid,
            block,
            shared_mem,
            buffers,
            bytes,
            flops,
        })
    }

    /// Scalar argument values at size `n`, in argument order (`None` for buffers).
    pub fn scalar_args(
        &self,
        config: &Config,
        n: i64,
    ) -> std::result::Result<Vec<Option<(Arith, ScalarValue)>>, String> {
        scalar_values(&self.spec.args, config, n)
    }

    /// Where and with what a reference kernel runs for `config` at size `n`;
    /// `None` for a CPU reference.
    pub fn reference_launch(
        &self,
        config: &Config,
        n: i64,
    ) -> std::result::Result<Option<ReferenceLaunch>, String> {
        let Builtin::Kernel {
            kernel,
            grid,
            block,
            shared_mem,
            args,
        } = &self.spec.reference.builtin
        else {
            return Ok(None);
        };
        let env = size_env(config, n);
        let grid = eval_dims("reference grid", grid, &env)?;
        let block = eval_dims("reference block", block, &env)?;
        let shared_mem = match shared_mem {
            Some(e) => {
                let v = e
                    .eval(&env)
                    .map_err(|err| format!("reference shared_mem: {err}"))?;
                u32::try_from(v)
                    .map_err(|_| format!("reference shared_mem = {v} bytes is out of range"))?
            }
            None => 0,
        };
        let args = args.clone().unwrap_or_else(|| self.spec.args.clone());
        let scalars = scalar_values(&args, config, n)?;
        Ok(Some(ReferenceLaunch {
            kernel: kernel.clone(),
            grid,
            block,
            shared_mem,
            args,
            scalars,
        }))
    }
}

/// The variables of a template's expressions for `config` at size `n`.
pub fn size_env(config: &Config, n: i64) -> impl Fn(&str) -> Option<i64> + '_ {
    move |name: &str| {
        if name == SIZE_VAR {
            Some(n)
        } else {
            config.get(name).copied()
        }
    }
}

/// Evaluates 1 to 3 launch dimensions, each in 1..2^32.
fn eval_dims(
    field: &str,
    es: &[IntExpr],
    env: &dyn Fn(&str) -> Option<i64>,
) -> std::result::Result<(u32, u32, u32), String> {
    let mut d = [1u32; 3];
    for (i, e) in es.iter().enumerate() {
        let v = e.eval(env).map_err(|err| format!("{field}: {err}"))?;
        d[i] = u32::try_from(v)
            .ok()
            .filter(|v| *v > 0)
            .ok_or_else(|| format!("{field}[{i}] = `{e}` = {v} is not in 1..2^32"))?;
    }
    Ok((d[0], d[1], d[2]))
}

/// The scalar values of `args` for `config` at size `n` (`None` for buffers).
fn scalar_values(
    args: &[ArgSpec],
    config: &Config,
    n: i64,
) -> std::result::Result<Vec<Option<(Arith, ScalarValue)>>, String> {
    let env = size_env(config, n);
    args.iter()
        .enumerate()
        .map(|(i, a)| match a {
            ArgSpec::Buffer(_) => Ok(None),
            ArgSpec::Scalar { expr, ty } => expr
                .eval(&env)
                .map(|v| Some((*ty, ScalarValue::Int(v))))
                .map_err(|e| format!("args[{i}]: {e}")),
            ArgSpec::Constant { value, ty } => Ok(Some((*ty, ScalarValue::Real(*value)))),
        })
        .collect()
}

/// The vectorised copy bundled with hone (`kernels/examples/vcopy.json`).
pub fn bundled_vcopy() -> KernelTemplate {
    let spec: TemplateSpec =
        serde_json::from_str(include_str!("../../../kernels/examples/vcopy.json"))
            .expect("the bundled vcopy.json is valid (tested)");
    KernelTemplate::new(
        spec,
        include_str!("../../../kernels/examples/vcopy.cu").to_string(),
    )
    .expect("the bundled vcopy template is valid (tested)")
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_json() -> serde_json::Value {
        serde_json::json!({
            "name": "t",
            "source": "t.cu",
            "kernel": "k",
            "params": {"BS": [64, 128, 2048], "V": [1, 4]},
            "constraints": ["BS * V <= 4096", "N % V == 0"],
            "grid": ["cdiv(N, BS * V)"],
            "block": ["BS"],
            "shared_mem": "BS * 4",
            "buffers": [
                {"name": "x", "type": "f32", "len": "N", "init": "random"},
                {"name": "y", "type": "f32", "len": "N", "init": "output"}
            ],
            "args": ["y", "x", {"expr": "N", "type": "u64"}],
            "bytes": "8 * N",
            "flops": "N",
            "reference": {"builtin": "copy", "inputs": ["x"], "outputs": ["y"]}
        })
    }

    fn template(v: serde_json::Value) -> Result<KernelTemplate> {
        let spec: TemplateSpec =
            serde_json::from_value(v).map_err(|e| GpuError::Template(e.to_string()))?;
        KernelTemplate::new(spec, String::new())
    }

    #[test]
    fn configs_are_the_product_less_the_constraints() {
        let t = template(spec_json()).unwrap();
        let configs = t.configs();
        // 3 x 2 = 6, minus BS=2048,V=4.
        assert_eq!(configs.len(), 5);
        assert!(configs.iter().all(|c| c["BS"] * c["V"] <= 4096));
    }

    #[test]
    fn resolve_evaluates_geometry_buffers_and_work() {
        let t = template(spec_json()).unwrap();
        let cfg: Config = [("BS".to_string(), 128), ("V".to_string(), 4)].into();
        let r = t.resolve(&cfg, 1000).unwrap();
        assert_eq!(r.grid, (2, 1, 1));
        assert_eq!(r.block, (128, 1, 1));
        assert_eq!(r.shared_mem, 512);
        assert_eq!(r.buffers[1].len, 1000);
        assert_eq!(r.buffer_bytes(), 8000);
        assert_eq!((r.bytes, r.flops), (8000.0, 1000.0));
        // The size-dependent constraint rejects N not divisible by V.
        assert!(t.resolve(&cfg, 1001).unwrap_err().contains("N % V == 0"));
        let args = t.scalar_args(&cfg, 1000).unwrap();
        assert_eq!(
            args,
            vec![None, None, Some((Arith::U64, ScalarValue::Int(1000)))]
        );
    }

    #[test]
    fn bad_configs_are_reported() {
        let t = template(spec_json()).unwrap();
        let missing: Config = [("BS".to_string(), 128)].into();
        assert!(t.check_config(&missing).unwrap_err().contains("`V`"));
        let extra: Config = [("BS".into(), 128), ("V".into(), 1), ("W".into(), 1)].into();
        assert!(t.check_config(&extra).unwrap_err().contains("`W`"));
        let zero_grid: Config = [("BS".to_string(), 64), ("V".to_string(), 1)].into();
        assert!(t.resolve(&zero_grid, 0).unwrap_err().contains("grid[0]"));
    }

    #[test]
    fn rounding_ulps_default_to_none_and_must_be_finite_and_non_negative() {
        assert_eq!(template(spec_json()).unwrap().spec.rounding_ulps, 0.0);
        let mut v = spec_json();
        v["rounding_ulps"] = serde_json::json!(16.0);
        assert_eq!(template(v).unwrap().spec.rounding_ulps, 16.0);
        let mut v = spec_json();
        v["rounding_ulps"] = serde_json::json!(-1.0);
        let e = template(v).unwrap_err().to_string();
        assert!(e.contains("rounding_ulps -1"), "{e}");
    }

    #[test]
    fn validation_catches_unknown_names() {
        let mut v = spec_json();
        v["grid"] = serde_json::json!(["cdiv(N, BLOCK)"]);
        let e = template(v).unwrap_err().to_string();
        assert!(e.contains("grid[0]") && e.contains("`BLOCK`"), "{e}");

        let mut v = spec_json();
        v["args"] = serde_json::json!(["y", "z"]);
        assert!(template(v).unwrap_err().to_string().contains("`z`"));

        let mut v = spec_json();
        v["reference"]["outputs"] = serde_json::json!(["x"]);
        assert!(template(v)
            .unwrap_err()
            .to_string()
            .contains("init \"output\""));

        let mut v = spec_json();
        v["params"]["N"] = serde_json::json!([1]);
        assert!(template(v)
            .unwrap_err()
            .to_string()
            .contains("other than `N`"));

        let mut v = spec_json();
        v["block"] = serde_json::json!(["1", "1", "1", "1"]);
        assert!(template(v).unwrap_err().to_string().contains("1 to 3"));

        let mut v = spec_json();
        v["typo_field"] = serde_json::json!(1);
        assert!(template(v).unwrap_err().to_string().contains("typo_field"));
    }

    #[test]
    fn a_reference_kernel_runs_with_its_own_launch_and_arguments() {
        let mut v = spec_json();
        v["args"] = serde_json::json!([
            "y", "x", {"expr": "N", "type": "u64"}, {"value": 0.25, "type": "f32"}
        ]);
        v["reference"] = serde_json::json!({
            "builtin": "kernel", "kernel": "k_naive",
            "grid": ["cdiv(N, BS)"], "block": ["BS"],
            "args": ["y", "x", {"expr": "N", "type": "u64"}],
            "inputs": [], "outputs": ["y"]
        });
        let t = template(v.clone()).unwrap();
        let cfg: Config = [("BS".to_string(), 128), ("V".to_string(), 4)].into();
        let r = t.reference_launch(&cfg, 1000).unwrap().unwrap();
        assert_eq!(
            (r.kernel.as_str(), r.grid, r.block),
            ("k_naive", (8, 1, 1), (128, 1, 1))
        );
        assert_eq!(r.args.len(), 3);
        assert_eq!(r.scalars[2], Some((Arith::U64, ScalarValue::Int(1000))));
        assert_eq!(
            t.scalar_args(&cfg, 1000).unwrap()[3],
            Some((Arith::F32, ScalarValue::Real(0.25)))
        );
        // A CPU reference has no launch.
        assert!(template(spec_json())
            .unwrap()
            .reference_launch(&cfg, 1000)
            .unwrap()
            .is_none());

        let mut bad = v.clone();
        bad["reference"]["outputs"] = serde_json::json!([]);
        assert!(template(bad)
            .unwrap_err()
            .to_string()
            .contains("at least one output"));
        let mut bad = v.clone();
        bad["reference"]["args"] = serde_json::json!(["nope"]);
        assert!(template(bad).unwrap_err().to_string().contains("`nope`"));
        let mut bad = v.clone();
        bad["reference"]["grid"] = serde_json::json!(["cdiv(N, WIDTH)"]);
        assert!(template(bad).unwrap_err().to_string().contains("`WIDTH`"));
        let mut bad = v;
        bad["args"][3] = serde_json::json!({"value": 0.5, "type": "i32"});
        assert!(template(bad)
            .unwrap_err()
            .to_string()
            .contains("whole number"));
    }

    #[test]
    fn bundled_vcopy_is_valid_and_covers_its_sizes() {
        let t = bundled_vcopy();
        assert_eq!(t.spec.kernel, "vcopy");
        assert!(t.source_text.contains("vcopy"));
        let configs = t.configs();
        assert!(configs.len() >= 12, "{} configs", configs.len());
        assert_eq!(t.spec.sizes.first(), Some(&(1 << 10)));
        assert_eq!(t.spec.sizes.last(), Some(&(1 << 28)));
        for cfg in &configs {
            for &n in &[1i64 << 10, (1 << 20) + 3, 1 << 28] {
                let r = t.resolve(cfg, n).unwrap();
                let per_block = cfg["BLOCK_SIZE"] * cfg["ELEMS_PER_THREAD"] * cfg["VEC"];
                // The grid covers every element, with no block wholly past the end.
                assert!(r.grid.0 as i64 * per_block >= n);
                assert!((r.grid.0 as i64 - 1) * per_block < n);
                assert_eq!(r.block.0 as i64, cfg["BLOCK_SIZE"]);
            }
        }
    }

    #[test]
    fn load_reads_the_source_next_to_the_file() {
        let dir = std::env::temp_dir().join(format!("hone-template-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.cu"), "extern \"C\" __global__ void k() {}").unwrap();
        std::fs::write(dir.join("t.json"), spec_json().to_string()).unwrap();
        let t = KernelTemplate::load(&dir.join("t.json")).unwrap();
        assert!(t.source_text.contains("void k()"));
        assert_eq!(t.origin.as_deref(), Some(dir.join("t.json").as_path()));
        std::fs::write(dir.join("bad.json"), "{\"name\": 3}").unwrap();
        let e = KernelTemplate::load(&dir.join("bad.json"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("bad.json") && e.contains("line 1"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
