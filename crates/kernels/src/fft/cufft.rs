//! cuFFT (through cudarc, loaded at run time): the vendor baseline of the
//! FFT, planned for the same problem and run on the legacy default stream.

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

use cudarc::cufft::{result as cf, sys as cs};

use super::FftProblem;
use crate::precision::Precision;
use crate::vendor::cublas::VendorError;

type Result<T> = std::result::Result<T, VendorError>;

fn fail(call: &str, e: cf::CufftError) -> VendorError {
    VendorError(format!("{call}: {:?}", e.0))
}

/// Whether libcufft can be loaded.
pub fn present() -> bool {
    // SAFETY: only tries to dlopen candidate names.
    unsafe { cs::is_culib_present() }
}

/// The library's version, e.g. 12000.
pub fn version() -> Result<i32> {
    if !present() {
        return Err(missing());
    }
    cf::get_version().map_err(|e| fail("cufftGetVersion", e))
}

fn missing() -> VendorError {
    VendorError(
        "libcufft was not found; add the CUDA toolkit's lib64 directory to LD_LIBRARY_PATH"
            .to_string(),
    )
}

/// A cuFFT plan of one problem (its direction is chosen at each call).
pub struct CufftPlan {
    handle: cs::cufftHandle,
    problem: FftProblem,
}

impl CufftPlan {
    /// Plans `p` (a batch of 3-D transforms, x contiguous). The GPU's
    /// context must be current.
    pub fn new(p: &FftProblem) -> Result<CufftPlan> {
        if !present() {
            return Err(missing());
        }
        let points = p.points();
        if points > i32::MAX as u64 || p.batch > i32::MAX as u32 {
            return Err(VendorError(format!("{p}: too large for cufftPlanMany")));
        }
        // cuFFT takes the slowest dimension first; axes of length 1 are
        // left out (cuFFT plans ranks 1 to 3).
        let mut n: Vec<c_int> =
            p.n.iter()
                .rev()
                .filter(|&&v| v > 1)
                .map(|&v| v as c_int)
                .collect();
        if n.is_empty() {
            n.push(1);
        }
        let kind = match p.precision {
            Precision::Single => cs::cufftType::CUFFT_C2C,
            Precision::Double => cs::cufftType::CUFFT_Z2Z,
        };
        let planned = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: `n` holds `rank` lengths; null embeds mean packed data.
            unsafe {
                cf::plan_many(
                    n.len() as c_int,
                    n.as_mut_ptr(),
                    std::ptr::null_mut(),
                    1,
                    points as c_int,
                    std::ptr::null_mut(),
                    1,
                    points as c_int,
                    kind,
                    p.batch as c_int,
                )
            }
        }))
        .map_err(|_| VendorError("loading cuFFT failed".to_string()))?;
        let handle = planned.map_err(|e| fail("cufftPlanMany", e))?;
        Ok(CufftPlan {
            handle,
            problem: *p,
        })
    }

    pub fn problem(&self) -> &FftProblem {
        &self.problem
    }

    /// Enqueues the transform of `input` into `output` (equal for in place)
    /// on the default stream.
    ///
    /// # Safety
    /// Both pointers must hold the problem's data on the current device.
    pub unsafe fn exec(&self, input: u64, output: u64) -> Result<()> {
        let dir = self.problem.direction.sign() as c_int;
        // SAFETY: the caller's guarantees; the plan is alive.
        match self.problem.precision {
            Precision::Single => {
                unsafe { cf::exec_c2c(self.handle, input as *mut _, output as *mut _, dir) }
                    .map_err(|e| fail("cufftExecC2C", e))
            }
            Precision::Double => {
                unsafe { cf::exec_z2z(self.handle, input as *mut _, output as *mut _, dir) }
                    .map_err(|e| fail("cufftExecZ2Z", e))
            }
        }
    }
}

impl Drop for CufftPlan {
    fn drop(&mut self) {
        // SAFETY: created once, destroyed once.
        let _ = unsafe { cf::destroy(self.handle) };
    }
}
