//! `hone tune`: runs a tuning job (search, sampling over size, d-splines, the
//! rule) on the GPU through the isolated worker, or against a recorded run,
//! storing every measurement in the tuning database as it is taken. A re-run
//! on the same database resumes; `--shard i/n` runs a slice of the space and
//! `--merge` combines the shards' databases. `--slurm DIR` writes (and with
//! `--submit` submits) the batch scripts that do both on a Slurm cluster, and
//! `--status DIR` shows their progress (`slurm.rs`).

mod slurm;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use hone_gpu::{DevicePool, DeviceSelection, WorkerCommand};
use hone_kernels::backend::{
    open_devices, pool_stats, precompile_on, prepare_job, JobBackend, MeasureOptions,
};
use hone_tuner::replay::recorded_run;
use hone_tuner::{
    run_job, DeviceInfo, Evaluator, JobError, JobSpec, Measurement, Phase, ProblemKey, Progress,
    ReplayEvaluator, Sink, Space, Stop, Task, TuningDb,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use crate::exit;

#[derive(Args)]
pub struct TuneArgs {
    /// The job file (.toml or .json); with --merge, the shard databases to merge
    #[arg(value_name = "JOB | SHARD_DB", required_unless_present_any = ["status", "slurm"])]
    pub inputs: Vec<PathBuf>,
    /// The tuning database: created if missing, resumed if the job is in it
    #[arg(long, value_name = "FILE", default_value = "tuning.sqlite")]
    pub db: PathBuf,
    /// Evaluate only the deterministic slice I of N of the valid space (0 <= I < N)
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Merge the shard databases given as inputs into this database
    #[arg(long, value_name = "OUT_DB", conflicts_with_all = ["shard", "replay"])]
    pub merge: Option<PathBuf>,
    /// Measure nothing: answer from a recorded run (a .csv or .json recording,
    /// or a tuning database holding the job)
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Device properties that constraints name, for replaying a .csv or .json
    /// recording: a JSON object of integers, or a device as `hone tune --json` prints it
    #[arg(long, value_name = "FILE", requires = "replay")]
    pub device_props: Option<PathBuf>,
    /// Milliseconds each replayed measurement takes, as one on the GPU
    /// would (to rehearse progress, interruption and resumption)
    #[arg(long, value_name = "MS", requires = "replay")]
    pub replay_pace: Option<f64>,
    /// Timed runs per measurement (the median is kept)
    #[arg(long, default_value_t = 30)]
    pub reps: u32,
    /// Untimed runs before them
    #[arg(long, default_value_t = 3)]
    pub warmup: u32,
    /// Do not empty L2 before each timed run
    #[arg(long)]
    pub no_flush: bool,
    /// Check against the reference only up to this size; larger sizes are
    /// timed unchecked, with floating-point inputs filled on the device
    #[arg(long, value_name = "N")]
    pub check_max: Option<u64>,
    /// Seconds one launch may run before the variant counts as hung
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    pub launch_timeout: f64,
    /// Also time device-to-device copies (cuMemcpyDtoD) of the template's
    /// declared bytes at the sampled sizes, and compare the rule's kernels with them
    #[arg(long)]
    pub compare_memcpy: bool,
    /// Stop after this many new measurements; running again resumes (on
    /// several devices, the measurements in flight are finished and stored too)
    #[arg(long, value_name = "COUNT")]
    pub max_measurements: Option<usize>,
    /// Tune on several GPUs at once, one supervised worker each, variants
    /// handed to whichever is free: `all`, or ordinals such as `0,1` (an
    /// ordinal given twice runs two workers on that GPU)
    #[arg(long, value_name = "all|I,J,...", conflicts_with_all = ["replay", "merge", "slurm", "status"])]
    pub devices: Option<String>,
    /// With --devices on GPUs of several models (name and clocks): tune each
    /// model on its own GPUs, one job and one rule per model, instead of refusing
    #[arg(long, requires = "devices")]
    pub per_device_rules: bool,
    /// One line per measurement on stderr
    #[arg(short, long)]
    pub verbose: bool,
    /// Print the outcome as JSON (no progress bar)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub slurm: slurm::SlurmArgs,
}

enum Backend {
    Gpu(JobBackend),
    /// Lanes on several devices of one model (`--devices`).
    Devices(DevicePool<JobBackend>),
    Replay(ReplayEvaluator),
}

/// The evaluator the job runner sees: the backend, plus the stop conditions.
struct Driver {
    backend: Backend,
    limit: Option<usize>,
    measured: usize,
}

impl Evaluator for Driver {
    /// Stops before the point in hand is measured once the limit is reached:
    /// what was measured is committed and the job stays resumable.
    fn evaluate(
        &mut self,
        config: &hone_tuner::Config,
        key: &ProblemKey,
    ) -> Result<Measurement, Stop> {
        if let Some(limit) = self.limit.filter(|&l| self.measured >= l) {
            return Err(Stop::Limit(limit));
        }
        let m = match &mut self.backend {
            Backend::Gpu(g) => g.evaluate(config, key)?,
            Backend::Devices(d) => d.evaluate(config, key)?,
            Backend::Replay(r) => r.evaluate(config, key)?,
        };
        self.measured += 1;
        Ok(m)
    }

    /// Several devices measure at once: the limit stops the handing out of
    /// work after the measurement that reaches it, and what is in flight
    /// then is stored too.
    fn evaluate_tasks(&mut self, tasks: &[Task], sink: &mut Sink<'_>) -> Result<(), Stop> {
        let Backend::Devices(pool) = &mut self.backend else {
            return hone_tuner::measure::evaluate_one_by_one(self, tasks, sink);
        };
        if let Some(limit) = self.limit.filter(|&l| self.measured >= l) {
            return Err(Stop::Limit(limit));
        }
        let (limit, measured) = (self.limit, &mut self.measured);
        pool.evaluate_tasks(tasks, &mut |t| {
            *measured += 1;
            sink(t)?;
            match limit.filter(|&l| *measured >= l) {
                Some(l) => Err(Stop::Limit(l)),
                None => Ok(()),
            }
        })
    }
}

/// The progress bar (on a terminal) and the per-measurement log (`-v`).
struct ProgressView {
    enabled: bool,
    verbose: bool,
    bar: Option<ProgressBar>,
    phase: Option<Phase>,
    last_cached: bool,
    started: Instant,
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Search => "search",
        Phase::Sampling => "sampling",
    }
}

