//! The one error type of the GPU runtime.

use std::path::PathBuf;

/// Everything that can stop a GPU operation. Failures of a *variant* (a fault,
/// a wrong answer, a compile error during tuning) are not errors of the
/// runtime: they come back as [`crate::Outcome::Invalid`]. `GpuError` is for
/// the machinery: no device, a missing library, a broken worker, bad input.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No usable CUDA device: the driver library is missing, the driver has no
    /// device, or the ordinal is out of range.
    #[error("no CUDA device: {0}")]
    NoDevice(String),

    /// A CUDA library other than the driver (NVRTC) could not be loaded.
    #[error("CUDA library unavailable: {0}")]
    Library(String),

    /// A CUDA command-line tool (nvdisasm) is missing or failed.
    #[error("{0}")]
    Tool(String),

    /// A driver API call failed.
    #[error("{call} failed: {name}: {description}")]
    Driver {
        call: String,
        /// The `CUresult` value.
        code: i32,
        /// The enumerator name, e.g. `CUDA_ERROR_ILLEGAL_ADDRESS`.
        name: String,
        description: String,
        /// The error leaves the context unusable: every later call fails, so
        /// the process that owns it must be replaced.
        sticky: bool,
    },

    /// NVRTC rejected the source; `log` is the compiler's log.
    #[error("compilation failed ({message}):\n{log}")]
    Compile { message: String, log: String },

    /// A kernel template or expression is malformed.
    #[error("{0}")]
    Template(String),

    /// A launch that the device cannot run (block too large, too much shared memory).
    #[error("invalid launch: {0}")]
    Launch(String),

    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    /// The isolated worker process could not be started or spoke out of turn.
    #[error("GPU worker: {0}")]
    Worker(String),
}

impl GpuError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        GpuError::Io {
            path: path.into(),
            source,
        }
    }

    /// Whether the CUDA context that produced this error is poisoned.
    pub fn is_sticky(&self) -> bool {
        matches!(self, GpuError::Driver { sticky: true, .. })
    }
}

pub type Result<T, E = GpuError> = std::result::Result<T, E>;
