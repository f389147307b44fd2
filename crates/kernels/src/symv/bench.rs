//! The head-to-head benchmark: hone's SYMV kernels against cuBLAS `?symv`
//! and `?gemv` on the same buffers in the same run, over a list of sizes, with
//! every implementation checked against the CPU reference first.
//!
//! Per (precision, storage, n): every candidate configuration is checked and
//! timed; then (with `sweep`) the neighbours of the fastest atomic kernel,
//! twice over (a two-step hill climb); then cuBLAS SYMV on the same stored
//! triangle, and cuBLAS GEMV on the full symmetric matrix. The fastest valid hone kernel is compared
//! with cuBLAS SYMV.

use std::fmt::Write as _;

use hone_gpu::{DeviceProps, Stats};

use super::cublas::{Cublas, DefaultStreamTimer};
use super::device::{RunOptions, SymvMeasurement, SymvOutcome, SymvRunner};
use super::space::{symv_template, DeviceLimits};
use super::traffic::{gbps, gemv_bytes, symv_bytes, GEMV_BYTES, SYMV_BYTES};
use super::{config, Algorithm, Config, Precision, Result, SymvError, SymvKernel, Uplo};

/// What to run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BenchOptions {
    pub sizes: Vec<usize>,
    pub precisions: Vec<Precision>,
    pub uplos: Vec<Uplo>,
    pub run: RunOptions,
    /// Also hill-climb from the fastest atomic candidate at each size.
    pub sweep: bool,
    /// Measure these kernels only, each at its own size (a selection made by
    /// an earlier run), instead of the candidates and the sweep.
    #[serde(default)]
    pub picks: Option<Vec<Pick>>,
    /// Sizes at which every picked kernel is also checked (not timed).
    #[serde(default)]
    pub check_sizes: Vec<usize>,
    /// Where `picks` came from, for the report (`the selection rules in
    /// DIR`); absent: the fastest of an earlier run.
    #[serde(default)]
    pub picks_origin: Option<String>,
}

/// A kernel chosen for one (precision, storage, size).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pick {
    pub precision: Precision,
    pub uplo: Uplo,
    pub n: usize,
    pub algorithm: Algorithm,
    pub config: Config,
}

impl Pick {
    pub fn kernel(&self) -> SymvKernel {
        SymvKernel::new(
            self.precision,
            self.uplo,
            self.algorithm,
            self.config.clone(),
        )
    }
}

/// The fastest hone kernel of each size of an earlier report.
pub fn picks_from_report(report: &BenchReport) -> Result<Vec<Pick>> {
    report
        .summary
        .iter()
        .filter_map(|s| s.best.as_ref().map(|b| (s, b)))
        .map(|(s, b)| {
            let algorithm = b
                .implementation
                .trim_start_matches("hone ")
                .parse::<Algorithm>()
                .map_err(SymvError::Config)?;
            Ok(Pick {
                precision: s.precision,
                uplo: s.uplo,
                n: s.n,
                algorithm,
                config: parse_config_label(&b.config)?,
            })
        })
        .collect()
}

/// Reads `NAME=V NAME=V` (as [`config_label`] writes it).
pub fn parse_config_label(s: &str) -> Result<Config> {
    s.split_whitespace()
        .map(|kv| {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| SymvError::Config(format!("`{kv}` in `{s}` is not NAME=VALUE")))?;
            let v = v
                .parse::<i64>()
                .map_err(|e| SymvError::Config(format!("`{kv}` in `{s}`: {e}")))?;
            Ok((k.to_string(), v))
        })
        .collect()
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            sizes: vec![512, 1024, 2048, 4096, 8192, 16384, 32768],
            precisions: Precision::ALL.to_vec(),
            uplos: Uplo::ALL.to_vec(),
            run: RunOptions::default(),
            sweep: true,
            picks: None,
            check_sizes: Vec::new(),
            picks_origin: None,
        }
    }
}

/// The atomic kernel's parameters in the order of [`atomic`]'s arguments.
pub const ATOMIC_ORDER: [&str; 10] = [
    "BLOCK_SIZE",
    "UX",
    "MULTIPLICITY",
    "MX",
    "VEC",
    "STEPS",
    "NP",
    "SYNC",
    "LDHINT",
    "SCHED",
];

/// An atomic configuration from values in [`ATOMIC_ORDER`].
pub fn atomic(v: [i64; 10]) -> Config {
    config(ATOMIC_ORDER.iter().copied().zip(v))
}

/// An L+U configuration.
pub fn lu(block_size: i64, nb: i64) -> Config {
    config([("BLOCK_SIZE", block_size), ("NB", nb)])
}

