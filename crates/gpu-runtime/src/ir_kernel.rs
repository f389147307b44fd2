//! Kernels of the IR on the GPU: a module printed back to CUDA C, compiled
//! with NVRTC and launched with the emulator's arguments and buffers, so the
//! emulator, the analyzer and the hardware see the same lowered code and the
//! same input bytes.

use std::path::Path;

use hone_emulator::{Buffer, KernelArg as HostArg, LaunchConfig};
use hone_ir::{Function, Leaf, Module, Scalar, Type};

use crate::launch::{DeviceBuffer, KernelArg, LaunchDims, Module as GpuModule, ParamValue};
use crate::nvrtc::{self, CompileOptions};
use crate::timing::{time_runs, L2Flusher, TimingOptions};
use crate::{Gpu, GpuError, Stats};

/// What went wrong, prefixed with the launch's label where the launch is at
/// fault.
#[derive(Debug, thiserror::Error)]
pub enum IrKernelError {
    /// The launch cannot be expressed on the GPU; found before any device work.
    #[error("{0}")]
    Unsupported(String),
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error("{label}: {what}: {source}")]
    Launch {
        label: String,
        what: &'static str,
        source: GpuError,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

/// One parameter in order: a scalar already typed, a buffer index, or the
/// index of the buffer that holds a struct passed by value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Param {
    Scalar(KernelArg),
    /// A buffer and the byte offset of the pointer the kernel receives.
    Buffer(usize, u64),
    Value(usize),
}

/// A kernel of a module, resolved against one launch before any device work.
#[derive(Clone, Debug)]
pub struct IrKernel {
    /// Names the launch in messages (usually the launch file's path).
    pub label: String,
    pub kernel: String,
    /// The CUDA C given to NVRTC.
    pub source: String,
    pub dims: LaunchDims,
    params: Vec<Param>,
    /// Contents of `__device__`/`__constant__` variables, set before the
    /// launch (a launch file's `symbols`).
    globals: Vec<(String, Type, Vec<u8>)>,
    /// NVRTC's options for the printed kernel.
    pub options: CompileOptions,
    /// The kernel synchronizes its grid: launched cooperatively.
    pub cooperative: bool,
}

impl IrKernel {
    pub fn new(
        label: &str,
        module: &Module,
        kernel: &Function,
        config: &LaunchConfig,
        args: &[HostArg],
        buffers: &[Buffer],
    ) -> Result<IrKernel, IrKernelError> {
        let mut params = Vec::with_capacity(args.len());
        for (&p, arg) in kernel.params.iter().zip(args) {
            let var = kernel.var(p);
            params.push(match (arg, &var.ty) {
                (HostArg::Buffer(i), Type::Pointer(_)) => Param::Buffer(*i, 0),
                (HostArg::BufferAt { buffer, bytes }, Type::Pointer(_)) => {
                    Param::Buffer(*buffer, *bytes)
                }
                (HostArg::Buffer(i), ty @ Type::Struct(_)) => {
                    // The emulator keeps a struct argument in a buffer of
                    // its bytes; the GPU gets the same bytes as the value.
                    let have = buffers.get(*i).map(|b| b.data.len() as u64);
                    if have != ty.size() {
                        return Err(IrKernelError::Unsupported(format!(
                            "{label}: parameter `{}` is a `{}` of {} bytes, but its buffer holds {} bytes",
                            var.name,
                            hone_ir::print::print_type(ty),
                            ty.size().unwrap_or(0),
                            have.unwrap_or(0)
                        )));
                    }
                    Param::Value(*i)
                }
                (HostArg::Buffer(_), ty) => {
                    return Err(IrKernelError::Unsupported(format!(
                        "{label}: parameter `{}` is a `{}` passed by value, which gpu-run cannot pass to the GPU",
                        var.name,
                        hone_ir::print::print_type(ty)
                    )))
                }
                (arg, Type::Scalar(s)) => Param::Scalar(scalar_arg(*s, arg)),
                (_, ty) => {
                    return Err(IrKernelError::Unsupported(format!(
                        "{label}: parameter `{}` of type `{}` cannot be passed to the GPU",
                        var.name,
                        hone_ir::print::print_type(ty)
                    )))
                }
            });
        }
        let shared_mem = u32::try_from(config.dynamic_shared_bytes).map_err(|_| {
            IrKernelError::Unsupported(format!(
                "{label}: dynamic_shared_bytes {} is too large",
                config.dynamic_shared_bytes
            ))
        })?;
        let [gx, gy, gz] = config.grid;
        let [bx, by, bz] = config.block;
        Ok(IrKernel {
            label: label.to_string(),
            kernel: kernel.name.clone(),
            source: cuda_source(&hone_ir::print::print_module(module)),
            dims: LaunchDims {
                grid: (gx, gy, gz),
                block: (bx, by, bz),
                shared_mem,
            },
            params,
            globals: Vec::new(),
            options: CompileOptions::default(),
            cooperative: hone_ir::print::uses_grid_sync(module),
        })
    }

