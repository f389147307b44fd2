//! Launches of compiled kernels on the GPU with the same input bytes the
//! emulator had, one synchronisation per launch so that a fault names its
//! kernel.

use hone_emulator::Buffer;
use hone_gpu::launch::{DeviceBuffer, KernelArg, LaunchDims, Module};
use hone_gpu::{CompiledModule, Gpu, GpuError};

use crate::check::FIRST_OUTPUT;

/// A launch's failure on the device; `sticky` ones leave the context unusable.
#[derive(Debug)]
pub struct DeviceFailure {
    pub message: String,
    pub sticky: bool,
}

impl From<GpuError> for DeviceFailure {
    fn from(e: GpuError) -> Self {
        let sticky = matches!(e, GpuError::Driver { sticky: true, .. });
        DeviceFailure {
            message: e.to_string(),
            sticky,
        }
    }
}

/// A loaded module of many kernels.
pub struct Loaded {
    module: Module,
}

impl Loaded {
    pub fn load(gpu: &Gpu, compiled: &CompiledModule) -> Result<Loaded, DeviceFailure> {
        Ok(Loaded {
            module: Module::load(gpu, &compiled.image, compiled.kind)?,
        })
    }

    /// Runs kernel `name` over `grid` blocks of `block` threads on copies of
    /// `buffers` (one parameter each, in order) and returns them afterwards
    /// (only the written ones are read back).
    pub fn run(
        &self,
        gpu: &Gpu,
        name: &str,
        grid: u32,
        block: u32,
        buffers: &[Buffer],
    ) -> Result<Vec<Buffer>, DeviceFailure> {
        let function = self.module.function(name)?;
        let dims = LaunchDims {
            grid: (grid, 1, 1),
            block: (block, 1, 1),
            shared_mem: 0,
        };
        function.prepare(gpu, &dims)?;
        let device: Vec<DeviceBuffer> = buffers
            .iter()
            .map(|b| DeviceBuffer::with_data(gpu, &b.data))
            .collect::<Result<_, GpuError>>()?;
        let args: Vec<KernelArg> = device.iter().map(|d| KernelArg::Ptr(d.ptr())).collect();
        // SAFETY: the generated kernels take exactly these pointers, in this
        // order, and index them within the lengths the buffers are made with
        // (inputs masked to their length, outputs by global thread id).
        unsafe { function.launch(gpu, &dims, &args) }?;
        gpu.synchronize()?;
        let mut out = buffers.to_vec();
        for (b, d) in out.iter_mut().zip(&device).skip(FIRST_OUTPUT) {
            d.download(gpu, &mut b.data)?;
        }
        Ok(out)
    }
}
