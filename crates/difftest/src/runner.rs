//! The commands: the CPU half over many cases; the GPU run, which re-executes
//! this binary for the cases (a GPU fault leaves a CUDA context unusable, so
//! the process that met it is replaced and the run goes on after the
//! faulting case) and for the reduction of each mismatch; the summary.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, bail, Context, Result};
use hone_gpu::Gpu;
use rayon::prelude::*;
use serde::Serialize;

use crate::ast::Kernel;
use crate::check;
use crate::compile;
use crate::device::Loaded;
use crate::gen::{self, Case, GenOptions};
use crate::pipeline::{self, CaseResult};
use crate::reduce;

/// Mismatching kernels saved (and reduced while time is left) per run.
const MAX_SAVED: usize = 200;

/// Exit status of a case process whose GPU context died.
pub const EXIT_GPU_FAULT: i32 = 3;

/// Counts by status, in a stable order.
pub fn tally(results: &[CaseResult]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for r in results {
        *counts.entry(r.status.clone()).or_insert(0) += 1;
    }
    counts
}

/// The CPU half for cases `first..first + count`: generation, front end,
/// round trip, emulation and, with `nvrtc`, compilation for sm_90.
pub fn cpu(
    seed: u64,
    first: u64,
    count: u64,
    opts: &GenOptions,
    nvrtc: bool,
    batch: usize,
) -> Result<Vec<CaseResult>> {
    let target = if nvrtc {
        Some(compile::target((9, 0))?)
    } else {
        None
    };
    let cases: Vec<Case> = (first..first + count)
        .into_par_iter()
        .map(|i| gen::case(seed, i, opts))
        .collect();
    let mut results = Vec::new();
    pipeline::run_batches(cases, batch, 1, target, |b| {
        for (p, e) in b.items.iter().zip(&b.compile_errors) {
            results.push(pipeline::cpu_result(p, e));
        }
        true
    })?;
    Ok(results)
}

/// A range of cases for one process on the GPU.
#[derive(Clone, Debug)]
pub struct CaseRange {
    pub seed: u64,
    pub from: u64,
    pub to: u64,
    pub batch: usize,
    /// Every how many cases the printed kernel runs too (0: never).
    pub printed_every: u64,
    /// No new batch is started after this time.
    pub deadline: Option<SystemTime>,
}

/// The cases of `range` on the GPU, one JSON line per case appended to
/// `results`. Ends the process with [`EXIT_GPU_FAULT`] after a fault that
/// leaves the context unusable (its case's line written), and with success
/// at the deadline.
pub fn cases_on_gpu(range: &CaseRange, opts: &GenOptions, results: &Path) -> Result<()> {
    let CaseRange {
        seed,
        from,
        to,
        batch,
        printed_every,
        deadline,
    } = range.clone();
    let gpu = Gpu::open(0)?;
    let target = compile::target(gpu.props().compute_capability)?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(results)
        .with_context(|| format!("cannot open {}", results.display()))?;
    let cases: Vec<Case> = (from..to)
        .into_par_iter()
        .map(|i| gen::case(seed, i, opts))
        .collect();
    let mut write_error = None;
    pipeline::run_batches(cases, batch, printed_every, Some(target), |b| {
        let (rs, alive) = pipeline::run_on_gpu(&gpu, &target, &b);
        for r in &rs {
            let line = serde_json::to_string(r).unwrap_or_default();
            if let Err(e) = writeln!(file, "{line}") {
                write_error = Some(e);
                return false;
            }
        }
        let _ = file.flush();
        if !alive {
            std::process::exit(EXIT_GPU_FAULT);
        }
        if deadline.is_some_and(|d| SystemTime::now() >= d) {
            // Batches still being compiled are of no use now: leave at once.
            std::process::exit(0);
        }
        true
    })?;
    if let Some(e) = write_error {
        bail!("cannot write {}: {e}", results.display());
    }
    Ok(())
}

