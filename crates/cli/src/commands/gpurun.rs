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
use hone_emulator::Buffer;
use hone_gpu::ir_kernel::IrKernel;
use hone_gpu::{Gpu, GpuError, Stats};
use hone_launch::{buffer_to_json, difference, saved, Difference, Launch};
use serde_json::json;

use crate::commands::parse_launch;
use crate::exit;

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
    /// Most bytes the buffers of one launch file may hold together; a number
    /// with an optional K, M or G suffix (default: 4G)
    #[arg(long, value_name = "BYTES", value_parser = crate::commands::limits::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Compile without contracting `a * b + c` into fused multiply-adds
    /// (NVRTC's --fmad=false), so that every operation rounds as in the
    /// emulator: for comparing the two bit for bit
    #[arg(long)]
    pub no_fmad: bool,
}

/// One launch file, resolved and checked before any device work.
struct Prepared {
    path: PathBuf,
    kernel: IrKernel,
    buffers: Vec<Buffer>,
    dump: Vec<String>,
    /// Dumped buffer name and the saved bytes to compare it with.
    reference: Vec<(String, Vec<u8>)>,
    time: Option<Stats>,
    compared: Vec<(String, Difference)>,
}

pub fn run(args: GpuRunArgs) -> Result<u8> {
    // Bad input is reported as such on any machine, with or without a GPU.
    let mut prepared = args
        .launches
        .iter()
        .map(|p| {
            prepare(
                p,
                args.max_memory.unwrap_or(hone_emulator::DEFAULT_MAX_MEMORY),
            )
        })
        .collect::<Result<Vec<_>>>()?;
    if args.no_fmad {
        for p in &mut prepared {
            p.kernel.options.extra.push("--fmad=false".into());
        }
    }
    if let [one] = prepared.as_mut_slice() {
        for spec in &args.inputs {
            apply_input(one, spec)?;
        }
        if let Some(dir) = &args.compare {
            one.reference = saved::read(dir, &dumped(one))?;
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
    // What kernels `printf` goes to the process's stdout; JSON readers get
    // the JSON alone there, the kernels' text on stderr.
    let redirect = args.json.then(DeviceOutputToStderr::start);
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
            saved::save(dir, &dumped(p))?;
        }
        results.push(p);
    }
    drop(redirect);
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
                println!("# {}: {}", p.path.display(), p.kernel.kernel);
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

fn prepare(path: &Path, max_memory: u64) -> Result<Prepared> {
    let launch = Launch::read(path)?;
    let parsed = parse_launch(&launch)?;
    let kernel = launch.kernel(&parsed)?;
    let data = launch.data_within(kernel, max_memory)?;
    if let Some(name) = launch
        .dumped_symbols(&data.buffers, &parsed.module)?
        .first()
    {
        bail!(
            "{}: `dump` names `{name}`; gpu-run cannot read `__device__`/`__constant__` variables back from the GPU yet",
            path.display()
        );
    }
    let label = path.display().to_string();
    Ok(Prepared {
        path: path.to_path_buf(),
        kernel: with_symbols(
            IrKernel::new(
                &label,
                &parsed.module,
                kernel,
                &data.config,
                &data.args,
                &data.buffers,
            )?,
            &data,
            &parsed.module,
        )?,
        buffers: data.buffers,
        dump: launch.file.dump.clone(),
        reference: Vec::new(),
        time: None,
        compared: Vec::new(),
    })
}

/// `NAME=FILE`: the buffer's bytes replaced by the file's, of the same length.
/// The kernel with the contents the launch file's `symbols` give its
/// `__constant__`/`__device__` variables (their initializers elsewhere).
pub(crate) fn with_symbols(
    mut kernel: IrKernel,
    data: &hone_launch::LaunchData,
    module: &hone_ir::Module,
) -> Result<IrKernel> {
    let contents = data.symbols(module)?;
    for (name, _) in &data.symbols {
        let b = contents.get(name).context("a symbol the launch sets")?;
        kernel.set_global(name, b.elem.clone(), b.data.clone());
    }
    Ok(kernel)
}

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

fn run_one(gpu: &Gpu, p: &mut Prepared, keep: Option<&Path>, time: Option<u32>) -> Result<()> {
    let stem = p
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.kernel.kernel.clone());
    p.time = p.kernel.run(gpu, &mut p.buffers, &stem, keep, time)?;
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
        "kernel": p.kernel.kernel,
        "launch": p.path.display().to_string(),
        "device": gpu.props().name,
        "arch": gpu.props().sm_arch(),
        "nvrtc": gpu.props().nvrtc_version.map(|(major, minor)| format!("{major}.{minor}")),
        "grid": [p.kernel.dims.grid.0, p.kernel.dims.grid.1, p.kernel.dims.grid.2],
        "block": [p.kernel.dims.block.0, p.kernel.dims.block.1, p.kernel.dims.block.2],
        "dynamic_shared_bytes": p.kernel.dims.shared_mem,
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

/// While it lives, file descriptor 1 is stderr: the CUDA driver writes the
/// kernels' `printf` output to the C library's stdout at synchronisation.
struct DeviceOutputToStderr {
    saved: Option<i32>,
}

impl DeviceOutputToStderr {
    fn start() -> Self {
        // SAFETY: plain descriptor calls on descriptors this process owns;
        // nothing else writes to stdout while the guard lives.
        let saved = unsafe {
            let saved = libc::dup(1);
            (saved >= 0 && libc::dup2(2, 1) >= 0).then_some(saved)
        };
        DeviceOutputToStderr { saved }
    }
}

impl Drop for DeviceOutputToStderr {
    fn drop(&mut self) {
        if let Some(saved) = self.saved {
            // SAFETY: as in `start`; the C library's buffer is flushed first
            // so that the kernels' text lands on stderr.
            unsafe {
                libc::fflush(std::ptr::null_mut());
                libc::dup2(saved, 1);
                libc::close(saved);
            }
        }
    }
}
