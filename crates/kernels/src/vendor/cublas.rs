//! cuBLAS (through cudarc, loaded at run time) and the timing of work on its
//! stream. The routines' own calls (`?symv`, `?gemm`, ...) are `impl Cublas`
//! blocks in each routine's folder, over [`Cublas::handle`] and [`status`].
//!
//! cuBLAS runs on the legacy default stream; hone's own kernels run on the
//! [`Gpu`]'s non-blocking stream. Each side is timed on its own stream the
//! same way (warm-up, L2 flush before each timed run, rotation over the same
//! buffer copies, median of events), and the two never overlap: the device is
//! synchronised at each hand-over.

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

use cudarc::cublas::sys as cb;
use cudarc::driver::result as cu;
use hone_gpu::timing::L2Flusher;
use hone_gpu::{Gpu, TimingOptions};

use crate::driver::RawEvent;

/// A failure of the vendor library or of the driver calls around it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VendorError(pub String);

pub type Result<T, E = VendorError> = std::result::Result<T, E>;

impl From<crate::driver::DriverError> for VendorError {
    fn from(e: crate::driver::DriverError) -> VendorError {
        VendorError(e.to_string())
    }
}

impl From<hone_gpu::GpuError> for VendorError {
    fn from(e: hone_gpu::GpuError) -> VendorError {
        VendorError(e.to_string())
    }
}

fn driver(call: &str, e: cu::DriverError) -> VendorError {
    VendorError(format!("{call}: {e:?}"))
}

/// A cuBLAS status as a result naming the call.
pub fn status(call: &str, s: cb::cublasStatus_t) -> Result<()> {
    s.result()
        .map_err(|e| VendorError(format!("{call}: {:?}", e.0)))
}

/// A cuBLAS handle on the current device's primary context.
pub struct Cublas {
    handle: cb::cublasHandle_t,
}

impl Cublas {
    /// Creates a handle; fails (never panics) when libcublas is missing.
    /// The [`Gpu`] must be open, so that its context is current.
    pub fn new(_gpu: &Gpu) -> Result<Cublas> {
        // SAFETY: only tries to dlopen candidate names.
        if !unsafe { cb::is_culib_present() } {
            return Err(VendorError(
                "libcublas was not found; add the CUDA toolkit's lib64 directory to \
                 LD_LIBRARY_PATH"
                    .to_string(),
            ));
        }
        let created = catch_unwind(AssertUnwindSafe(cudarc::cublas::result::create_handle))
            .map_err(|p| {
                let m = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                VendorError(format!("loading cuBLAS: {m}"))
            })?;
        let handle = created.map_err(|e| VendorError(format!("cublasCreate: {:?}", e.0)))?;
        Ok(Cublas { handle })
    }

    /// The raw handle, for the routines' calls.
    pub fn handle(&self) -> cb::cublasHandle_t {
        self.handle
    }

    /// A handle whose calls go to `gpu`'s own stream, ordered with hone's
    /// kernels there (the default handle uses the legacy default stream).
    pub fn on_stream_of(gpu: &Gpu) -> Result<Cublas> {
        let c = Cublas::new(gpu)?;
        // SAFETY: the handle is alive; the stream belongs to `gpu`'s context.
        status("cublasSetStream", unsafe {
            cb::cublasSetStream_v2(c.handle, gpu.raw_stream() as cb::cudaStream_t)
        })?;
        Ok(c)
    }

    /// The library's version, e.g. 130000 for 13.0.0.
    pub fn version(&self) -> Result<i32> {
        let mut v: c_int = 0;
        // SAFETY: the handle is alive; writes one int.
        status("cublasGetVersion", unsafe {
            cb::cublasGetVersion_v2(self.handle, &mut v)
        })?;
        Ok(v)
    }
}

impl Drop for Cublas {
    fn drop(&mut self) {
        // SAFETY: created once, destroyed once.
        let _ = unsafe { cudarc::cublas::result::destroy_handle(self.handle) };
    }
}

/// Waits for all work of the current context, on every stream.
pub fn synchronize_device() -> Result<()> {
    cu::ctx::synchronize().map_err(|e| driver("cuCtxSynchronize", e))
}

/// Times work enqueued on the legacy default stream the way
/// [`hone_gpu::timing::time_runs`] times work on the GPU's own stream.
pub struct DefaultStreamTimer {
    flusher: L2Flusher,
}

impl DefaultStreamTimer {
    /// hone's own flusher, enqueued on the default stream.
    pub fn new(gpu: &Gpu) -> Result<DefaultStreamTimer> {
        Ok(DefaultStreamTimer {
            flusher: L2Flusher::new(gpu)?,
        })
    }

    /// Runs `run(copy)` `warmup` times, then `reps` times between events (an
    /// L2 flush before each when asked), cycling over `copies`; returns each
    /// timed run's milliseconds.
    pub fn time<E: From<VendorError>>(
        &mut self,
        options: &TimingOptions,
        copies: usize,
        mut run: impl FnMut(usize) -> Result<(), E>,
    ) -> Result<Vec<f64>, E> {
        let copies = copies.max(1);
        synchronize_device()?;
        for i in 0..options.warmup as usize {
            run(i % copies)?;
        }
        let reps = options.reps.max(1) as usize;
        let events = (0..reps)
            .map(|_| Ok((RawEvent::new()?, RawEvent::new()?)))
            .collect::<Result<Vec<_>>>()?;
        for (r, (start, end)) in events.iter().enumerate() {
            if options.flush_l2 {
                self.flusher
                    .flush_default_stream(options.l2_flush)
                    .map_err(VendorError::from)?;
            }
            // SAFETY: null is the legacy default stream.
            unsafe { start.record(std::ptr::null_mut()) }.map_err(VendorError::from)?;
            run((options.warmup as usize + r) % copies)?;
            // SAFETY: as above.
            unsafe { end.record(std::ptr::null_mut()) }.map_err(VendorError::from)?;
        }
        synchronize_device()?;
        events
            .iter()
            .map(|(s, e)| e.since(s).map_err(|e| VendorError::from(e).into()))
            .collect()
    }
}
