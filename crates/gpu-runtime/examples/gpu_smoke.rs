//! End-to-end check of the GPU runtime on a real device.
//!
//! `gpu_smoke [--json PATH] [--no-faults] [--quick]` prints the device's
//! properties, the cuMemcpyDtoD bandwidth, and vcopy variants checked and
//! timed through a worker process (this same binary, re-executed as
//! `gpu_smoke gpu-worker`), with broken variants that must be recorded as
//! invalid while the sweep goes on.
//!
//! Exit codes: 0 on success and on a machine without a CUDA device (after
//! printing "no CUDA device: ..."); 1 on any other error; 2 on bad arguments.

use std::io::Write;
use std::process::ExitCode;

use hone_gpu::smoke::{report_error, SmokeOptions};
use hone_gpu::{smoke, worker_main, WorkerCommand};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("gpu-worker") {
        let code = worker_main(std::io::stdin().lock(), std::io::stdout().lock());
        return ExitCode::from(code.clamp(0, 255) as u8);
    }
    let mut options = SmokeOptions::default();
    let mut json = None;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => match it.next() {
                Some(p) => json = Some(p),
                None => {
                    eprintln!("--json needs a path");
                    return ExitCode::from(2);
                }
            },
            "--no-faults" => options.inject_faults = false,
            "--quick" => {
                options.sizes = vec![1 << 10, (1 << 20) + 3, 1 << 24];
                options.configs.truncate(3);
            }
            other => {
                eprintln!(
                    "unknown argument `{other}` (expected --json PATH, --no-faults, --quick)"
                );
                return ExitCode::from(2);
            }
        }
    }
    let worker = match WorkerCommand::current_exe(["gpu-worker"]) {
        Ok(w) => w,
        Err(e) => return ExitCode::from(report_error(&e, &mut std::io::stdout()) as u8),
    };
    let mut stdout = std::io::stdout();
    match smoke(worker, &options, &mut stdout) {
        Ok(report) => {
            if let Some(path) = json {
                let text = serde_json::to_string_pretty(&report).unwrap_or_default();
                if let Err(e) = std::fs::write(&path, text) {
                    let _ = writeln!(stdout, "cannot write {path}: {e}");
                    return ExitCode::from(1);
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => ExitCode::from(report_error(&e, &mut stdout) as u8),
    }
}
