//! The SYMV baselines: cuBLAS `?symv` on the stored triangle and `?gemv` on
//! the full matrix.

use std::ffi::c_int;

use cudarc::cublas::sys as cb;

use crate::vendor::cublas::status;
pub use crate::vendor::cublas::{synchronize_device, Cublas, DefaultStreamTimer};

use super::{Precision, Result, Uplo};

impl Cublas {
    /// y = alpha A x + beta y with A symmetric (`uplo` triangle stored), on the
    /// default stream, not waited for.
    ///
    /// # Safety
    /// `a` must hold lda x n elements of `precision`, `x` and `y` n each.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn symv(
        &self,
        precision: Precision,
        uplo: Uplo,
        n: usize,
        alpha: f64,
        a: u64,
        lda: usize,
        x: u64,
        beta: f64,
        y: u64,
    ) -> Result<()> {
        let fill = match uplo {
            Uplo::Lower => cb::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER,
            Uplo::Upper => cb::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER,
        };
        let (n, lda) = (n as c_int, lda as c_int);
        Ok(match precision {
            Precision::Double => status(
                "cublasDsymv",
                cb::cublasDsymv_v2(
                    self.handle(),
                    fill,
                    n,
                    &alpha,
                    a as *const f64,
                    lda,
                    x as *const f64,
                    1,
                    &beta,
                    y as *mut f64,
                    1,
                ),
            ),
            Precision::Single => {
                let (alpha, beta) = (alpha as f32, beta as f32);
                status(
                    "cublasSsymv",
                    cb::cublasSsymv_v2(
                        self.handle(),
                        fill,
                        n,
                        &alpha,
                        a as *const f32,
                        lda,
                        x as *const f32,
                        1,
                        &beta,
                        y as *mut f32,
                        1,
                    ),
                )
            }
        }?)
    }

    /// y = alpha A x + beta y with A a full n x n matrix, on the default
    /// stream, not waited for.
    ///
    /// # Safety
    /// As for [`Cublas::symv`].
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gemv(
        &self,
        precision: Precision,
        n: usize,
        alpha: f64,
        a: u64,
        lda: usize,
        x: u64,
        beta: f64,
        y: u64,
    ) -> Result<()> {
        let op = cb::cublasOperation_t::CUBLAS_OP_N;
        let (n, lda) = (n as c_int, lda as c_int);
        Ok(match precision {
            Precision::Double => status(
                "cublasDgemv",
                cb::cublasDgemv_v2(
                    self.handle(),
                    op,
                    n,
                    n,
                    &alpha,
                    a as *const f64,
                    lda,
                    x as *const f64,
                    1,
                    &beta,
                    y as *mut f64,
                    1,
                ),
            ),
            Precision::Single => {
                let (alpha, beta) = (alpha as f32, beta as f32);
                status(
                    "cublasSgemv",
                    cb::cublasSgemv_v2(
                        self.handle(),
                        op,
                        n,
                        n,
                        &alpha,
                        a as *const f32,
                        lda,
                        x as *const f32,
                        1,
                        &beta,
                        y as *mut f32,
                        1,
                    ),
                )
            }
        }?)
    }
}
