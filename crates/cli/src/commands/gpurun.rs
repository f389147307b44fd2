//! `hone gpu-run`: run a launch file on the GPU instead of the emulator. The
//! kernel goes the same way as for `hone sim` (front end, then the launch
//! file's buffers), is printed back as CUDA C and compiled with NVRTC, so the
//! emulator, the analyzer and the hardware all see the same lowered code and
//! the same input bytes. The dumped buffers come out in the shape of
//! `hone sim --json`, so the two outputs can be compared field by field.
//!
//! For benchmarks on real sizes, where dumping the buffers as JSON is out of
//! the question, a run can time the kernel (`--time`), write its dumped
//! buffers as raw bytes (`--save`), start from such bytes (`--input`) and
//! compare its buffers with a saved run (`--compare`): that is enough to check
//! one kernel against another, or against two chained launches of another.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use hone_emulator::{Buffer, KernelArg};
use hone_gpu::launch::{DeviceBuffer, KernelArg as GpuArg, LaunchDims, Module};
use hone_gpu::nvrtc::{self, CompileOptions};
use hone_gpu::timing::{time_runs, L2Flusher, TimingOptions};
use hone_gpu::{Gpu, GpuError, Stats};
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
    /// After the run whose buffers are reported, launch the kernel N more
    /// times between CUDA events (3 untimed launches first, L2 flushed before
    /// each timed one) and report the median and spread in milliseconds.
    /// The timed launches start from the reported buffers, so time only
    /// kernels whose outputs do not feed their inputs
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub time: Option<u32>,
    /// Start buffer NAME from the raw bytes of FILE (as `--save` writes them)
    /// instead of its launch-file init; repeatable; one launch file only
    #[arg(long = "input", value_name = "NAME=FILE")]
    pub inputs: Vec<String>,
    /// Write each dumped buffer's raw bytes to DIR/NAME.bin; one launch file only
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Compare each dumped buffer with DIR/NAME.bin (as `--save` writes it):
    /// elements that differ, largest absolute and relative difference;
    /// one launch file only
    #[arg(long, value_name = "DIR")]
    pub compare: Option<PathBuf>,
    /// Leave the buffers' values out of the output (timing and comparison
    /// are still reported)
    #[arg(long)]
    pub no_dump: bool,
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
    /// Dumped buffer name and the saved bytes to compare it with.
    reference: Vec<(String, Vec<u8>)>,
    time: Option<Stats>,
    compared: Vec<(String, Difference)>,
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
    if let [one] = prepared.as_mut_slice() {
        for spec in &args.inputs {
            apply_input(one, spec)?;
        }
        if let Some(dir) = &args.compare {
            one.reference = read_reference(one, dir)?;
        }
    } else if !args.inputs.is_empty() || args.save.is_some() || args.compare.is_some() {
        bail!("--input, --save and --compare take a single launch file");
    }
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
        run_one(&gpu, p, args.keep.as_deref(), args.time)?;
        p.compared = p
            .reference
            .iter()
            .filter_map(|(name, want)| {
                let b = p.buffers.iter().find(|b| &b.name == name)?;
                Some((name.clone(), difference(b, want)))
            })
            .collect();
        if let Some(dir) = &args.save {
            save(p, dir)?;
        }
        results.push(p);
    }
    if args.json {
        let docs: Vec<_> = results
            .iter()
            .map(|p| to_json(&gpu, p, !args.no_dump))
            .collect();
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
            if !args.no_dump {
                for b in dumped(p) {
                    println!("{} = {}", b.name, buffer_to_json(b));
                }
            }
            if let Some(t) = &p.time {
                println!(
                    "time: median {:.4} ms (min {:.4}, q1 {:.4}, q3 {:.4}, max {:.4}; {} runs)",
                    t.median, t.min, t.q1, t.q3, t.max, t.count
                );
            }
            for (name, d) in &p.compared {
                println!(
                    "compare {name}: {} of {} elements differ, max abs diff {:e}, max rel diff {:e}",
                    d.differing, d.elements, d.max_abs, d.max_rel
                );
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
        reference: Vec::new(),
        time: None,
        compared: Vec::new(),
    })
}

