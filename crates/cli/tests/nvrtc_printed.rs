//! What the printer gives back must be CUDA C that NVRTC compiles for sm_90.
//! NVRTC needs no GPU: CI installs it from PyPI (see `.ci/run`); where it is
//! missing the test says so and passes, unless `HONE_REQUIRE_NVRTC` is set.

use std::path::{Path, PathBuf};

use hone_frontend::{parse_file, FrontendOptions};
use hone_gpu::nvrtc::{choose_target, compile, supported_archs, CompileOptions};
use hone_ir::{ArrayLen, Module, Type};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cu_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            cu_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cu") {
            out.push(p);
        }
    }
}

/// Launch-time shared array lengths are an emulator extension NVRTC rejects.
fn has_launch_time_lengths(m: &Module) -> bool {
    m.functions.iter().any(|f| {
        f.vars
            .iter()
            .any(|v| matches!(&v.ty, Type::Array(_, ArrayLen::Expr(_))))
    })
}

#[test]
fn printed_kernels_compile_with_nvrtc() {
    if !hone_gpu::libs::nvrtc_or_skip() {
        return;
    }
    let target = choose_target(
        (9, 0),
        &supported_archs().expect("NVRTC lists its architectures"),
    )
    .expect("NVRTC supports sm_90");
    let mut files = Vec::new();
    for dir in [
        "examples",
        "tests/corpus/seed",
        "crates/frontend/tests/data/lower",
        "tests/corpus/listings",
        "tests/corpus/frontend",
        "tests/corpus/cpp",
    ] {
        cu_files(&root().join(dir), &mut files);
    }
    files.sort();
    let mut compiled = 0;
    let mut skipped_invalid = 0;
    let mut failures = Vec::new();
    for file in &files {
        let Ok(parsed) = parse_file(file, &FrontendOptions::default()) else {
            continue;
        };
        if parsed.module.functions.is_empty() || has_launch_time_lengths(&parsed.module) {
            continue;
        }
        // Golden inputs that probe the front end's leniency are not valid CUDA
        // themselves (e.g. `sqrt(int)`, which nvcc finds ambiguous): printing
        // cannot be asked to make them valid.
        let original = std::fs::read_to_string(file).unwrap_or_default();
        if file.starts_with(root().join("crates/frontend"))
            && !original.contains("#include")
            && compile(
                &original,
                "original.cu",
                &CompileOptions::default(),
                &target,
            )
            .is_err()
        {
            skipped_invalid += 1;
            continue;
        }
        // As gpu-run gives it to NVRTC (the grid barrier defined).
        let text = hone_gpu::ir_kernel::cuda_source(&hone_ir::print::print_module(&parsed.module));
        match compile(&text, "printed.cu", &CompileOptions::default(), &target) {
            Ok(_) => compiled += 1,
            Err(e) => failures.push(format!(
                "{}: {e}\n--- printed source ---\n{text}",
                file.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(compiled >= 20, "only {compiled} files were compiled");
    eprintln!(
        "{compiled} printed files compiled with NVRTC for {} ({skipped_invalid} inputs skipped: NVRTC rejects the original)",
        target.arch_option()
    );
}