/// Options of a GPU run.
#[derive(Clone, Debug)]
pub struct GpuRun {
    pub seed: u64,
    pub count: u64,
    pub batch: usize,
    /// Every how many cases the printed kernel runs too (0: never).
    pub printed_every: u64,
    pub out: PathBuf,
    pub transcendental: bool,
    /// Time for reducing all mismatches together.
    pub reduce_budget: Duration,
    /// Longest a case process may run before it is killed as hung.
    pub case_timeout: Duration,
    /// No new batch of cases is started after this much time; the summary
    /// counts the cases that ran.
    pub time_limit: Option<Duration>,
    /// The program and leading arguments that run this tool's hidden `cases`
    /// and `reduce` subcommands (the run re-executes them, so that a sticky
    /// GPU fault costs one process, not the run), for example
    /// `["/usr/bin/hone", "difftest"]`.
    pub program: Vec<std::ffi::OsString>,
}

#[derive(Serialize)]
struct Summary {
    seed: u64,
    /// Cases asked for, and cases that ran before the time limit.
    count: u64,
    ran: usize,
    transcendental: bool,
    device: String,
    seconds: f64,
    seconds_cases: f64,
    counts: BTreeMap<String, usize>,
    mismatches: Vec<Reported>,
    /// Cases that failed before the comparison (front end, round trip,
    /// emulator, NVRTC, GPU), at most 50.
    failures: Vec<CaseResult>,
    /// Case processes that ended with a GPU fault: the case that faulted.
    gpu_faults: Vec<u64>,
}

#[derive(Serialize)]
struct Reported {
    #[serde(flatten)]
    result: CaseResult,
    /// The reduced kernel's file (relative to the output directory).
    #[serde(skip_serializing_if = "Option::is_none")]
    reduced: Option<String>,
    original_size: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    reduced_size: Option<usize>,
}

fn self_command(run: &GpuRun) -> Result<Command> {
    let (exe, leading) = run
        .program
        .split_first()
        .context("no program given to run the cases")?;
    let mut c = Command::new(exe);
    c.args(leading);
    c.arg("--seed").arg(run.seed.to_string());
    if run.transcendental {
        c.arg("--transcendental");
    }
    Ok(c)
}

/// The device's name; fails when there is no device or no NVRTC that can
/// compile for it.
fn device_name() -> Result<String> {
    let gpu = Gpu::open(0)?;
    let p = gpu.props();
    compile::target(p.compute_capability)?;
    Ok(format!(
        "{} (sm_{}{})",
        p.name, p.compute_capability.0, p.compute_capability.1
    ))
}

