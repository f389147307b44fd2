//! `libhone.so`: hone's tuned routines with cuBLAS-style C signatures on
//! device pointers and a stream.
//!
//! A handle owns the GPU, the module cache (kernels compile on first use and
//! are cached on disk) and the selection rules. Calls are ordered on the
//! handle's stream (`hone_set_stream`; the legacy default stream until then)
//! like cuBLAS calls: hone's kernels run on its own stream, fenced by events
//! before and after, so they start after earlier work on the caller's stream
//! and later work waits for them, without the host waiting.
//!
//! Every function returns a `hone_status_t`; `hone_get_last_error` gives the
//! message of the last failure on the calling thread. No panic crosses the
//! boundary: one is caught and reported as `HONE_STATUS_INTERNAL_ERROR`.
//! A handle is used from one thread at a time, the thread that created it or
//! one where its device's primary context is current.

// The C names (`hone_status_t`, `HONE_STATUS_SUCCESS`) are the interface.
#![allow(non_camel_case_types)]

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use cudarc::driver::result as cu;
use cudarc::driver::sys;
use hone_gpu::{Gpu, GpuError};
use hone_kernels::driver::RawEvent;
use hone_kernels::gemm::{Gemm, GemmRules};
use hone_kernels::routine::LibError;
use hone_kernels::symv::{Symv, SymvError, SymvRules};

/// What a call returned.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum hone_status_t {
    HONE_STATUS_SUCCESS = 0,
    /// An argument is out of range: a null pointer, n < 0, lda < n, ...
    HONE_STATUS_INVALID_VALUE = 1,
    /// No CUDA driver or device.
    HONE_STATUS_NO_DEVICE = 2,
    /// A valid request this build does not handle (a non-unit increment,
    /// a leading dimension the tuned kernel's vector loads cannot take).
    HONE_STATUS_NOT_SUPPORTED = 3,
    /// The GPU refused or failed the work (compilation, launch, fault).
    HONE_STATUS_EXECUTION_FAILED = 4,
    /// A bug in hone: please report the message.
    HONE_STATUS_INTERNAL_ERROR = 5,
}

use hone_status_t::*;

/// Which triangle of a symmetric matrix is stored.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum hone_fill_mode_t {
    HONE_FILL_MODE_LOWER = 0,
    HONE_FILL_MODE_UPPER = 1,
}

/// A hone context: the GPU, the compiled kernels, the rules and a stream.
pub struct hone_handle {
    symv: ManuallyDrop<Symv<'static>>,
    /// Made on the first GEMM call, so that SYMV callers pay nothing for it.
    gemm: ManuallyDrop<Option<Gemm<'static>>>,
    gemm_rules: GemmRules,
    gpu: *mut Gpu,
    stream: sys::CUstream,
    before: RawEvent,
    after: RawEvent,
}

impl Drop for hone_handle {
    fn drop(&mut self) {
        // SAFETY: `symv` and `gemm` borrow `*gpu`, so they go first; `gpu`
        // came from Box::into_raw in hone_create and is freed once, here.
        unsafe {
            ManuallyDrop::drop(&mut self.symv);
            ManuallyDrop::drop(&mut self.gemm);
            drop(Box::from_raw(self.gpu));
        }
    }
}

pub type hone_handle_t = *mut hone_handle;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

/// A failure: its status and message.
struct Failure(hone_status_t, String);

impl From<GpuError> for Failure {
    fn from(e: GpuError) -> Failure {
        let status = match e {
            GpuError::NoDevice(_) => HONE_STATUS_NO_DEVICE,
            _ => HONE_STATUS_EXECUTION_FAILED,
        };
        Failure(status, e.to_string())
    }
}

impl From<SymvError> for Failure {
    fn from(e: SymvError) -> Failure {
        match e {
            SymvError::Gpu(g) => g.into(),
            SymvError::Problem(m) => Failure(HONE_STATUS_INVALID_VALUE, m),
            SymvError::Config(m) => Failure(HONE_STATUS_NOT_SUPPORTED, m),
            other => Failure(HONE_STATUS_EXECUTION_FAILED, other.to_string()),
        }
    }
}

