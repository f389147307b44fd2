//! A launch resolved against its kernel: what the emulator takes.

use hone_emulator::{Buffer, KernelArg, LaunchConfig};

/// One launch of a kernel: its shape, arguments and buffers.
#[derive(Clone, Debug)]
pub struct LaunchData {
    /// For messages (a file name, or a description of a derived launch).
    pub name: String,
    pub config: LaunchConfig,
    /// In parameter order; buffers index `buffers`.
    pub args: Vec<KernelArg>,
    pub buffers: Vec<Buffer>,
}

impl LaunchData {
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
