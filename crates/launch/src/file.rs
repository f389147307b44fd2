//! The JSON format of launch files, as written by users.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use crate::launch::LaunchError;

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
    /// Contents of `__constant__` and `__device__` variables by name, set
    /// before the run as `cudaMemcpyToSymbol` sets them; the others keep
    /// their initializers.
    #[serde(default)]
    pub symbols: BTreeMap<String, SymbolSpec>,
    /// Buffers no parameter takes directly, reached through pointers that
    /// other buffers, structs or symbols hold (`"values": ["img0", ...]`).
    #[serde(default)]
    pub buffers: BTreeMap<String, BufferSpec>,
}

/// `{"init": ...}`: the whole variable, scalar by scalar in memory order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SymbolSpec {
    pub init: Init,
}

/// `8`, `[8]`, `[8, 4]` or `[8, 4, 2]`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Dim3 {
    One(u32),
    Many(Vec<u32>),
}

impl Dim3 {
    pub fn to_array(&self, what: &str) -> Result<[u32; 3], LaunchError> {
        let v = match self {
            Dim3::One(x) => vec![*x],
            Dim3::Many(v) => v.clone(),
        };
        if v.is_empty() || v.len() > 3 {
            return Err(LaunchError::new(format!(
                "`{what}` must have 1 to 3 dimensions, got {}",
                v.len()
            )));
        }
        if v.contains(&0) {
            return Err(LaunchError::new(format!(
                "`{what}` has a zero dimension: {v:?}"
            )));
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
    /// The kernel receives a pointer this many elements into the buffer,
    /// as host code that passes `p + offset`.
    #[serde(default)]
    pub offset: usize,
}

fn default_init() -> Init {
    Init::Named("zeros".into())
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Init {
    Named(String),
    Random { random: u64 },
    Values { values: Vec<InitValue> },
}

/// One value of `"values"`: a number, or for a pointer the buffer it
/// points into, `"name"` or `"name+K"` (K elements in).
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum InitValue {
    Number(f64),
    Pointer(String),
}