impl From<LibError> for Failure {
    fn from(e: LibError) -> Failure {
        match e {
            LibError::Gpu(g) => g.into(),
            LibError::Usage(m) => Failure(HONE_STATUS_INVALID_VALUE, m),
            LibError::Rule(m) | LibError::Refused(m) => Failure(HONE_STATUS_NOT_SUPPORTED, m),
            other => Failure(HONE_STATUS_EXECUTION_FAILED, other.to_string()),
        }
    }
}

impl From<hone_kernels::driver::DriverError> for Failure {
    fn from(e: hone_kernels::driver::DriverError) -> Failure {
        Failure(HONE_STATUS_EXECUTION_FAILED, e.to_string())
    }
}

fn invalid(message: impl Into<String>) -> Failure {
    Failure(HONE_STATUS_INVALID_VALUE, message.into())
}

/// Runs `body`, turning failures and panics into a status and the thread's
/// last error.
fn guard(name: &str, body: impl FnOnce() -> Result<(), Failure>) -> hone_status_t {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => {
            set_error("");
            HONE_STATUS_SUCCESS
        }
        Ok(Err(Failure(status, message))) => {
            set_error(&format!("{name}: {message}"));
            status
        }
        Err(panic) => {
            let m = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".to_string());
            set_error(&format!("{name}: internal error: {m}"));
            HONE_STATUS_INTERNAL_ERROR
        }
    }
}

fn handle_mut<'a>(handle: hone_handle_t) -> Result<&'a mut hone_handle, Failure> {
    // SAFETY: a non-null handle comes from hone_create and is not destroyed
    // (the caller's contract).
    unsafe { handle.as_mut() }.ok_or_else(|| invalid("the handle is null"))
}

/// Creates a handle on CUDA device `device` with the rules built into hone
/// (or, when the environment variable `HONE_RULES_DIR` names a directory,
/// the rules there: SYMV's four, and the GEMM variants' `VARIANT.json`
/// when it holds any (a layout without one takes its flavor's NN rule), the
/// built-in GEMM rules for this GPU model when it holds none). Without
/// `HONE_RULES_DIR`, SYMV takes the rules `hone retune symv` tuned on this
/// GPU model when they are there, and says once on standard error when the
/// built-in rules it runs were tuned on another GPU; each GEMM variant that
/// `hone retune gemm` tuned on this GPU model takes its rule in place of the
/// built-in one. `*handle` is set on success.
///
/// # Safety
/// `handle` must be a valid pointer to write to.
#[no_mangle]
pub unsafe extern "C" fn hone_create(handle: *mut hone_handle_t, device: c_int) -> hone_status_t {
    guard("hone_create", || {
        if handle.is_null() {
            return Err(invalid("the handle pointer is null"));
        }
        let ordinal = u32::try_from(device).map_err(|_| invalid(format!("device {device}")))?;
        let dir = std::env::var_os("HONE_RULES_DIR").filter(|d| !d.is_empty());
        // The folder's rules are read before the device is opened, so a bad
        // folder fails without touching the GPU.
        let (folder_symv, folder_gemm) = match &dir {
            Some(dir) => {
                // a folder of SYMV rules alone: GEMM's built-in ones
                let gemm =
                    if hone_kernels::gemm::library::retuned_variants(Path::new(dir)).is_empty() {
                        None
                    } else {
                        Some(GemmRules::load_dir(dir)?)
                    };
                (Some(SymvRules::load_dir(dir)?), gemm)
            }
            None => (None, None),
        };
        let opened = Gpu::open(ordinal)?;
        // GEMM without rules of the folder's: the built-in ones for this
        // GPU model (an H200 has some of its own), each variant that
        // `hone retune gemm` tuned on this model taking its rule instead.
        let gemm_rules = folder_gemm.unwrap_or_else(|| {
            let (rules, retuned) = GemmRules::for_device(&opened.props().name);
            if let Some(n) = retuned.unreadable_notice() {
                hone_kernels::routine::device_rules::notify_once(&n);
            }
            rules
        });
        // Without HONE_RULES_DIR, SYMV runs the rules `hone retune symv`
        // tuned on this GPU model when there are any, else the built-in
        // ones for this model.
        let rules = match folder_symv {
            Some(r) => r,
            None => SymvRules::for_device(&opened)?,
        };
        let gpu: *mut Gpu = Box::into_raw(Box::new(opened));
        // SAFETY: the Gpu lives until the handle drops, after the Symv that
        // borrows it (see Drop).
        let gpu_ref: &'static Gpu = unsafe { &*gpu };
        let made = (|| -> Result<hone_handle, Failure> {
            Ok(hone_handle {
                symv: ManuallyDrop::new(Symv::new(gpu_ref, rules)?),
                gemm: ManuallyDrop::new(None),
                gemm_rules,
                gpu,
                stream: std::ptr::null_mut(),
                before: RawEvent::new()?,
                after: RawEvent::new()?,
            })
        })();
        match made {
            Ok(h) => {
                // SAFETY: checked non-null above.
                unsafe { *handle = Box::into_raw(Box::new(h)) };
                Ok(())
            }
            Err(e) => {
                // SAFETY: nothing borrows the Gpu any more.
                drop(unsafe { Box::from_raw(gpu) });
                Err(e)
            }
        }
    })
}

