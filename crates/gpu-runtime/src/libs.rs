//! Loading the CUDA libraries without panicking.
//!
//! cudarc loads `libcuda` and `libnvrtc` on first use and panics when a
//! library or one of its symbols is missing. Every entry point of this crate
//! checks presence first and runs its first calls under [`guard`], so a
//! machine without CUDA gets an error, never a panic.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use cudarc::driver::result::DriverError;
use cudarc::driver::sys::CUresult;

use crate::error::{GpuError, Result};

/// Whether the CUDA driver library can be opened on this machine.
pub fn driver_library_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: only tries to dlopen candidate names; nothing is called.
    *PRESENT.get_or_init(|| unsafe { cudarc::driver::sys::is_culib_present() })
}

/// Whether the NVRTC library can be opened on this machine.
pub fn nvrtc_library_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: only tries to dlopen candidate names; nothing is called.
    *PRESENT.get_or_init(|| unsafe { cudarc::nvrtc::sys::is_culib_present() })
}

/// For tests that need NVRTC: whether it can be loaded; where it cannot, the
/// test says so and should pass, unless `HONE_REQUIRE_NVRTC` is set, which
/// makes its absence a failure (a panic).
pub fn nvrtc_or_skip() -> bool {
    tool_or_skip(
        nvrtc_library_present(),
        "HONE_REQUIRE_NVRTC",
        "NVRTC (libnvrtc.so)",
    )
}

/// For tests that need a CUDA tool: `present`, or else a note that the test
/// skips it, and a panic where the variable `require` is set.
pub fn tool_or_skip(present: bool, require: &str, tool: &str) -> bool {
    if present {
        return true;
    }
    assert!(
        std::env::var_os(require).is_none(),
        "{require} is set but {tool} is not found"
    );
    eprintln!("skipping: {tool} not found; .ci/run installs it from PyPI");
    false
}

/// Runs `f`, turning a panic (cudarc's reaction to a missing symbol) into an
/// error built by `wrap` from the panic message.
pub(crate) fn guard<T>(wrap: impl FnOnce(String) -> GpuError, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic while loading the CUDA library".to_string());
        wrap(message)
    })
}

/// Fails with [`GpuError::NoDevice`] unless the driver library is present.
pub(crate) fn require_driver() -> Result<()> {
    if driver_library_present() {
        Ok(())
    } else {
        Err(GpuError::NoDevice(
            "the CUDA driver library (libcuda.so) was not found".to_string(),
        ))
    }
}

/// Fails with [`GpuError::Library`] unless NVRTC is present.
pub(crate) fn require_nvrtc() -> Result<()> {
    if nvrtc_library_present() {
        Ok(())
    } else {
        Err(GpuError::Library(
            "the NVRTC library (libnvrtc.so) was not found; add the CUDA toolkit's lib64 \
             directory to LD_LIBRARY_PATH"
                .to_string(),
        ))
    }
}

/// `CUresult` codes after which the context is unusable.
fn is_sticky(code: CUresult) -> bool {
    use CUresult::*;
    matches!(
        code,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_LAUNCH_TIMEOUT
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_ASSERT
            | CUDA_ERROR_ECC_UNCORRECTABLE
            | CUDA_ERROR_CONTEXT_IS_DESTROYED
    )
}

/// Converts a driver error, naming the call that produced it.
pub(crate) fn driver_error(call: &str, err: DriverError) -> GpuError {
    let name = err
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("{:?}", err.0));
    let description = err
        .error_string()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    GpuError::Driver {
        call: call.to_string(),
        code: err.0 as i32,
        name,
        description,
        sticky: is_sticky(err.0),
    }
}

/// `result.map_err(|e| driver_error(call, e))`, shortened.
pub(crate) trait DriverResultExt<T> {
    fn during(self, call: &str) -> Result<T>;
}

impl<T> DriverResultExt<T> for std::result::Result<T, DriverError> {
    fn during(self, call: &str) -> Result<T> {
        self.map_err(|e| driver_error(call, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_turns_a_panic_into_the_wrapped_error() {
        let err = guard(GpuError::Library, || -> u32 {
            panic!("Missing symbol cuFoo")
        })
        .expect_err("the closure panicked");
        match err {
            GpuError::Library(message) => assert!(message.contains("cuFoo"), "{message}"),
            other => panic!("unexpected error {other:?}"),
        }
        assert_eq!(guard(GpuError::Library, || 7).unwrap(), 7);
    }

    #[test]
    fn illegal_address_poisons_the_context_but_out_of_memory_does_not() {
        assert!(is_sticky(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS));
        assert!(is_sticky(CUresult::CUDA_ERROR_LAUNCH_FAILED));
        assert!(!is_sticky(CUresult::CUDA_ERROR_OUT_OF_MEMORY));
        assert!(!is_sticky(CUresult::CUDA_ERROR_INVALID_VALUE));
    }

    #[test]
    fn missing_driver_is_reported_as_no_device() {
        if driver_library_present() {
            return;
        }
        let err = require_driver().expect_err("no driver on this machine");
        assert!(err.to_string().starts_with("no CUDA device: "), "{err}");
    }
}
