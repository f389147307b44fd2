//! The machine code NVRTC makes of a module, as text: the analyzer counts the
//! memory instructions the compiler kept instead of the source's accesses.
//!
//! Needs NVRTC and NVIDIA's disassembler `nvdisasm`, but no GPU: a cubin for
//! any architecture NVRTC knows is made and read on any machine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use hone_ir::print::{print_module_with, PrintOptions};
use hone_ir::Module;

use crate::ir_kernel::cuda_source;
use crate::nvrtc::{self, CompileOptions, ImageKind, Target};
use crate::{GpuError, Result};

/// The disassembly of one module, compiled twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listings {
    /// As the GPU runs it (`gpu-run`'s compilation, with line information).
    pub compiled: String,
    /// The same with every loop kept rolled (`#pragma unroll 1`): one
    /// instruction per access the compiler kept, at its loop depth.
    pub rolled: String,
    pub arch: u32,
    /// NVRTC's version.
    pub nvrtc: (u32, u32),
    pub nvdisasm: PathBuf,
}

/// Where `nvdisasm` is: `HONE_NVDISASM`, then `PATH`, `CUDA_HOME`/`CUDA_PATH`,
/// `/usr/local/cuda`, and the `bin` beside each `LD_LIBRARY_PATH` folder (the
/// layout of NVIDIA's Python wheels, `nvidia/cu13/{lib,bin}`).
pub fn find_nvdisasm() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HONE_NVDISASM") {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(home) = std::env::var_os(var) {
            dirs.push(PathBuf::from(home).join("bin"));
        }
    }
    dirs.push(PathBuf::from("/usr/local/cuda/bin"));
    if let Some(libs) = std::env::var_os("LD_LIBRARY_PATH") {
        dirs.extend(std::env::split_paths(&libs).map(|d| d.join("../bin")));
    }
    dirs.into_iter()
        .map(|d| d.join("nvdisasm"))
        .find(|p| p.is_file())
}

/// Compiles `module` for `sm_{arch}` with line information (statements
/// carry `#line` directives naming the user's files) and disassembles it.
pub fn listings(module: &Module, arch: u32) -> Result<Listings> {
    let nvdisasm = find_nvdisasm().ok_or_else(|| {
        GpuError::Tool(
            "nvdisasm not found (set HONE_NVDISASM, or install CUDA's nvdisasm, e.g. `pip install nvidia-cuda-nvdisasm`)"
                .to_string(),
        )
    })?;
    let target = Target {
        arch,
        kind: ImageKind::Cubin,
    };
    let options = CompileOptions {
        extra: vec!["-lineinfo".to_string()],
        ..CompileOptions::default()
    };
    // The disassembler names the program's own file for some instructions
    // of a function's first lines whatever `#line` said; named after the
    // user's main file, those instructions still point at it.
    let name = module
        .files
        .first()
        .map(String::as_str)
        .unwrap_or("kernel.cu");
    let mut texts = Vec::with_capacity(2);
    for unroll_once in [false, true] {
        let printed = print_module_with(
            module,
            PrintOptions {
                line_directives: true,
                unroll_once,
            },
        );
        let cubin = nvrtc::compile(&cuda_source(&printed), name, &options, &target)?;
        texts.push(disassemble(&nvdisasm, &cubin.image)?);
    }
    let rolled = texts.pop().unwrap_or_default();
    let compiled = texts.pop().unwrap_or_default();
    Ok(Listings {
        compiled,
        rolled,
        arch,
        nvrtc: nvrtc::version()?,
        nvdisasm,
    })
}

/// `nvdisasm -g -c` of a cubin: code sections with `//## File "...", line N`
/// before the instructions of each line.
pub fn disassemble(nvdisasm: &Path, cubin: &[u8]) -> Result<String> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "hone-{}-{}.cubin",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, cubin)
        .map_err(|e| GpuError::Tool(format!("cannot write {}: {e}", path.display())))?;
    let output = Command::new(nvdisasm)
        .arg("-g")
        .arg("-c")
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    let output =
        output.map_err(|e| GpuError::Tool(format!("cannot run {}: {e}", nvdisasm.display())))?;
    if !output.status.success() {
        return Err(GpuError::Tool(format!(
            "{} failed: {}",
            nvdisasm.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