/// Destroys a handle (null is allowed and does nothing). Work enqueued
/// through it must have completed.
///
/// # Safety
/// `handle` must come from `hone_create` and not be used afterwards.
#[no_mangle]
pub unsafe extern "C" fn hone_destroy(handle: hone_handle_t) -> hone_status_t {
    guard("hone_destroy", || {
        if !handle.is_null() {
            // SAFETY: the caller's contract.
            drop(unsafe { Box::from_raw(handle) });
        }
        Ok(())
    })
}

/// Orders the handle's calls on `stream` (a `CUstream` / `cudaStream_t`;
/// null: the legacy default stream).
///
/// # Safety
/// `handle` must be valid; `stream` must outlive its use by the handle.
#[no_mangle]
pub unsafe extern "C" fn hone_set_stream(
    handle: hone_handle_t,
    stream: *mut c_void,
) -> hone_status_t {
    guard("hone_set_stream", || {
        handle_mut(handle)?.stream = stream as sys::CUstream;
        Ok(())
    })
}

/// Waits for all work on the handle's stream.
///
/// # Safety
/// `handle` must be valid.
#[no_mangle]
pub unsafe extern "C" fn hone_synchronize(handle: hone_handle_t) -> hone_status_t {
    guard("hone_synchronize", || {
        let h = handle_mut(handle)?;
        // SAFETY: the stream is the caller's live stream, or null.
        unsafe { cu::stream::synchronize(h.stream) }.map_err(|e| {
            Failure(
                HONE_STATUS_EXECUTION_FAILED,
                format!("cuStreamSynchronize: {e:?}"),
            )
        })?;
        // A fault on hone's own stream surfaces here too.
        h.gpu().synchronize()?;
        Ok(())
    })
}

impl hone_handle {
    fn gpu(&self) -> &Gpu {
        // SAFETY: alive until the handle drops.
        unsafe { &*self.gpu }
    }

    /// The GEMM library call, made on first use.
    fn gemm(&mut self) -> Result<&mut Gemm<'static>, Failure> {
        if self.gemm.is_none() {
            // SAFETY: the Gpu lives until the handle drops, after `gemm`.
            let gpu: &'static Gpu = unsafe { &*self.gpu };
            *self.gemm = Some(Gemm::new(gpu, self.gemm_rules.clone())?);
        }
        Ok(self.gemm.as_mut().expect("made above"))
    }

    /// Runs `enqueue` on hone's stream between the caller's earlier and
    /// later work on the handle's stream.
    fn fenced(
        &mut self,
        enqueue: impl FnOnce(&mut hone_handle) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let own = self.gpu().raw_stream();
        // SAFETY: both streams are live (the caller's by contract).
        unsafe {
            self.before.record(self.stream)?;
            self.before.make_wait(own)?;
        }
        enqueue(self)?;
        // SAFETY: as above.
        unsafe {
            self.after.record(own)?;
            self.after.make_wait(self.stream)?;
        }
        Ok(())
    }
}