/// The whole GPU run: cases in child processes, each mismatch reduced in
/// another, `summary.json` and `reduced/*.cu` under `run.out`.
pub fn gpu(run: &GpuRun) -> Result<()> {
    let began = Instant::now();
    // Fails here, with "no CUDA device", on machines without one.
    let device = device_name()?;
    std::fs::create_dir_all(&run.out)
        .with_context(|| format!("cannot create {}", run.out.display()))?;
    let results_path = run.out.join("cases.jsonl");
    let _ = std::fs::remove_file(&results_path);
    let mut next = 0u64;
    let mut gpu_faults = Vec::new();
    let deadline = run.time_limit.map(|l| {
        (SystemTime::now() + l)
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
    });
    while next < run.count {
        let mut child = self_command(run)?
            .arg("cases")
            .arg("--from")
            .arg(next.to_string())
            .arg("--to")
            .arg(run.count.to_string())
            .arg("--batch")
            .arg(run.batch.to_string())
            .arg("--printed-every")
            .arg(run.printed_every.to_string())
            .arg("--results")
            .arg(&results_path)
            .args(deadline.map(|d| format!("--deadline-unix={}", d.as_secs_f64())))
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit())
            .spawn()
            .context("cannot start a case process")?;
        let status = wait_with_timeout(&mut child, run.case_timeout)?;
        let done = read_results(&results_path)?;
        let last = done.iter().map(|r| r.index).max();
        let progressed = last.is_some_and(|l| l >= next);
        match status {
            Some(s) if s.success() => break,
            Some(s) if s.code() == Some(EXIT_GPU_FAULT) => {
                let Some(last) = last.filter(|&l| l >= next) else {
                    bail!("a case process ended with a GPU fault before any case");
                };
                eprintln!("GPU fault at case {last}; going on after it in a new process");
                gpu_faults.push(last);
                next = last + 1;
            }
            Some(s) if !progressed => {
                bail!("the case process ended with {s} before running a case");
            }
            other => {
                // Hung or crashed: the case after the last one written is to
                // blame; record it and go on after it.
                let culprit = last.map_or(next, |l| (l + 1).max(next));
                let what = match other {
                    None => "hung (killed)".to_string(),
                    Some(s) => format!("ended with {s}"),
                };
                eprintln!("case process {what} at case {culprit}; going on after it");
                append_result(
                    &results_path,
                    &CaseResult {
                        index: culprit,
                        status: "gpu".into(),
                        message: Some(format!("the case process {what}")),
                        variant: None,
                    },
                )?;
                gpu_faults.push(culprit);
                next = culprit + 1;
            }
        }
    }
    let seconds_cases = began.elapsed().as_secs_f64();
    let mut results = read_results(&results_path)?;
    results.sort_by_key(|r| r.index);
    results.dedup_by_key(|r| r.index);
    let counts = tally(&results);
    let opts = GenOptions {
        transcendental: run.transcendental,
        ..GenOptions::default()
    };
    let reduced_dir = run.out.join("reduced");
    let mut mismatches = Vec::new();
    let reduce_began = Instant::now();
    // One of each kind first (which kernel, which buffer), so that a
    // frequent kind does not take the whole budget.
    let mismatching: Vec<&CaseResult> = results.iter().filter(|r| is_mismatch(&r.status)).collect();
    let mut seen = std::collections::HashSet::new();
    let first_of_kind: Vec<bool> = mismatching
        .iter()
        .map(|r| seen.insert(signature(r)))
        .collect();
    let mut order: Vec<usize> = (0..mismatching.len()).collect();
    order.sort_by_key(|&i| !first_of_kind[i]);
    for (n, r) in order.into_iter().map(|i| mismatching[i]).enumerate() {
        let case = gen::case(run.seed, r.index, &opts);
        let original_size = reduce::size(&case.kernel);
        let left = run.reduce_budget.saturating_sub(reduce_began.elapsed());
        let mut reported = Reported {
            result: r.clone(),
            reduced: None,
            original_size,
            reduced_size: None,
        };
        if n >= MAX_SAVED {
            mismatches.push(reported);
            continue;
        }
        std::fs::create_dir_all(&reduced_dir)?;
        // The original is kept beside its reduction.
        let original = reduced_dir.join(format!("{}.orig.cu", case.kernel.name));
        std::fs::write(&original, annotated(&case, &case.kernel, r))?;
        if left > Duration::from_secs(2) {
            let status = self_command(run)?
                .arg("reduce")
                .arg("--index")
                .arg(r.index.to_string())
                .arg("--variant")
                .arg(r.variant.as_deref().unwrap_or("generated"))
                .arg("--budget-s")
                .arg(
                    left.min(run.reduce_budget / 4)
                        .max(Duration::from_secs(3))
                        .as_secs_f64()
                        .to_string(),
                )
                .arg("--out")
                .arg(&reduced_dir)
                .status()
                .context("cannot start a reduction process")?;
            let file = reduced_dir.join(format!("{}.cu", case.kernel.name));
            if status.success() && file.exists() {
                reported.reduced = Some(format!("reduced/{}.cu", case.kernel.name));
                let size_file = reduced_dir.join(format!("{}.size", case.kernel.name));
                reported.reduced_size = std::fs::read_to_string(size_file)
                    .ok()
                    .and_then(|s| s.trim().parse().ok());
            }
        }
        mismatches.push(reported);
    }
    let failures: Vec<CaseResult> = results
        .iter()
        .filter(|r| r.status != "pass" && !is_mismatch(&r.status))
        .take(50)
        .cloned()
        .collect();
    let summary = Summary {
        seed: run.seed,
        count: run.count,
        ran: results.len(),
        transcendental: run.transcendental,
        device,
        seconds: began.elapsed().as_secs_f64(),
        seconds_cases,
        counts,
        mismatches,
        failures,
        gpu_faults,
    };
    let text = serde_json::to_string_pretty(&summary)?;
    std::fs::write(run.out.join("summary.json"), &text)?;
    println!(
        "{} cases ({} asked for) in {:.1} s ({:.1} s for the cases) on {}: {}",
        summary.ran,
        run.count,
        summary.seconds,
        seconds_cases,
        summary.device,
        summary
            .counts
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for m in &summary.mismatches {
        println!(
            "{} in case {} ({}): {}{}",
            m.result.status,
            m.result.index,
            m.result.variant.as_deref().unwrap_or(""),
            m.result.message.as_deref().unwrap_or(""),
            m.reduced
                .as_ref()
                .map(|p| format!(" -> {p}"))
                .unwrap_or_default()
        );
    }
    for f in summary.failures.iter().take(10) {
        println!(
            "{} in case {}: {}",
            f.status,
            f.index,
            f.message
                .as_deref()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("")
        );
    }
    Ok(())
}

