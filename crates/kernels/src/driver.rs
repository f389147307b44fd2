//! Thin owners of CUDA driver objects that hone-gpu's single-stream model
//! does not cover: events on any stream, extra streams, and pinned host
//! memory. Each frees its object when dropped.

use std::ffi::c_void;

use cudarc::driver::result as cu;
use cudarc::driver::sys;

/// A driver failure, naming the call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{call}: {message}")]
pub struct DriverError {
    pub call: &'static str,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, DriverError>;

pub(crate) fn driver(call: &'static str, e: cu::DriverError) -> DriverError {
    DriverError {
        call,
        message: format!("{e:?}"),
    }
}

/// An event, recorded on any stream.
pub struct RawEvent(pub(crate) sys::CUevent);

impl RawEvent {
    pub fn new() -> Result<RawEvent> {
        cu::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map(RawEvent)
            .map_err(|e| driver("cuEventCreate", e))
    }

    /// Records on `stream` (null: the legacy default stream).
    ///
    /// # Safety
    /// `stream` must be null or a live stream of the current context.
    pub unsafe fn record(&self, stream: sys::CUstream) -> Result<()> {
        // SAFETY: the event is alive; the caller vouches for the stream.
        unsafe { cu::event::record(self.0, stream) }.map_err(|e| driver("cuEventRecord", e))
    }

    /// Milliseconds from `start` to `self`; both must have completed.
    pub fn since(&self, start: &RawEvent) -> Result<f64> {
        // SAFETY: both events are alive and were recorded.
        unsafe { cu::event::elapsed(start.0, self.0) }
            .map(f64::from)
            .map_err(|e| driver("cuEventElapsedTime", e))
    }

    /// Makes `stream` wait for the work before this event's record.
    ///
    /// # Safety
    /// `stream` must be a live stream of the current context.
    pub unsafe fn make_wait(&self, stream: sys::CUstream) -> Result<()> {
        // SAFETY: the event is alive; the caller vouches for the stream.
        unsafe {
            cu::stream::wait_event(
                stream,
                self.0,
                sys::CUevent_wait_flags::CU_EVENT_WAIT_DEFAULT,
            )
        }
        .map_err(|e| driver("cuStreamWaitEvent", e))
    }
}

impl RawEvent {
    /// Records on a stream of this crate's.
    pub fn record_on(&self, stream: &Stream) -> Result<()> {
        // SAFETY: the Stream is alive while borrowed.
        unsafe { self.record(stream.0) }
    }

    /// Records on the stream hone's launches go to.
    pub fn record_on_gpu(&self, gpu: &hone_gpu::Gpu) -> Result<()> {
        // SAFETY: the Gpu's stream lives as long as the Gpu.
        unsafe { self.record(gpu.raw_stream()) }
    }

    /// Makes a stream of this crate's wait for this event.
    pub fn make_stream_wait(&self, stream: &Stream) -> Result<()> {
        // SAFETY: the Stream is alive while borrowed.
        unsafe { self.make_wait(stream.0) }
    }

    /// Makes hone's launch stream wait for this event.
    pub fn make_gpu_wait(&self, gpu: &hone_gpu::Gpu) -> Result<()> {
        // SAFETY: the Gpu's stream lives as long as the Gpu.
        unsafe { self.make_wait(gpu.raw_stream()) }
    }
}

impl Drop for RawEvent {
    fn drop(&mut self) {
        // SAFETY: created once, destroyed once.
        let _ = unsafe { cu::event::destroy(self.0) };
    }
}

/// A non-blocking stream of the current context.
pub struct Stream(pub(crate) sys::CUstream);

impl Stream {
    pub fn new() -> Result<Stream> {
        cu::stream::create(cu::stream::StreamKind::NonBlocking)
            .map(Stream)
            .map_err(|e| driver("cuStreamCreate", e))
    }

    pub fn raw(&self) -> sys::CUstream {
        self.0
    }