    /// Sets the contents of the module's variable `name` before each run.
    pub fn set_global(&mut self, name: &str, ty: Type, bytes: Vec<u8>) {
        self.globals.push((name.to_string(), ty, bytes));
    }

    /// Compiles and launches the kernel once on `buffers`, which hold its
    /// results afterwards; with `time`, launches it that many more times
    /// between CUDA events. `keep` receives `STEM.cu` and the compiled image.
    pub fn run(
        &self,
        gpu: &Gpu,
        buffers: &mut [Buffer],
        stem: &str,
        keep: Option<&Path>,
        time: Option<u32>,
    ) -> Result<Option<Stats>, IrKernelError> {
        let failed = |what: &'static str| {
            let label = self.label.clone();
            move |source| IrKernelError::Launch {
                label,
                what,
                source,
            }
        };
        if let Some(dir) = keep {
            write(&dir.join(format!("{stem}.cu")), self.source.as_bytes())?;
        }
        let target = nvrtc::target_for(gpu.props().compute_capability)?;
        let compiled = nvrtc::compile(&self.source, &format!("{stem}.cu"), &self.options, &target)
            .map_err(failed("NVRTC rejected the printed kernel"))?;
        if let Some(dir) = keep {
            let file = dir.join(format!("{stem}.{}", compiled.kind.extension()));
            write(&file, &compiled.image)?;
        }
        let module = GpuModule::load(gpu, &compiled.image, compiled.kind)?;
        // Every buffer is allocated first: pointer values anywhere (buffers,
        // symbols, structs by value) become the device addresses of theirs.
        let device: Vec<DeviceBuffer> = buffers
            .iter()
            .map(|b| DeviceBuffer::alloc(gpu, b.data.len()))
            .collect::<Result<_, GpuError>>()?;
        let bases: Vec<(u64, usize)> = device.iter().map(|d| (d.ptr(), d.bytes())).collect();
        for (name, ty, bytes) in &self.globals {
            let mut bytes = bytes.clone();
            relocate(ty, &mut bytes, |p| to_device(p, &bases));
            module.write_global(gpu, name, &bytes)?;
        }
        let function = module.function(&self.kernel)?;
        function
            .prepare(gpu, &self.dims)
            .map_err(failed("launch refused"))?;
        for (b, d) in buffers.iter().zip(&device) {
            let mut bytes = b.data.clone();
            relocate(&b.elem, &mut bytes, |p| to_device(p, &bases));
            d.upload(gpu, &bytes)?;
        }
        // Structs passed by value, copied: the buffers receive the results.
        let values: Vec<Vec<u8>> = self
            .params
            .iter()
            .map(|a| match a {
                Param::Value(i) => {
                    let mut bytes = buffers[*i].data.clone();
                    relocate(&buffers[*i].elem, &mut bytes, |p| to_device(p, &bases));
                    bytes
                }
                _ => Vec::new(),
            })
            .collect();
        let args: Vec<ParamValue> = self
            .params
            .iter()
            .zip(&values)
            .map(|(a, bytes)| match a {
                Param::Scalar(s) => ParamValue::Arg(*s),
                Param::Buffer(i, bytes) => {
                    ParamValue::Arg(KernelArg::Ptr(device[*i].ptr() + bytes))
                }
                Param::Value(_) => ParamValue::Bytes(bytes),
            })
            .collect();
        // SAFETY: the arguments follow the kernel's parameters in order and type
        // (checked against the parsed signature), and each buffer is as large as
        // the launch says; an out-of-bounds access is reported by the driver
        // at the synchronisation below.
        unsafe { function.launch_values_as(gpu, &self.dims, &args, self.cooperative) }
            .map_err(failed("launch failed"))?;
        gpu.synchronize().map_err(failed("the kernel failed"))?;
        for (b, d) in buffers.iter_mut().zip(&device) {
            d.download(gpu, &mut b.data)?;
            // Back to the emulator's addresses, so the two compare.
            relocate(&b.elem, &mut b.data, |p| to_emulator(p, &bases));
        }
        let Some(reps) = time else {
            return Ok(None);
        };
        let options = TimingOptions {
            warmup: 3,
            reps,
            flush_l2: true,
            copies: Some(1),
            ..Default::default()
        };
        let mut flusher = L2Flusher::new(gpu)?;
        let samples = time_runs(gpu, &options, 1, Some(&mut flusher), |_| {
            // SAFETY: as for the launch above, with the same arguments.
            unsafe { function.launch_values_as(gpu, &self.dims, &args, self.cooperative) }
        })
        .map_err(failed("timed launches failed"))?;
        Ok(Stats::from_samples(&samples))
    }
}

