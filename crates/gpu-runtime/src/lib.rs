//! hone's GPU runtime: device discovery, NVRTC compilation with an on-disk
//! module cache, launches and event timing, correctness checks against CPU
//! references, and evaluation of kernel-template variants in an isolated
//! worker process so that a faulting or hanging variant costs one `Invalid`
//! result instead of the tuning run.
//!
//! Every entry point works on a machine without CUDA: the driver and NVRTC
//! are loaded at run time, and their absence is a [`GpuError::NoDevice`] or
//! [`GpuError::Library`], never a panic.
//!
//! The layers, bottom up:
//! - [`Gpu`] opens a device and reads its [`DeviceProps`];
//! - [`nvrtc`] compiles CUDA C for the device's architecture, [`ModuleCache`]
//!   keeps the results on disk, and [`pool::CompilePool`] compiles ahead on
//!   threads while the worker times what is ready (for templates and library
//!   kernels alike);
//! - [`launch`] and [`timing`] load modules, move data, launch and time;
//! - [`KernelTemplate`] describes a tunable kernel, [`GpuSession::evaluate`]
//!   checks and times one variant;
//! - [`worker_main`] serves evaluations over a JSON-lines protocol and
//!   [`IsolatedEvaluator`] supervises it; [`sweep`] ties compilation and
//!   evaluation together, [`tuning`] adapts the worker to the tuner's
//!   `Evaluator`, [`devices`] puts one such evaluator per GPU behind one
//!   queue of tasks ([`DevicePool`]), and [`smoke`] exercises the whole stack.

pub mod cache;
pub mod device;
pub mod devices;
pub mod error;
pub mod evaluate;
pub mod expr;
pub mod host;
pub mod ir_kernel;
pub mod isolated;
pub mod launch;
pub mod libs;
pub mod nvrtc;
pub mod pool;
pub mod protocol;
pub mod reference;
pub mod sass;
pub mod smoke;
pub mod stats;
pub mod sweep;
pub mod template;
pub mod timing;
pub mod tuning;
pub mod worker;

pub use cache::ModuleCache;
pub use device::{device_count, DeviceProps, Gpu};
pub use devices::{DevicePool, DeviceSelection, Lane, LaneReport};
pub use error::{GpuError, Result};
pub use evaluate::{EvalOptions, EvalRequest, GpuSession, Measurement, ModuleSource, Outcome};
pub use expr::IntExpr;
pub use isolated::{ExtensionReply, IsolatedEvaluator, Limits, WorkerCommand};
pub use nvrtc::{CompileOptions, CompiledModule, ImageKind, Target};
pub use smoke::{smoke, SmokeOptions, SmokeReport};
pub use stats::Stats;
pub use sweep::{sweep, SweepOptions, Variant, VariantResult};
pub use template::{bundled_vcopy, Config, KernelTemplate, TemplateSpec};
pub use timing::{CopyBandwidth, TimingOptions};
pub use tuning::{TemplateEvaluator, TuneOptions, TuneStats};
pub use worker::{worker_main, worker_main_with, WorkerExtension};
