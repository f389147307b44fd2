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
        arch_specific: false,
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

/// The instructions of one loop of a disassembly: from a label to the
/// branch back to it, counted by opcode.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopBody {
    /// Instructions per full opcode (`DMMA.16x8x8`, `LDS.64`, ...).
    pub opcodes: std::collections::BTreeMap<String, usize>,
}

impl LoopBody {
    /// Every instruction of the body, predicated-off ones included: each
    /// takes an issue slot.
    pub fn instructions(&self) -> usize {
        self.opcodes.values().sum()
    }

    /// Instructions whose opcode is `base` or `base.`-something (`DMMA`
    /// counts every DMMA shape, `LDS` every width).
    pub fn count(&self, base: &str) -> usize {
        self.opcodes
            .iter()
            .filter(|(op, _)| op.split('.').next() == Some(base))
            .map(|(_, n)| n)
            .sum()
    }
}

/// The opcode of a disassembled instruction line (`/*0040*/ @!P0 BRA ...`),
/// with its modifiers; None for labels, comments and directives.
fn opcode(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("/*")?;
    let rest = &rest[rest.find("*/")? + 2..];
    rest.split_whitespace()
        .find(|w| !w.starts_with('@') && !w.starts_with('{'))
        .map(|w| w.trim_end_matches(';'))
}

/// Every loop of an `nvdisasm` listing, one per backward branch, in the
/// order of their branches.
pub fn loops(sass: &str) -> Vec<LoopBody> {
    let lines: Vec<&str> = sass.lines().collect();
    let mut labels = std::collections::HashMap::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(name) = l.trim().strip_suffix(':') {
            if name.starts_with(".L") {
                labels.insert(name, i);
            }
        }
    }
    let mut found = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if opcode(l).is_none_or(|op| op.split('.').next() != Some("BRA")) {
            continue;
        }
        let Some(&start) = l
            .find("`(")
            .and_then(|s| l[s + 2..].find(')').map(|e| &l[s + 2..s + 2 + e]))
            .and_then(|name| labels.get(name))
        else {
            continue;
        };
        if start >= i {
            continue;
        }
        let mut body = LoopBody::default();
        for op in lines[start..=i].iter().filter_map(|l| opcode(l)) {
            *body.opcodes.entry(op.to_string()).or_default() += 1;
        }
        found.push(body);
    }
    found
}

#[cfg(test)]
mod loop_tests {
    use super::*;

    #[test]
    fn a_loop_runs_from_its_label_to_the_branch_back() {
        let sass = "\
        /*0000*/                   MOV R1, c[0x0][0x28] ;
.L_x_0:
        /*0010*/                   DFMA R4, R6, R8, R4 ;
        /*0020*/              @P0 BRA `(.L_x_0) ;
.L_x_1:
        /*0030*/                   LDS.64 R8, [R2] ;
        /*0040*/              @!PT LDS RZ, [RZ] ;
        /*0050*/                   DMMA.16x8x8 R4, R8, R10, R4 ;
        /*0060*/              @!P1 BRA `(.L_x_1) ;
        /*0070*/                   BRA `(.L_x_2) ;
.L_x_2:
        /*0080*/                   EXIT ;
";
        let found = loops(sass);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].instructions(), 2);
        assert_eq!(found[0].count("DFMA"), 1);
        assert_eq!(found[1].instructions(), 4);
        assert_eq!(found[1].count("LDS"), 2);
        assert_eq!(found[1].count("DMMA"), 1);
        assert_eq!(found[1].opcodes.get("LDS.64"), Some(&1));
        assert!(loops("/*0000*/ EXIT ;").is_empty());
    }
}