/// Whether a case's status is a difference between emulator and GPU:
/// unexplained (`mismatch`) or made by the GPU compiler (`compiler`).
fn is_mismatch(status: &str) -> bool {
    matches!(status, "mismatch" | "compiler")
}

/// The kind of a mismatch: the kernel that differed and the first buffer.
fn signature(r: &CaseResult) -> (String, String) {
    let buffer = r
        .message
        .as_deref()
        .and_then(|m| m.split('[').next())
        .unwrap_or("")
        .to_string();
    (r.variant.clone().unwrap_or_default(), buffer)
}

fn wait_with_timeout(
    child: &mut std::process::Child,
    timeout: Duration,
) -> Result<Option<std::process::ExitStatus>> {
    let began = Instant::now();
    loop {
        if let Some(s) = child.try_wait()? {
            return Ok(Some(s));
        }
        if began.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn read_results(path: &Path) -> Result<Vec<CaseResult>> {
    let Ok(f) = std::fs::File::open(path) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for line in std::io::BufReader::new(f).lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        // A process killed mid-line leaves a partial last line; skip it.
        if let Ok(r) = serde_json::from_str::<CaseResult>(&line) {
            out.push(r);
        }
    }
    Ok(out)
}

fn append_result(path: &Path, r: &CaseResult) -> Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(f, "{}", serde_json::to_string(r)?)?;
    Ok(())
}

/// The kernel's source with a header saying how to reproduce it.
pub fn annotated(case: &Case, kernel: &Kernel, r: &CaseResult) -> String {
    format!(
        "// hone difftest case {} of seed {}: grid {}, block {}; inputs as `hone difftest show --seed {} --index {}` generates them.\n// {} ({} kernel): {}\n{}",
        case.index,
        case.seed,
        kernel.grid,
        kernel.block,
        case.seed,
        case.index,
        r.status,
        r.variant.as_deref().unwrap_or("generated"),
        r.message.as_deref().unwrap_or(""),
        kernel.render(false)
    )
}