/// The fixed candidates of a precision: atomic tiles from small (for small n)
/// to large, the paper's one-panel shape (NP = 1), the mutex and streaming-load
/// alternatives, and L+U shapes.
pub fn candidates(precision: Precision) -> Vec<(Algorithm, Config)> {
    let mut out: Vec<(Algorithm, Config)> = match precision {
        Precision::Double => vec![
            atomic([64, 8, 8, 0, 2, 1, 32, 0, 0, 0]),
            atomic([64, 8, 8, 0, 2, 1, 32, 0, 0, 1]),
            atomic([256, 8, 2, 0, 2, 1, 32, 0, 0, 0]),
            atomic([256, 8, 2, 0, 2, 1, 32, 0, 0, 1]),
            atomic([128, 12, 4, 0, 2, 1, 2, 0, 0, 0]),
            atomic([128, 12, 4, 0, 2, 1, 2, 0, 0, 1]),
            atomic([64, 8, 8, 0, 2, 1, 16, 0, 0, 1]),
            atomic([128, 16, 2, 0, 2, 2, 16, 0, 0, 0]),
            atomic([64, 12, 4, 0, 2, 1, 2, 0, 0, 0]),
            atomic([128, 16, 2, 0, 2, 2, 1, 0, 0, 0]),
            atomic([128, 16, 2, 0, 2, 2, 16, 1, 0, 0]),
            atomic([64, 8, 8, 0, 2, 1, 32, 0, 1, 0]),
        ],
        Precision::Single => vec![
            atomic([64, 8, 8, 0, 4, 1, 32, 0, 0, 0]),
            atomic([64, 8, 8, 0, 4, 1, 32, 0, 0, 1]),
            atomic([128, 12, 4, 0, 4, 1, 2, 0, 0, 0]),
            atomic([128, 12, 4, 0, 4, 1, 2, 0, 0, 1]),
            atomic([128, 12, 4, 0, 4, 1, 8, 0, 0, 0]),
            atomic([64, 8, 8, 0, 4, 1, 16, 0, 1, 0]),
            atomic([64, 8, 8, 0, 4, 1, 16, 0, 0, 1]),
            atomic([128, 32, 2, 0, 4, 1, 4, 0, 0, 0]),
            atomic([64, 8, 4, 0, 4, 1, 2, 0, 0, 0]),
            atomic([128, 16, 2, 0, 4, 2, 1, 0, 0, 0]),
            atomic([128, 32, 2, 0, 4, 1, 4, 1, 0, 0]),
        ],
    }
    .into_iter()
    .map(|c| (Algorithm::Atomic, c))
    .collect();
    for (bs, nb) in [(64, 4), (128, 8), (256, 32)] {
        out.push((Algorithm::LowerUpper, lu(bs, nb)));
    }
    out
}

