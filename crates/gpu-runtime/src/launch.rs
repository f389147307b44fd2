//! Device buffers, modules, kernel launches and events: owning wrappers over
//! the driver API, each freed on drop.

use std::ffi::{c_void, CString};

use cudarc::driver::result as cu;
use cudarc::driver::sys::{self, CUfunction_attribute as FuncAttr};
use serde::{Deserialize, Serialize};

use crate::device::Gpu;
use crate::error::{GpuError, Result};
use crate::libs::DriverResultExt;
use crate::nvrtc::ImageKind;

/// Dynamic shared memory a block gets without raising the function's limit.
pub const DEFAULT_DYNAMIC_SMEM_LIMIT: u32 = 48 * 1024;

/// Whether a launch must raise the function's dynamic shared-memory limit:
/// the 48 KiB a block gets without opting in count its static shared memory
/// too, so 48 KiB of dynamic memory beside 16 bytes of static needs it (the
/// launch fails with an invalid argument otherwise).
pub fn needs_smem_opt_in(dynamic: u32, static_bytes: u32) -> bool {
    dynamic as u64 + static_bytes as u64 > DEFAULT_DYNAMIC_SMEM_LIMIT as u64
}

/// A device allocation. Must not outlive the [`Gpu`] it was made on.
pub struct DeviceBuffer {
    ptr: sys::CUdeviceptr,
    bytes: usize,
}

impl DeviceBuffer {
    pub fn alloc(_gpu: &Gpu, bytes: usize) -> Result<DeviceBuffer> {
        // A zero-byte request still gets a distinct, valid pointer.
        // SAFETY: plain allocation in the current context.
        let ptr = unsafe { cu::malloc_sync(bytes.max(1)) }.during("cuMemAlloc")?;
        Ok(DeviceBuffer { ptr, bytes })
    }

    /// A buffer of `data`'s size holding a copy of it.
    pub fn with_data(gpu: &Gpu, data: &[u8]) -> Result<DeviceBuffer> {
        let d = DeviceBuffer::alloc(gpu, data.len())?;
        d.upload(gpu, data)?;
        Ok(d)
    }

    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn upload(&self, gpu: &Gpu, data: &[u8]) -> Result<()> {
        self.check_len(data.len())?;
        // SAFETY: the sizes match, and the copy completes before return.
        unsafe {
            cu::memcpy_htod_async(self.ptr, data, gpu.stream()).during("cuMemcpyHtoDAsync")?;
        }
        gpu.synchronize()
    }

    pub fn download(&self, gpu: &Gpu, out: &mut [u8]) -> Result<()> {
        self.check_len(out.len())?;
        // SAFETY: the sizes match, and the copy completes before return.
        unsafe {
            cu::memcpy_dtoh_async(out, self.ptr, gpu.stream()).during("cuMemcpyDtoHAsync")?;
        }
        gpu.synchronize()
    }

    /// Fills every byte with `value`, in stream order (not waited for).
    pub fn fill_async(&self, gpu: &Gpu, value: u8) -> Result<()> {
        // SAFETY: hone's stream belongs to the current context.
        unsafe { self.fill_on(gpu.stream(), value) }
    }

    /// [`Self::fill_async`] on another stream (null: the legacy default one).
    ///
    /// # Safety
    /// `stream` belongs to the current context.
    pub(crate) unsafe fn fill_on(&self, stream: sys::CUstream, value: u8) -> Result<()> {
        // SAFETY: within the allocation; the caller vouches for the stream.
        unsafe { cu::memset_d8_async(self.ptr, value, self.bytes, stream) }
            .during("cuMemsetD8Async")
    }

    /// Copies all of `src` into the start of `self`, in stream order.
    pub fn copy_from_async(&self, gpu: &Gpu, src: &DeviceBuffer) -> Result<()> {
        if src.bytes > self.bytes {
            return Err(GpuError::Launch(format!(
                "device copy of {} bytes into a buffer of {}",
                src.bytes, self.bytes
            )));
        }
        // SAFETY: both ranges lie within their allocations.
        unsafe { cu::memcpy_dtod_async(self.ptr, src.ptr, src.bytes, gpu.stream()) }
            .during("cuMemcpyDtoDAsync")
    }

