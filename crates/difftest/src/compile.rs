//! NVRTC compilation of many kernels in one module, without contracting
//! multiplies and adds into FMAs (the emulator rounds each operation).

use hone_gpu::nvrtc::{self, CompileOptions, CompiledModule, Target};
use hone_gpu::GpuError;
use rayon::prelude::*;

use crate::ast::Kernel;

pub fn options() -> CompileOptions {
    CompileOptions {
        extra: vec!["--fmad=false".to_string()],
        ..CompileOptions::default()
    }
}

/// The architecture to compile for: the device's, or sm_90 where there is
/// none (the CPU tests).
pub fn target(compute_capability: (u32, u32)) -> Result<Target, GpuError> {
    nvrtc::target_for(compute_capability)
}

/// Compiles `sources` (each a kernel with C linkage) as one module; when
/// NVRTC rejects it, compiles each alone to say which are at fault.
/// Returns the module of those that compile, and the messages of the others
/// by position.
pub fn compile_many(
    sources: &[String],
    name: &str,
    target: &Target,
) -> Result<(Option<CompiledModule>, Vec<Option<String>>), GpuError> {
    let all = sources.join("\n");
    match nvrtc::compile(&all, name, &options(), target) {
        Ok(m) => return Ok((Some(m), vec![None; sources.len()])),
        Err(GpuError::Compile { .. }) => {}
        Err(e) => return Err(e),
    }
    let each: Vec<Option<String>> = sources
        .par_iter()
        .map(|s| match nvrtc::compile(s, name, &options(), target) {
            Ok(_) => None,
            Err(e) => Some(e.to_string()),
        })
        .collect();
    let good: Vec<&str> = sources
        .iter()
        .zip(&each)
        .filter(|(_, e)| e.is_none())
        .map(|(s, _)| s.as_str())
        .collect();
    if good.is_empty() {
        return Ok((None, each));
    }
    let module = nvrtc::compile(&good.join("\n"), name, &options(), target)?;
    Ok((Some(module), each))
}

/// The source NVRTC gets for a kernel as generated.
pub fn generated_source(kernel: &Kernel) -> String {
    kernel.render(true)
}

/// The source NVRTC gets for hone's print of the lowered kernel, renamed
/// with `_p` so it can share a module with the generated one.
pub fn printed_source(kernel: &Kernel, module: &hone_ir::Module) -> String {
    let printed = hone_gpu::ir_kernel::cuda_source(&hone_ir::print::print_module(module));
    printed.replace(
        &format!("{}(", kernel.name),
        &format!("{}(", printed_name(kernel)),
    )
}

pub fn printed_name(kernel: &Kernel) -> String {
    format!("{}_p", kernel.name)
}
