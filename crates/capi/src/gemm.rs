//! GEMM: `hone_sgemm`, `hone_dgemm`, `hone_sgemm_3xtf32`.

use std::ffi::c_int;

use hone_kernels::gemm::{Flavor, GemmProblem, Layout, Op};

use crate::hone_status_t::*;
use crate::{guard, handle_mut, hone_handle_t, hone_status_t, invalid, Failure};

/// op(X) of a GEMM operand, as cuBLAS's `cublasOperation_t`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum hone_operation_t {
    /// X itself.
    HONE_OP_N = 0,
    /// X transposed.
    HONE_OP_T = 1,
}

fn op_of(op: hone_operation_t) -> Op {
    match op {
        hone_operation_t::HONE_OP_N => Op::N,
        hone_operation_t::HONE_OP_T => Op::T,
    }
}

/// The problem for BLAS arguments, or `None` when there is nothing to do
/// (m or n is zero). Sizes and leading dimensions are checked as BLAS
/// checks them, naming the argument.
#[allow(clippy::too_many_arguments)]
fn problem(
    flavor: Flavor,
    transa: hone_operation_t,
    transb: hone_operation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    lda: c_int,
    ldb: c_int,
    ldc: c_int,
) -> Result<Option<GemmProblem>, Failure> {
    for (name, v) in [("m", m), ("n", n), ("k", k)] {
        if v < 0 {
            return Err(invalid(format!("{name} = {v} is negative")));
        }
    }
    let layout = Layout {
        a: op_of(transa),
        b: op_of(transb),
    };
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let (rows_a, _) = GemmProblem::stored_shape(layout.a, m, k);
    let (rows_b, _) = GemmProblem::stored_shape(layout.b, k, n);
    for (name, ld, rows) in [("lda", lda, rows_a), ("ldb", ldb, rows_b), ("ldc", ldc, m)] {
        if ld < 0 || (ld as usize) < rows.max(1) {
            return Err(invalid(format!(
                "{name} = {ld} is smaller than max(1, {rows}), the rows of the stored matrix"
            )));
        }
    }
    if m == 0 || n == 0 {
        return Ok(None);
    }
    if k == 0 {
        return Err(Failure(
            HONE_STATUS_NOT_SUPPORTED,
            "k = 0 (C = beta C) is not handled by the tuned kernels: scale C instead".into(),
        ));
    }
    let p = GemmProblem {
        flavor,
        layout,
        m,
        n,
        k,
        lda: lda as usize,
        ldb: ldb as usize,
        ldc: ldc as usize,
    };
    p.validate().map_err(invalid)?;
    Ok(Some(p))
}

#[allow(clippy::too_many_arguments)]
fn gemm(
    name: &str,
    flavor: Flavor,
    handle: hone_handle_t,
    transa: hone_operation_t,
    transb: hone_operation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: f64,
    a: u64,
    lda: c_int,
    b: u64,
    ldb: c_int,
    beta: f64,
    c: u64,
    ldc: c_int,
) -> hone_status_t {
    guard(name, || {
        let h = handle_mut(handle)?;
        let Some(p) = problem(flavor, transa, transb, m, n, k, lda, ldb, ldc)? else {
            return Ok(());
        };
        if a == 0 || b == 0 || c == 0 {
            return Err(invalid("a null matrix pointer"));
        }
        h.fenced(|h| {
            let g = h.gemm()?;
            // SAFETY: the caller's contract: device pointers of the sizes
            // the BLAS signature implies, alive until the call completes.
            unsafe { g.gemm(&p, alpha, a, b, beta, c) }?;
            Ok(())
        })
    })
}

/// C = alpha op(A) op(B) + beta C in single precision on the CUDA cores
/// (FP32 FMA), column-major, as `cublasSgemm` with alpha and beta by value;
/// beta = 0 never reads C. Ordered on the handle's stream.
///
/// # Safety
/// `a`, `b` and `c` must point to the stored matrices (lda x ka, ldb x kb,
/// ldc x n floats, ka and kb as BLAS defines them) on the handle's device;
/// `c` must not overlap `a` or `b`.
#[no_mangle]
pub unsafe extern "C" fn hone_sgemm(
    handle: hone_handle_t,
    transa: hone_operation_t,
    transb: hone_operation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: f32,
    a: *const f32,
    lda: c_int,
    b: *const f32,
    ldb: c_int,
    beta: f32,
    c: *mut f32,
    ldc: c_int,
) -> hone_status_t {
    gemm(
        "hone_sgemm",
        Flavor::Sgemm,
        handle,
        transa,
        transb,
        m,
        n,
        k,
        alpha as f64,
        a as u64,
        lda,
        b as u64,
        ldb,
        beta as f64,
        c as u64,
        ldc,
    )
}

