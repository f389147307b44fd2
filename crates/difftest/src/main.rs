//! `hone-difftest`: differential testing of hone's front end, printer and
//! emulator against NVRTC and the GPU with random well-defined kernels.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, UNIX_EPOCH};

use clap::{Parser, Subcommand};
use hone_difftest::gen::GenOptions;
use hone_difftest::runner;

#[derive(Parser)]
#[command(
    name = "hone-difftest",
    about = "Differential testing of hone against the GPU"
)]
struct Cli {
    /// Seed of the run: the same seed gives the same kernels and inputs.
    #[arg(long, global = true, default_value_t = 1)]
    seed: u64,
    /// Use transcendental functions too (their last bits may differ).
    #[arg(long, global = true)]
    transcendental: bool,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Front end, round trip, emulator and NVRTC for each case, no GPU.
    Cpu {
        #[arg(long, default_value_t = 200)]
        count: u64,
        #[arg(long, default_value_t = 0)]
        first: u64,
        /// Do not compile with NVRTC.
        #[arg(long)]
        no_nvrtc: bool,
        #[arg(long, default_value_t = 64)]
        batch: usize,
    },
    /// Each case in the emulator and on the GPU, compared bit for bit;
    /// mismatches reduced; `summary.json` and `reduced/` under `--out`.
    Gpu {
        #[arg(long, default_value_t = 10000)]
        count: u64,
        #[arg(long)]
        out: PathBuf,
        /// Kernels per NVRTC module.
        #[arg(long, default_value_t = 64)]
        batch: usize,
        /// Every how many cases hone's print of the kernel runs too (0: never).
        #[arg(long, default_value_t = 4)]
        printed_every: u64,
        /// Seconds for reducing all mismatches.
        #[arg(long, default_value_t = 30.0)]
        reduce_budget_s: f64,
        /// Seconds after which a case process counts as hung.
        #[arg(long, default_value_t = 300.0)]
        case_timeout_s: f64,
        /// Seconds after which no new batch of cases starts (the summary
        /// says how many ran).
        #[arg(long)]
        time_limit_s: Option<f64>,
    },
    /// Prints a case's kernel, launch and inputs.
    Show {
        #[arg(long)]
        index: u64,
    },
    /// Runs the mismatching cases of a GPU run's `summary.json` in the
    /// emulator again and says which now give the value the GPU gave.
    Recheck {
        #[arg(long)]
        summary: PathBuf,
    },
    /// Cases FROM..TO on the GPU, one JSON line each (used by `gpu`).
    #[command(hide = true)]
    Cases {
        #[arg(long)]
        from: u64,
        #[arg(long)]
        to: u64,
        #[arg(long, default_value_t = 64)]
        batch: usize,
        #[arg(long, default_value_t = 4)]
        printed_every: u64,
        #[arg(long)]
        results: PathBuf,
        /// Start no new batch after this time (seconds since the epoch).
        #[arg(long)]
        deadline_unix: Option<f64>,
    },
    /// Reduces one mismatching case on the GPU (used by `gpu`).
    Reduce {
        #[arg(long)]
        index: u64,
        /// `generated` or `printed`: which kernel mismatched.
        #[arg(long, default_value = "generated")]
        variant: String,
        #[arg(long, default_value_t = 30.0)]
        budget_s: f64,
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let opts = GenOptions {
        transcendental: cli.transcendental,
        ..GenOptions::default()
    };
    let result = match cli.command {
        Cmd::Cpu {
            count,
            first,
            no_nvrtc,
            batch,
        } => runner::cpu(cli.seed, first, count, &opts, !no_nvrtc, batch).map(|results| {
            let counts = runner::tally(&results);
            for r in results.iter().filter(|r| r.status != "pass").take(20) {
                println!(
                    "case {}: {}: {}",
                    r.index,
                    r.status,
                    r.message.as_deref().unwrap_or("")
                );
            }
            println!(
                "{count} cases: {}",
                counts
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }),
        Cmd::Gpu {
            count,
            out,
            batch,
            printed_every,
            reduce_budget_s,
            case_timeout_s,
            time_limit_s,
        } => runner::gpu(&runner::GpuRun {
            seed: cli.seed,
            count,
            batch,
            printed_every,
            out,
            transcendental: cli.transcendental,
            reduce_budget: Duration::from_secs_f64(reduce_budget_s.max(0.0)),
            case_timeout: Duration::from_secs_f64(case_timeout_s.max(1.0)),
            time_limit: time_limit_s.map(|s| Duration::from_secs_f64(s.max(0.0))),
        }),
        Cmd::Recheck { summary } => runner::recheck(&summary, &opts).map(|s| print!("{s}")),
        Cmd::Show { index } => runner::show(cli.seed, index, &opts).map(|s| print!("{s}")),
        Cmd::Cases {
            from,
            to,
            batch,
            printed_every,
            results,
            deadline_unix,
        } => runner::cases_on_gpu(
            &runner::CaseRange {
                seed: cli.seed,
                from,
                to,
                batch,
                printed_every,
                deadline: deadline_unix.map(|s| UNIX_EPOCH + Duration::from_secs_f64(s.max(0.0))),
            },
            &opts,
            &results,
        ),
        Cmd::Reduce {
            index,
            variant,
            budget_s,
            out,
        } => runner::reduce_on_gpu(
            cli.seed,
            index,
            &opts,
            variant == "printed",
            Duration::from_secs_f64(budget_s.max(0.0)),
            &out,
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hone-difftest: {e:#}");
            ExitCode::FAILURE
        }
    }
}