    fn check_len(&self, len: usize) -> Result<()> {
        if len != self.bytes {
            return Err(GpuError::Launch(format!(
                "host copy of {len} bytes for a device buffer of {}",
                self.bytes
            )));
        }
        Ok(())
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated by cuMemAlloc, freed once. Errors after a fault are expected.
        let _ = unsafe { cu::free_sync(self.ptr) };
    }
}

/// A loaded module.
pub struct Module {
    module: sys::CUmodule,
}

impl Module {
    /// Loads a cubin, or PTX that the driver compiles now.
    pub fn load(_gpu: &Gpu, image: &[u8], kind: ImageKind) -> Result<Module> {
        Self::load_current(image, kind)
    }

    /// [`Self::load`] into the current context, for holders that keep no
    /// [`Gpu`] at hand.
    pub(crate) fn load_current(image: &[u8], kind: ImageKind) -> Result<Module> {
        let mut owned;
        let data: &[u8] = match kind {
            // PTX is passed as a NUL-terminated string.
            ImageKind::Ptx if image.last() != Some(&0) => {
                owned = image.to_vec();
                owned.push(0);
                &owned
            }
            _ => image,
        };
        if data.is_empty() {
            return Err(GpuError::Launch("empty module image".to_string()));
        }
        // SAFETY: the image is a complete cubin or NUL-terminated PTX.
        let module = unsafe { cu::module::load_data(data.as_ptr() as *const c_void) }
            .during("cuModuleLoadData")?;
        Ok(Module { module })
    }

    /// Sets the first `bytes.len()` bytes of the module's `__device__` or
    /// `__constant__` variable `name`, as `cudaMemcpyToSymbol` does.
    pub fn write_global(&self, gpu: &Gpu, name: &str, bytes: &[u8]) -> Result<()> {
        let cname = CString::new(name).map_err(|_| {
            GpuError::Template(format!("variable name {name:?} contains a NUL byte"))
        })?;
        // SAFETY: the module is loaded.
        let (ptr, size) = unsafe { cu::module::get_global(self.module, cname) }
            .during(&format!("cuModuleGetGlobal(\"{name}\")"))?;
        if bytes.len() > size {
            return Err(GpuError::Template(format!(
                "{} bytes given for `{name}`, which holds {size}",
                bytes.len()
            )));
        }
        // SAFETY: within the variable's `size` bytes; the copy completes
        // before return.
        unsafe {
            cu::memcpy_htod_async(ptr, bytes, gpu.stream()).during("cuMemcpyHtoDAsync")?;
        }
        gpu.synchronize()
    }

    pub fn function(&self, name: &str) -> Result<Function<'_>> {
        let cname = CString::new(name)
            .map_err(|_| GpuError::Template(format!("kernel name {name:?} contains a NUL byte")))?;
        // SAFETY: the module is loaded.
        let func = unsafe { cu::module::get_function(self.module, cname) }
            .during(&format!("cuModuleGetFunction(\"{name}\")"))?;
        Ok(Function {
            func,
            _module: self,
        })
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: loaded once, unloaded once.
        let _ = unsafe { cu::module::unload(self.module) };
    }
}

/// Resource use the compiler chose for a kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionInfo {
    pub registers: u32,
    /// Local memory per thread: non-zero means spills or a stack frame.
    pub local_bytes: u32,
    pub static_shared_bytes: u32,
    /// The largest block the kernel can be launched with.
    pub max_threads_per_block: u32,
}

/// A kernel of a loaded module.
pub struct Function<'m> {
    func: sys::CUfunction,
    _module: &'m Module,
}

/// One kernel argument, stored in an 8-byte slot (the driver reads as many
/// bytes as the parameter's type takes, from the slot's start).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KernelArg {
    Ptr(u64),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F32(f32),
    F64(f64),
}

/// One parameter of [`Function::launch_values`].
#[derive(Debug, Clone, Copy)]
pub enum ParamValue<'a> {
    Arg(KernelArg),
    /// A struct passed by value, in the kernel's layout.
    Bytes(&'a [u8]),
}

