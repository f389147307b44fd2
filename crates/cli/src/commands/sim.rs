//! `hone sim`: run one launch in the emulator.

use std::path::PathBuf;

use anyhow::{anyhow, Result};
use clap::Args;
use hone_emulator::{Options, Report};
use hone_launch::{buffer_to_json, Launch};
use serde_json::json;

use crate::commands::parse_launch;
use crate::exit;

#[derive(Args)]
pub struct SimArgs {
    /// The launch file (JSON): source, kernel, grid, block, args, dump
    pub launch: PathBuf,
    /// Print the result as JSON: {"buffers", "races", "faults", "warnings", "stats"}
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
}

pub fn run(args: SimArgs) -> Result<u8> {
    let launch = Launch::read(&args.launch)?;
    let parsed = parse_launch(&launch)?;
    let module = &parsed.module;
    let kernel = launch.kernel(&parsed)?;
    let mut data = launch.data(kernel)?;
    let opts = Options {
        tolerate_same_value_races: args.tolerate_same_value_races,
        parallel: !args.serial,
        detect_races: !args.no_race_check,
        ..Options::default()
    };
    let report = hone_emulator::run(
        module,
        launch.kernel_name(),
        &data.config,
        &data.args,
        &mut data.buffers,
        &opts,
        None,
    )
    .map_err(|e| anyhow!("{}: {e}", args.launch.display()))?;

    let dumped = launch.dumped(&data.buffers);
    if args.json {
        let mut bufs = serde_json::Map::new();
        for b in &dumped {
            bufs.insert(b.name.clone(), buffer_to_json(b));
        }
        let out = json!({
            "kernel": launch.file.kernel,
            "completed": report.completed,
            "buffers": bufs,
            "races": located(module, &report, |r| &r.races),
            "faults": located(module, &report, |r| &r.faults),
            "warnings": located(module, &report, |r| &r.warnings),
            "stats": report.stats,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_human(module, &report, &dumped);
    }
    let failed = !report.faults.is_empty() || !report.completed;
    let denied = args.deny_races && !report.races.is_empty();
    Ok(if failed || denied {
        exit::FAULT
    } else {
        exit::OK
    })
}

/// Serializes report entries and adds a `location` ("file:line:col") next to
/// every span, so JSON readers need not know the module's file table.
fn located<T: serde::Serialize>(
    module: &hone_ir::Module,
    report: &Report,
    pick: impl Fn(&Report) -> &Vec<T>,
) -> serde_json::Value {
    let mut v = serde_json::to_value(pick(report)).unwrap_or_default();
    add_locations(module, &mut v);
    v
}

fn add_locations(module: &hone_ir::Module, v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            if let Some(span) = map
                .get("span")
                .and_then(|s| serde_json::from_value::<hone_ir::Span>(s.clone()).ok())
            {
                map.insert("location".into(), module.location(span).into());
            }
            for (_, child) in map.iter_mut() {
                add_locations(module, child);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|c| add_locations(module, c)),
        _ => {}
    }
}

fn print_human(module: &hone_ir::Module, report: &Report, dumped: &[&hone_emulator::Buffer]) {
    for f in &report.faults {
        // The emulator's messages already carry the location, block and thread.
        println!("fault: {}", f.message);
    }
    for r in &report.races {
        println!(
            "race on {} `{}` (byte {}): {:?} at {} by block {:?} thread {:?}, and {:?} at {} by block {:?} thread {:?} ({} times)",
            if r.space == hone_ir::AddressSpace::Shared { "shared" } else { "global" },
            r.array,
            r.offset,
            r.first.kind,
            module.location(r.first.span),
            r.first.block,
            r.first.thread,
            r.second.kind,
            module.location(r.second.span),
            r.second.block,
            r.second.thread,
            r.count
        );
    }
    for w in &report.warnings {
        println!("warning: {}", w.message);
    }
    for b in dumped {
        println!("{} = {}", b.name, buffer_to_json(b));
    }
    let s = &report.stats;
    println!(
        "{} blocks, {} threads, {} thread operations in {:.3} s ({:.3e} ops/s){}",
        s.blocks,
        s.threads,
        s.thread_operations,
        s.seconds,
        s.operations_per_second,
        if report.completed {
            ""
        } else {
            ", stopped early"
        }
    );
}
