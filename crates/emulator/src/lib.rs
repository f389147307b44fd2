//! hone's SIMT emulator: runs a kernel of hone's typed IR on the CPU for any
//! grid and block, the way a GPU would, and reports faults, data races and a
//! per-warp memory-access trace.
//!
//! The kernel and the device functions it calls are compiled to a flat
//! bytecode with explicit jumps and mask operations (a SIMT stack), so each
//! warp is a resumable state machine; each op is applied to the 32 lanes of a
//! warp at once under the active mask. Warps of a block run until they reach
//! `__syncthreads()`, where they wait for each other.
//!
//! ```no_run
//! # use hone_emulator::*;
//! # fn demo(module: &hone_ir::Module) -> Result<(), SetupError> {
//! let mut buffers = vec![Buffer::from_f32("x", &[1.0; 256])];
//! let report = run(
//!     module,
//!     "scale",
//!     &LaunchConfig::linear(2, 128),
//!     &[KernelArg::Buffer(0), KernelArg::Float(2.0)],
//!     &mut buffers,
//!     &Options::default(),
//!     None,
//! )?;
//! assert!(report.is_clean());
//! # Ok(()) }
//! ```

mod buffer;
mod compile;
mod config;
mod exec;
mod race;
mod report;
mod trace;

pub use buffer::Buffer;
pub use config::{KernelArg, LaunchConfig, Options};
pub use exec::launch::SHARED_LIMIT;
pub use report::{
    AccessKind, Fault, FaultKind, Race, RaceAccess, Report, SetupError, Stats, Warning,
};
pub use trace::{CollectTrace, LaneAccess, TraceSink, Value, WarpAccess};

use hone_ir::Module;

/// Runs `kernel` of `module` over the grid of `cfg`. `args` match the kernel's
/// parameters in order; pointer parameters take a [`KernelArg::Buffer`]
/// indexing `buffers`, which the kernel reads and writes in place. Accesses
/// are streamed to `trace` when given.
pub fn run(
    module: &Module,
    kernel: &str,
    cfg: &LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    opts: &Options,
    trace: Option<&mut dyn TraceSink>,
) -> Result<Report, SetupError> {
    exec::run(module, kernel, cfg, args, buffers, opts, trace)
}