impl ProgressView {
    fn new(enabled: bool, verbose: bool) -> Self {
        ProgressView {
            enabled,
            verbose,
            bar: None,
            phase: None,
            last_cached: false,
            started: Instant::now(),
        }
    }

    fn update(&mut self, p: &Progress) {
        if self.verbose {
            let total = p.total.map(|t| format!("/{t}")).unwrap_or_default();
            let cached = if p.cached { " (from the database)" } else { "" };
            let line = format!(
                "{:8.2} s [{} {}{total}] {} {}: {}{cached}",
                self.started.elapsed().as_secs_f64(),
                phase_name(p.phase),
                p.done,
                p.key,
                problem_text(&p.problem),
                p.status
            );
            match &self.bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
        if !self.enabled {
            return;
        }
        if self.phase != Some(p.phase) {
            if let Some(b) = self.bar.take() {
                b.finish_and_clear();
            }
            let bar = match p.total {
                Some(t) => ProgressBar::new(t as u64),
                None => ProgressBar::new_spinner(),
            };
            bar.set_draw_target(ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{prefix:>8} [{bar:32}] {pos}/{len} {elapsed_precise} ETA {eta} {wide_msg}",
            )
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_prefix(phase_name(p.phase));
            self.bar = Some(bar);
            self.phase = Some(p.phase);
        }
        if let Some(b) = &self.bar {
            // Points answered from the database take no time: the rate of the
            // estimate must start with the first real measurement.
            if self.last_cached && !p.cached {
                b.reset_eta();
            }
            self.last_cached = p.cached;
            b.set_position(p.done as u64);
            b.set_message(format!(
                "{} {} {}",
                p.key,
                problem_text(&p.problem),
                p.status
            ));
        }
    }

    fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

/// `N=4096` for one-size problems, as the log has always shown them; the
/// key's text otherwise.
fn problem_text(key: &ProblemKey) -> String {
    match key.single_size() {
        Some(n) => format!("N={n}"),
        None => key.to_string(),
    }
}

fn parse_shard(text: &str) -> Result<(u32, u32)> {
    let bad = || anyhow!("--shard `{text}`: expected I/N with 0 <= I < N, e.g. 0/4");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// `--launch-timeout` as a duration.
fn launch_timeout(args: &TuneArgs) -> Result<Duration> {
    Duration::try_from_secs_f64(args.launch_timeout)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| anyhow!("--launch-timeout must be a positive number of seconds"))
}

fn merge(out: &Path, inputs: &[PathBuf], json_out: bool) -> Result<u8> {
    let mut db = TuningDb::open(out).with_context(|| format!("opening {}", out.display()))?;
    let mut rows = Vec::new();
    for input in inputs {
        if !input.is_file() {
            bail!("{}: no such tuning database", input.display());
        }
        let r = db
            .merge_from(input)
            .with_context(|| format!("merging {}", input.display()))?;
        rows.push(json!({
            "input": input.display().to_string(),
            "jobs": r.jobs,
            "inserted": r.inserted,
            "duplicates": r.duplicates,
        }));
        if !json_out {
            println!(
                "{}: {} job(s), {} measurement(s) added, {} already present",
                input.display(),
                r.jobs,
                r.inserted,
                r.duplicates
            );
        }
    }
    if json_out {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"merged_into": out.display().to_string(), "inputs": rows})
            )?
        );
    } else {
        println!(
            "merged into {}; run `hone tune JOB --db {}` to finish the job",
            out.display(),
            out.display()
        );
    }
    Ok(exit::OK)
}

