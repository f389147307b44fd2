//! The GPU half of `hone.tune`: compile a user's kernel source with NVRTC
//! (through hone's module cache), launch it with the user's buffers and
//! scalars, and time it with events. The search, the checks against the
//! user's answer and the results live in the Python half
//! (`python/hone/tuning.py`), which mirrors Kernel Tuner's interface.

use std::time::Instant;

use hone_gpu::launch::{DeviceBuffer, KernelArg, LaunchDims, Module};
use hone_gpu::nvrtc::{self, CompileOptions, Target};
use hone_gpu::timing::time_runs;
use hone_gpu::{Gpu, GpuError, ModuleCache, TimingOptions};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::{HoneError, NoDeviceError};

fn py_err(e: GpuError) -> PyErr {
    match e {
        GpuError::NoDevice(_) => NoDeviceError::new_err(e.to_string()),
        other => HoneError::new_err(other.to_string()),
    }
}

// A compile error: the configuration is invalid, not the run.
pyo3::create_exception!(
    _hone,
    CompileError,
    HoneError,
    "NVRTC refused the kernel source."
);
// A launch the device refuses (too many threads or too much shared memory
// for this kernel): the configuration is invalid, not the run.
pyo3::create_exception!(
    _hone,
    LaunchRefused,
    HoneError,
    "The device refused the launch configuration."
);

/// A GPU, the modules compiled on it and the buffers made on it.
#[pyclass(unsendable)]
pub struct KernelRunner {
    gpu: Gpu,
    target: Target,
    nvrtc_version: (u32, u32),
    cache: ModuleCache,
    /// Released modules leave `None`, so that indices stay valid.
    modules: Vec<Option<(Module, String)>>,
    buffers: Vec<Option<DeviceBuffer>>,
}

#[pymethods]
impl KernelRunner {
    #[new]
    #[pyo3(signature = (device = 0))]
    fn new(device: u32) -> PyResult<KernelRunner> {
        let gpu = Gpu::open(device).map_err(py_err)?;
        let target = nvrtc::target_for(gpu.props().compute_capability).map_err(py_err)?;
        let nvrtc_version = nvrtc::version().map_err(py_err)?;
        Ok(KernelRunner {
            gpu,
            target,
            nvrtc_version,
            cache: ModuleCache::open_default(),
            modules: Vec::new(),
            buffers: Vec::new(),
        })
    }

    /// The device and toolchain, for the results' environment.
    fn environment(&self) -> PyResult<Vec<(String, String)>> {
        let p = self.gpu.props();
        Ok(vec![
            ("device_name".into(), p.name.clone()),
            (
                "compute_capability".into(),
                format!("{}.{}", p.compute_capability.0, p.compute_capability.1),
            ),
            (
                "cuda_driver".into(),
                format!("{}.{}", p.driver_version.0, p.driver_version.1),
            ),
            (
                "nvrtc".into(),
                format!("{}.{}", self.nvrtc_version.0, self.nvrtc_version.1),
            ),
            ("target".into(), self.target.arch_option()),
        ])
    }

    /// Compiles `source` (named `name` in messages) with `options` as NVRTC
    /// options and finds `kernel` in it; returns the module's index and the
    /// milliseconds it took (near zero from the cache).
    fn compile(
        &mut self,
        source: &str,
        name: &str,
        kernel: &str,
        options: Vec<String>,
    ) -> PyResult<(usize, f64)> {
        let start = Instant::now();
        let opts = CompileOptions {
            extra: options,
            ..CompileOptions::default()
        };
        let compiled = self
            .cache
            .compile(source, name, &opts, &self.target, self.nvrtc_version)
            .map_err(|e| match e {
                GpuError::Compile { .. } => CompileError::new_err(e.to_string()),
                other => py_err(other),
            })?;
        let module = Module::load(&self.gpu, &compiled.module.image, compiled.module.kind)
            .map_err(py_err)?;
        module
            .function(kernel)
            .map_err(|e| CompileError::new_err(format!("{name}: no kernel `{kernel}`: {e}")))?;
        self.modules.push(Some((module, kernel.to_string())));
        Ok((self.modules.len() - 1, start.elapsed().as_secs_f64() * 1e3))
    }

    /// Unloads a module; its index is not reused.
    fn release(&mut self, module: usize) -> PyResult<()> {
        self.module(module)?;
        self.modules[module] = None;
        Ok(())
    }

    /// A device buffer of `bytes` bytes holding `data` (zero-padded); its index.
    fn alloc(&mut self, bytes: usize, data: &[u8]) -> PyResult<usize> {
        let b = DeviceBuffer::alloc(&self.gpu, bytes.max(1)).map_err(py_err)?;
        self.upload_into(&b, data)?;
        self.buffers.push(Some(b));
        Ok(self.buffers.len() - 1)
    }

