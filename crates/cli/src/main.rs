//! `hone`: the command-line face of the toolkit. Each subcommand is a thin layer
//! over one stage crate; the logic lives in the crates so it can be tested there.

mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "hone",
    version,
    about = "Analyse, rewrite, emulate and auto-tune CUDA kernels",
    long_about = "hone reads CUDA C, runs kernels in a SIMT emulator on the CPU \
                  (faults, races, memory traces), and tunes kernel templates on the GPU."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a kernel launch described by a JSON launch file in the emulator and print the dumped buffers
    Sim(commands::sim::SimArgs),
    /// Parse a .cu file: list its kernels and diagnostics, or print the lowered code back as CUDA C
    Parse(commands::parse::ParseArgs),
    /// Analyse a launch's memory accesses: coalescing and bank conflicts per source access, diagrams, verified fixes
    Analyze(commands::analyze::AnalyzeArgs),
    /// Run a launch file on the GPU (printed kernel compiled with NVRTC) and print the dumped buffers as `hone sim` does
    GpuRun(commands::gpurun::GpuRunArgs),
    /// Tune a kernel template: search, sampling over size, d-splines and a selection rule, stored in a tuning database
    // Boxed: its options outweigh every other command's.
    Tune(Box<commands::tune::TuneArgs>),
    /// Fit d-splines to a tuned job's top kernels and emit the selection rule (JSON, Rust, C)
    Rule(commands::rule::RuleArgs),
    /// Plot a tuned job's kernels, d-splines and rule as SVG, and export its measurements
    Report(commands::report::ReportArgs),
    /// Synthesize shared-memory index and condition expressions from an annotated kernel, verified in the emulator
    Synth(commands::synth::SynthArgs),
    /// Run one problem of a tuned routine (e.g. `hone run symv n=4096`) with the kernel its rules pick, checked and timed against the vendor library
    Run(commands::routine::RunArgs),
    /// Measure a tuned routine against the vendor library over many sizes: tables, CSV, JSON and SVG charts
    Bench(commands::routine::BenchArgs),
    /// Plan a routine's problems by measurement on this GPU (one plan per problem, as FFT libraries do), stored as they are measured
    Plan(commands::routine::PlanArgs),
    /// Tune a routine's rules on this GPU with one command, into the user's
    /// rules folder for this GPU model (used from then on)
    Retune(commands::retune::RetuneArgs),
    /// Double-double GEMM report: speed, errors against the exact product on several input kinds, and the measured FP64 instruction bound
    Ddgemm(commands::ddgemm::DdgemmArgs),
    /// DGEMM emulated on the INT8 tensor cores (Ozaki scheme II) against cuBLAS DGEMM: speed and errors on the same inputs
    Ozaki(commands::ozaki::OzakiArgs),
    /// Differential testing: random well-defined kernels run in the emulator and on the GPU, mismatches reduced
    Difftest(commands::difftest::DifftestArgs),
    /// List the tuned routines, their variants and problem words
    Routines,
    /// Serve GPU evaluation requests on stdin/stdout (started by `hone tune`, which
    /// restarts it when a kernel faults or hangs)
    #[command(hide = true)]
    GpuWorker,
}

/// Exit codes shared by every subcommand.
pub mod exit {
    /// The kernel ran to completion (races, if any, are reported).
    pub const OK: u8 = 0;
    /// The kernel faulted, or races were found under `--deny-races`.
    pub const FAULT: u8 = 1;
    /// Bad input: unreadable file, parse error, unknown kernel, bad launch file.
    pub const BAD_INPUT: u8 = 2;
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sim(args) => commands::sim::run(args),
        Command::Parse(args) => commands::parse::run(args),
        Command::Analyze(args) => commands::analyze::run(args),
        Command::GpuRun(args) => commands::gpurun::run(args),
        Command::Tune(args) => commands::tune::run(*args),
        Command::Rule(args) => commands::rule::run(args),
        Command::Report(args) => commands::report::run(args),
        Command::Synth(args) => commands::synth::run(args),
        Command::Run(args) => commands::routine::run(args),
        Command::Bench(args) => commands::routine::bench(args),
        Command::Plan(args) => commands::routine::plan(args),
        Command::Retune(args) => commands::retune::run(args),
        Command::Ddgemm(args) => commands::ddgemm::run_cmd(args),
        Command::Ozaki(args) => commands::ozaki::run_cmd(args),
        Command::Difftest(args) => commands::difftest::run(args),
        Command::Routines => commands::routine::list(),
        Command::GpuWorker => {
            let code = hone_gpu::worker_main_with(
                std::io::stdin().lock(),
                std::io::stdout().lock(),
                hone_kernels::routine::registry::worker_extensions(),
            );
            return ExitCode::from(u8::try_from(code).unwrap_or(1));
        }
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(exit::BAD_INPUT)
        }
    }
}
