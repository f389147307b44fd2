//! Launch files: a kernel, its grid and block, and how to fill each argument.
//! Used by `hone sim` and, later, by `hone analyze` and `hone synth`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_ir::{Function, Scalar, Type};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchFile {
    /// The `.cu` file, relative to the launch file.
    pub source: PathBuf,
    pub kernel: String,
    #[serde(default)]
    pub defines: BTreeMap<String, serde_json::Value>,
    /// Extra `-I` directories, relative to the launch file.
    #[serde(default)]
    pub include: Vec<PathBuf>,
    pub grid: Dim3,
    pub block: Dim3,
    #[serde(default)]
    pub dynamic_shared_bytes: u64,
    /// Kernel parameters by name: a number for scalars, an object for buffers.
    pub args: BTreeMap<String, ArgSpec>,
    /// Buffers to print after the run.
    #[serde(default)]
    pub dump: Vec<String>,
}

/// `8`, `[8]`, `[8, 4]` or `[8, 4, 2]`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Dim3 {
    One(u32),
    Many(Vec<u32>),
}

impl Dim3 {
    fn to_array(&self, what: &str) -> Result<[u32; 3]> {
        let v = match self {
            Dim3::One(x) => vec![*x],
            Dim3::Many(v) => v.clone(),
        };
        if v.is_empty() || v.len() > 3 {
            bail!("`{what}` must have 1 to 3 dimensions, got {}", v.len());
        }
        if v.contains(&0) {
            bail!("`{what}` has a zero dimension: {v:?}");
        }
        let mut out = [1; 3];
        out[..v.len()].copy_from_slice(&v);
        Ok(out)
    }
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ArgSpec {
    Number(serde_json::Number),
    Buffer(BufferSpec),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    #[serde(rename = "type")]
    pub ty: String,
    pub len: usize,
    #[serde(default = "default_init")]
    pub init: Init,
}

fn default_init() -> Init {
    Init::Named("zeros".into())
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Init {
    Named(String),
    Random { random: u64 },
    Values { values: Vec<f64> },
}

/// A launch file read and resolved against the parsed module.
pub struct Launch {
    pub file: LaunchFile,
    pub source_path: PathBuf,
    pub include_dirs: Vec<PathBuf>,
    pub defines: Vec<(String, Option<String>)>,
}

impl Launch {
    pub fn read(path: &Path) -> Result<Launch> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read launch file {}", path.display()))?;
        let file: LaunchFile = serde_json::from_str(&text).map_err(|e| {
            anyhow!(
                "{}:{}:{}: invalid launch file: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let source_path = base.join(&file.source);
        let include_dirs = file.include.iter().map(|p| base.join(p)).collect();
        let defines = file
            .defines
            .iter()
            .map(|(k, v)| {
                let value = match v {
                    serde_json::Value::String(s) => Some(s.clone()),
                    serde_json::Value::Null => None,
                    other => Some(other.to_string()),
                };
                (k.clone(), value)
            })
            .collect();
        Ok(Launch {
            file,
            source_path,
            include_dirs,
            defines,
        })
    }

    pub fn config(&self) -> Result<LaunchConfig> {
        Ok(LaunchConfig {
            grid: self.file.grid.to_array("grid")?,
            block: self.file.block.to_array("block")?,
            dynamic_shared_bytes: self.file.dynamic_shared_bytes,
        })
    }

    /// Builds the kernel arguments in parameter order, and the buffers they point to.
    pub fn arguments(&self, kernel: &Function) -> Result<(Vec<KernelArg>, Vec<Buffer>)> {
        let params: Vec<&str> = kernel
            .params
            .iter()
            .map(|&p| kernel.var(p).name.as_str())
            .collect();
        for name in self.file.args.keys() {
            if !params.contains(&name.as_str()) {
                bail!(
                    "launch file names argument `{name}`, but kernel `{}` has no such parameter (parameters: {})",
                    kernel.name,
                    params.join(", ")
                );
            }
        }
        let mut args = Vec::new();
        let mut buffers = Vec::new();
        for &p in &kernel.params {
            let var = kernel.var(p);
            let spec = self.file.args.get(&var.name).ok_or_else(|| {
                anyhow!(
                    "launch file gives no value for parameter `{}` of kernel `{}`",
                    var.name,
                    kernel.name
                )
            })?;
            match (spec, &var.ty) {
                (ArgSpec::Buffer(b), Type::Pointer(ptr)) => {
                    let elem = parse_type(&b.ty).with_context(|| format!("argument `{}`", var.name))?;
                    if !compatible(&elem, &ptr.pointee) {
                        bail!(
                            "argument `{}`: buffer of `{}` passed for a parameter pointing to `{}`",
                            var.name,
                            b.ty,
                            hone_ir::print::print_type(&ptr.pointee)
                        );
                    }
                    let buffer = make_buffer(&var.name, elem, b)?;
                    args.push(KernelArg::Buffer(buffers.len()));
                    buffers.push(buffer);
                }
                (ArgSpec::Number(n), Type::Scalar(s)) => {
                    if s.is_float() {
                        args.push(KernelArg::Float(n.as_f64().unwrap_or(0.0)));
                    } else {
                        let v = n.as_i64().or_else(|| n.as_u64().map(|u| u as i64)).ok_or_else(|| {
                            anyhow!("argument `{}`: expected an integer for `{}`, got {n}", var.name, s.c_name())
                        })?;
                        args.push(KernelArg::Int(v));
                    }
                }
                (ArgSpec::Buffer(_), ty) => bail!(
                    "argument `{}`: a buffer was given, but the parameter is `{}`",
                    var.name,
                    hone_ir::print::print_type(ty)
                ),
                (ArgSpec::Number(_), ty) => bail!(
                    "argument `{}`: a number was given, but the parameter is `{}` (give {{\"type\", \"len\", \"init\"}})",
                    var.name,
                    hone_ir::print::print_type(ty)
                ),
            }
        }
        for name in &self.file.dump {
            if !buffers.iter().any(|b| &b.name == name) {
                bail!("`dump` names `{name}`, which is not a buffer argument of the launch");
            }
        }
        Ok((args, buffers))
    }
}

/// A buffer's element type must match the pointee up to const-ness and signedness
/// of the spelling (`unsigned` vs `unsigned int` are the same type already).
fn compatible(elem: &Type, pointee: &Type) -> bool {
    elem == pointee || matches!(pointee, Type::Void)
}

pub fn parse_type(name: &str) -> Result<Type> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let scalar = match words.join(" ").as_str() {
        "bool" => Some(Scalar::Bool),
        "char" | "signed char" => Some(Scalar::I8),
        "unsigned char" => Some(Scalar::U8),
        "short" => Some(Scalar::I16),
        "unsigned short" => Some(Scalar::U16),
        "int" => Some(Scalar::I32),
        "unsigned" | "unsigned int" => Some(Scalar::U32),
        "long" | "long long" => Some(Scalar::I64),
        "unsigned long" | "unsigned long long" | "size_t" => Some(Scalar::U64),
        "float" => Some(Scalar::F32),
        "double" => Some(Scalar::F64),
        _ => None,
    };
    if let Some(s) = scalar {
        return Ok(Type::Scalar(s));
    }
    for (prefix, s) in [
        ("float", Scalar::F32),
        ("double", Scalar::F64),
        ("int", Scalar::I32),
        ("uint", Scalar::U32),
        ("longlong", Scalar::I64),
        ("ulonglong", Scalar::U64),
    ] {
        if let Some(n) = name.strip_prefix(prefix) {
            if let Ok(n @ 2..=4) = n.parse::<u8>() {
                return Ok(Type::Vector(s, n));
            }
        }
    }
    bail!("unknown buffer type `{name}` (use a C scalar type such as float, int, double, or a vector type such as float4)")
}

fn make_buffer(name: &str, elem: Type, spec: &BufferSpec) -> Result<Buffer> {
    let (scalar, lanes) = match &elem {
        Type::Scalar(s) => (*s, 1usize),
        Type::Vector(s, n) => (*s, *n as usize),
        other => bail!(
            "buffers of `{}` are not supported",
            hone_ir::print::print_type(other)
        ),
    };
    let count = spec.len * lanes;
    let values: Vec<f64> = match &spec.init {
        Init::Named(n) if n == "zeros" => vec![0.0; count],
        Init::Named(n) if n == "iota" => (0..count).map(|i| i as f64).collect(),
        Init::Named(n) => bail!("buffer `{name}`: unknown init `{n}` (zeros, iota, {{\"random\": SEED}}, {{\"values\": [...]}})"),
        Init::Random { random } => {
            let mut rng = ChaCha8Rng::seed_from_u64(*random);
            (0..count)
                .map(|_| {
                    if scalar.is_float() {
                        rng.gen::<f64>()
                    } else {
                        rng.gen_range(0..100) as f64
                    }
                })
                .collect()
        }
        Init::Values { values } => {
            if values.len() != count {
                bail!(
                    "buffer `{name}`: {} values given for {} elements{}",
                    values.len(),
                    spec.len,
                    if lanes > 1 { format!(" of {lanes} components") } else { String::new() }
                );
            }
            values.clone()
        }
    };
    let mut data = Vec::with_capacity(count * scalar.size() as usize);
    for v in values {
        encode(scalar, v, &mut data);
    }
    Ok(Buffer {
        name: name.to_string(),
        elem,
        data,
    })
}

fn encode(s: Scalar, v: f64, out: &mut Vec<u8>) {
    match s {
        Scalar::Bool => out.push((v != 0.0) as u8),
        Scalar::I8 => out.extend((v as i8).to_le_bytes()),
        Scalar::U8 => out.extend((v as u8).to_le_bytes()),
        Scalar::I16 => out.extend((v as i16).to_le_bytes()),
        Scalar::U16 => out.extend((v as u16).to_le_bytes()),
        Scalar::I32 => out.extend((v as i32).to_le_bytes()),
        Scalar::U32 => out.extend((v as u32).to_le_bytes()),
        Scalar::I64 => out.extend((v as i64).to_le_bytes()),
        Scalar::U64 => out.extend((v as u64).to_le_bytes()),
        Scalar::F32 => out.extend((v as f32).to_le_bytes()),
        Scalar::F64 => out.extend(v.to_le_bytes()),
    }
}

/// A buffer's contents as JSON numbers: integers exactly, floats in their shortest
/// round-trip form for their own precision, non-finite values as strings.
pub fn buffer_to_json(b: &Buffer) -> serde_json::Value {
    let scalar = match &b.elem {
        Type::Scalar(s) | Type::Vector(s, _) => *s,
        _ => return serde_json::Value::Null,
    };
    let size = scalar.size() as usize;
    let mut out = Vec::with_capacity(b.data.len() / size);
    for chunk in b.data.chunks_exact(size) {
        out.push(decode(scalar, chunk));
    }
    serde_json::Value::Array(out)
}

fn float_json(text: String, finite: bool) -> serde_json::Value {
    if !finite {
        return serde_json::Value::String(text);
    }
    text.parse::<serde_json::Number>()
        .map(serde_json::Value::Number)
        .unwrap_or(serde_json::Value::String(text))
}

fn decode(s: Scalar, c: &[u8]) -> serde_json::Value {
    use serde_json::Value;
    match s {
        Scalar::Bool => Value::Bool(c[0] != 0),
        Scalar::I8 => (c[0] as i8).into(),
        Scalar::U8 => c[0].into(),
        Scalar::I16 => i16::from_le_bytes([c[0], c[1]]).into(),
        Scalar::U16 => u16::from_le_bytes([c[0], c[1]]).into(),
        Scalar::I32 => i32::from_le_bytes(c.try_into().unwrap()).into(),
        Scalar::U32 => u32::from_le_bytes(c.try_into().unwrap()).into(),
        Scalar::I64 => i64::from_le_bytes(c.try_into().unwrap()).into(),
        Scalar::U64 => u64::from_le_bytes(c.try_into().unwrap()).into(),
        Scalar::F32 => {
            let v = f32::from_le_bytes(c.try_into().unwrap());
            float_json(format!("{v}"), v.is_finite())
        }
        Scalar::F64 => {
            let v = f64::from_le_bytes(c.try_into().unwrap());
            float_json(format!("{v}"), v.is_finite())
        }
    }
}