mod gemm;
mod memory;
mod symv;

pub use gemm::*;
pub use memory::*;
pub use symv::*;

/// The message of the last failed call on this thread ("" after a
/// success). Valid until the thread's next hone call.
#[no_mangle]
pub extern "C" fn hone_get_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// The status's name, e.g. "HONE_STATUS_INVALID_VALUE".
#[no_mangle]
pub extern "C" fn hone_status_string(status: hone_status_t) -> *const c_char {
    let s: &'static CStr = match status {
        HONE_STATUS_SUCCESS => c"HONE_STATUS_SUCCESS",
        HONE_STATUS_INVALID_VALUE => c"HONE_STATUS_INVALID_VALUE",
        HONE_STATUS_NO_DEVICE => c"HONE_STATUS_NO_DEVICE",
        HONE_STATUS_NOT_SUPPORTED => c"HONE_STATUS_NOT_SUPPORTED",
        HONE_STATUS_EXECUTION_FAILED => c"HONE_STATUS_EXECUTION_FAILED",
        HONE_STATUS_INTERNAL_ERROR => c"HONE_STATUS_INTERNAL_ERROR",
    };
    s.as_ptr()
}

/// hone's version, e.g. "0.1.0".
#[no_mangle]
pub extern "C" fn hone_version() -> *const c_char {
    static VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn last_error() -> String {
        // SAFETY: a NUL-terminated string owned by this thread.
        unsafe { CStr::from_ptr(hone_get_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn bad_arguments_are_refused_with_a_message_before_any_device_is_needed() {
        // SAFETY: null handles and pointers are what is being tested.
        unsafe {
            assert_eq!(
                hone_create(std::ptr::null_mut(), 0),
                HONE_STATUS_INVALID_VALUE
            );
            assert!(last_error().contains("hone_create: the handle pointer is null"));
            let s = hone_dsymv(
                std::ptr::null_mut(),
                hone_fill_mode_t::HONE_FILL_MODE_LOWER,
                4,
                1.0,
                std::ptr::null(),
                4,
                std::ptr::null(),
                1,
                0.0,
                std::ptr::null_mut(),
                1,
            );
            assert_eq!(s, HONE_STATUS_INVALID_VALUE);
            assert!(
                last_error().contains("hone_dsymv: the handle is null"),
                "{}",
                last_error()
            );
            assert_eq!(hone_destroy(std::ptr::null_mut()), HONE_STATUS_SUCCESS);
            assert_eq!(last_error(), "");
        }
    }

    #[test]
    fn panics_become_internal_errors() {
        let s = guard("hone_test", || panic!("boom"));
        assert_eq!(s, HONE_STATUS_INTERNAL_ERROR);
        assert_eq!(last_error(), "hone_test: internal error: boom");
    }

    #[test]
    fn status_names_and_version() {
        // SAFETY: static NUL-terminated strings.
        let name = |s| {
            unsafe { CStr::from_ptr(hone_status_string(s)) }
                .to_str()
                .unwrap()
        };
        assert_eq!(name(HONE_STATUS_NO_DEVICE), "HONE_STATUS_NO_DEVICE");
        assert_eq!(name(HONE_STATUS_SUCCESS), "HONE_STATUS_SUCCESS");
        // SAFETY: as above.
        let v = unsafe { CStr::from_ptr(hone_version()) }.to_str().unwrap();
        assert_eq!(v, env!("CARGO_PKG_VERSION"));
    }
}