/// `NAME=FILE`: the buffer's bytes replaced by the file's, of the same length.
fn apply_input(p: &mut Prepared, spec: &str) -> Result<()> {
    let Some((name, file)) = spec.split_once('=') else {
        bail!("--input `{spec}`: expected NAME=FILE");
    };
    let Some(buffer) = p.buffers.iter_mut().find(|b| b.name == name) else {
        bail!(
            "--input `{spec}`: {} has no buffer `{name}`",
            p.path.display()
        );
    };
    let bytes = std::fs::read(file).with_context(|| format!("cannot read input file {file}"))?;
    if bytes.len() != buffer.data.len() {
        bail!(
            "--input `{spec}`: {file} holds {} bytes, buffer `{name}` takes {}",
            bytes.len(),
            buffer.data.len()
        );
    }
    buffer.data = bytes;
    Ok(())
}

/// The saved bytes of each dumped buffer, checked for length up front so that
/// a wrong reference is bad input, found before any device work.
fn read_reference(p: &Prepared, dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    dumped(p)
        .into_iter()
        .map(|b| {
            let file = dir.join(format!("{}.bin", b.name));
            let bytes = std::fs::read(&file)
                .with_context(|| format!("cannot read reference {}", file.display()))?;
            if bytes.len() != b.data.len() {
                bail!(
                    "reference {} holds {} bytes, buffer `{}` has {}",
                    file.display(),
                    bytes.len(),
                    b.name,
                    b.data.len()
                );
            }
            Ok((b.name.clone(), bytes))
        })
        .collect()
}

fn save(p: &Prepared, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;
    for b in dumped(p) {
        let file = dir.join(format!("{}.bin", b.name));
        std::fs::write(&file, &b.data)
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    Ok(())
}

/// How far a buffer is from a reference of the same type and length.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Difference {
    elements: usize,
    /// Elements whose bytes differ (for floats: not equal as numbers; a NaN
    /// equals a NaN of the same bits).
    differing: usize,
    max_abs: f64,
    /// Largest |got - want| / max(|got|, |want|) over differing elements.
    max_rel: f64,
}

fn difference(got: &Buffer, want: &[u8]) -> Difference {
    let scalar = match &got.elem {
        Type::Scalar(s) | Type::Vector(s, _) => *s,
        _ => Scalar::U8,
    };
    let size = scalar.size() as usize;
    let mut d = Difference {
        elements: got.data.len() / size,
        differing: 0,
        max_abs: 0.0,
        max_rel: 0.0,
    };
    for (g, w) in got.data.chunks_exact(size).zip(want.chunks_exact(size)) {
        if g == w {
            continue;
        }
        let (a, b) = (value(scalar, g), value(scalar, w));
        if a == b {
            // +0 and -0.
            continue;
        }
        d.differing += 1;
        let abs = (a - b).abs();
        let abs = if abs.is_nan() { f64::INFINITY } else { abs };
        d.max_abs = d.max_abs.max(abs);
        d.max_rel = d.max_rel.max(abs / a.abs().max(b.abs()));
    }
    d
}