    /// Overwrites buffer `index` with `data` from its start.
    fn upload(&mut self, index: usize, data: &[u8]) -> PyResult<()> {
        let b = self.buffer(index)?;
        self.upload_into(b, data)
    }

    /// The first `bytes` bytes of buffer `index`, after all launches.
    fn download<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        bytes: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let b = self.buffer(index)?;
        if bytes > b.bytes() {
            return Err(PyValueError::new_err(format!(
                "{bytes} bytes asked of a buffer of {}",
                b.bytes()
            )));
        }
        self.gpu.synchronize().map_err(py_err)?;
        let mut out = vec![0u8; bytes];
        b.download(&self.gpu, &mut out).map_err(py_err)?;
        Ok(PyBytes::new(py, &out))
    }

    fn free(&mut self, index: usize) -> PyResult<()> {
        self.buffer(index)?;
        self.buffers[index] = None;
        Ok(())
    }

    /// Launches module `module`'s kernel `warmup` times untimed, then
    /// `reps` times between events; returns each timed run's milliseconds.
    /// `reps` = 0 launches once and waits, untimed (a checked run).
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        module: usize,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared_mem: u32,
        args: Vec<(String, Bound<'_, PyAny>)>,
        warmup: u32,
        reps: u32,
    ) -> PyResult<Vec<f64>> {
        let (m, kernel) = self.module(module)?;
        let f = m.function(kernel).map_err(py_err)?;
        let dims = LaunchDims {
            grid,
            block,
            shared_mem,
        };
        if grid.0 == 0 || grid.1 == 0 || grid.2 == 0 {
            return Err(LaunchRefused::new_err(format!("an empty grid {grid:?}")));
        }
        f.prepare(&self.gpu, &dims)
            .map_err(|e| LaunchRefused::new_err(e.to_string()))?;
        let args = args
            .iter()
            .map(|(kind, value)| self.kernel_arg(kind, value))
            .collect::<PyResult<Vec<_>>>()?;
        // SAFETY: the Python half passes the buffers and scalars the user
        // listed for this kernel, as Kernel Tuner does; a kernel that reads
        // past them faults, and the fault is reported below.
        let launch = || unsafe { f.launch(&self.gpu, &dims, &args) };
        if reps == 0 {
            launch().map_err(py_err)?;
            self.gpu.synchronize().map_err(py_err)?;
            return Ok(Vec::new());
        }
        let options = TimingOptions {
            warmup,
            reps,
            flush_l2: false,
            copies: Some(1),
            ..Default::default()
        };
        time_runs(&self.gpu, &options, 1, None, |_| launch()).map_err(py_err)
    }
}

impl KernelRunner {
    fn buffer(&self, index: usize) -> PyResult<&DeviceBuffer> {
        self.buffers
            .get(index)
            .and_then(Option::as_ref)
            .ok_or_else(|| PyIndexError::new_err(format!("no buffer {index}")))
    }

    fn upload_into(&self, b: &DeviceBuffer, data: &[u8]) -> PyResult<()> {
        if data.len() > b.bytes() {
            return Err(PyValueError::new_err(format!(
                "{} bytes do not fit a buffer of {}",
                data.len(),
                b.bytes()
            )));
        }
        if !data.is_empty() {
            let mut padded = data.to_vec();
            padded.resize(b.bytes(), 0);
            b.upload(&self.gpu, &padded).map_err(py_err)?;
        }
        Ok(())
    }

    fn module(&self, index: usize) -> PyResult<&(Module, String)> {
        self.modules
            .get(index)
            .and_then(Option::as_ref)
            .ok_or_else(|| PyIndexError::new_err(format!("no module {index}")))
    }

    /// ("buffer", index) or (numpy type name, value).
    fn kernel_arg(&self, kind: &str, value: &Bound<'_, PyAny>) -> PyResult<KernelArg> {
        Ok(match kind {
            "buffer" => KernelArg::Ptr(self.buffer(value.extract()?)?.ptr()),
            "int32" => KernelArg::I32(value.extract()?),
            "uint32" => KernelArg::U32(value.extract()?),
            "int64" => KernelArg::I64(value.extract()?),
            "uint64" => KernelArg::U64(value.extract()?),
            "float32" => KernelArg::F32(value.extract()?),
            "float64" => KernelArg::F64(value.extract()?),
            other => {
                return Err(PyValueError::new_err(format!(
                    "argument type `{other}`: a buffer, int32, uint32, int64, uint64, float32 or float64"
                )))
            }
        })
    }
}
