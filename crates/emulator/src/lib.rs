//! hone's SIMT emulator: runs a kernel of hone's typed IR on the CPU for any
//! grid and block, the way a GPU would, and reports faults, data races and a
//! per-warp memory-access trace.
//!
//! The kernel and the device functions it calls are compiled to a flat
//! bytecode with explicit jumps and mask operations (a SIMT stack), so each
//! warp is a resumable state machine; each op is applied to the 32 lanes of a
//! warp at once under the active mask. Warps of a block run until they reach
//! `__syncthreads()`, where they wait for each other; threads that exit, sit
//! in a divergent branch or wait at another barrier meanwhile are reported as
//! barrier divergence.
//!
//! Memory: global buffers are the [`Buffer`]s of a launch; pointers carry the
//! object they were derived from, so every access is bounds-checked against
//! that object and faults name it. Shared memory is laid out per block in
//! declaration order (static arrays, launch-time lengths, then the dynamic
//! region that all `extern __shared__` arrays alias); local arrays and
//! address-taken locals live in per-thread local memory.
//!
//! File-scope `__device__` and `__constant__` variables are global objects
//! placed after the buffers ([`Symbols`]); file-scope `__shared__` ones are
//! laid out with the kernel's shared variables. Constant-memory accesses are
//! traced in [`hone_ir::AddressSpace::Constant`].
//!
//! Races: accesses by different threads to the same bytes with no barrier
//! between them (and, for global memory, any two accesses from different
//! blocks), at least one a write and not both atomic. Lanes of one warp
//! instruction count as different threads; `__syncwarp()` orders a warp.
//! Warp-synchronous code (the `volatile` shared-memory reduction without
//! `__syncwarp()`) therefore computes what lockstep execution gives and has
//! its missing `__syncwarp()` reported as a race: since Volta a warp's lanes
//! may diverge. Every load and store of the IR is a memory access (nothing is
//! cached in registers), so `volatile` holds; a `volatile` local lives in
//! local memory.
//!
//! Determinism: a launch gives bit-identical buffers, reports and traces on
//! every run. Blocks run in block order (x fastest), warps in order within a
//! block, lanes of an atomic in lane order. With [`Options::parallel`] blocks
//! run in waves on all cores against private copy-on-write views of global
//! memory and are committed in block order; a block that read (or, when
//! tolerating same-value races, overwrote) bytes an earlier block of its wave
//! wrote makes the rest of the launch run sequentially, so the result is the
//! sequential one. Launches with a trace sink or atomics always run sequentially.
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
mod progress;
mod race;
mod report;
mod symbols;
mod trace;

pub use buffer::{component_f64, encode_component, Buffer};
pub use config::{
    KernelArg, LaunchConfig, Limits, Options, Schedule, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STEPS,
    DEFAULT_TIME_LIMIT, LOCAL_LIMIT,
};
pub use exec::launch::SHARED_LIMIT;
pub use exec::memory::{buffer_pointer, pointer_target};
pub use progress::{Progress, Snapshot};
pub use report::{
    AccessKind, Fault, FaultKind, OrderCause, OrderDependence, Race, RaceAccess, Report,
    SetupError, Stats, Warning, WarningKind,
};
pub use symbols::Symbols;
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
    let mut symbols = Symbols::within(module, opts.limits.max_memory)?;
    exec::run(
        module,
        kernel,
        cfg,
        args,
        buffers,
        &mut symbols,
        opts,
        trace,
    )
}

/// [`run`] with the contents of the module's `__device__` and `__constant__`
/// variables in `symbols` (made by [`Symbols::new`], possibly set by name),
/// which the launch reads and writes in place.
#[allow(clippy::too_many_arguments)]
pub fn run_with_symbols(
    module: &Module,
    kernel: &str,
    cfg: &LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    symbols: &mut Symbols,
    opts: &Options,
    trace: Option<&mut dyn TraceSink>,
) -> Result<Report, SetupError> {
    exec::run(module, kernel, cfg, args, buffers, symbols, opts, trace)
}