    pub fn synchronize(&self) -> Result<()> {
        // SAFETY: the stream is alive.
        unsafe { cu::stream::synchronize(self.0) }.map_err(|e| driver("cuStreamSynchronize", e))
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: created once; destroying waits for nothing but is legal
        // with work pending (the driver finishes it).
        let _ = unsafe { cu::stream::destroy(self.0) };
    }
}

/// Page-locked host memory, which copies can overlap with kernels.
pub struct Pinned {
    ptr: *mut c_void,
    bytes: usize,
}

impl Pinned {
    pub fn new(bytes: usize) -> Result<Pinned> {
        // SAFETY: the memory is uninitialised; it is zeroed below before
        // any read.
        let ptr =
            unsafe { cu::malloc_host(bytes.max(1), 0) }.map_err(|e| driver("cuMemHostAlloc", e))?;
        // SAFETY: `bytes` bytes were just allocated at `ptr`.
        unsafe { std::ptr::write_bytes(ptr as *mut u8, 0, bytes) };
        Ok(Pinned { ptr, bytes })
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: owned, initialised allocation of `bytes` bytes.
        unsafe { std::slice::from_raw_parts(self.ptr as *const u8, self.bytes) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: owned, initialised allocation of `bytes` bytes.
        unsafe { std::slice::from_raw_parts_mut(self.ptr as *mut u8, self.bytes) }
    }

    /// Enqueues a copy of `len` bytes from offset `at` to device address
    /// `dst` on `stream`.
    ///
    /// # Safety
    /// `dst` must hold `len` bytes; neither side may be touched until the
    /// stream has passed the copy.
    pub unsafe fn upload(&self, at: usize, len: usize, dst: u64, stream: &Stream) -> Result<()> {
        assert!(at + len <= self.bytes, "pinned upload past the end");
        // SAFETY: in bounds (checked); the caller vouches for dst.
        unsafe { cu::memcpy_htod_async(dst, &self.as_slice()[at..at + len], stream.0) }
            .map_err(|e| driver("cuMemcpyHtoDAsync", e))
    }

    /// Enqueues a copy of `height` rows of `width` bytes, `pitch` bytes apart
    /// from offset `at`, to device address `dst` with rows `dst_pitch` apart
    /// (a block of a column-major matrix: its columns are the rows here).
    ///
    /// # Safety
    /// `dst` must hold the rows at their pitch; neither side may be touched
    /// until the stream has passed the copy.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn upload_2d(
        &self,
        at: usize,
        pitch: usize,
        width: usize,
        height: usize,
        dst: u64,
        dst_pitch: usize,
        stream: &Stream,
    ) -> Result<()> {
        if width == 0 || height == 0 {
            return Ok(());
        }
        assert!(
            width <= pitch && at + (height - 1) * pitch + width <= self.bytes,
            "pinned 2-D upload past the end"
        );
        let copy = sys::CUDA_MEMCPY2D {
            srcXInBytes: 0,
            srcY: 0,
            srcMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_HOST,
            // SAFETY: in bounds (checked above).
            srcHost: unsafe { (self.ptr as *const u8).add(at) } as *const c_void,
            srcDevice: 0,
            srcArray: std::ptr::null_mut(),
            srcPitch: pitch,
            dstXInBytes: 0,
            dstY: 0,
            dstMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_DEVICE,
            dstHost: std::ptr::null_mut(),
            dstDevice: dst,
            dstArray: std::ptr::null_mut(),
            dstPitch: dst_pitch,
            WidthInBytes: width,
            Height: height,
        };
        // SAFETY: the source rows are in bounds (checked); the caller
        // vouches for the destination.
        unsafe { sys::cuMemcpy2DAsync_v2(&copy, stream.0) }
            .result()
            .map_err(|e| driver("cuMemcpy2DAsync", e))
    }

    /// Enqueues a copy of `len` bytes from device address `src` to offset
    /// `at` on `stream`.
    ///
    /// # Safety
    /// As for [`Pinned::upload`].
    pub unsafe fn download(
        &mut self,
        at: usize,
        len: usize,
        src: u64,
        stream: &Stream,
    ) -> Result<()> {
        assert!(at + len <= self.bytes, "pinned download past the end");
        let s = stream.0;
        // SAFETY: in bounds (checked); the caller vouches for src.
        unsafe { cu::memcpy_dtoh_async(&mut self.as_mut_slice()[at..at + len], src, s) }
            .map_err(|e| driver("cuMemcpyDtoHAsync", e))
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        // SAFETY: allocated once by cuMemHostAlloc, freed once.
        let _ = unsafe { cu::free_host(self.ptr) };
    }
}