/// Valid neighbours of an atomic configuration: one parameter moved at a
/// time (MULTIPLICITY, MX, NP, STEPS, UX, BLOCK_SIZE, LDHINT, SCHED).
pub fn neighbours(
    precision: Precision,
    uplo: Uplo,
    base: &Config,
    limits: &DeviceLimits,
) -> Vec<Config> {
    let t = symv_template(precision, uplo, Algorithm::Atomic);
    let get = |k: &str| base.get(k).copied().unwrap_or(0);
    let moves: [(&str, Vec<i64>); 8] = [
        (
            "MULTIPLICITY",
            vec![get("MULTIPLICITY") - 1, get("MULTIPLICITY") + 1],
        ),
        ("MX", vec![1, 8]),
        ("NP", vec![get("NP") / 2, get("NP") * 2]),
        ("STEPS", vec![get("STEPS") / 2, get("STEPS") * 2]),
        ("UX", vec![get("UX") - 4, get("UX") + 4]),
        (
            "BLOCK_SIZE",
            vec![get("BLOCK_SIZE") / 2, get("BLOCK_SIZE") * 2],
        ),
        ("LDHINT", vec![1 - get("LDHINT")]),
        ("SCHED", vec![1 - get("SCHED")]),
    ];
    let mut out = Vec::new();
    for (k, values) in moves {
        for v in values {
            if v == get(k) {
                continue;
            }
            let mut c = base.clone();
            c.insert(k.to_string(), v);
            if t.is_valid(&c, limits).unwrap_or(false) && !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// One implementation at one size.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BenchRow {
    pub precision: Precision,
    pub uplo: Uplo,
    pub n: usize,
    pub lda: usize,
    /// `hone atomic`, `hone lu`, `cublas symv` or `cublas gemv`.
    pub implementation: String,
    /// The configuration (`NAME=V ...`); empty for cuBLAS.
    pub config: String,
    /// `ok`, or why the implementation was left out.
    pub status: String,
    /// Median of each timing run, milliseconds.
    pub medians_ms: Vec<f64>,
    /// On the row's own byte count: SYMV's for SYMV rows, GEMV's for GEMV.
    pub gbps: Option<f64>,
    pub relative_error: Option<f64>,
    pub registers: Option<u32>,
    pub local_bytes: Option<u32>,
    pub grid: Option<u32>,
    pub block: Option<u32>,
    pub shared_mem: Option<u32>,
}

impl BenchRow {
    pub(crate) fn new(
        precision: Precision,
        uplo: Uplo,
        n: usize,
        lda: usize,
        implementation: &str,
    ) -> Self {
        BenchRow {
            precision,
            uplo,
            n,
            lda,
            implementation: implementation.to_string(),
            config: String::new(),
            status: "ok".to_string(),
            medians_ms: Vec::new(),
            gbps: None,
            relative_error: None,
            registers: None,
            local_bytes: None,
            grid: None,
            block: None,
            shared_mem: None,
        }
    }

    pub fn ok(&self) -> bool {
        self.status == "ok"
    }

    pub fn median_ms(&self) -> Option<f64> {
        self.medians_ms.first().copied()
    }

    fn from_measurement(m: &SymvMeasurement, lda: usize) -> Self {
        let k = &m.kernel;
        let mut row = BenchRow::new(
            k.precision,
            k.uplo,
            m.n,
            lda,
            &format!("hone {}", k.algorithm),
        );
        row.config = config_label(&k.config);
        row.medians_ms = m.times.iter().map(|s| s.median).collect();
        row.gbps = Some(m.gbps);
        row.relative_error = m.check.as_ref().map(|c| c.relative());
        row.registers = Some(m.registers);
        row.local_bytes = Some(m.local_bytes);
        row.grid = Some(m.launch.grid.0);
        row.block = Some(m.launch.block.0);
        row.shared_mem = Some(m.launch.shared_mem);
        row
    }
}

/// `NAME=V NAME=V`, in name order.
pub fn config_label(c: &Config) -> String {
    c.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The comparison at one size.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SizeSummary {
    pub precision: Precision,
    pub uplo: Uplo,
    pub n: usize,
    /// The fastest valid hone kernel.
    pub best: Option<BenchRow>,
    pub cublas_symv: Option<BenchRow>,
    pub cublas_gemv: Option<BenchRow>,
    /// cuBLAS SYMV time over hone's best time (above 1: hone is faster).
    pub speedup: Option<f64>,
}

/// Everything one benchmark run measured.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BenchReport {
    pub device: DeviceProps,
    pub cublas_version: Option<i32>,
    pub vector_atomics: bool,
    /// cuMemcpyDtoD of 1 GiB, bytes read + written over time.
    pub copy_gbps: Option<f64>,
    pub options: BenchOptions,
    pub rows: Vec<BenchRow>,
    pub summary: Vec<SizeSummary>,
}

/// `cuBLAS 130100; float2/float4 atomicAdd available`: what a run's numbers
/// depend on besides the device.
pub fn tools_line(runner: &SymvRunner<'_>, cublas: &Cublas) -> String {
    format!(
        "cuBLAS {}; float2/float4 atomicAdd {}",
        cublas
            .version()
            .map(|v| v.to_string())
            .unwrap_or_else(|e| e.to_string()),
        if runner.vector_atomics() {
            "available"
        } else {
            "not available"
        }
    )
}

/// Runs the benchmark; `log` receives one line per measurement.
pub fn run_bench(
    runner: &mut SymvRunner<'_>,
    cublas: &Cublas,
    options: &BenchOptions,
    log: &mut dyn FnMut(&str),
) -> Result<BenchReport> {
    let gpu = runner.gpu();
    let mut timer = DefaultStreamTimer::new(gpu)?;
    let copy_gbps = {
        let mut flusher = hone_gpu::timing::L2Flusher::new(gpu)?;
        hone_gpu::timing::memcpy_bandwidth(gpu, 1 << 30, &options.run.timing, Some(&mut flusher))
            .ok()
            .map(|c| c.gbps)
    };
    if let Some(g) = copy_gbps {
        log(&format!(
            "device-to-device copy: {g:.0} GB/s (read + write)"
        ));
    }
    let mut rows = Vec::new();
    let mut summary = Vec::new();
    for &precision in &options.precisions {
        for &uplo in &options.uplos {
            let picked = |n: usize| -> Vec<SymvKernel> {
                options
                    .picks
                    .iter()
                    .flatten()
                    .filter(|p| (p.precision, p.uplo, p.n) == (precision, uplo, n))
                    .map(Pick::kernel)
                    .collect()
            };
            let kernels: Vec<SymvKernel> = match &options.picks {
                Some(picks) => {
                    let mut all: Vec<SymvKernel> = Vec::new();
                    for k in picks
                        .iter()
                        .filter(|p| (p.precision, p.uplo) == (precision, uplo))
                        .map(Pick::kernel)
                    {
                        if !all.contains(&k) {
                            all.push(k);
                        }
                    }
                    all
                }
                None => candidates(precision)
                    .into_iter()
                    .map(|(a, c)| SymvKernel::new(precision, uplo, a, c))
                    .collect(),
            };
            runner.prepare_kernels(&kernels)?;
            for &n in &options.sizes {
                let first = rows.len();
                let at_n = if options.picks.is_some() {
                    picked(n)
                } else {
                    kernels.clone()
                };
                bench_size(
                    runner, cublas, &mut timer, options, precision, uplo, n, &at_n, &mut rows, log,
                )?;
                summary.push(summarise(&rows[first..], precision, uplo, n));
            }
            if options.picks.is_some() {
                check_at_sizes(runner, options, &kernels, &mut rows, log)?;
            }
        }
    }
    Ok(BenchReport {
        device: gpu.props().clone(),
        cublas_version: cublas.version().ok(),
        vector_atomics: runner.vector_atomics(),
        copy_gbps,
        options: options.clone(),
        rows,
        summary,
    })
}

/// Checks and times one kernel at size n, then cuBLAS `?symv` (the same
/// stored triangle) and `?gemv` (the full matrix) on the same buffers, each
/// checked first, as [`run_bench`] does at each size: the rows (hone's
/// first) and their summary.
pub fn compare_kernel(
    runner: &mut SymvRunner<'_>,
    cublas: &Cublas,
    run: &RunOptions,
    kernel: &SymvKernel,
    n: usize,
    log: &mut dyn FnMut(&str),
) -> Result<(Vec<BenchRow>, SizeSummary)> {
    let (precision, uplo) = (kernel.precision, kernel.uplo);
    let options = BenchOptions {
        sizes: vec![n],
        precisions: vec![precision],
        uplos: vec![uplo],
        run: run.clone(),
        sweep: false,
        picks: Some(vec![Pick {
            precision,
            uplo,
            n,
            algorithm: kernel.algorithm,
            config: kernel.config.clone(),
        }]),
        check_sizes: Vec::new(),
        picks_origin: None,
    };
    let mut timer = DefaultStreamTimer::new(runner.gpu())?;
    runner.prepare_kernels(std::slice::from_ref(kernel))?;
    let mut rows = Vec::new();
    bench_size(
        runner,
        cublas,
        &mut timer,
        &options,
        precision,
        uplo,
        n,
        std::slice::from_ref(kernel),
        &mut rows,
        log,
    )?;
    let summary = summarise(&rows, precision, uplo, n);
    Ok((rows, summary))
}

/// Writes `symv.md` (`md`), `symv.csv` and `symv.json` to `dir` (created
/// if missing); the paths written.
pub fn write_reports(
    dir: &std::path::Path,
    report: &BenchReport,
    md: &str,
) -> Result<Vec<std::path::PathBuf>> {
    let io = |path: &std::path::Path, source: std::io::Error| SymvError::Io {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let json = serde_json::to_string_pretty(report)
        .map_err(|e| io(&dir.join("symv.json"), std::io::Error::other(e)))?;
    let mut written = Vec::new();
    for (name, text) in [
        ("symv.md", md),
        ("symv.csv", &csv(report)),
        ("symv.json", &json),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

#[allow(clippy::too_many_arguments)]
fn bench_size(
    runner: &mut SymvRunner<'_>,
    cublas: &Cublas,
    timer: &mut DefaultStreamTimer,
    options: &BenchOptions,
    precision: Precision,
    uplo: Uplo,
    n: usize,
    kernels: &[SymvKernel],
    rows: &mut Vec<BenchRow>,
    log: &mut dyn FnMut(&str),
) -> Result<()> {
    let lda = runner.data(precision, uplo, n, &options.run)?.lda;
    let measure = |runner: &mut SymvRunner<'_>,
                   k: &SymvKernel,
                   rows: &mut Vec<BenchRow>,
                   log: &mut dyn FnMut(&str)|
     -> Result<Option<f64>> {
        let row = match runner.measure(k, &options.run)? {
            SymvOutcome::Valid(m) => BenchRow::from_measurement(&m, lda),
            SymvOutcome::Invalid { reason, .. } => {
                let mut r =
                    BenchRow::new(precision, uplo, n, lda, &format!("hone {}", k.algorithm));
                r.config = config_label(&k.config);
                r.status = format!("invalid: {reason}");
                r
            }
        };
        log(&row_line(&row));
        let t = row.ok().then(|| row.median_ms()).flatten();
        rows.push(row);
        Ok(t)
    };
    let mut best_atomic: Option<(f64, Config)> = None;
    for k in kernels {
        if let Some(t) = measure(runner, k, rows, log)? {
            if k.algorithm == Algorithm::Atomic && best_atomic.as_ref().is_none_or(|(b, _)| t < *b)
            {
                best_atomic = Some((t, k.config.clone()));
            }
        }
    }
    if options.sweep && options.picks.is_none() {
        // Two rounds of hill climbing: the neighbours of the fastest atomic
        // kernel so far, then of the fastest after them.
        let mut tried: Vec<SymvKernel> = kernels.to_vec();
        for _round in 0..2 {
            let Some((_, base)) = best_atomic.clone() else {
                break;
            };
            let extra: Vec<SymvKernel> = neighbours(precision, uplo, &base, runner.limits())
                .into_iter()
                .map(|c| SymvKernel::new(precision, uplo, Algorithm::Atomic, c))
                .filter(|k| !tried.contains(k))
                .collect();
            runner.prepare_kernels(&extra)?;
            for k in &extra {
                if let Some(t) = measure(runner, k, rows, log)? {
                    if best_atomic.as_ref().is_none_or(|(b, _)| t < *b) {
                        best_atomic = Some((t, k.config.clone()));
                    }
                }
            }
            tried.extend(extra);
            if best_atomic.as_ref().map(|(_, c)| c) == Some(&base) {
                break;
            }
        }
    }

    // cuBLAS SYMV on the same stored triangle.
    let elem = precision.size();
    let mut symv_row = BenchRow::new(precision, uplo, n, lda, "cublas symv");
    let check = runner.check_with(false, |d, alpha, beta| {
        // SAFETY: copy 0 of the problem's buffers.
        unsafe {
            cublas.symv(
                precision,
                uplo,
                d.n,
                alpha,
                d.matrix_ptr(0),
                d.lda,
                d.x_ptr(0),
                beta,
                d.y_ptr(0),
            )
        }
    })?;
    symv_row.relative_error = Some(check.relative());
    if !check.passed() {
        symv_row.status = format!("invalid: wrong result: {}", check.describe());
    } else {
        let d = runner.data_ref().expect("allocated above");
        symv_row.medians_ms = time_default_stream(timer, options, d.copies(), |c| {
            // SAFETY: copy c of the problem's buffers.
            unsafe {
                cublas.symv(
                    precision,
                    uplo,
                    n,
                    options.run.alpha,
                    d.matrix_ptr(c),
                    d.lda,
                    d.x_ptr(c),
                    options.run.beta,
                    d.y_ptr(c),
                )
            }
        })?;
        symv_row.gbps = symv_row.median_ms().map(|t| gbps(symv_bytes(n, elem), t));
    }
    log(&row_line(&symv_row));
    rows.push(symv_row);

    // cuBLAS GEMV on the full symmetric matrix.
    runner.fill_all(true)?;
    let mut gemv_row = BenchRow::new(precision, uplo, n, lda, "cublas gemv");
    let check = runner.check_with(true, |d, alpha, beta| {
        // SAFETY: copy 0 of the problem's buffers.
        unsafe {
            cublas.gemv(
                precision,
                d.n,
                alpha,
                d.matrix_ptr(0),
                d.lda,
                d.x_ptr(0),
                beta,
                d.y_ptr(0),
            )
        }
    })?;
    gemv_row.relative_error = Some(check.relative());
    if !check.passed() {
        gemv_row.status = format!("invalid: wrong result: {}", check.describe());
    } else {
        let d = runner.data_ref().expect("allocated above");
        gemv_row.medians_ms = time_default_stream(timer, options, d.copies(), |c| {
            // SAFETY: copy c of the problem's buffers.
            unsafe {
                cublas.gemv(
                    precision,
                    n,
                    options.run.alpha,
                    d.matrix_ptr(c),
                    d.lda,
                    d.x_ptr(c),
                    options.run.beta,
                    d.y_ptr(c),
                )
            }
        })?;
        gemv_row.gbps = gemv_row.median_ms().map(|t| gbps(gemv_bytes(n, elem), t));
    }
    log(&row_line(&gemv_row));
    rows.push(gemv_row);
    runner.fill_all(false)?;
    Ok(())
}

/// Checks (without real timing) every kernel at `options.check_sizes`;
/// one row each, implementation `check <algorithm>`.
fn check_at_sizes(
    runner: &mut SymvRunner<'_>,
    options: &BenchOptions,
    kernels: &[SymvKernel],
    rows: &mut Vec<BenchRow>,
    log: &mut dyn FnMut(&str),
) -> Result<()> {
    let quick = RunOptions {
        timing: hone_gpu::TimingOptions {
            warmup: 0,
            reps: 1,
            flush_l2: false,
            copies: Some(1),
            ..Default::default()
        },
        timed_runs: 1,
        check: true,
        ..options.run.clone()
    };
    for &n in &options.check_sizes {
        for k in kernels {
            let lda = runner.data(k.precision, k.uplo, n, &quick)?.lda;
            let mut row = BenchRow::new(
                k.precision,
                k.uplo,
                n,
                lda,
                &format!("check {}", k.algorithm),
            );
            row.config = config_label(&k.config);
            match runner.measure(k, &quick)? {
                SymvOutcome::Valid(m) => {
                    row.relative_error = m.check.as_ref().map(|c| c.relative())
                }
                SymvOutcome::Invalid { reason, .. } => row.status = format!("invalid: {reason}"),
            }
            log(&row_line(&row));
            rows.push(row);
        }
    }
    Ok(())
}

fn time_default_stream(
    timer: &mut DefaultStreamTimer,
    options: &BenchOptions,
    copies: usize,
    mut run: impl FnMut(usize) -> Result<()>,
) -> Result<Vec<f64>> {
    let mut medians = Vec::new();
    for _ in 0..options.run.timed_runs.max(1) {
        let samples = timer.time(&options.run.timing, copies, &mut run)?;
        let stats = Stats::from_samples(&samples)
            .ok_or_else(|| SymvError::Cublas("timings were not finite".to_string()))?;
        medians.push(stats.median);
    }
    Ok(medians)
}

/// The comparison at one size from that size's rows.
pub fn summarise(rows: &[BenchRow], precision: Precision, uplo: Uplo, n: usize) -> SizeSummary {
    let pick = |name: &str| {
        rows.iter()
            .find(|r| r.implementation == name && r.ok() && r.n == n)
            .cloned()
    };
    let best = rows
        .iter()
        .filter(|r| r.implementation.starts_with("hone") && r.ok() && r.n == n)
        .filter(|r| r.median_ms().is_some())
        .min_by(|a, b| {
            a.median_ms()
                .unwrap_or(f64::MAX)
                .total_cmp(&b.median_ms().unwrap_or(f64::MAX))
        })
        .cloned();
    let cublas_symv = pick("cublas symv");
    let speedup = match (&best, &cublas_symv) {
        (Some(b), Some(c)) => match (b.median_ms(), c.median_ms()) {
            (Some(tb), Some(tc)) if tb > 0.0 => Some(tc / tb),
            _ => None,
        },
        _ => None,
    };
    SizeSummary {
        precision,
        uplo,
        n,
        best,
        cublas_symv,
        cublas_gemv: pick("cublas gemv"),
        speedup,
    }
}

fn row_line(r: &BenchRow) -> String {
    let times = r
        .medians_ms
        .iter()
        .map(|t| format!("{t:.4}"))
        .collect::<Vec<_>>()
        .join("/");
    let regs = r
        .registers
        .map(|g| format!(" regs={g} local={}", r.local_bytes.unwrap_or(0)))
        .unwrap_or_default();
    format!(
        "{} {} n={:<6} {:<12} {} | {} ms | {} GB/s | err {}{} {}",
        r.precision.blas_prefix(),
        r.uplo.letter(),
        r.n,
        r.implementation,
        r.config,
        times,
        r.gbps
            .map(|g| format!("{g:.0}"))
            .unwrap_or_else(|| "-".into()),
        r.relative_error
            .map(|e| format!("{e:.2e}"))
            .unwrap_or_else(|| "-".into()),
        regs,
        if r.ok() { "" } else { &r.status }
    )
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map(|x| format!("{x:.digits$}"))
        .unwrap_or_else(|| "-".to_string())
}

/// The summary as markdown: one table per precision and storage.
pub fn markdown(report: &BenchReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# SYMV: hone against cuBLAS\n");
    let _ = writeln!(
        s,
        "Device: {}, cuBLAS {}. Device-to-device copy: {} GB/s (read + write).\n",
        crate::routine::report::device_line(&report.device),
        report
            .cublas_version
            .map(|v| v.to_string())
            .unwrap_or_else(|| "?".into()),
        opt(report.copy_gbps, 0)
    );
    let t = &report.options.run.timing;
    let _ = writeln!(
        s,
        "Times: median of {} event-timed runs after {} warm-ups{}, buffers rotated \
         past twice the L2; each implementation timed {} times (second median in \
         parentheses). GB/s: SYMV counts `{SYMV_BYTES}` bytes, GEMV `{GEMV_BYTES}`. \
         Every implementation was checked against the CPU reference on fresh random \
         inputs first (beta = 0 on a NaN-poisoned y, and beta != 0).\n",
        t.reps,
        t.warmup,
        t.flush_phrase(),
        report.options.run.timed_runs
    );
    let _ = writeln!(
        s,
        "{}\n",
        match (&report.options.picks, &report.options.picks_origin) {
            (Some(p), Some(origin)) => format!(
                "Kernels: one per size, chosen in advance by {origin} ({} picks), measured \
                 here: no selection on this run's timings.",
                p.len()
            ),
            (Some(p), None) => format!(
                "Kernels: one per size, fixed in advance ({} picks, the fastest of an earlier \
                 sweep), re-measured here: no selection on this run's timings.",
                p.len()
            ),
            (None, _) => "Kernels: the fastest per size of the candidates and their hill-climbing \
                     neighbours, all measured in this run (a best-of selection: compare the \
                     second median)."
                .to_string(),
        }
    );
    let checks: Vec<&BenchRow> = report
        .rows
        .iter()
        .filter(|r| r.implementation.starts_with("check "))
        .collect();
    if !checks.is_empty() {
        let failed: Vec<String> = checks
            .iter()
            .filter(|r| !r.ok())
            .map(|r| {
                format!(
                    "{} {} n={} {}: {}",
                    r.precision, r.uplo, r.n, r.config, r.status
                )
            })
            .collect();
        let worst = checks
            .iter()
            .filter_map(|r| {
                r.relative_error
                    .map(|e| e / super::reference::tolerance(r.precision, r.n))
            })
            .fold(0.0f64, f64::max);
        let _ = writeln!(
            s,
            "Every picked kernel was also checked at N = {:?}: {} of {} checks passed \
             (largest error {:.2} of its bound){}.\n",
            report.options.check_sizes,
            checks.len() - failed.len(),
            checks.len(),
            worst,
            if failed.is_empty() {
                String::new()
            } else {
                format!("; failed: {}", failed.join("; "))
            }
        );
    }
    for &precision in &report.options.precisions {
        for &uplo in &report.options.uplos {
            let _ = writeln!(
                s,
                "## {}SYMV, {uplo} storage\n",
                precision.blas_prefix().to_uppercase()
            );
            s.push_str(&summary_table(report, precision, uplo));
            let _ = writeln!(s);
        }
    }
    s
}

/// One (precision, storage)'s summary as a markdown table: a row per size
/// of `report.summary`, in its order.
pub fn summary_table(report: &BenchReport, precision: Precision, uplo: Uplo) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| N | hone ms | hone GB/s | cuBLAS SYMV ms | cuBLAS SYMV GB/s | speedup | \
         cuBLAS GEMV GB/s | hone / GEMV GB/s | hone kernel |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for sm in report
        .summary
        .iter()
        .filter(|m| m.precision == precision && m.uplo == uplo)
    {
        let times = |r: &Option<BenchRow>| match r {
            Some(r) => match r.medians_ms.as_slice() {
                [a, b, ..] => format!("{a:.4} ({b:.4})"),
                [a] => format!("{a:.4}"),
                [] => "-".into(),
            },
            None => "-".into(),
        };
        let g = |r: &Option<BenchRow>| opt(r.as_ref().and_then(|r| r.gbps), 0);
        let vs_gemv = match (&sm.best, &sm.cublas_gemv) {
            (Some(b), Some(gm)) => match (b.gbps, gm.gbps) {
                (Some(x), Some(y)) if y > 0.0 => format!("{:.2}", x / y),
                _ => "-".into(),
            },
            _ => "-".into(),
        };
        let kernel = sm
            .best
            .as_ref()
            .map(|b| {
                format!(
                    "{} {}",
                    b.implementation.trim_start_matches("hone "),
                    b.config
                )
            })
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            sm.n,
            times(&sm.best),
            g(&sm.best),
            times(&sm.cublas_symv),
            g(&sm.cublas_symv),
            opt(sm.speedup, 2),
            g(&sm.cublas_gemv),
            vs_gemv,
            kernel
        );
    }
    s
}

/// Every row as CSV.
pub fn csv(report: &BenchReport) -> String {
    let mut s = String::from(
        "precision,uplo,n,lda,implementation,config,status,median_ms,second_median_ms,gbps,\
         relative_error,registers,local_bytes,grid,block,shared_mem\n",
    );
    let o = |v: Option<String>| v.unwrap_or_default();
    for r in &report.rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.precision,
            r.uplo,
            r.n,
            r.lda,
            r.implementation,
            r.config,
            csv_field(&r.status),
            o(r.medians_ms.first().map(|t| format!("{t:.6}"))),
            o(r.medians_ms.get(1).map(|t| format!("{t:.6}"))),
            o(r.gbps.map(|g| format!("{g:.1}"))),
            o(r.relative_error.map(|e| format!("{e:.3e}"))),
            o(r.registers.map(|v| v.to_string())),
            o(r.local_bytes.map(|v| v.to_string())),
            o(r.grid.map(|v| v.to_string())),
            o(r.block.map(|v| v.to_string())),
            o(r.shared_mem.map(|v| v.to_string())),
        );
    }
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\"").replace('\n', " "))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An sm_90 device as the reports show it, named `name`.
    #[test]
    fn every_candidate_is_valid_on_an_h100() {
        let limits = DeviceLimits::h100_sxm();
        for p in Precision::ALL {
            for (a, c) in candidates(p) {
                let t = symv_template(p, Uplo::Lower, a);
                assert!(
                    t.is_valid(&c, &limits).unwrap(),
                    "{p} {a} {}",
                    config_label(&c)
                );
            }
        }
    }

    #[test]
    fn neighbours_move_one_parameter_and_stay_valid() {
        let limits = DeviceLimits::h100_sxm();
        let base = atomic([128, 16, 2, 0, 2, 2, 8, 0, 1, 0]);
        let t = symv_template(Precision::Double, Uplo::Upper, Algorithm::Atomic);
        let near = neighbours(Precision::Double, Uplo::Upper, &base, &limits);
        assert!(near.len() >= 8, "{}", near.len());
        for c in &near {
            assert!(t.is_valid(c, &limits).unwrap());
            let changed = c.iter().filter(|(k, v)| base[*k] != **v).count();
            assert_eq!(changed, 1, "{}", config_label(c));
        }
    }

    fn row(imp: &str, n: usize, ms: Option<f64>, status: &str) -> BenchRow {
        let mut r = BenchRow::new(Precision::Double, Uplo::Lower, n, n, imp);
        r.medians_ms = ms.into_iter().collect();
        r.gbps = ms.map(|t| gbps(symv_bytes(n, 8), t));
        r.status = status.to_string();
        r
    }

    #[test]
    fn committed_selection_is_one_valid_kernel_per_measured_size() {
        let picks: Vec<Pick> = serde_json::from_str(include_str!(
            "../../../../bench/results/symv/selection.json"
        ))
        .unwrap();
        let limits = DeviceLimits::h100_sxm();
        let sizes = BenchOptions::default().sizes;
        let mut seen = std::collections::BTreeSet::new();
        for p in &picks {
            let t = symv_template(p.precision, p.uplo, p.algorithm);
            assert!(t.is_valid(&p.config, &limits).unwrap(), "{p:?}");
            assert!(sizes.contains(&p.n), "{p:?}");
            assert!(
                seen.insert((p.precision, p.uplo, p.n)),
                "two picks for {p:?}"
            );
        }
        assert_eq!(seen.len(), 2 * 2 * sizes.len());
    }

    #[test]
    fn config_labels_parse_back() {
        let c = atomic([64, 8, 8, 0, 2, 1, 32, 0, 0, 1]);
        assert_eq!(parse_config_label(&config_label(&c)).unwrap(), c);
        assert!(parse_config_label("UX=8 NP").is_err());
        assert!(parse_config_label("UX=eight").is_err());
    }

    #[test]
    fn summary_takes_the_fastest_valid_hone_kernel() {
        let rows = vec![
            row("hone atomic", 4096, Some(0.5), "ok"),
            row("hone atomic", 4096, Some(0.1), "invalid: wrong result"),
            row("hone lu", 4096, Some(0.4), "ok"),
            row("cublas symv", 4096, Some(0.8), "ok"),
            row("cublas gemv", 4096, Some(0.9), "ok"),
        ];
        let s = summarise(&rows, Precision::Double, Uplo::Lower, 4096);
        assert_eq!(s.best.as_ref().unwrap().implementation, "hone lu");
        assert!((s.speedup.unwrap() - 2.0).abs() < 1e-12);
        assert!(s.cublas_gemv.is_some());
        let none = summarise(&rows[1..2], Precision::Double, Uplo::Lower, 4096);
        assert!(none.best.is_none() && none.speedup.is_none());
    }

    #[test]
    fn reports_hold_every_row_and_the_byte_formulas() {
        let mut rows = vec![
            row("hone atomic", 1024, Some(0.02), "ok"),
            row("cublas symv", 1024, Some(0.03), "ok"),
            row("hone atomic", 1024, None, "invalid: compile error (x), y"),
        ];
        rows[0].config = "BLOCK_SIZE=128 UX=16".into();
        let props = crate::routine::test_props("Test GPU");
        let options = BenchOptions {
            sizes: vec![1024],
            precisions: vec![Precision::Double],
            uplos: vec![Uplo::Lower],
            ..Default::default()
        };
        let report = BenchReport {
            device: props,
            cublas_version: Some(130000),
            vector_atomics: true,
            copy_gbps: Some(3000.0),
            summary: vec![summarise(&rows, Precision::Double, Uplo::Lower, 1024)],
            rows,
            options,
        };
        let md = markdown(&report);
        assert!(md.contains("## DSYMV, lower storage"), "{md}");
        assert!(md.contains(SYMV_BYTES));
        assert!(md.contains("| 1024 | 0.0200 |"), "{md}");
        assert!(md.contains("| 1.50 |"), "{md}");
        let c = csv(&report);
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(
            lines[3].contains("\"invalid: compile error (x), y\""),
            "{}",
            lines[3]
        );
        let columns = lines[0].split(',').count();
        assert_eq!(lines[1].split(',').count(), columns);

        // The fastest kernel becomes the pick of its size; a later run on
        // the picks says so, and counts its extra checks.
        let picks = picks_from_report(&report).unwrap();
        assert_eq!(picks.len(), 1);
        assert_eq!(picks[0].algorithm, Algorithm::Atomic);
        assert_eq!(picks[0].n, 1024);
        assert_eq!(picks[0].config, config([("BLOCK_SIZE", 128), ("UX", 16)]));
        let mut later = report.clone();
        later.options.picks = Some(picks);
        later.options.check_sizes = vec![1000];
        let mut pass = row("check atomic", 1000, None, "ok");
        pass.relative_error =
            Some(0.5 * crate::symv::reference::tolerance(Precision::Double, 1000));
        later.rows.push(pass);
        later
            .rows
            .push(row("check atomic", 1000, None, "invalid: wrong result"));
        let md = markdown(&later);
        assert!(md.contains("fixed in advance (1 picks"), "{md}");
        assert!(
            md.contains("1 of 2 checks passed (largest error 0.50 of its bound)"),
            "{md}"
        );
    }
}
