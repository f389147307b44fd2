//! Device memory and copies, for programs that do not link the CUDA
//! runtime.

use std::ffi::c_void;

use cudarc::driver::result as cu;
use cudarc::driver::sys;

use crate::hone_status_t::*;
use crate::{guard, handle_mut, hone_handle_t, hone_status_t, invalid, Failure};

/// Allocates `bytes` of device memory on the handle's device, for programs
/// that do not link the CUDA runtime.
///
/// # Safety
/// `handle` valid, `ptr` writable.
#[no_mangle]
pub unsafe extern "C" fn hone_device_alloc(
    handle: hone_handle_t,
    bytes: usize,
    ptr: *mut *mut c_void,
) -> hone_status_t {
    guard("hone_device_alloc", || {
        handle_mut(handle)?;
        if ptr.is_null() {
            return Err(invalid("the result pointer is null"));
        }
        // SAFETY: a context is current (the handle's).
        let p = unsafe { cu::malloc_sync(bytes.max(1)) }.map_err(|e| {
            Failure(
                HONE_STATUS_EXECUTION_FAILED,
                format!("cuMemAlloc({bytes}): {e:?}"),
            )
        })?;
        // SAFETY: checked non-null.
        unsafe { *ptr = p as *mut c_void };
        Ok(())
    })
}

/// Frees memory from `hone_device_alloc` (null does nothing).
///
/// # Safety
/// `ptr` must come from `hone_device_alloc` and not be in use.
#[no_mangle]
pub unsafe extern "C" fn hone_device_free(
    handle: hone_handle_t,
    ptr: *mut c_void,
) -> hone_status_t {
    guard("hone_device_free", || {
        handle_mut(handle)?;
        if !ptr.is_null() {
            // SAFETY: the caller's contract.
            unsafe { cu::free_sync(ptr as sys::CUdeviceptr) }
                .map_err(|e| Failure(HONE_STATUS_EXECUTION_FAILED, format!("cuMemFree: {e:?}")))?;
        }
        Ok(())
    })
}

/// Copies `bytes` from host `src` to device `dst`, after all work on the
/// handle's stream, and waits.
///
/// # Safety
/// Both ranges must be valid for `bytes`.
#[no_mangle]
pub unsafe extern "C" fn hone_copy_to_device(
    handle: hone_handle_t,
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
) -> hone_status_t {
    guard("hone_copy_to_device", || {
        handle_mut(handle)?;
        if dst.is_null() || src.is_null() {
            return Err(invalid("a null pointer"));
        }
        // SAFETY: the caller's contract.
        let host = unsafe { std::slice::from_raw_parts(src as *const u8, bytes) };
        // SAFETY: as above; the synchronous copy orders after all streams'
        // earlier work of the legacy default stream.
        unsafe { cu::memcpy_htod_sync(dst as sys::CUdeviceptr, host) }
            .map_err(|e| Failure(HONE_STATUS_EXECUTION_FAILED, format!("cuMemcpyHtoD: {e:?}")))
    })
}

/// Copies `bytes` from device `src` to host `dst` once the handle's stream
/// has finished, and waits.
///
/// # Safety
/// Both ranges must be valid for `bytes`.
#[no_mangle]
pub unsafe extern "C" fn hone_copy_to_host(
    handle: hone_handle_t,
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
) -> hone_status_t {
    guard("hone_copy_to_host", || {
        let h = handle_mut(handle)?;
        if dst.is_null() || src.is_null() {
            return Err(invalid("a null pointer"));
        }
        // SAFETY: the stream is the caller's or null.
        unsafe { cu::stream::synchronize(h.stream) }.map_err(|e| {
            Failure(
                HONE_STATUS_EXECUTION_FAILED,
                format!("cuStreamSynchronize: {e:?}"),
            )
        })?;
        h.gpu().synchronize()?;
        // SAFETY: the caller's contract.
        let host = unsafe { std::slice::from_raw_parts_mut(dst as *mut u8, bytes) };
        // SAFETY: as above.
        unsafe { cu::memcpy_dtoh_sync(host, src as sys::CUdeviceptr) }
            .map_err(|e| Failure(HONE_STATUS_EXECUTION_FAILED, format!("cuMemcpyDtoH: {e:?}")))
    })
}