/// Reduces one mismatching case on the GPU and writes `NAME.cu` (and
/// `NAME.size`) to `out`.
pub fn reduce_on_gpu(
    seed: u64,
    index: u64,
    opts: &GenOptions,
    printed: bool,
    budget: Duration,
    out: &Path,
) -> Result<()> {
    let gpu = Gpu::open(0)?;
    let target = compile::target(gpu.props().compute_capability)?;
    let case = gen::case(seed, index, opts);
    let mut round = 0usize;
    let mut last_message = None;
    let mut interesting = |window: &[Kernel]| -> Option<usize> {
        round += 1;
        let named: Vec<Case> = window
            .iter()
            .enumerate()
            .map(|(j, k)| Case {
                kernel: pipeline::renamed(k, format!("{}_r{round}_{j}", case.kernel.name)),
                ..case.clone()
            })
            .collect();
        let prepared: Vec<pipeline::Prepared> =
            named.into_par_iter().map(pipeline::prepare).collect();
        // Small modules, compiled on all cores at once.
        let groups: Vec<Vec<usize>> = (0..prepared.len())
            .filter(|&j| prepared[j].emulated.is_ok())
            .collect::<Vec<_>>()
            .chunks(3)
            .map(|c| c.to_vec())
            .collect();
        let compiled: Vec<Option<hone_gpu::CompiledModule>> = groups
            .par_iter()
            .map(|g| {
                let sources: Vec<String> = g
                    .iter()
                    .filter_map(|&j| prepared[j].sources.as_ref())
                    .map(|(gen, pr)| if printed { pr.clone() } else { gen.clone() })
                    .collect();
                // A kernel NVRTC rejects is missing from the module and
                // fails to launch below, which makes it uninteresting.
                compile::compile_many(&sources, "reduce.cu", &target)
                    .ok()
                    .and_then(|(m, _)| m)
            })
            .collect();
        for (g, m) in groups.iter().zip(&compiled) {
            let Some(m) = m else { continue };
            let Ok(loaded) = Loaded::load(&gpu, m) else {
                continue;
            };
            for &j in g {
                let p = &prepared[j];
                let Ok(emulated) = &p.emulated else { continue };
                let name = if printed {
                    compile::printed_name(&p.case.kernel)
                } else {
                    p.case.kernel.name.clone()
                };
                let inputs = check::buffers(&p.case);
                match loaded.run(
                    &gpu,
                    &name,
                    p.case.kernel.grid,
                    p.case.kernel.block,
                    &inputs,
                ) {
                    Ok(outputs) => {
                        if let Some(d) = check::compare(emulated, &outputs) {
                            last_message = Some(pipeline::describe(&d));
                            return Some(j);
                        }
                    }
                    Err(e) if e.sticky => {
                        eprintln!("GPU fault while reducing: {}", e.message);
                        return None;
                    }
                    Err(_) => {}
                }
            }
        }
        None
    };
    let (reduced, steps) = reduce::reduce(case.kernel.clone(), budget, 48, &mut interesting);
    let reduced = pipeline::renamed(&reduced, case.kernel.name.clone());
    let result = CaseResult {
        index,
        status: "mismatch".into(),
        message: last_message.or_else(|| Some("(the original mismatch)".into())),
        variant: Some(if printed { "printed" } else { "generated" }.into()),
    };
    std::fs::write(
        out.join(format!("{}.cu", case.kernel.name)),
        annotated(&case, &reduced, &result),
    )?;
    std::fs::write(
        out.join(format!("{}.size", case.kernel.name)),
        reduce::size(&reduced).to_string(),
    )?;
    eprintln!(
        "case {index}: reduced from size {} to {} in {steps} steps",
        reduce::size(&case.kernel),
        reduce::size(&reduced)
    );
    Ok(())
}

