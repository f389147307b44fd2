//! `hone difftest`: differential testing of hone's front end, printer and
//! emulator against NVRTC and the GPU with random well-defined kernels.

use std::path::PathBuf;
use std::time::{Duration, UNIX_EPOCH};

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use hone_difftest::gen::GenOptions;
use hone_difftest::runner;

#[derive(Args)]
pub struct DifftestArgs {
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
    #[command(hide = true)]
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

pub fn run(args: DifftestArgs) -> Result<u8> {
    let opts = GenOptions {
        transcendental: args.transcendental,
        ..GenOptions::default()
    };
    let seconds = |s: f64| Duration::from_secs_f64(s.max(0.0));
    match args.command {
        Cmd::Cpu {
            count,
            first,
            no_nvrtc,
            batch,
        } => {
            let results = runner::cpu(args.seed, first, count, &opts, !no_nvrtc, batch)?;
            for r in results.iter().filter(|r| r.status != "pass").take(20) {
                println!(
                    "case {}: {}: {}",
                    r.index,
                    r.status,
                    r.message.as_deref().unwrap_or("")
                );
            }
            let counts = runner::tally(&results);
            let counts: Vec<String> = counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!("{count} cases: {}", counts.join(", "));
        }
        Cmd::Gpu {
            count,
            out,
            batch,
            printed_every,
            reduce_budget_s,
            case_timeout_s,
            time_limit_s,
        } => {
            let exe = std::env::current_exe().context("cannot find this program's path")?;
            runner::gpu(&runner::GpuRun {
                seed: args.seed,
                count,
                batch,
                printed_every,
                out,
                transcendental: args.transcendental,
                reduce_budget: seconds(reduce_budget_s),
                case_timeout: seconds(case_timeout_s.max(1.0)),
                time_limit: time_limit_s.map(seconds),
                program: vec![exe.into_os_string(), "difftest".into()],
            })?
        }
        Cmd::Recheck { summary } => print!("{}", runner::recheck(&summary, &opts)?),
        Cmd::Show { index } => print!("{}", runner::show(args.seed, index, &opts)?),
        Cmd::Cases {
            from,
            to,
            batch,
            printed_every,
            results,
            deadline_unix,
        } => runner::cases_on_gpu(
            &runner::CaseRange {
                seed: args.seed,
                from,
                to,
                batch,
                printed_every,
                deadline: deadline_unix.map(|s| UNIX_EPOCH + seconds(s)),
            },
            &opts,
            &results,
        )?,
        Cmd::Reduce {
            index,
            variant,
            budget_s,
            out,
        } => runner::reduce_on_gpu(
            args.seed,
            index,
            &opts,
            variant == "printed",
            seconds(budget_s),
            &out,
        )?,
    }
    Ok(crate::exit::OK)
}