/// `hone_sgemm` computed on the TF32 tensor cores with the 3xTF32 split,
/// which keeps single-precision accuracy (its error is no worse than
/// `cublasSgemm`'s). A name of its own, so that no caller gets tensor-core
/// arithmetic by accident.
///
/// # Safety
/// As for `hone_sgemm`.
#[no_mangle]
pub unsafe extern "C" fn hone_sgemm_3xtf32(
    handle: hone_handle_t,
    transa: hone_operation_t,
    transb: hone_operation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: f32,
    a: *const f32,
    lda: c_int,
    b: *const f32,
    ldb: c_int,
    beta: f32,
    c: *mut f32,
    ldc: c_int,
) -> hone_status_t {
    gemm(
        "hone_sgemm_3xtf32",
        Flavor::Sgemm3xTf32,
        handle,
        transa,
        transb,
        m,
        n,
        k,
        alpha as f64,
        a as u64,
        lda,
        b as u64,
        ldb,
        beta as f64,
        c as u64,
        ldc,
    )
}

/// The double-precision `hone_sgemm`, on the FP64 tensor cores, as
/// `cublasDgemm`.
///
/// # Safety
/// As for `hone_sgemm`, with doubles.
#[no_mangle]
pub unsafe extern "C" fn hone_dgemm(
    handle: hone_handle_t,
    transa: hone_operation_t,
    transb: hone_operation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: f64,
    a: *const f64,
    lda: c_int,
    b: *const f64,
    ldb: c_int,
    beta: f64,
    c: *mut f64,
    ldc: c_int,
) -> hone_status_t {
    gemm(
        "hone_dgemm",
        Flavor::Dgemm,
        handle,
        transa,
        transb,
        m,
        n,
        k,
        alpha,
        a as u64,
        lda,
        b as u64,
        ldb,
        beta,
        c as u64,
        ldc,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use hone_operation_t::*;

    #[test]
    fn sizes_and_leading_dimensions_follow_blas_rules() {
        let p =
            |ta, tb, m, n, k, lda, ldb, ldc| problem(Flavor::Sgemm, ta, tb, m, n, k, lda, ldb, ldc);
        let Ok(Some(q)) = p(HONE_OP_N, HONE_OP_T, 10, 20, 30, 10, 20, 10) else {
            panic!("a valid problem was refused")
        };
        assert_eq!(
            (q.m, q.n, q.k, q.layout.to_string()),
            (10, 20, 30, "NT".into())
        );
        // op(A) = A^T is k x m, so A is stored k x m: lda >= k.
        let Err(Failure(s, msg)) = p(HONE_OP_T, HONE_OP_N, 10, 20, 30, 10, 30, 10) else {
            panic!("lda < k was accepted for a transposed A")
        };
        assert_eq!(s, HONE_STATUS_INVALID_VALUE);
        assert!(msg.contains("lda = 10"), "{msg}");
        assert!(matches!(
            p(HONE_OP_N, HONE_OP_N, -1, 2, 2, 1, 2, 1),
            Err(Failure(HONE_STATUS_INVALID_VALUE, _))
        ));
        assert!(matches!(
            p(HONE_OP_N, HONE_OP_N, 0, 5, 5, 1, 5, 1),
            Ok(None)
        ));
        assert!(matches!(
            p(HONE_OP_N, HONE_OP_N, 5, 5, 0, 5, 1, 5),
            Err(Failure(HONE_STATUS_NOT_SUPPORTED, _))
        ));
    }

    #[test]
    fn a_null_handle_is_refused_by_name() {
        // SAFETY: a null handle is what is being tested.
        let s = unsafe {
            hone_dgemm(
                std::ptr::null_mut(),
                HONE_OP_N,
                HONE_OP_N,
                4,
                4,
                4,
                1.0,
                std::ptr::null(),
                4,
                std::ptr::null(),
                4,
                0.0,
                std::ptr::null_mut(),
                4,
            )
        };
        assert_eq!(s, HONE_STATUS_INVALID_VALUE);
        let e = unsafe { std::ffi::CStr::from_ptr(crate::hone_get_last_error()) };
        assert!(
            e.to_string_lossy()
                .contains("hone_dgemm: the handle is null"),
            "{e:?}"
        );
    }
}
