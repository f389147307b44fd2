//! `hone gpu-run`: run a launch file on the GPU instead of the emulator. The
//! kernel goes the same way as for `hone sim` (front end, then the launch
//! file's buffers), is printed back as CUDA C and compiled with NVRTC, so the
//! emulator, the analyzer and the hardware all see the same lowered code and
//! the same input bytes. The dumped buffers come out in the shape of
//! `hone sim --json`, so the two outputs can be compared field by field.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use hone_emulator::{Buffer, KernelArg};
use hone_gpu::launch::{DeviceBuffer, KernelArg as GpuArg, LaunchDims, Module};
use hone_gpu::nvrtc::{self, CompileOptions};
use hone_gpu::{Gpu, GpuError};
use hone_ir::{FuncKind, Scalar, Type};
use serde_json::json;

use crate::commands::sim::load_module;
use crate::exit;
use crate::launch::{buffer_to_json, Launch};

#[derive(Args)]
pub struct GpuRunArgs {
    /// Launch files (JSON, as for `hone sim`); several run one after another
    /// in one process, each compiled and launched once
    #[arg(required = true)]
    pub launches: Vec<PathBuf>,
    /// Print the result as JSON: {"kernel", "launch", "device", "arch",
    /// "nvrtc", "buffers"}, an array of them for several launch files
    #[arg(long)]
    pub json: bool,
    /// The CUDA device to use
    #[arg(long, default_value_t = 0)]
    pub device: u32,
    /// Keep the CUDA C given to NVRTC and the compiled image in this directory
    /// (NAME.cu and NAME.cubin or NAME.ptx, NAME being the launch file's stem)
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
}

/// One launch file, resolved and checked before any device work.
struct Prepared {
    path: PathBuf,
    kernel: String,
    source: String,
    dims: LaunchDims,
    /// Each parameter in order: a scalar already typed, or a buffer index.
    params: Vec<Param>,
    buffers: Vec<Buffer>,
    dump: Vec<String>,
}

enum Param {
    Scalar(GpuArg),
    Buffer(usize),
}

