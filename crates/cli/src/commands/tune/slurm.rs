//! `hone tune JOB --slurm DIR [--submit]` and `hone tune --status DIR`: the
//! options, and the printing of what `hone_slurm` wrote, submitted or found.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use hone_kernels::backend::prepare_job;
use hone_slurm::{submit, write_run, Layout, Resources, Slurm, Status, TuneCommand};
use hone_tuner::JobSpec;
use serde_json::json;

use super::TuneArgs;
use crate::exit;

#[derive(Args)]
#[command(next_help_heading = "Slurm")]
pub struct SlurmArgs {
    /// Write batch scripts into DIR that tune the job on a Slurm cluster: an
    /// array of shards, one GPU each, and a dependent job that merges them and
    /// fits the rule. Without JOB, with --submit: submit DIR's scripts
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shard", "merge", "status"])]
    pub slurm: Option<PathBuf>,
    /// Submit the scripts (again: only the shards neither finished nor queued)
    #[arg(long, requires = "slurm")]
    pub submit: bool,
    /// Show the progress of the Slurm run in DIR across its shards
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shard", "merge"])]
    pub status: Option<PathBuf>,
    /// Shards (array tasks) the search space is split into [default: 4]
    #[arg(long, value_name = "N", requires = "slurm")]
    pub shards: Option<u32>,
    /// The partition both jobs run in
    #[arg(long, value_name = "NAME", requires = "slurm")]
    pub partition: Option<String>,
    /// The account they are charged to
    #[arg(long, value_name = "NAME", requires = "slurm")]
    pub account: Option<String>,
    /// Time limit of each shard task (e.g. 2:00:00)
    #[arg(long, value_name = "LIMIT", requires = "slurm")]
    pub time: Option<String>,
    /// Time limit of the merge-and-fit job
    #[arg(long, value_name = "LIMIT", requires = "slurm")]
    pub merge_time: Option<String>,
    /// GPUs per task; 0 for a replayed job [default: 1]
    #[arg(long, value_name = "N", requires = "slurm")]
    pub gpus_per_task: Option<u32>,
    /// CPUs per task
    #[arg(long, value_name = "N", requires = "slurm")]
    pub cpus_per_task: Option<u32>,
    /// At most this many shard tasks at once
    #[arg(long, value_name = "N", requires = "slurm")]
    pub max_parallel: Option<u32>,
    /// An environment module the jobs load (repeatable)
    #[arg(long, value_name = "NAME", requires = "slurm")]
    pub module: Vec<String>,
    /// A further sbatch option for both jobs, e.g. --sbatch-option=--qos=high (repeatable)
    #[arg(
        long,
        value_name = "OPTION",
        requires = "slurm",
        allow_hyphen_values = true
    )]
    pub sbatch_option: Vec<String>,
}

fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path).with_context(|| format!("resolving {}", path.display()))
}

/// The options of `hone tune` the scripts pass on to every run of the job.
fn tune_options(args: &TuneArgs) -> Result<Vec<String>> {
    if args.compare_memcpy {
        bail!("--compare-memcpy is not written into Slurm scripts: run it on the merged database (DIR/tuning.sqlite) afterwards");
    }
    if args.max_measurements.is_some() {
        bail!("--max-measurements does not go with --slurm: a shard stopped early would hold the merge back");
    }
    let mut out = Vec::new();
    match &args.replay {
        Some(rec) => {
            out.push("--replay".into());
            out.push(absolute(rec)?.display().to_string());
            if let Some(p) = &args.device_props {
                out.push("--device-props".into());
                out.push(absolute(p)?.display().to_string());
            }
        }
        None => {
            for (name, value) in [
                ("--reps", args.reps.to_string()),
                ("--warmup", args.warmup.to_string()),
                ("--launch-timeout", args.launch_timeout.to_string()),
            ] {
                out.push(name.into());
                out.push(value);
            }
            if args.no_flush {
                out.push("--no-flush".into());
            }
            if let Some(n) = args.check_max {
                out.push("--check-max".into());
                out.push(n.to_string());
            }
        }
    }
    if args.verbose {
        out.push("--verbose".into());
    }
    Ok(out)
}

