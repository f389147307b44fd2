//! SYMV: `hone_dsymv`, `hone_ssymv`.

use std::ffi::c_int;

use hone_kernels::symv::{Precision, Uplo};

use crate::hone_status_t::*;
use crate::{guard, handle_mut, hone_fill_mode_t, hone_handle_t, hone_status_t, invalid, Failure};

fn dims(n: c_int, lda: c_int, incx: c_int, incy: c_int) -> Result<(usize, usize), Failure> {
    if n < 0 {
        return Err(invalid(format!("n = {n} is negative")));
    }
    if lda < n.max(1) {
        return Err(invalid(format!(
            "lda = {lda} is smaller than max(1, n) = {}",
            n.max(1)
        )));
    }
    if incx == 0 || incy == 0 {
        return Err(invalid("incx and incy must not be zero"));
    }
    if incx != 1 || incy != 1 {
        return Err(Failure(
            HONE_STATUS_NOT_SUPPORTED,
            format!("incx = {incx}, incy = {incy}: the tuned kernels take unit increments"),
        ));
    }
    Ok((n as usize, lda as usize))
}

fn uplo_of(fill: hone_fill_mode_t) -> Uplo {
    match fill {
        hone_fill_mode_t::HONE_FILL_MODE_LOWER => Uplo::Lower,
        hone_fill_mode_t::HONE_FILL_MODE_UPPER => Uplo::Upper,
    }
}

#[allow(clippy::too_many_arguments)]
fn symv(
    name: &str,
    precision: Precision,
    handle: hone_handle_t,
    uplo: hone_fill_mode_t,
    n: c_int,
    alpha: f64,
    a: u64,
    lda: c_int,
    x: u64,
    incx: c_int,
    beta: f64,
    y: u64,
    incy: c_int,
) -> hone_status_t {
    guard(name, || {
        let h = handle_mut(handle)?;
        let (n, lda) = dims(n, lda, incx, incy)?;
        if n == 0 {
            return Ok(());
        }
        h.fenced(|h| {
            // SAFETY: the caller's contract: device pointers of the sizes
            // the BLAS signature implies, alive until the call completes.
            unsafe {
                h.symv
                    .symv(precision, uplo_of(uplo), n, alpha, a, lda, x, beta, y)
            }?;
            Ok(())
        })
    })
}

/// y = alpha A x + beta y, A an n x n symmetric matrix of which the `uplo`
/// triangle is stored column-major with leading dimension `lda`; device
/// pointers, ordered on the handle's stream. As `cublasDsymv`, with alpha
/// and beta by value; `incx` and `incy` must be 1.
///
/// # Safety
/// `a` must point to `lda * n` doubles and `x`, `y` to `n` each, on the
/// handle's device; `y` must not overlap `a` or `x`.
#[no_mangle]
pub unsafe extern "C" fn hone_dsymv(
    handle: hone_handle_t,
    uplo: hone_fill_mode_t,
    n: c_int,
    alpha: f64,
    a: *const f64,
    lda: c_int,
    x: *const f64,
    incx: c_int,
    beta: f64,
    y: *mut f64,
    incy: c_int,
) -> hone_status_t {
    symv(
        "hone_dsymv",
        Precision::Double,
        handle,
        uplo,
        n,
        alpha,
        a as u64,
        lda,
        x as u64,
        incx,
        beta,
        y as u64,
        incy,
    )
}

/// The single-precision `hone_dsymv`.
///
/// # Safety
/// As for `hone_dsymv`, with floats.
#[no_mangle]
pub unsafe extern "C" fn hone_ssymv(
    handle: hone_handle_t,
    uplo: hone_fill_mode_t,
    n: c_int,
    alpha: f32,
    a: *const f32,
    lda: c_int,
    x: *const f32,
    incx: c_int,
    beta: f32,
    y: *mut f32,
    incy: c_int,
) -> hone_status_t {
    symv(
        "hone_ssymv",
        Precision::Single,
        handle,
        uplo,
        n,
        alpha as f64,
        a as u64,
        lda,
        x as u64,
        incx,
        beta as f64,
        y as u64,
        incy,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_follow_blas_rules() {
        assert!(dims(-1, 1, 1, 1).is_err());
        assert!(dims(10, 9, 1, 1).is_err());
        assert!(dims(0, 1, 1, 1).is_ok());
        assert_eq!(dims(10, 12, 1, 1).ok(), Some((10, 12)));
        let Err(Failure(status, m)) = dims(10, 10, 2, 1) else {
            panic!("a stride of 2 was accepted")
        };
        assert_eq!(status, HONE_STATUS_NOT_SUPPORTED);
        assert!(m.contains("incx = 2"));
        assert!(matches!(
            dims(10, 10, 0, 1),
            Err(Failure(HONE_STATUS_INVALID_VALUE, _))
        ));
    }
}