fn invalid_counts(db: &TuningDb, job_id: i64) -> Result<BTreeMap<String, usize>> {
    let mut counts = BTreeMap::new();
    for s in db.measurements(job_id)? {
        *counts
            .entry(s.measurement.status().to_string())
            .or_insert(0) += 1;
    }
    Ok(counts)
}

/// The warning for a job whose every size is above `--check-max`: nothing of
/// it would be compared with the reference on the GPU.
fn unchecked_warning(
    check_max: Option<u64>,
    sizes: Option<&hone_tuner::job::SizeSpec>,
) -> Option<String> {
    let max = check_max?;
    let sizes = sizes?.sizes();
    let smallest = sizes.iter().min()?;
    (*smallest > max).then(|| {
        format!(
            "hone tune: warning: every size of the job is above --check-max {max} (the smallest \
             is {smallest}), so no variant is compared with the reference on the GPU; give \
             --check-max {smallest} or more to check them"
        )
    })
}

pub fn run(args: TuneArgs) -> Result<u8> {
    if let Some(dir) = &args.slurm.status {
        return slurm::status(dir, args.json);
    }
    if let Some(dir) = &args.slurm.slurm {
        return slurm::write_and_submit(dir, &args);
    }
    if let Some(out) = &args.merge {
        return merge(out, &args.inputs, args.json);
    }
    let [job_path] = args.inputs.as_slice() else {
        bail!("give one job file (or --merge OUT_DB SHARD_DB...)");
    };
    let started = Instant::now();
    let mut spec = JobSpec::load(job_path).map_err(|e| anyhow!("{e}"))?;
    prepare_job(&mut spec)?;
    let measure = MeasureOptions {
        reps: args.reps,
        warmup: args.warmup,
        flush_l2: !args.no_flush,
        check_max: args.check_max,
        launch_timeout: launch_timeout(&args)?,
    };
    if args.replay.is_none() {
        spec.measurement = Some(measure.record(&spec));
    }
    if let Some(text) = unchecked_warning(args.check_max, spec.sizes.as_ref()) {
        eprintln!("{text}");
    }
    let shard = match &args.shard {
        Some(s) => parse_shard(s)?,
        None => (0, 1),
    };
    let job_dir = job_path.parent().unwrap_or(Path::new("."));
    let runs: Vec<(Backend, DeviceInfo)> = match (&args.replay, &args.devices) {
        (Some(path), _) => {
            if args.compare_memcpy {
                bail!("--compare-memcpy needs the GPU, not a replay");
            }
            let (recording, device) = recorded_run(path, &spec.name, args.device_props.as_deref())?;
            let mut eval = ReplayEvaluator::new(&recording);
            if let Some(ms) = args.replay_pace {
                if !(0.0..=60_000.0).contains(&ms) {
                    bail!("--replay-pace {ms}: expected 0 to 60000 milliseconds");
                }
                eval = eval.with_pace(std::time::Duration::from_secs_f64(ms / 1000.0));
            }
            vec![(Backend::Replay(eval), device)]
        }
        (None, devices) => {
            if args.compare_memcpy && spec.kernel.library.is_some() {
                bail!("--compare-memcpy is for templates; library kernels have their own benchmarks (`hone symv`)");
            }
            let worker = WorkerCommand::current_exe(["gpu-worker"])?;
            match devices {
                None => {
                    let (eval, device) = JobBackend::open(&spec, job_dir, worker, &measure)?;
                    vec![(Backend::Gpu(eval), device)]
                }
                Some(text) => {
                    let ordinals = DeviceSelection::parse(text)
                        .map_err(|e| anyhow!(e))?
                        .ordinals()?;
                    open_devices(
                        &spec,
                        job_dir,
                        &worker,
                        &measure,
                        &ordinals,
                        args.per_device_rules,
                    )?
                    .into_iter()
                    .filter_map(|pool| {
                        let device = pool.device()?.info.clone();
                        Some((Backend::Devices(pool), device))
                    })
                    .collect()
                }
            }
        }
    };
    let db = TuningDb::open(&args.db).with_context(|| format!("opening {}", args.db.display()))?;
    let several = runs.len() > 1;
    let mut outputs = Vec::new();
    for (backend, device) in runs {
        if several && !args.json {
            println!("== {} ==", device.model());
        }
        let started = if several { Instant::now() } else { started };
        let out = run_on(&args, &spec, job_dir, shard, backend, device, &db, started)?;
        outputs.extend(out);
    }
    if args.json {
        let out = match outputs.len() {
            1 => outputs.remove(0),
            // One job and one rule per device model.
            _ => json!({ "per_device_model": outputs }),
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(exit::OK)
}

/// Runs the job on one backend (one device, one device model's devices, or a
/// replay) and prints what it did; with `--json`, returns it instead.
#[allow(clippy::too_many_arguments)]
fn run_on(
    args: &TuneArgs,
    spec: &JobSpec,
    job_dir: &Path,
    shard: (u32, u32),
    backend: Backend,
    device: DeviceInfo,
    db: &TuningDb,
    started: Instant,
) -> Result<Option<serde_json::Value>> {
    let mut driver = Driver {
        backend,
        limit: args.max_measurements,
        measured: 0,
    };
    let valid = Space::new(spec.space_spec(), spec.device_props(&device))
        .map_err(|e| anyhow!("job `{}`: {e}", spec.name))?
        .enumerate();
    if matches!(driver.backend, Backend::Gpu(_) | Backend::Devices(_)) {
        // Compile the slice on the pool while the worker times what is ready.
        let slice = valid
            .shard(shard.0 as usize, shard.1 as usize)
            .map_err(|e| anyhow!("{e}"))?;
        let configs: Vec<hone_tuner::Config> = slice.iter().map(|&i| valid.config(i)).collect();
        match &mut driver.backend {
            Backend::Gpu(g) => g.precompile(&configs),
            Backend::Devices(pool) => precompile_on(pool, &configs),
            Backend::Replay(_) => {}
        }
    }
    let show_bar = !args.json && std::io::stderr().is_terminal();
    let mut view = ProgressView::new(show_bar, args.verbose);
    let outcome = run_job(spec, job_dir, &device, db, &mut driver, shard, &mut |p| {
        view.update(p)
    });
    view.finish();
    let report = match outcome {
        Ok(r) => r,
        Err(JobError::Stopped(Stop::Failed(e))) => return Err(anyhow::Error::from_boxed(e)),
        Err(JobError::Stopped(Stop::Limit(_))) => {
            let measured = driver.measured;
            let msg = format!(
                "stopped after {measured} new measurement(s); run the same command again to resume"
            );
            if args.json {
                return Ok(Some(json!({
                    "job": spec.name,
                    "db": args.db.display().to_string(),
                    "complete": false,
                    "measured": measured,
                    "message": msg,
                })));
            }
            println!("{msg}");
            return Ok(None);
        }
        Err(e @ JobError::Db(_)) => return Err(anyhow!("{}: {e}", args.db.display())),
        Err(e) => return Err(anyhow!("{e}")),
    };
    let copy_rows = match (&mut driver.backend, args.compare_memcpy) {
        (Backend::Gpu(g), true) => g.compare_memcpy(db, &report)?,
        (Backend::Devices(pool), true) => match pool.lanes_mut().first_mut() {
            Some(lane) => lane.compare_memcpy(db, &report)?,
            None => Vec::new(),
        },
        _ => Vec::new(),
    };
    let counts = invalid_counts(db, report.job_id)?;
    let wall_s = started.elapsed().as_secs_f64();
    let gpu_stats = match &driver.backend {
        Backend::Gpu(g) => Some((g.stats(), g.restarts())),
        Backend::Devices(pool) => Some((
            pool_stats(pool),
            pool.lanes().iter().map(JobBackend::restarts).sum(),
        )),
        Backend::Replay(_) => None,
    };
    let lanes = match &driver.backend {
        Backend::Devices(pool) => pool.reports(),
        _ => Vec::new(),
    };
    // Points the recording lacks are stored with the status `missing`.
    let replay_misses = match &driver.backend {
        Backend::Replay(r) => Some(r.misses),
        Backend::Gpu(_) | Backend::Devices(_) => None,
    };
    if args.json {
        let best = report.search.best().map(|r| {
            json!({
                "config": (r.index < valid.len()).then(|| valid.key(r.index)),
                "objective": r.objective,
                "points": r.points,
            })
        });
        let mut out = json!({
            "job": spec.name,
            "job_id": report.job_id,
            "db": args.db.display().to_string(),
            "complete": true,
            "device": device,
            "resumed": report.resumed,
            "shard": [report.shard.0, report.shard.1],
            "valid_configs": report.valid_configs,
            "candidates": report.candidates,
            "measured": report.measured,
            "reused": report.reused,
            "statuses": counts,
            "search": {
                "strategy": report.search.strategy,
                "evaluations": report.search.evaluations,
                "best": best,
            },
            "champions": report.champions.iter().map(|c| c.key()).collect::<Vec<_>>(),
            "wall_s": wall_s,
        });
        if let Some(s) = &report.sampling {
            out["sampling"] = json!({
                "sizes": s.sizes,
                "evaluations": s.evaluations,
                "rounds": s.rounds,
                "stopped": s.stopped,
                "alphas": s.curves.splines.iter().map(|sp| sp.as_ref().map(|x| x.alpha)).collect::<Vec<_>>(),
            });
        }
        if let Some(r) = &report.rule {
            out["rule"] = serde_json::to_value(r)?;
        }
        if let Some(p) = &report.plans {
            out["plans"] = serde_json::to_value(p)?;
        }
        if let Some(misses) = replay_misses {
            out["replay_misses"] = json!(misses);
        }
        if let Some((stats, restarts)) = &gpu_stats {
            out["gpu"] = json!({
                "evaluations": stats.evaluations,
                "valid": stats.valid,
                "checked": stats.checked,
                "compiled": stats.compiled,
                "module_cache_hits": stats.cache_hits,
                "worker_restarts": restarts,
            });
        }
        if !lanes.is_empty() {
            out["devices"] = lanes
                .iter()
                .map(|l| {
                    json!({
                        "ordinal": l.ordinal,
                        "name": l.device.name,
                        "uuid": l.device.uuid,
                        "clock_mhz": l.device.clock_mhz,
                        "mem_clock_mhz": l.device.mem_clock_mhz,
                        "tasks": l.tasks,
                        "measured": l.measurements,
                        "worker_restarts": l.restarts,
                        "retired": l.retired,
                    })
                })
                .collect();
        }
        if !copy_rows.is_empty() {
            out["memcpy_comparison"] = copy_rows
                .iter()
                .map(|r| {
                    json!({
                        "size": r.size,
                        "kernel": r.kernel,
                        "config": r.key,
                        "rule_gbps": r.rule_gbps,
                        "best_sampled_gbps": r.best_gbps,
                        "memcpy_gbps": r.memcpy_gbps,
                        "rule_over_memcpy": r.rule_gbps.map(|g| g / r.memcpy_gbps),
                    })
                })
                .collect();
        }
        return Ok(Some(out));
    }
    println!(
        "job `{}` on {} ({}){}: {} valid configuration(s), {} in this shard",
        spec.name,
        device.name,
        device.uuid,
        if report.resumed { ", resumed" } else { "" },
        report.valid_configs,
        report.candidates
    );
    println!(
        "{} new measurement(s), {} from the database; statuses: {}",
        report.measured,
        report.reused,
        counts
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some((stats, restarts)) = &gpu_stats {
        println!(
            "GPU: {} evaluation(s), {} valid ({} checked against the reference), {} variant(s) compiled ({} from the module cache), {} worker restart(s)",
            stats.evaluations, stats.valid, stats.checked, stats.compiled, stats.cache_hits, restarts
        );
    }
    for l in &lanes {
        println!(
            "  GPU {} {} ({}): {} task(s), {} measurement(s), {} worker restart(s){}",
            l.ordinal,
            l.device.name,
            l.device.uuid,
            l.tasks,
            l.measurements,
            l.restarts,
            l.retired
                .as_deref()
                .map(|why| format!("; retired: {why}"))
                .unwrap_or_default()
        );
    }
    if let Some(misses) = replay_misses.filter(|&m| m > 0) {
        println!("{misses} point(s) are not in the recording: stored as `missing`");
    }
    println!(
        "search: {} ({} evaluations)",
        report.search.strategy, report.search.evaluations
    );
    for (i, c) in report.champions.iter().enumerate() {
        println!("  Rank {:<3} {}", i + 1, c.key());
    }
    if let Some(s) = &report.sampling {
        println!(
            "sampling: {} size(s), {} evaluation(s), stopped: {:?}",
            s.sizes.len(),
            s.evaluations,
            s.stopped
        );
    }
    match &report.rule {
        Some(r) => {
            println!("rule ({} interval(s)):", r.intervals.len());
            print!("{}", r.to_table());
        }
        None if shard.1 > 1 => println!(
            "shard {}/{} done; merge the shards with `hone tune --merge OUT_DB SHARD_DB...`, then run the job on OUT_DB",
            shard.0, shard.1
        ),
        None => {}
    }
    if let Some(p) = &report.plans {
        println!("plans ({} problem(s)):", p.plans.len());
        for plan in &p.plans {
            println!(
                "  {:<32} {}  {:.3e} s",
                plan.key,
                plan.config.key(),
                plan.time_s
            );
        }
    }
    if !copy_rows.is_empty() {
        println!("comparison with cuMemcpyDtoD (GB/s = bytes read + written / median time):");
        println!(
            "{:>12}  {:<8} {:>10} {:>10} {:>10} {:>7}",
            "N", "kernel", "rule GB/s", "best GB/s", "memcpy", "ratio"
        );
        for r in &copy_rows {
            let f = |v: Option<f64>| v.map(|g| format!("{g:.1}")).unwrap_or_else(|| "-".into());
            println!(
                "{:>12}  {:<8} {:>10} {:>10} {:>10.1} {:>7}",
                r.size,
                r.kernel,
                f(r.rule_gbps),
                f(r.best_gbps),
                r.memcpy_gbps,
                r.rule_gbps
                    .map(|g| format!("{:.1}%", 100.0 * g / r.memcpy_gbps))
                    .unwrap_or_else(|| "-".into())
            );
        }
    }
    println!("wall time {wall_s:.1} s; database {}", args.db.display());
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::unchecked_warning;
    use hone_tuner::job::SizeSpec;

    #[test]
    fn a_job_whose_sizes_are_all_above_check_max_is_warned_about() {
        let sizes = SizeSpec::List(vec![512, 256]);
        let w = unchecked_warning(Some(128), Some(&sizes)).unwrap();
        assert!(
            w.contains("--check-max 128") && w.contains("smallest is 256"),
            "{w}"
        );
        assert_eq!(unchecked_warning(Some(256), Some(&sizes)), None);
        assert_eq!(unchecked_warning(None, Some(&sizes)), None);
        assert_eq!(unchecked_warning(Some(128), None), None);
    }
}