pub fn run(args: GpuRunArgs) -> Result<u8> {
    // Bad input is reported as such on any machine, with or without a GPU.
    let mut prepared = args
        .launches
        .iter()
        .map(|p| prepare(p))
        .collect::<Result<Vec<_>>>()?;
    let gpu = match Gpu::open(args.device) {
        Ok(gpu) => gpu,
        Err(e @ GpuError::NoDevice(_)) => {
            eprintln!("{e}");
            return Ok(exit::BAD_INPUT);
        }
        Err(e) => return Err(anyhow!(e)),
    };
    if let Some(dir) = &args.keep {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    let mut results = Vec::new();
    for p in &mut prepared {
        run_one(&gpu, p, args.keep.as_deref())?;
        results.push(p);
    }
    if args.json {
        let docs: Vec<_> = results.iter().map(|p| to_json(&gpu, p)).collect();
        let out = match docs.as_slice() {
            [one] => one.clone(),
            _ => serde_json::Value::Array(docs),
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        for p in &results {
            if results.len() > 1 {
                println!("# {}: {}", p.path.display(), p.kernel);
            }
            for b in dumped(p) {
                println!("{} = {}", b.name, buffer_to_json(b));
            }
        }
    }
    Ok(exit::OK)
}

fn prepare(path: &Path) -> Result<Prepared> {
    let launch = Launch::read(path)?;
    let parsed = load_module(&launch)?;
    let module = &parsed.module;
    let name = &launch.file.kernel;
    let Some((_, kernel)) = module
        .function(name)
        .filter(|(_, f)| f.kind == FuncKind::Global)
    else {
        let known: Vec<&str> = module.kernels().map(|k| k.name.as_str()).collect();
        bail!(
            "kernel `{name}` not found in {} (kernels: {})",
            launch.source_path.display(),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        );
    };
    let cfg = launch.config()?;
    let (kargs, buffers) = launch.arguments(kernel)?;
    let mut params = Vec::with_capacity(kargs.len());
    for (&p, arg) in kernel.params.iter().zip(&kargs) {
        let var = kernel.var(p);
        params.push(match (arg, &var.ty) {
            (KernelArg::Buffer(i), _) => Param::Buffer(*i),
            (arg, Type::Scalar(s)) => Param::Scalar(scalar_arg(*s, arg)),
            (_, ty) => bail!(
                "{}: parameter `{}` of type `{}` cannot be passed to the GPU",
                path.display(),
                var.name,
                hone_ir::print::print_type(ty)
            ),
        });
    }
    let shared_mem = u32::try_from(cfg.dynamic_shared_bytes).map_err(|_| {
        anyhow!(
            "{}: dynamic_shared_bytes {} is too large",
            path.display(),
            cfg.dynamic_shared_bytes
        )
    })?;
    let [gx, gy, gz] = cfg.grid;
    let [bx, by, bz] = cfg.block;
    Ok(Prepared {
        path: path.to_path_buf(),
        kernel: name.clone(),
        source: cuda_source(&hone_ir::print::print_module(module)),
        dims: LaunchDims {
            grid: (gx, gy, gz),
            block: (bx, by, bz),
            shared_mem,
        },
        params,
        buffers,
        dump: launch.file.dump.clone(),
    })
}

/// The printed module with C linkage for its kernels, so that the loaded
/// module names each kernel as the launch file does (no C++ mangling).
/// Device functions keep C++ linkage: they may be overloaded.
pub fn cuda_source(printed: &str) -> String {
    let mut out = String::with_capacity(printed.len() + 64);
    for line in printed.lines() {
        if line.starts_with("__global__") {
            out.push_str("extern \"C\" ");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The argument slot the driver reads for a scalar parameter: as many bytes
/// as the type takes, from the start of the slot, so narrow integers travel
/// in the low bytes of a 32-bit one.
fn scalar_arg(s: Scalar, arg: &KernelArg) -> GpuArg {
    let (int, float) = match *arg {
        KernelArg::Int(v) => (v, v as f64),
        KernelArg::Float(v) => (v as i64, v),
        KernelArg::Buffer(i) => (i as i64, i as f64),
    };
    match s {
        Scalar::F32 => GpuArg::F32(float as f32),
        Scalar::F64 => GpuArg::F64(float),
        Scalar::I64 => GpuArg::I64(int),
        Scalar::U64 => GpuArg::U64(int as u64),
        Scalar::U32 => GpuArg::U32(int as u32),
        Scalar::Bool => GpuArg::U32(u32::from(int != 0)),
        Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16 | Scalar::I32 => {
            GpuArg::I32(int as i32)
        }
    }
}

fn run_one(gpu: &Gpu, p: &mut Prepared, keep: Option<&Path>) -> Result<()> {
    let where_ = |what: &str| format!("{}: {what}", p.path.display());
    let stem = p
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.kernel.clone());
    if let Some(dir) = keep {
        let file = dir.join(format!("{stem}.cu"));
        std::fs::write(&file, &p.source)
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    let target = nvrtc::target_for(gpu.props().compute_capability)?;
    let compiled = nvrtc::compile(
        &p.source,
        &format!("{stem}.cu"),
        &CompileOptions::default(),
        &target,
    )
    .with_context(|| where_("NVRTC rejected the printed kernel"))?;
    if let Some(dir) = keep {
        let file = dir.join(format!("{stem}.{}", compiled.kind.extension()));
        std::fs::write(&file, &compiled.image)
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    let module = Module::load(gpu, &compiled.image, compiled.kind)?;
    let function = module.function(&p.kernel)?;
    function
        .prepare(gpu, &p.dims)
        .with_context(|| where_("launch refused"))?;
    let device: Vec<DeviceBuffer> = p
        .buffers
        .iter()
        .map(|b| {
            let d = DeviceBuffer::alloc(gpu, b.data.len())?;
            d.upload(gpu, &b.data)?;
            Ok(d)
        })
        .collect::<Result<_, GpuError>>()?;
    let args: Vec<GpuArg> = p
        .params
        .iter()
        .map(|a| match a {
            Param::Scalar(s) => *s,
            Param::Buffer(i) => GpuArg::Ptr(device[*i].ptr()),
        })
        .collect();
    // SAFETY: the arguments follow the kernel's parameters in order and type
    // (checked against the parsed signature), and each buffer is as large as
    // the launch file says; an out-of-bounds access is reported by the driver
    // at the synchronisation below.
    unsafe { function.launch(gpu, &p.dims, &args) }.with_context(|| where_("launch failed"))?;
    gpu.synchronize()
        .with_context(|| where_("the kernel failed"))?;
    for (b, d) in p.buffers.iter_mut().zip(&device) {
        d.download(gpu, &mut b.data)?;
    }
    Ok(())
}

fn dumped(p: &Prepared) -> Vec<&Buffer> {
    p.dump
        .iter()
        .filter_map(|name| p.buffers.iter().find(|b| &b.name == name))
        .collect()
}

fn to_json(gpu: &Gpu, p: &Prepared) -> serde_json::Value {
    let mut bufs = serde_json::Map::new();
    for b in dumped(p) {
        bufs.insert(b.name.clone(), buffer_to_json(b));
    }
    json!({
        "kernel": p.kernel,
        "launch": p.path.display().to_string(),
        "device": gpu.props().name,
        "arch": gpu.props().sm_arch(),
        "nvrtc": gpu.props().nvrtc_version.map(|(major, minor)| format!("{major}.{minor}")),
        "buffers": bufs,
    })
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
            scalar_arg(Scalar::F32, &KernelArg::Float(0.5)),
            GpuArg::F32(0.5)
        );
        assert_eq!(
            scalar_arg(Scalar::F64, &KernelArg::Int(3)),
            GpuArg::F64(3.0)
        );
        assert_eq!(
            scalar_arg(Scalar::I32, &KernelArg::Int(-7)),
            GpuArg::I32(-7)
        );
        assert_eq!(
            scalar_arg(Scalar::U64, &KernelArg::Int(1 << 40)),
            GpuArg::U64(1 << 40)
        );
        assert_eq!(scalar_arg(Scalar::Bool, &KernelArg::Int(5)), GpuArg::U32(1));
        assert_eq!(
            scalar_arg(Scalar::I16, &KernelArg::Int(-2)),
            GpuArg::I32(-2)
        );
    }
}
