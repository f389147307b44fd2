//! The GEMM baseline: cuBLAS `?gemm` with its default math mode (FP32
//! arithmetic for SGEMM, no TF32), on the legacy default stream.

use std::ffi::c_int;

use cudarc::cublas::sys as cb;

use super::{Flavor, GemmProblem, Op};
use crate::vendor::cublas::{status, Cublas, Result};

fn op(o: Op) -> cb::cublasOperation_t {
    match o {
        Op::N => cb::cublasOperation_t::CUBLAS_OP_N,
        Op::T => cb::cublasOperation_t::CUBLAS_OP_T,
    }
}

impl Cublas {
    /// C = alpha op(A) op(B) + beta C for `p` (`sgemm_3xtf32` problems run
    /// cuBLAS SGEMM, the routine they stand in for), not waited for.
    ///
    /// # Safety
    /// `a`, `b` and `c` must hold the problem's stored matrices
    /// ([`GemmProblem::elements`]) in its precision, on this device.
    pub unsafe fn gemm(
        &self,
        p: &GemmProblem,
        alpha: f64,
        a: u64,
        b: u64,
        beta: f64,
        c: u64,
    ) -> Result<()> {
        let (ta, tb) = (op(p.layout.a), op(p.layout.b));
        let (m, n, k) = (p.m as c_int, p.n as c_int, p.k as c_int);
        let (lda, ldb, ldc) = (p.lda as c_int, p.ldb as c_int, p.ldc as c_int);
        match p.flavor {
            Flavor::Ddgemm | Flavor::DdgemmSplit => Err(super::super::vendor::cublas::VendorError(
                "cuBLAS has no double-double GEMM".to_string(),
            )),
            Flavor::Dgemm => status(
                "cublasDgemm",
                cb::cublasDgemm_v2(
                    self.handle(),
                    ta,
                    tb,
                    m,
                    n,
                    k,
                    &alpha,
                    a as *const f64,
                    lda,
                    b as *const f64,
                    ldb,
                    &beta,
                    c as *mut f64,
                    ldc,
                ),
            ),
            Flavor::Sgemm | Flavor::Sgemm3xTf32 => {
                let (alpha, beta) = (alpha as f32, beta as f32);
                status(
                    "cublasSgemm",
                    cb::cublasSgemm_v2(
                        self.handle(),
                        ta,
                        tb,
                        m,
                        n,
                        k,
                        &alpha,
                        a as *const f32,
                        lda,
                        b as *const f32,
                        ldb,
                        &beta,
                        c as *mut f32,
                        ldc,
                    ),
                )
            }
        }
    }
}
