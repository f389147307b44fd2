//! `hone sim`: run one launch in the emulator.

use std::path::PathBuf;

use anyhow::{anyhow, Result};
use clap::Args;
use hone_emulator::Options;
use hone_launch::{run_report, Launch};

use crate::commands::limits::{LimitArgs, Watch};
use crate::commands::parse_launch;
use crate::exit;

#[derive(Args)]
pub struct SimArgs {
    /// The launch file (JSON): source, kernel, grid, block, args, dump
    pub launch: PathBuf,
    /// Print the result as JSON: {"buffers", "races", "faults", "warnings", "printed", "stats"}
    #[arg(long)]
    pub json: bool,
    /// Treat data races as failures (exit code 1)
    #[arg(long)]
    pub deny_races: bool,
    /// Do not report races in which every write stores the value already there
    /// (temporal blocking recomputes halo cells and writes them so)
    #[arg(long)]
    pub tolerate_same_value_races: bool,
    /// Skip race detection (faster)
    #[arg(long)]
    pub no_race_check: bool,
    /// Run thread blocks one after another on one core
    #[arg(long)]
    pub serial: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: SimArgs) -> Result<u8> {
    let launch = Launch::read(&args.launch)?;
    let parsed = parse_launch(&launch)?;
    let module = &parsed.module;
    let kernel = launch.kernel(&parsed)?;
    let mut data = launch.data_within(kernel, args.limits.limits().max_memory)?;
    let dumped_symbols = launch.dumped_symbols(&data.buffers, module)?;
    let mut opts = Options {
        tolerate_same_value_races: args.tolerate_same_value_races,
        parallel: !args.serial,
        detect_races: !args.no_race_check,
        ..Options::default()
    };
    args.limits.apply(&mut opts);
    let watch = Watch::start(&opts.progress);
    let mut symbols = data
        .symbols(module)
        .map_err(|e| anyhow!("{}: {e}", args.launch.display()))?;
    let report = hone_emulator::run_with_symbols(
        module,
        &kernel.name,
        &data.config,
        &data.args,
        &mut data.buffers,
        &mut symbols,
        &opts,
        None,
    )
    .map_err(|e| anyhow!("{}: {e}", args.launch.display()))?;
    drop(watch);

    // Buffers in `dump` order, then the file-scope variables it names.
    let mut dumped = launch.dumped(&data.buffers);
    dumped.extend(dumped_symbols.iter().filter_map(|n| symbols.get(n)));
    if args.json {
        let out = run_report::json(launch.kernel_name(), module, &report, &dumped);
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", run_report::human(module, &report, &dumped));
    }
    let failed = !report.faults.is_empty() || !report.completed;
    let denied = args.deny_races && !report.races.is_empty();
    Ok(if failed || denied {
        exit::FAULT
    } else {
        exit::OK
    })
}