/// The source, launch and inputs of one case, for reproducing it.
pub fn show(seed: u64, index: u64, opts: &GenOptions) -> Result<String> {
    let case = gen::case(seed, index, opts);
    let inputs = serde_json::json!({
        "grid": case.kernel.grid,
        "block": case.kernel.block,
        "in_i": case.inputs.i32s,
        "in_q": case.inputs.u64s,
        "in_f": case.inputs.f32s.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        "in_d": case.inputs.f64s.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        "acc_u": case.inputs.acc_u,
        "acc_q": case.inputs.acc_q,
    });
    Ok(format!(
        "{}\n/* launch and inputs (floats as bits):\n{}\n*/\n",
        case.kernel.render(false),
        serde_json::to_string(&inputs).map_err(|e| anyhow!(e))?
    ))
}

/// For each mismatch of a GPU run's summary, the emulator's value now at
/// the element the GPU run reported, against the GPU's value there: a fix
/// of the emulator is checked against the hardware without running it again.
pub fn recheck(summary: &Path, opts: &GenOptions) -> Result<String> {
    let text = std::fs::read_to_string(summary)
        .with_context(|| format!("cannot read {}", summary.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a summary", summary.display()))?;
    let seed = v["seed"]
        .as_u64()
        .ok_or_else(|| anyhow!("{}: no seed", summary.display()))?;
    let mismatches = v["mismatches"].as_array().cloned().unwrap_or_default();
    let rows: Vec<(u64, String, bool)> = mismatches
        .par_iter()
        .filter_map(|m| {
            let index = m["index"].as_u64()?;
            let message = m["message"].as_str()?.to_string();
            let (buffer, rest) = message.split_once('[')?;
            let (element, rest) = rest.split_once(']')?;
            let element: usize = element.parse().ok()?;
            let gpu = rest.split("GPU ").nth(1)?.split(';').next()?.to_string();
            let case = gen::case(seed, index, opts);
            let now = check::front_end(&case)
                .and_then(|module| check::emulate(&case, &module))
                .ok()
                .and_then(|bufs| {
                    let b = bufs.iter().find(|b| b.name == buffer)?.clone();
                    let mut gpu_side = bufs.clone();
                    // Compare one element: the emulator's buffers against
                    // themselves with the GPU's value written in.
                    let size = b.elem_size();
                    let bytes = parse_shown(b.component(), &gpu)?;
                    let at = bufs.iter().position(|x| x.name == buffer)?;
                    gpu_side[at].data[element * size..(element + 1) * size]
                        .copy_from_slice(&bytes[..size]);
                    Some(check::compare(&bufs, &gpu_side).is_none())
                })
                .unwrap_or(false);
            Some((index, message, now))
        })
        .collect();
    let agree = rows.iter().filter(|r| r.2).count();
    let mut out = String::new();
    for (index, message, now) in &rows {
        if !now {
            out.push_str(&format!("case {index}: still differs: {message}\n"));
        }
    }
    out.push_str(&format!(
        "{agree} of {} mismatches now give the GPU's value at the reported element\n",
        rows.len()
    ));
    Ok(out)
}

/// The bytes of a value as `check::compare` shows it (`1.5e0 (0x3fc00000)`
/// for floats, decimal for integers).
fn parse_shown(s: hone_ir::Scalar, shown: &str) -> Option<Vec<u8>> {
    use hone_ir::Scalar::*;
    let shown = shown.trim();
    Some(match s {
        F32 | F64 => {
            let hex = shown.split("(0x").nth(1)?.trim_end_matches(')');
            let bits = u64::from_str_radix(hex, 16).ok()?;
            if s == F32 {
                (bits as u32).to_le_bytes().to_vec()
            } else {
                bits.to_le_bytes().to_vec()
            }
        }
        I32 => shown.parse::<i32>().ok()?.to_le_bytes().to_vec(),
        I64 => shown.parse::<i64>().ok()?.to_le_bytes().to_vec(),
        U32 => shown.parse::<u32>().ok()?.to_le_bytes().to_vec(),
        _ => shown.parse::<u64>().ok()?.to_le_bytes().to_vec(),
    })
}
