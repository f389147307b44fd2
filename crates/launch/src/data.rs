//! A launch resolved against its kernel: what the emulator takes.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Symbols};
use hone_ir::{GlobalSpace, Module};

use crate::buffers::{fill_bytes, Pointers};
use crate::file::Init;
use crate::launch::LaunchError;

/// One launch of a kernel: its shape, arguments and buffers.
#[derive(Clone, Debug)]
pub struct LaunchData {
    /// For messages (a file name, or a description of a derived launch).
    pub name: String,
    pub config: LaunchConfig,
    /// In parameter order; buffers index `buffers`.
    pub args: Vec<KernelArg>,
    pub buffers: Vec<Buffer>,
    /// Contents given for file-scope variables, by name (see [`LaunchData::symbols`]).
    pub symbols: Vec<(String, Init)>,
}

impl LaunchData {
    /// The module's `__constant__` and `__device__` variables with their
    /// initializers, and the contents this launch gives replacing them.
    pub fn symbols(&self, module: &Module) -> Result<Symbols, LaunchError> {
        let mut out = Symbols::new(module).map_err(|e| LaunchError::new(e.to_string()))?;
        for (name, init) in &self.symbols {
            let Some((_, g)) = module.global_named(name) else {
                let known: Vec<&str> = module
                    .globals
                    .iter()
                    .filter(|g| g.space != GlobalSpace::Shared)
                    .map(|g| g.name.as_str())
                    .collect();
                return Err(LaunchError::new(format!(
                    "`symbols` names `{name}`, which is not a `__constant__` or `__device__` variable of the module (it has: {})",
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                )));
            };
            if g.space == GlobalSpace::Shared {
                return Err(LaunchError::new(format!(
                    "`symbols` names `{name}`, a `__shared__` variable the host cannot set"
                )));
            }
            let pointers = Pointers {
                buffers: self
                    .buffers
                    .iter()
                    .map(|b| (b.name.clone(), b.elem.clone()))
                    .collect(),
            };
            let bytes = fill_bytes(name, &g.ty, 1, init, &pointers)?;
            out.set(name, &bytes).map_err(LaunchError::new)?;
        }
        Ok(out)
    }

    /// `grid [3, 2, 1] block [3, 4, 1]`, with the integer arguments.
    pub fn describe(&self, params: &[String]) -> String {
        let ints: Vec<String> = self
            .args
            .iter()
            .zip(params)
            .filter_map(|(a, p)| match a {
                KernelArg::Int(v) => Some(format!("{p}={v}")),
                _ => None,
            })
            .collect();
        format!(
            "grid [{}, {}, {}] block [{}, {}, {}]{}",
            self.config.grid[0],
            self.config.grid[1],
            self.config.grid[2],
            self.config.block[0],
            self.config.block[1],
            self.config.block[2],
            if ints.is_empty() {
                String::new()
            } else {
                format!(" ({})", ints.join(" "))
            }
        )
    }

    /// The buffers named in `names`, in that order (unknown names are skipped).
    pub fn named<'a>(&'a self, names: &'a [String]) -> impl Iterator<Item = &'a Buffer> + 'a {
        names
            .iter()
            .filter_map(|name| self.buffers.iter().find(|b| &b.name == name))
    }
}
