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
        use super::Direction::{Forward, Inverse};
        use cs::cufftType::*;
        let kind = match (p.precision, p.real, p.direction) {
            (Precision::Single, false, _) => CUFFT_C2C,
            (Precision::Double, false, _) => CUFFT_Z2Z,
            (Precision::Single, true, Forward) => CUFFT_R2C,
            (Precision::Single, true, Inverse) => CUFFT_C2R,
            (Precision::Double, true, Forward) => CUFFT_D2Z,
            (Precision::Double, true, Inverse) => CUFFT_Z2D,
        };
        // Packed data: the embeds' distances between transforms are the
        // real and the complex data's points (nx / 2 + 1 along x).
        let complex_points = p.elements() / p.batch as u64;
        let (idist, odist) = match (p.real, p.direction) {
            (false, _) => (points, points),
            (true, Forward) => (points, complex_points),
            (true, Inverse) => (complex_points, points),
        };
        let planned = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: `n` holds `rank` lengths; null embeds mean packed data.
            unsafe {
                cf::plan_many(
                    n.len() as c_int,
                    n.as_mut_ptr(),
                    std::ptr::null_mut(),
                    1,
                    idist as c_int,
                    std::ptr::null_mut(),
                    1,
                    odist as c_int,
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
        if self.problem.real {
            use super::Direction::{Forward, Inverse};
            let h = self.handle;
            // SAFETY: the caller's guarantees; the plan is alive.
            return match (self.problem.precision, self.problem.direction) {
                (Precision::Single, Forward) => {
                    unsafe { cf::exec_r2c(h, input as *mut _, output as *mut _) }
                        .map_err(|e| fail("cufftExecR2C", e))
                }
                (Precision::Single, Inverse) => {
                    unsafe { cf::exec_c2r(h, input as *mut _, output as *mut _) }
                        .map_err(|e| fail("cufftExecC2R", e))
                }
                (Precision::Double, Forward) => {
                    unsafe { cf::exec_d2z(h, input as *mut _, output as *mut _) }
                        .map_err(|e| fail("cufftExecD2Z", e))
                }
                (Precision::Double, Inverse) => {
                    unsafe { cf::exec_z2d(h, input as *mut _, output as *mut _) }
                        .map_err(|e| fail("cufftExecZ2D", e))
                }
            };
        }
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