pub fn write_and_submit(dir: &Path, args: &TuneArgs) -> Result<u8> {
    let s = &args.slurm;
    match args.inputs.as_slice() {
        [] if !s.submit => {
            bail!("give the job file to write the scripts (hone tune JOB --slurm DIR), or --submit to submit those in DIR")
        }
        [] => {}
        [job] => {
            let mut spec = JobSpec::load(job).map_err(|e| anyhow!("{e}"))?;
            prepare_job(&mut spec)?;
            let cmd = TuneCommand {
                hone: std::env::current_exe().context("finding the hone binary")?,
                job_file: absolute(job)?,
                job_name: spec.name.clone(),
                tune_args: tune_options(args)?,
                has_sampling: spec.sampling.is_some(),
            };
            let defaults = Resources::default();
            let res = Resources {
                shards: s.shards.unwrap_or(defaults.shards),
                partition: s.partition.clone(),
                account: s.account.clone(),
                time: s.time.clone(),
                merge_time: s.merge_time.clone(),
                gpus_per_task: s.gpus_per_task.unwrap_or(defaults.gpus_per_task),
                cpus_per_task: s.cpus_per_task,
                max_parallel: s.max_parallel,
                modules: s.module.clone(),
                sbatch_options: s.sbatch_option.clone(),
            };
            let w = write_run(dir, &cmd, &res)?;
            if !args.json {
                println!(
                    "{} {} (an array of {} shard task(s)) and {} (merge and fit)",
                    if w.unchanged { "kept" } else { "wrote" },
                    w.shards_script.display(),
                    res.shards,
                    w.merge_script.display()
                );
                if !s.submit {
                    println!(
                        "submit with `hone tune --slurm {} --submit` (the scripts say how by hand)",
                        w.layout.dir.display()
                    );
                }
            } else if !s.submit {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&json!({
                        "dir": w.layout.dir,
                        "shards_script": w.shards_script,
                        "merge_script": w.merge_script,
                        "shards": res.shards,
                        "unchanged": w.unchanged,
                    }))?
                );
            }
        }
        _ => bail!("give one job file with --slurm"),
    }
    if !s.submit {
        return Ok(exit::OK);
    }
    let (plan, submission) = submit(dir, &mut Slurm)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"plan": plan, "submission": submission}))?
        );
        return Ok(exit::OK);
    }
    match (&plan.nothing, &submission) {
        (Some(reason), _) => println!("nothing to submit: {reason}"),
        (None, Some(sub)) => {
            for id in &plan.cancel {
                println!("cancelled the earlier merge job {id}, which the new one replaces");
            }
            if let Some(array) = &sub.array {
                println!(
                    "submitted shard(s) {} as array job {array}",
                    hone_slurm::script::array_spec(&sub.shards)
                );
            }
            let waits: Vec<&str> = sub
                .array
                .iter()
                .chain(&sub.after)
                .map(String::as_str)
                .collect();
            println!(
                "submitted the merge-and-fit job {}{}",
                sub.merge,
                if waits.is_empty() {
                    String::new()
                } else {
                    format!(" (after {})", waits.join(", "))
                }
            );
            println!(
                "progress: hone tune --status {}",
                Layout::new(dir).absolute()?.dir.display()
            );
        }
        (None, None) => {}
    }
    Ok(exit::OK)
}

pub fn status(dir: &Path, json_out: bool) -> Result<u8> {
    let status = Status::read(&Layout::new(dir), &mut Slurm)?;
    if json_out {
        println!("{}", serde_json::to_string_pretty(&status)?);
    } else {
        print!("{}", status.to_text());
    }
    Ok(exit::OK)
}