fn value(s: Scalar, c: &[u8]) -> f64 {
    match s {
        Scalar::Bool | Scalar::U8 => c[0] as f64,
        Scalar::I8 => c[0] as i8 as f64,
        Scalar::I16 => i16::from_le_bytes([c[0], c[1]]) as f64,
        Scalar::U16 => u16::from_le_bytes([c[0], c[1]]) as f64,
        Scalar::I32 => i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64,
        Scalar::U32 => u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64,
        Scalar::F32 => f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64,
        Scalar::I64 | Scalar::U64 | Scalar::F64 => {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            match s {
                Scalar::I64 => i64::from_le_bytes(b) as f64,
                Scalar::U64 => u64::from_le_bytes(b) as f64,
                _ => f64::from_le_bytes(b),
            }
        }
    }
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

fn run_one(gpu: &Gpu, p: &mut Prepared, keep: Option<&Path>, time: Option<u32>) -> Result<()> {
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
    if let Some(reps) = time {
        let options = TimingOptions {
            warmup: 3,
            reps,
            flush_l2: true,
            copies: Some(1),
        };
        let mut flusher = L2Flusher::new(gpu)?;
        let samples = time_runs(gpu, &options, 1, Some(&mut flusher), |_| {
            // SAFETY: as for the launch above, with the same arguments.
            unsafe { function.launch(gpu, &p.dims, &args) }
        })
        .with_context(|| where_("timed launches failed"))?;
        p.time = Stats::from_samples(&samples);
    }
    Ok(())
}

fn dumped(p: &Prepared) -> Vec<&Buffer> {
    p.dump
        .iter()
        .filter_map(|name| p.buffers.iter().find(|b| &b.name == name))
        .collect()
}

fn to_json(gpu: &Gpu, p: &Prepared, with_buffers: bool) -> serde_json::Value {
    let mut doc = json!({
        "kernel": p.kernel,
        "launch": p.path.display().to_string(),
        "device": gpu.props().name,
        "arch": gpu.props().sm_arch(),
        "nvrtc": gpu.props().nvrtc_version.map(|(major, minor)| format!("{major}.{minor}")),
        "grid": [p.dims.grid.0, p.dims.grid.1, p.dims.grid.2],
        "block": [p.dims.block.0, p.dims.block.1, p.dims.block.2],
        "dynamic_shared_bytes": p.dims.shared_mem,
    });
    if with_buffers {
        let mut bufs = serde_json::Map::new();
        for b in dumped(p) {
            bufs.insert(b.name.clone(), buffer_to_json(b));
        }
        doc["buffers"] = bufs.into();
    }
    if let Some(t) = &p.time {
        doc["time_ms"] = json!({
            "median": t.median, "min": t.min, "q1": t.q1, "q3": t.q3, "max": t.max,
            "runs": t.count,
        });
    }
    if !p.reference.is_empty() {
        let mut cmp = serde_json::Map::new();
        for (name, d) in &p.compared {
            cmp.insert(
                name.clone(),
                json!({
                    "elements": d.elements, "differing": d.differing,
                    "max_abs": finite_or_string(d.max_abs),
                    "max_rel": finite_or_string(d.max_rel),
                }),
            );
        }
        doc["compare"] = cmp.into();
    }
    doc
}

fn finite_or_string(v: f64) -> serde_json::Value {
    if v.is_finite() {
        json!(v)
    } else {
        json!(v.to_string())
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

    fn f32_buffer(values: &[f32]) -> Buffer {
        Buffer {
            name: "x".into(),
            elem: Type::Scalar(Scalar::F32),
            data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        }
    }

    fn bytes(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    #[test]
    fn differences_count_elements_and_keep_the_largest() {
        let got = f32_buffer(&[1.0, 2.0, 4.0, -0.0, f32::NAN]);
        let want = bytes(&[1.0, 2.5, 3.0, 0.0, f32::NAN]);
        let d = difference(&got, &want);
        assert_eq!(d.elements, 5);
        // -0 equals +0, and a NaN its own bits.
        assert_eq!(d.differing, 2);
        assert_eq!(d.max_abs, 1.0);
        assert_eq!(d.max_rel, 0.25);

        let d = difference(&got, &bytes(&[1.0, 2.0, 4.0, -0.0, 1.0]));
        assert_eq!(d.differing, 1);
        assert!(d.max_abs.is_infinite());
        assert_eq!(
            difference(&got, &got.data.clone()),
            Difference {
                elements: 5,
                differing: 0,
                max_abs: 0.0,
                max_rel: 0.0
            }
        );
    }

    #[test]
    fn integer_buffers_compare_as_numbers() {
        let got = Buffer {
            name: "i".into(),
            elem: Type::Scalar(Scalar::I32),
            data: [-3i32, 7].iter().flat_map(|v| v.to_le_bytes()).collect(),
        };
        let want: Vec<u8> = [-5i32, 7].iter().flat_map(|v| v.to_le_bytes()).collect();
        let d = difference(&got, &want);
        assert_eq!((d.differing, d.max_abs), (1, 2.0));
        assert_eq!(d.max_rel, 2.0 / 5.0);
    }
}