impl KernelArg {
    fn slot(self) -> u64 {
        match self {
            KernelArg::Ptr(v) | KernelArg::U64(v) => v,
            KernelArg::I64(v) => v as u64,
            KernelArg::I32(v) => v as u32 as u64,
            KernelArg::U32(v) => v as u64,
            KernelArg::F32(v) => v.to_bits() as u64,
            KernelArg::F64(v) => v.to_bits(),
        }
    }
}

/// Grid, block and dynamic shared memory of a launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchDims {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    pub shared_mem: u32,
}

impl Function<'_> {
    pub fn info(&self) -> Result<FunctionInfo> {
        // SAFETY: the function belongs to a loaded module.
        let get = |a: FuncAttr| {
            unsafe { cu::function::get_function_attribute(self.func, a) }
                .during("cuFuncGetAttribute")
        };
        Ok(FunctionInfo {
            registers: get(FuncAttr::CU_FUNC_ATTRIBUTE_NUM_REGS)?.max(0) as u32,
            local_bytes: get(FuncAttr::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)?.max(0) as u32,
            static_shared_bytes: get(FuncAttr::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?.max(0) as u32,
            max_threads_per_block: get(FuncAttr::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?.max(0)
                as u32,
        })
    }

    /// Checks `dims` against the device and the kernel, and raises the
    /// kernel's dynamic shared-memory limit when the launch needs more than
    /// the default 48 KB.
    pub fn prepare(&self, gpu: &Gpu, dims: &LaunchDims) -> Result<()> {
        let props = gpu.props();
        let info = self.info()?;
        let threads = dims.block.0 as u64 * dims.block.1 as u64 * dims.block.2 as u64;
        if threads > info.max_threads_per_block as u64 {
            return Err(GpuError::Launch(format!(
                "{threads} threads per block, but this kernel allows at most {} ({} registers per thread)",
                info.max_threads_per_block, info.registers
            )));
        }
        let total_smem = dims.shared_mem as u64 + info.static_shared_bytes as u64;
        if total_smem > props.shared_mem_per_block_optin as u64 {
            return Err(GpuError::Launch(format!(
                "{total_smem} bytes of shared memory per block ({} dynamic), but the device allows {}",
                dims.shared_mem, props.shared_mem_per_block_optin
            )));
        }
        if needs_smem_opt_in(dims.shared_mem, info.static_shared_bytes) {
            // SAFETY: the function belongs to a loaded module.
            unsafe {
                cu::function::set_function_attribute(
                    self.func,
                    FuncAttr::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    dims.shared_mem as i32,
                )
            }
            .during("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")?;
        }
        Ok(())
    }

    /// Enqueues one launch on the device's stream (not waited for).
    ///
    /// # Safety
    /// The arguments must match the kernel's parameters in number and type,
    /// and every pointer must reach as far as the kernel will access.
    pub unsafe fn launch(&self, gpu: &Gpu, dims: &LaunchDims, args: &[KernelArg]) -> Result<()> {
        self.launch_on(gpu.stream(), dims, args)
    }

    /// [`Self::launch`] with parameters that may be structs passed by value,
    /// given as their bytes in the kernel's layout.
    ///
    /// # Safety
    /// As for [`Self::launch`]; each byte value must be as large as its
    /// parameter.
    pub unsafe fn launch_values(
        &self,
        gpu: &Gpu,
        dims: &LaunchDims,
        args: &[ParamValue],
    ) -> Result<()> {
        self.launch_values_as(gpu, dims, args, false)
    }

    /// [`Self::launch_values`], as a cooperative launch when `cooperative`
    /// (`cuLaunchCooperativeKernel`: every block resident at once, so that
    /// the kernel may synchronize its grid; the driver refuses a grid larger
    /// than the device holds).
    ///
    /// # Safety
    /// As for [`Self::launch_values`].
    pub unsafe fn launch_values_as(
        &self,
        gpu: &Gpu,
        dims: &LaunchDims,
        args: &[ParamValue],
        cooperative: bool,
    ) -> Result<()> {
        // The driver copies each parameter from where its pointer points;
        // words keep every value aligned for any parameter type.
        let mut store: Vec<Vec<u64>> = args
            .iter()
            .map(|a| match a {
                ParamValue::Arg(k) => vec![k.slot()],
                ParamValue::Bytes(b) => {
                    let mut words = vec![0u64; b.len().div_ceil(8).max(1)];
                    for (i, byte) in b.iter().enumerate() {
                        words[i / 8] |= (*byte as u64) << (8 * (i % 8));
                    }
                    words
                }
            })
            .collect();
        let mut params: Vec<*mut c_void> = store
            .iter_mut()
            .map(|w| w.as_mut_ptr() as *mut c_void)
            .collect();
        if cooperative {
            return cu::launch_cooperative_kernel(
                self.func,
                dims.grid,
                dims.block,
                dims.shared_mem,
                gpu.stream(),
                &mut params,
            )
            .during("cuLaunchCooperativeKernel");
        }
        self.launch_params(gpu, dims, &mut params)
    }

    unsafe fn launch_params(
        &self,
        gpu: &Gpu,
        dims: &LaunchDims,
        params: &mut [*mut c_void],
    ) -> Result<()> {
        self.launch_params_on(gpu.stream(), dims, params)
    }

    /// [`Self::launch`] on another stream (null: the legacy default stream),
    /// for timing work that a library enqueues there.
    ///
    /// # Safety
    /// As for [`Self::launch`]; `stream` must belong to the current context.
    pub unsafe fn launch_on(
        &self,
        stream: sys::CUstream,
        dims: &LaunchDims,
        args: &[KernelArg],
    ) -> Result<()> {
        let mut slots: Vec<u64> = args.iter().map(|a| a.slot()).collect();
        let mut params: Vec<*mut c_void> = slots
            .iter_mut()
            .map(|s| s as *mut u64 as *mut c_void)
            .collect();
        self.launch_params_on(stream, dims, &mut params)
    }

    unsafe fn launch_params_on(
        &self,
        stream: sys::CUstream,
        dims: &LaunchDims,
        params: &mut [*mut c_void],
    ) -> Result<()> {
        cu::launch_kernel(
            self.func,
            dims.grid,
            dims.block,
            dims.shared_mem,
            stream,
            params,
        )
        .during("cuLaunchKernel")
    }
}

/// A timing event.
pub struct Event {
    event: sys::CUevent,
}

impl Event {
    pub fn new(_gpu: &Gpu) -> Result<Event> {
        let event =
            cu::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).during("cuEventCreate")?;
        Ok(Event { event })
    }

    pub fn record(&self, gpu: &Gpu) -> Result<()> {
        // SAFETY: the event and the stream are alive.
        unsafe { cu::event::record(self.event, gpu.stream()) }.during("cuEventRecord")
    }

    /// Milliseconds from `start` to `self`; both must have completed.
    pub fn elapsed_since(&self, start: &Event) -> Result<f64> {
        // SAFETY: both events were recorded on the same stream.
        unsafe { cu::event::elapsed(start.event, self.event) }
            .map(|ms| ms as f64)
            .during("cuEventElapsedTime")
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created once, destroyed once.
        let _ = unsafe { cu::event::destroy(self.event) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_shared_memory_counts_toward_the_limit_without_opt_in() {
        // a split-K DGEMM tile: 48 KiB of pipeline stages and 16 static bytes
        assert!(needs_smem_opt_in(48 * 1024, 16));
        assert!(!needs_smem_opt_in(48 * 1024, 0));
        assert!(!needs_smem_opt_in(40 * 1024, 16));
        assert!(needs_smem_opt_in(64 * 1024, 0));
    }

    #[test]
    fn argument_slots_hold_the_value_in_their_low_bytes() {
        assert_eq!(KernelArg::I32(-1).slot(), 0xFFFF_FFFF);
        assert_eq!(
            KernelArg::U32(7).slot().to_le_bytes()[..4],
            7u32.to_le_bytes()
        );
        assert_eq!(
            KernelArg::F32(1.5).slot().to_le_bytes()[..4],
            1.5f32.to_le_bytes()
        );
        assert_eq!(KernelArg::F64(-2.25).slot(), (-2.25f64).to_bits());
        assert_eq!(KernelArg::I64(-5).slot(), (-5i64) as u64);
        assert_eq!(KernelArg::Ptr(0xdead_beef_0000).slot(), 0xdead_beef_0000);
    }
}