/// Rewrites every pointer `ty`'s values hold in `bytes` (one or more
/// values back to back) with `map`.
fn relocate(ty: &Type, bytes: &mut [u8], map: impl Fn(u64) -> u64) {
    let mut leaves = Vec::new();
    ty.value_leaves(0, &mut leaves);
    let offsets: Vec<usize> = leaves
        .iter()
        .filter(|(_, l)| *l == Leaf::Pointer)
        .map(|(o, _)| *o as usize)
        .collect();
    let size = ty.size().unwrap_or(0) as usize;
    if offsets.is_empty() || size == 0 {
        return;
    }
    for value in bytes.chunks_exact_mut(size) {
        for &o in &offsets {
            let word: [u8; 8] = value[o..o + 8].try_into().expect("8 bytes");
            let p = map(u64::from_le_bytes(word));
            value[o..o + 8].copy_from_slice(&p.to_le_bytes());
        }
    }
}

/// The device address an emulator address of a launch buffer means (null
/// and anything else unchanged).
fn to_device(p: u64, bases: &[(u64, usize)]) -> u64 {
    match hone_emulator::pointer_target(p) {
        Some((i, off)) if i < bases.len() => bases[i].0.wrapping_add(off as u64),
        _ => p,
    }
}

/// The emulator address of a device address inside one of the launch's
/// buffers (one past the end included).
fn to_emulator(p: u64, bases: &[(u64, usize)]) -> u64 {
    // Inside a buffer first: one buffer's end may be the next one's start.
    let inside = bases
        .iter()
        .position(|&(base, len)| p >= base && p < base + len as u64);
    let end = || bases.iter().position(|&(base, len)| p == base + len as u64);
    match inside.or_else(end) {
        Some(i) => hone_emulator::buffer_pointer(i, p - bases[i].0),
        None => p,
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), IrKernelError> {
    std::fs::write(path, bytes).map_err(|source| IrKernelError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// The printed module with C linkage for its kernels, so that the loaded
/// module names each kernel as the IR does (no C++ mangling).
/// Device functions keep C++ linkage: they may be overloaded.
pub fn cuda_source(printed: &str) -> String {
    let mut out = String::with_capacity(printed.len() + 64);
    for line in printed.lines() {
        if line.trim() == GRID_INCLUDE {
            out.push_str(GRID_BARRIER);
            continue;
        }
        if line.starts_with("__global__") {
            out.push_str("extern \"C\" ");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// How the printer asks for the grid barrier.
const GRID_INCLUDE: &str = "#include <cooperative_groups.h>";

/// The grid barrier the printed code calls, for NVRTC, which has no
/// `cooperative_groups.h` of its own. The kernel is launched cooperatively
/// (every block resident), and the first thread of each block adds one to a
/// counter per barrier: the barrier is passed once the counter reaches the
/// next multiple of the block count. Each launch adds a multiple of the block
/// count, so launches one after another keep working.
const GRID_BARRIER: &str = "namespace cooperative_groups {
__device__ unsigned long long hone_grid_arrivals;
struct grid_group {
    __device__ void sync() const {
        __syncthreads();
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
            unsigned long long blocks = (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
            __threadfence();
            unsigned long long arrived = atomicAdd(&hone_grid_arrivals, 1ull);
            unsigned long long target = (arrived / blocks + 1ull) * blocks;
            while (*(volatile unsigned long long *)&hone_grid_arrivals < target) {
            }
            __threadfence();
        }
        __syncthreads();
    }
};
__device__ __forceinline__ grid_group this_grid() {
    return grid_group();
}
}
";

/// The argument slot the driver reads for a scalar parameter: as many bytes
/// as the type takes, from the start of the slot, so narrow integers travel
/// in the low bytes of a 32-bit one.
pub fn scalar_arg(s: Scalar, arg: &HostArg) -> KernelArg {
    let (int, float) = match *arg {
        HostArg::Int(v) => (v, v as f64),
        HostArg::Float(v) => (v as i64, v),
        HostArg::Buffer(i) | HostArg::BufferAt { buffer: i, .. } => (i as i64, i as f64),
    };
    match s {
        Scalar::F32 => KernelArg::F32(float as f32),
        Scalar::F64 => KernelArg::F64(float),
        Scalar::I64 => KernelArg::I64(int),
        Scalar::U64 => KernelArg::U64(int as u64),
        Scalar::U32 => KernelArg::U32(int as u32),
        Scalar::Bool => KernelArg::U32(u32::from(int != 0)),
        Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16 | Scalar::I32 => {
            KernelArg::I32(int as i32)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_get_c_linkage_and_device_functions_do_not() {
        let printed = "__device__ int f(int x);\n\n__device__ int f(int x) {\n    return x;\n}\n\n__global__ void k(int *a) {\n    a[0] = f(1);\n}\n";
        let src = cuda_source(printed);
        assert!(src.contains("extern \"C\" __global__ void k(int *a) {"));
        assert!(!src.contains("extern \"C\" __device__"));
        assert_eq!(src.matches("extern \"C\"").count(), 1);
    }

    #[test]
    fn scalars_fill_their_slot_in_the_parameter_type() {
        assert_eq!(
            scalar_arg(Scalar::F32, &HostArg::Float(0.5)),
            KernelArg::F32(0.5)
        );
        assert_eq!(
            scalar_arg(Scalar::F64, &HostArg::Int(3)),
            KernelArg::F64(3.0)
        );
        assert_eq!(
            scalar_arg(Scalar::I32, &HostArg::Int(-7)),
            KernelArg::I32(-7)
        );
        assert_eq!(
            scalar_arg(Scalar::U64, &HostArg::Int(1 << 40)),
            KernelArg::U64(1 << 40)
        );
        assert_eq!(
            scalar_arg(Scalar::Bool, &HostArg::Int(5)),
            KernelArg::U32(1)
        );
        assert_eq!(
            scalar_arg(Scalar::I16, &HostArg::Int(-2)),
            KernelArg::I32(-2)
        );
    }
}
