//! `hone retune ROUTINE`: tunes a routine's rules on this machine's GPU with
//! one command (every variant's tuning job, then its rule) into the user's
//! rules folder for this GPU model, which `hone run`, `hone bench`, the
//! library's sessions and the C and Python interfaces use from then on.
//! Every measurement is stored as it is taken: running the command again
//! resumes where it stopped.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Parser};
use hone_gpu::Gpu;
use hone_kernels::routine::device_rules;

use crate::exit;
use hone_kernels::routine::registry::find;

#[derive(Args)]
pub struct RetuneArgs {
    /// The routine (`hone routines` lists them; SYMV and GEMM are retuned
    /// this way)
    pub routine: String,
    /// Where the rules (VARIANT.json), the jobs and the tuning database go;
    /// default: the user's rules folder for this GPU model
    /// (HONE_RULES_HOME, else ~/.cache/hone/rules, then GPU/ROUTINE)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The CUDA device ordinal
    #[arg(long, default_value_t = 0)]
    pub device: u32,
    /// Tune only these variants (default: all)
    #[arg(long, value_name = "V,V", value_delimiter = ',')]
    pub variants: Vec<String>,
    /// Timed runs per measurement (the median is kept)
    #[arg(long, default_value_t = 20)]
    pub reps: u32,
    /// Untimed runs before them
    #[arg(long, default_value_t = 2)]
    pub warmup: u32,
    /// Start this GPU's tuning over: delete its database first (needed when
    /// the measurement options or hone's kernels changed since it was made)
    #[arg(long)]
    pub fresh: bool,
}

/// `hone tune`'s arguments, parsed as the command line would give them.
#[derive(Parser)]
struct TuneLine {
    #[command(flatten)]
    args: super::tune::TuneArgs,
}

pub fn run(args: RetuneArgs) -> Result<u8> {
    let routine = find(&args.routine).map_err(|e| anyhow!("{e}"))?;
    let files = routine.retune_files();
    if files.is_empty() {
        bail!(
            "{} is not retuned by `hone retune`: tune it with `hone tune` and `hone rule` (or \
             `hone plan` for routines planned per problem) and pass the folder with --rules",
            routine.name()
        );
    }
    let known = routine.variants();
    let variants = if args.variants.is_empty() {
        known.clone()
    } else {
        for v in &args.variants {
            if !known.contains(v) {
                bail!(
                    "{}: no variant `{v}` (variants: {})",
                    routine.name(),
                    known.join(", ")
                );
            }
        }
        args.variants.clone()
    };
    // The worker opens the device for the jobs; this process only asks
    // which GPU it is.
    let (device_name, uuid) = {
        let gpu = Gpu::open(args.device).map_err(|e| anyhow!("{e}"))?;
        (gpu.props().name.clone(), gpu.props().uuid.clone())
    };
    let dir = match &args.out {
        Some(d) => d.clone(),
        None => device_rules::user_dir(routine.name(), &device_name).ok_or_else(|| {
            anyhow!("no folder for the rules: set HONE_RULES_HOME or HOME, or give --out DIR")
        })?,
    };
    let jobs = dir.join("job");
    for (rel, text) in &files {
        let path = jobs.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    // One database per GPU: its jobs resume on that GPU only, and each rule
    // is fitted from that GPU's measurements, while the rules serve every
    // GPU of the model.
    let db = dir.join(format!("tuning-{}.sqlite", device_rules::slug(&uuid)));
    if args.fresh {
        for suffix in ["", "-wal", "-shm"] {
            let f = PathBuf::from(format!("{}{suffix}", db.display()));
            if f.exists() {
                std::fs::remove_file(&f).with_context(|| format!("removing {}", f.display()))?;
            }
        }
    }
    println!(
        "retuning {} on {device_name} (device {}): rules into {}",
        routine.name(),
        args.device,
        dir.display()
    );
    let started = Instant::now();
    for v in &variants {
        let job = jobs.join("tune").join(format!("{v}.toml"));
        if !job.is_file() {
            bail!(
                "{}: the routine has no tuning job for `{v}`",
                routine.name()
            );
        }
        println!("== {v} ({:.0} s so far)", started.elapsed().as_secs_f64());
        let mut line: Vec<String> = vec![
            "tune".into(),
            job.display().to_string(),
            "--db".into(),
            db.display().to_string(),
            "--reps".into(),
            args.reps.to_string(),
            "--warmup".into(),
            args.warmup.to_string(),
        ];
        if args.device != 0 {
            line.extend(["--devices".into(), args.device.to_string()]);
        }
        if let Some(max) = routine.retune_check_max() {
            line.extend(["--check-max".into(), max.to_string()]);
        }
        let tune = TuneLine::try_parse_from(&line).map_err(|e| anyhow!("{e}"))?;
        let code = super::tune::run(tune.args).map_err(|e| {
            let text = format!("{e:#}");
            if text.contains("conflict") || text.contains("differs") || text.contains("new name") {
                anyhow!(
                    "{text}\n(the database was made with other options or another version of \
                     hone's kernels: `hone retune {} --fresh` starts this GPU's tuning over)",
                    routine.name()
                )
            } else {
                e
            }
        })?;
        if code != exit::OK {
            return Ok(code);
        }
        // Written whole or not at all: a folder is used once every
        // variant's rule is there (GEMM's variant by variant).
        let tmp = dir.join(format!(".{v}.json.tmp"));
        let rule = super::rule::RuleArgs {
            db: db.clone(),
            kernel: None,
            job: Some(v.clone()),
            alpha: None,
            tolerance: None,
            out_json: Some(tmp.clone()),
            out_rust: None,
            out_c: None,
            json: false,
        };
        let code = super::rule::run(rule)?;
        if code != exit::OK {
            return Ok(code);
        }
        let out = dir.join(format!("{v}.json"));
        std::fs::rename(&tmp, &out).with_context(|| format!("writing {}", out.display()))?;
    }
    let done = device_rules::complete(&dir, &known);
    println!(
        "{} tuned in {:.0} s; the rules are in {}.",
        variants.join(", "),
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    if args.out.is_none() && routine.merges_retuned_rules() {
        println!(
            "On this GPU model, `hone run {0}` and `hone bench {0}`, the library and the C and \
             Python interfaces use them from now on, each in place of its variant's built-in \
             rule{1}.",
            routine.name(),
            if done {
                ""
            } else {
                " (the built-in rules serve the variants not tuned here)"
            }
        );
    } else if routine.merges_retuned_rules() {
        // (with --out: a folder of some variants serves with --rules too)
        println!("Pass the folder with --rules DIR (or HONE_RULES_DIR) to use them.");
    } else if !done {
        println!(
            "The folder does not hold every variant's rule yet, so the built-in rules still \
             serve: `hone retune {}` tunes the rest.",
            routine.name()
        );
    } else if args.out.is_some() {
        println!("Pass the folder with --rules DIR (or HONE_RULES_DIR) to use them.");
    } else {
        println!(
            "On this GPU model, `hone run {0}` and `hone bench {0}`, the library and the C and \
             Python interfaces use them from now on.",
            routine.name()
        );
    }
    Ok(exit::OK)
}
